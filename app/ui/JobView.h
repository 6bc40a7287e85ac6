// SPDX-License-Identifier: MIT
// The merged view of one job's session files (one per rank, MainWindow's "Job (N ranks)" tab): a rank
// filter ("All ranks" / "Rank N") over every table, the per-rank totals with a chart per figure, and the
// dispatches, allocations and warnings of every rank, each table with a last column "Rank".
#pragma once

#include "model/MergedSession.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QTabWidget;

namespace rs::app {

class AllocationTableModel;
class ChartAdapter;
class DispatchTableModel;
class RankColumnModel;
class RankTotalsModel;
class TablePanel;
class WarningTableModel;

class JobView : public QWidget {
    Q_OBJECT
  public:
    explicit JobView(QWidget* parent = nullptr);
    /// Shows `merged` (tables, totals, charts).
    void setMerged(const MergedSession& merged);
    const MergedSession& merged() const { return merged_; }
    /// "All ranks" (data: none), then "Rank N" (data: N) per file.
    QComboBox* rankFilter() const { return rank_; }
    QTabWidget* pages() const { return pages_; }
    RankTotalsModel* totalsModel() const { return totals_; }
    /// The tables with a rank column: dispatches, allocations, warnings.
    QList<RankColumnModel*> rankTables() const { return tables_; }
    RankColumnModel* dispatches() const { return tables_.value(0); }
    /// The per-rank charts (dispatches, replayed, declined, snapshot MiB, restored MiB, snapshot ms,
    /// restore ms).
    QList<ChartAdapter*> charts() const { return charts_; }

  private:
    void applyRankFilter();
    void updateCharts();

    MergedSession merged_;
    QComboBox* rank_;
    QTabWidget* pages_;
    RankTotalsModel* totals_;
    DispatchTableModel* dispatch_source_;
    AllocationTableModel* allocation_source_;
    WarningTableModel* warning_source_;
    QList<RankColumnModel*> tables_;
    QList<ChartAdapter*> charts_;
    QList<int> chart_columns_;
};

} // namespace rs::app
