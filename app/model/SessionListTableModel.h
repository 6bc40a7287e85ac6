// Base of the table models whose rows are one list of the whole session (dispatches, allocations, module
// variables, warnings, async copies): shows a snapshot and keeps the rows of the same file.
#pragma once

#include "model/SessionTableModel.h"

namespace rs::app {

class SessionListTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    /// Rows of the model in a loaded session (the size of its list).
    using RowCount = int (*)(const SessionData& session);
    /// `headers`, `tips`: as SessionTableModel; `rows`: the size of the list shown.
    SessionListTableModel(const QStringList& headers, const QStringList& tips, RowCount rows,
                          QObject* parent);
    /// Shows `snapshot`; rows of the same file are kept (a live session only grows).
    void setSnapshot(const SessionSnapshot& snapshot);

  private:
    RowCount rows_;
};

} // namespace rs::app
