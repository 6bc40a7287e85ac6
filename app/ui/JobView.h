// SPDX-License-Identifier: MIT
// The merged view of one job's session files (one per rank, MainWindow's "Job (N ranks)" tab): a rank
// filter ("All ranks" / "Rank N") over every table, the per-rank totals with grouped bar charts per rank,
// and every table a session's own tab has (processes; the per-agent summary; dispatches with the selected
// dispatch's snapshot regions, passes and restore skips; allocations, module variables, async copies, restore
// misses, the pass-to-pass spread list, warnings), each with a last column "Rank". The files are loaded on a
// reader thread (MergedSessionReader).
#pragma once

#include "model/MergedSession.h"
#include "model/SessionError.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QTabWidget;

namespace rs::app {

class AgentSummaryModel;
class AllocationTableModel;
class AsyncCopyTableModel;
class ChartAdapter;
class DispatchTableModel;
class MergedSessionReader;
class ModuleVariableTableModel;
class PassSpreadModel;
class PassTableModel;
class ProcessTableModel;
class RankColumnModel;
class RankTotalsModel;
class RegionTableModel;
class RestoreMissTableModel;
class RestoreSkipTableModel;
class TablePanel;
class WarningTableModel;

class JobView : public QWidget {
    Q_OBJECT
  public:
    explicit JobView(QWidget* parent = nullptr);
    ~JobView() override;
    /// Loads `paths` (MergedSession::load) on the reader thread; shows them when loaded (loaded()), or
    /// emits failed().
    void open(const QStringList& paths);
    /// Shows `merged` (tables, totals, charts, the merge's problems).
    void setMerged(const MergedSession& merged);
    const MergedSession& merged() const { return merged_; }
    /// "All ranks" (data: none), then "Rank N" (data: N) per distinct rank, ascending.
    QComboBox* rankFilter() const { return rank_; }
    /// The merge's problems (two files of one rank); hidden when there are none.
    QLabel* problems() const { return problems_; }
    QTabWidget* pages() const { return pages_; }
    RankTotalsModel* totalsModel() const { return totals_; }
    /// Every table with a rank column (see rankTableNames()).
    QList<RankColumnModel*> rankTables() const { return tables_; }
    /// Object names of rankTables(), same order: jobProcesses, jobAgents, jobDispatches, jobRegions,
    /// jobPasses, jobRestoreSkips, jobAllocations, jobModuleVariables, jobAsyncCopies, jobRestoreMisses,
    /// jobPassSpread, jobWarnings.
    QStringList rankTableNames() const { return table_names_; }
    /// The table named `name` (rankTableNames()), or nullptr.
    RankColumnModel* rankTable(const QString& name) const;
    RankColumnModel* dispatches() const { return rankTable(QStringLiteral("jobDispatches")); }
    /// The panel showing rank table `name`.
    TablePanel* panel(const QString& name) const;
    /// Shows regions, passes and restore skips of merged dispatch row `row` (-1: none), as a click in the
    /// dispatches table does.
    void selectDispatch(int row);
    /// The per-rank charts: kernel time per pass (median) by kernel, snapshot and restore time, bytes
    /// snapshotted and restored, declined dispatches by reason, dispatches replayed and declined.
    QList<ChartAdapter*> charts() const { return charts_; }

  signals:
    void loaded();
    void failed(const rs::app::SessionError& error);
    /// A rank's file was asked for in a tab of its own (double-click in the Ranks table).
    void openRankRequested(const QString& path);

  private:
    void applyRankFilter();
    void updateCharts();

    MergedSession merged_;
    MergedSessionReader* reader_;
    QComboBox* rank_;
    QLabel* status_;
    QLabel* problems_;
    QTabWidget* pages_;
    RankTotalsModel* totals_;
    ProcessTableModel* process_source_;
    AgentSummaryModel* agent_source_;
    DispatchTableModel* dispatch_source_;
    RegionTableModel* region_source_;
    PassTableModel* pass_source_;
    RestoreSkipTableModel* skip_source_;
    AllocationTableModel* allocation_source_;
    ModuleVariableTableModel* variable_source_;
    AsyncCopyTableModel* copy_source_;
    RestoreMissTableModel* miss_source_;
    PassSpreadModel* spread_source_;
    WarningTableModel* warning_source_;
    QList<RankColumnModel*> tables_;
    QStringList table_names_;
    QList<TablePanel*> panels_;
    QList<ChartAdapter*> charts_;
};

} // namespace rs::app
