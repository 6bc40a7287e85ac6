// SPDX-License-Identifier: MIT
#include "ui/JobView.h"

#include "model/AgentSummaryModel.h"
#include "model/AllocationTableModel.h"
#include "model/AsyncCopyTableModel.h"
#include "model/DispatchTableModel.h"
#include "model/MergedSessionReader.h"
#include "model/ModelRoles.h"
#include "model/ModuleVariableTableModel.h"
#include "model/PassSpreadModel.h"
#include "model/PassTableModel.h"
#include "model/ProcessTableModel.h"
#include "model/RankColumnModel.h"
#include "model/RankTotalsModel.h"
#include "model/RegionTableModel.h"
#include "model/RestoreMissTableModel.h"
#include "model/RestoreSkipTableModel.h"
#include "model/SessionFilterProxyModel.h"
#include "model/WarningTableModel.h"
#include "ui/ChartAdapter.h"
#include "ui/TablePanel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace rs::app {

namespace {

/// The chart of each RankChart of the Ranks page: title, y axis title, y unit, what shows without data.
struct ChartDef {
    const char* title;
    const char* yTitle;
    ChartAdapter::Unit unit;
    const char* empty;
};
const ChartDef kChartDefs[] = {
    {"Kernel time per pass (median) per rank, by kernel", "kernel time", ChartAdapter::Unit::time,
     "no timed passes"},
    {"Snapshot and restore time per rank", "time", ChartAdapter::Unit::time, "no snapshots"},
    {"Bytes snapshotted and restored per rank", "bytes", ChartAdapter::Unit::bytes, "no snapshots"},
    {"Declined dispatches per rank, by reason", "dispatches", ChartAdapter::Unit::count, "nothing declined"},
    {"Dispatches per rank", "dispatches", ChartAdapter::Unit::count, "no dispatches"},
};

} // namespace

JobView::JobView(QWidget* parent)
    : QWidget(parent), reader_(new MergedSessionReader(this)), rank_(new QComboBox(this)),
      status_(new QLabel(this)), problems_(new QLabel(this)), pages_(new QTabWidget(this)),
      totals_(new RankTotalsModel(this)), process_source_(new ProcessTableModel(this)),
      agent_source_(new AgentSummaryModel(this)), dispatch_source_(new DispatchTableModel(this)),
      region_source_(new RegionTableModel(this)), pass_source_(new PassTableModel(this)),
      skip_source_(new RestoreSkipTableModel(this)), allocation_source_(new AllocationTableModel(this)),
      variable_source_(new ModuleVariableTableModel(this)), copy_source_(new AsyncCopyTableModel(this)),
      miss_source_(new RestoreMissTableModel(this)), spread_source_(new PassSpreadModel(this)),
      warning_source_(new WarningTableModel(this)) {
    rank_->setObjectName(QStringLiteral("jobRankFilter"));
    problems_->setObjectName(QStringLiteral("jobProblems"));
    problems_->setWordWrap(true);
    problems_->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 4px; }"));
    problems_->hide();
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Rank:"), this));
    top->addWidget(rank_);
    top->addWidget(status_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(problems_);
    layout->addWidget(pages_, 1);

    // Totals per rank, with the grouped charts per rank below them.
    auto* totalsPage = new QWidget(this);
    auto* totalsLayout = new QVBoxLayout(totalsPage);
    auto* totalsPanel = new TablePanel(totals_, QStringLiteral("rankTotals"), totalsPage);
    totalsLayout->addWidget(totalsPanel, 1);
    // A rank's own tab on demand: a job of hundreds of ranks opens as this one view.
    totalsPanel->view()->setToolTip(tr("Double-click a rank to open its file in a tab of its own"));
    connect(totalsPanel->view(), &QAbstractItemView::doubleClicked, this,
            [this, totalsPanel](const QModelIndex& i) {
                const QModelIndex source = totalsPanel->proxy()->mapToSource(i);
                const QString path =
                    totals_->index(source.row(), RankTotalsModel::File).data(SortRole).toString();
                if (!path.isEmpty()) {
                    emit openRankRequested(path);
                }
            });
    auto* scroll = new QScrollArea(totalsPage);
    scroll->setWidgetResizable(true);
    auto* chartArea = new QWidget(scroll);
    auto* grid = new QGridLayout(chartArea);
    int i = 0;
    for (const ChartDef& d : kChartDefs) {
        auto* chart = new ChartAdapter(tr(d.title), tr("rank"), tr(d.yTitle), chartArea);
        chart->setUnits(ChartAdapter::Unit::count, 1, d.unit, 1);
        chart->setMinimumHeight(300);
        grid->addWidget(chart, i / 2, i % 2);
        charts_ << chart;
        ++i;
    }
    scroll->setWidget(chartArea);
    totalsLayout->addWidget(scroll, 2);
    pages_->addTab(totalsPage, tr("Ranks"));

    auto addTable = [this](QAbstractItemModel* source, const QString& name, QWidget* owner) {
        auto* model = new RankColumnModel(source, merged_, this);
        auto* panel = new TablePanel(model, name, owner);
        tables_ << model;
        table_names_ << name;
        panels_ << panel;
        return panel;
    };
    pages_->addTab(addTable(process_source_, QStringLiteral("jobProcesses"), this), tr("Processes"));
    // One row per agent of each process of each rank (a session's Summary page has its own agents).
    pages_->addTab(addTable(agent_source_, QStringLiteral("jobAgents"), this), tr("Agents"));

    // Dispatches, with the selected dispatch's regions, passes and restore skips below (as on a
    // session's Dispatches page).
    auto* split = new QSplitter(Qt::Vertical, this);
    TablePanel* dispatchPanel = addTable(dispatch_source_, QStringLiteral("jobDispatches"), split);
    dispatchPanel->addTextFilter(tr("Filter by kernel (substring or regex)"));
    split->addWidget(dispatchPanel);
    auto* detail = new QTabWidget(split);
    detail->addTab(addTable(region_source_, QStringLiteral("jobRegions"), detail), tr("Snapshot regions"));
    detail->addTab(addTable(pass_source_, QStringLiteral("jobPasses"), detail), tr("Passes"));
    detail->addTab(addTable(skip_source_, QStringLiteral("jobRestoreSkips"), detail), tr("Restore skips"));
    split->addWidget(detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    pages_->addTab(split, tr("Dispatches"));
    connect(dispatchPanel->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, dispatchPanel](const QModelIndex& current) {
                const QModelIndex rankRow = dispatchPanel->proxy()->mapToSource(current);
                selectDispatch(rankRow.isValid() ? dispatches()->sourceRow(rankRow.row()) : -1);
            });

    const struct {
        QAbstractItemModel* source;
        const char* name;
        const char* title;
    } lists[] = {{allocation_source_, "jobAllocations", "Allocations"},
                 {variable_source_, "jobModuleVariables", "Module variables"},
                 {copy_source_, "jobAsyncCopies", "Async copies"},
                 {miss_source_, "jobRestoreMisses", "Restore misses"},
                 {spread_source_, "jobPassSpread", "Pass-to-pass spread"},
                 {warning_source_, "jobWarnings", "Warnings"}};
    for (const auto& l : lists) {
        TablePanel* panel = addTable(l.source, QString::fromLatin1(l.name), this);
        panel->addTextFilter(tr("Filter (substring or regex)"));
        pages_->addTab(panel, tr(l.title));
    }
    connect(rank_, &QComboBox::currentIndexChanged, this, &JobView::applyRankFilter);
    connect(reader_, &MergedSessionReader::loaded, this, [this](const MergedSession& merged) {
        status_->clear();
        setMerged(merged);
        emit loaded();
    });
    connect(reader_, &MergedSessionReader::failed, this, [this](const SessionError& e) {
        status_->setText(tr("Cannot open %1: %2").arg(e.path, e.message));
        emit failed(e);
    });
}

JobView::~JobView() = default;

void JobView::open(const QStringList& paths) {
    status_->setText(tr("Loading %n session file(s)…", nullptr, int(paths.size())));
    reader_->load(paths);
}

RankColumnModel* JobView::rankTable(const QString& name) const {
    const int i = int(table_names_.indexOf(name));
    return i >= 0 ? tables_[i] : nullptr;
}

TablePanel* JobView::panel(const QString& name) const {
    const int i = int(table_names_.indexOf(name));
    return i >= 0 ? panels_[i] : nullptr;
}

void JobView::setMerged(const MergedSession& merged) {
    merged_ = merged;
    const SessionSnapshot s = merged.snapshot();
    process_source_->setSnapshot(s);
    agent_source_->setSnapshot(s);
    dispatch_source_->setSnapshot(s);
    allocation_source_->setSnapshot(s);
    variable_source_->setSnapshot(s);
    copy_source_->setSnapshot(s);
    miss_source_->setSnapshot(s);
    spread_source_->setSnapshot(s);
    warning_source_->setSnapshot(s);
    for (RankColumnModel* m : tables_) {
        m->setMerged(merged);
    }
    selectDispatch(-1);
    totals_->setMerged(merged);
    problems_->setText(merged.problems().join(QLatin1Char('\n')));
    problems_->setVisible(!merged.problems().isEmpty());
    QSignalBlocker block(rank_);
    rank_->clear();
    rank_->addItem(tr("All ranks"));
    for (int r : merged.distinctRanks()) {
        rank_->addItem(tr("Rank %1").arg(r), r);
    }
    applyRankFilter();
    updateCharts();
}

void JobView::selectDispatch(int row) {
    const SessionSnapshot s = merged_.snapshot();
    const bool valid = !s.isNull() && row >= 0 && row < int(s->dispatches.size());
    region_source_->setDispatch(s, valid ? row : -1);
    pass_source_->setDispatch(s, valid ? row : -1);
    skip_source_->setDispatch(s, valid ? row : -1);
    const int process = valid ? s->dispatches[std::size_t(row)].process : 0;
    for (const QString& name :
         {QStringLiteral("jobRegions"), QStringLiteral("jobPasses"), QStringLiteral("jobRestoreSkips")}) {
        rankTable(name)->setDefaultProcess(process);
    }
}

void JobView::applyRankFilter() {
    const QVariant v = rank_->currentData();
    const std::optional<int> rank = v.isValid() ? std::optional<int>(v.toInt()) : std::nullopt;
    for (RankColumnModel* m : tables_) {
        m->setRankFilter(rank);
    }
}

void JobView::updateCharts() {
    RankChart dispatches;
    for (int f = 0; f < merged_.ranks().size(); ++f) {
        dispatches.categories << merged_.rankLabel(f);
    }
    ChartSeriesBuilder::BarSet replayed{tr("replayed"), {}}, declined{tr("declined"), {}};
    for (const RankTotals& t : totals_->totals()) {
        replayed.values << double(t.replayed);
        declined.values << double(t.declined);
    }
    dispatches.sets << replayed << declined;
    const RankChart charts[] = {merged_.kernelMedianByRank(), merged_.snapshotRestoreTimeByRank(),
                                merged_.bytesByRank(), merged_.declinesByRank(), dispatches};
    for (int i = 0; i < charts_.size(); ++i) {
        charts_[i]->setGroupedBars(charts[i].categories, charts[i].sets, tr(kChartDefs[i].empty));
    }
}

} // namespace rs::app
