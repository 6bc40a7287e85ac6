// SPDX-License-Identifier: MIT
// Base of the inspector's table models: fixed columns over one SessionSnapshot, then the columns a
// session brings (trailingColumns: one per hardware counter in the dispatch and pass tables). Subclasses
// give a raw value and a display text per cell; the base maps them to roles (display, sort/CSV, alignment).
#pragma once

#include "model/SessionSnapshot.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace rs::app {

class SessionTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    /// `headers`: column titles; `tips`: header tooltips (may be shorter).
    SessionTableModel(const QStringList& headers, const QStringList& tips, QObject* parent);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    SessionSnapshot snapshot() const { return snapshot_; }

  protected:
    /// Raw value of a cell (number or text): sorting and CSV.
    virtual QVariant value(int row, int column) const = 0;
    /// Display text of a cell.
    virtual QString text(int row, int column) const = 0;
    /// Other roles (agent, code, filter text, colours); default none.
    virtual QVariant extra(int row, int column, int role) const;
    /// Installs `snapshot` with `rows` rows. With `append`, rows beyond the current count are inserted
    /// and the others refreshed in place (a live session growing); otherwise, or when the trailing columns
    /// of `snapshot` differ from those shown, the model is reset.
    void install(const SessionSnapshot& snapshot, int rows, bool append);
    /// Titles and header tooltips of the columns after the fixed ones for `snapshot` (default: none).
    /// Their cells come from value() and text() with columns from fixedColumns() on.
    virtual QPair<QStringList, QStringList> trailingColumns(const SessionSnapshot& snapshot) const;
    /// Number of fixed columns (the headers given to the constructor).
    int fixedColumns() const { return int(headers_.size()); }
    /// Whether `dispatchRow` is a row of the dispatches of `snapshot` (never for a null snapshot or -1).
    static bool isDispatchRow(const SessionSnapshot& snapshot, int dispatchRow);

    SessionSnapshot snapshot_;

  private:
    QStringList headers_, tips_;
    QStringList trailing_, trailing_tips_; ///< trailingColumns() of the snapshot shown
    int rows_ = 0;
};

} // namespace rs::app
