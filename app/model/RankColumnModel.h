// SPDX-License-Identifier: MIT
// A table of the merged job view: the rows of a session table model over a MergedSession, with a last
// column "Rank" (from each row's ProcessRole) and a rank filter. The source must answer ProcessRole on
// column 0 (every SessionListTableModel does). Follows the source's changes as they are announced (rows
// inserted, removed and changed map to the same change of the rows shown; a reset, layout change, move or
// column change of the source resets this model).
#pragma once

#include "model/MergedSession.h"

#include <QAbstractTableModel>

#include <optional>
#include <utility>
#include <vector>

namespace rs::app {

class RankColumnModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    /// Shows `source` (not owned; must outlive this model) with ranks from `merged`.
    RankColumnModel(QAbstractItemModel* source, const MergedSession& merged, QObject* parent = nullptr);
    /// Takes the ranks from `merged` (model reset; the source's rows are read again).
    void setMerged(const MergedSession& merged);
    /// Only the rows of rank `rank` (nullopt: every rank). Model reset.
    void setRankFilter(std::optional<int> rank);
    std::optional<int> rankFilter() const { return rank_; }
    /// Process (1-based) of the rows whose source answers no ProcessRole: the tables of one dispatch
    /// (regions, passes, restore skips), whose rows all belong to the dispatch's process. Model reset.
    void setDefaultProcess(int process);
    /// Index of the "Rank" column (the source's column count).
    int rankColumn() const;
    /// Source row of row `row`.
    int sourceRow(int row) const { return rows_[std::size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// The source's data; on the rank column: the rank (DisplayRole text, SortRole number).
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    void rebuild();
    /// Whether source row `sourceRow` is of the rank filtered for (always without a filter).
    bool accepts(int sourceRow) const;
    /// Process of source row `sourceRow` (its ProcessRole, else the default process).
    int processOf(int sourceRow) const;
    void sourceRowsInserted(const QModelIndex& parent, int first, int last);
    void sourceRowsAboutToBeRemoved(const QModelIndex& parent, int first, int last);
    void sourceRowsRemoved(const QModelIndex& parent, int first, int last);
    void sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                           const QList<int>& roles);

    QAbstractItemModel* source_; ///< not owned, never null
    MergedSession merged_;
    std::optional<int> rank_;
    int default_process_ = 0;
    int columns_ = 0;                         ///< source columns at the last reset
    std::vector<int> rows_;                   ///< source rows shown, ascending
    std::pair<int, int> removing_ = {-1, -1}; ///< rows [first, second) being removed (-1: none)
};

} // namespace rs::app
