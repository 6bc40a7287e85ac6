// SPDX-License-Identifier: MIT
// Base of the table models whose rows are one list of the whole session (dispatches, allocations, module
// variables, warnings, async copies): shows a snapshot and keeps the rows of the same file. Every such
// list has a last column "Process" (the pid of the process that recorded the row: shown, sorted by and
// exported) and answers ProcessRole (the process index) on every column.
#pragma once

#include "model/SessionTableModel.h"

namespace rs::app {

class SessionListTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    /// Rows of the model in a loaded session (the size of its list).
    using RowCount = int (*)(const SessionData& session);
    /// Process index (1-based) of row `row` of the list.
    using RowProcess = int (*)(const SessionData& session, int row);
    /// `headers`, `tips`: as SessionTableModel (the process column is appended); `rows`: the size of the
    /// list shown; `process`: the process of a row.
    SessionListTableModel(const QStringList& headers, const QStringList& tips, RowCount rows,
                          RowProcess process, QObject* parent);
    /// Shows `snapshot`; rows of the same file are kept (a live session only grows).
    void setSnapshot(const SessionSnapshot& snapshot);
    /// Index of the appended "Process" column.
    int processColumn() const { return process_column_; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    RowCount rows_;
    RowProcess process_;
    int process_column_;
};

} // namespace rs::app
