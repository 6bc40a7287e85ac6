// SPDX-License-Identifier: MIT
// The view of one job's session files (one per rank; MainWindow's "Job (N ranks)" tab). Its Ranks page shows
// every rank from the job's summary (JobSummary: totals per rank, charts that turn from one bar per rank into
// a box per figure over the ranks when there are more than kMaxBarRanks, the highest and lowest ranks
// named) and its Kernels page every kernel over the ranks. A host filter narrows both. The other pages list
// rows (processes, agents, dispatches with their regions, passes and restore skips, allocations, ...) with
// a "Rank" column, of the ranks selected in the Ranks table or typed ("0-3,17"), else of every rank shown
// while they hold at most detailBudget() dispatches: memory grows with what is listed, not with the job.
// Files are read on a reader thread (JobReader).
#pragma once

#include "model/JobSummary.h"
#include "model/MergedSession.h"
#include "model/SessionError.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;

namespace rs::app {

class AgentSummaryModel;
class AllocationTableModel;
class AsyncCopyTableModel;
class ChartAdapter;
class DispatchTableModel;
class JobKernelTableModel;
class JobReader;
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
    /// Ranks beyond which the per-rank charts show a box per figure instead of a bar per rank.
    static constexpr int kMaxBarRanks = 16;

    /// Reads the summary of `paths` on the reader thread, shows it, then (within detailBudget()) the rows of
    /// every rank; emits loaded() once both are shown, or failed().
    void open(const QStringList& paths);
    /// Shows `job` (totals, kernels, charts, problems, host filter) and lists the rows of the ranks
    /// selected (reading them on the reader thread when they are not those listed).
    void setJob(const JobSummary& job);
    /// Shows `rows` in the tables (the rows of the ranks to list, MergedSession::load of their files).
    void setRows(const MergedSession& rows);
    const JobSummary& job() const { return job_; }
    /// The rows listed (the selected ranks' files merged; null when none are listed).
    const MergedSession& merged() const { return merged_; }
    /// Dispatches beyond which the rows of an unselected job are not listed (default 100,000).
    qint64 detailBudget() const { return detail_budget_; }
    void setDetailBudget(qint64 dispatches) { detail_budget_ = dispatches; }
    /// "All hosts" (data: none), then each host (data: its name), in order of first appearance.
    QComboBox* hostFilter() const { return host_; }
    /// The ranks whose rows are listed, as typed or selected in the Ranks table ("" or "all": every rank
    /// shown); a text parseRanks refuses is marked and ignored.
    QLineEdit* rankSelection() const { return rank_selection_; }
    /// Selects ranks `ranks` (empty: none, meaning every rank shown), as the rank field does.
    void selectRanks(const QVector<int>& ranks);
    /// Files (job indices) shown: those of the host filter.
    QVector<int> shownFiles() const { return shown_; }
    /// Files whose rows are listed (or would be, within the budget).
    QVector<int> listedFiles() const;
    /// Says why rows are not listed (over the budget) or that they are being read; hidden otherwise.
    QLabel* rowsNotice() const { return rows_notice_; }
    /// The job's problems (two files of one rank); hidden when there are none.
    QLabel* problems() const { return problems_; }
    QTabWidget* pages() const { return pages_; }
    RankTotalsModel* totalsModel() const { return totals_; }
    JobKernelTableModel* kernelsModel() const { return kernels_; }
    /// The Ranks table.
    QTableView* ranksView() const;
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
    /// Under each chart with more than kMaxBarRanks ranks: its highest and lowest ranks; else hidden.
    QList<QLabel*> chartExtremes() const { return extremes_; }

  signals:
    void loaded();
    /// Rows were listed (after a selection or a filter read them).
    void rowsListed();
    void failed(const rs::app::SessionError& error);
    /// A rank's file was asked for in a tab of its own (double-click in the Ranks table).
    void openRankRequested(const QString& path);

  protected:
    /// A palette change (a theme chosen) recolours the banners and the rank field.
    void changeEvent(QEvent* event) override;

  private:
    /// The rank field's style when its text is refused (the palette's "bad" text colour).
    QString badRankStyle() const;
    void applyHostFilter();
    void applyRankSelection();
    /// Lists the rows of listedFiles(): reads them unless already listed, or says they are over the budget.
    void listRows();
    void updateCharts();

    JobSummary job_;
    MergedSession merged_;
    JobReader* reader_;
    int rows_request_ = 0; ///< the JobReader::loadRows whose result is awaited (0: none)
    bool initial_ = false; ///< loaded() not emitted yet for the open() under way
    qint64 detail_budget_ = 100'000;
    QVector<int> shown_;    ///< files of the host filter
    QVector<int> selected_; ///< ranks selected (empty: every rank shown)
    QComboBox* host_;
    QLabel* host_label_ = nullptr;
    QLineEdit* rank_selection_;
    QLabel* status_;
    QLabel* rows_notice_;
    QLabel* problems_;
    QTabWidget* pages_;
    RankTotalsModel* totals_;
    JobKernelTableModel* kernels_;
    TablePanel* totals_panel_;
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
    QList<QLabel*> extremes_;
};

} // namespace rs::app
