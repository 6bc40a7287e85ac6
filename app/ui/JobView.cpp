// SPDX-License-Identifier: MIT
#include "ui/JobView.h"

#include "model/AgentSummaryModel.h"
#include "model/AllocationTableModel.h"
#include "model/AsyncCopyTableModel.h"
#include "model/DispatchTableModel.h"
#include "model/JobKernelTableModel.h"
#include "model/JobReader.h"
#include "model/ModelRoles.h"
#include "model/ModuleVariableTableModel.h"
#include "model/PassSpreadModel.h"
#include "model/PassTableModel.h"
#include "model/ProcessTableModel.h"
#include "model/RankColumnModel.h"
#include "model/RankDistribution.h"
#include "model/RankTotalsModel.h"
#include "model/RegionTableModel.h"
#include "model/RestoreMissTableModel.h"
#include "model/RestoreSkipTableModel.h"
#include "model/SessionFilterProxyModel.h"
#include "model/ThemeColors.h"
#include "model/WarningTableModel.h"
#include "ui/ChartAdapter.h"
#include "ui/TablePanel.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
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
    : QWidget(parent), reader_(new JobReader(this)), host_(new QComboBox(this)),
      rank_selection_(new QLineEdit(this)), status_(new QLabel(this)), rows_notice_(new QLabel(this)),
      problems_(new QLabel(this)), pages_(new QTabWidget(this)), totals_(new RankTotalsModel(this)),
      kernels_(new JobKernelTableModel(this)), totals_panel_(nullptr),
      process_source_(new ProcessTableModel(this)), agent_source_(new AgentSummaryModel(this)),
      dispatch_source_(new DispatchTableModel(this)), region_source_(new RegionTableModel(this)),
      pass_source_(new PassTableModel(this)), skip_source_(new RestoreSkipTableModel(this)),
      allocation_source_(new AllocationTableModel(this)),
      variable_source_(new ModuleVariableTableModel(this)), copy_source_(new AsyncCopyTableModel(this)),
      miss_source_(new RestoreMissTableModel(this)), spread_source_(new PassSpreadModel(this)),
      warning_source_(new WarningTableModel(this)) {
    host_->setObjectName(QStringLiteral("jobHostFilter"));
    rank_selection_->setObjectName(QStringLiteral("jobRankSelection"));
    rank_selection_->setPlaceholderText(tr("all ranks shown, or e.g. 0-3,17"));
    rank_selection_->setClearButtonEnabled(true);
    rank_selection_->setToolTip(tr("The ranks whose rows the tables list (also: select rows of the Ranks "
                                   "table). Empty: every rank shown, while they hold at most %L1 dispatches.")
                                    .arg(detail_budget_));
    rows_notice_->setObjectName(QStringLiteral("jobRowsNotice"));
    rows_notice_->setWordWrap(true);
    rows_notice_->hide();
    problems_->setObjectName(QStringLiteral("jobProblems"));
    problems_->setWordWrap(true);
    problems_->setStyleSheet(ThemeColors::bannerStyleSheet(palette(), ThemeColors::Banner::warning));
    rows_notice_->setStyleSheet(ThemeColors::bannerStyleSheet(palette(), ThemeColors::Banner::notice));
    problems_->hide();
    auto* top = new QHBoxLayout;
    auto* hostLabel = new QLabel(tr("Host:"), this);
    hostLabel->setBuddy(host_);
    host_label_ = hostLabel; // shown with the filter only: a job of one host has nothing to choose
    top->addWidget(hostLabel);
    top->addWidget(host_);
    top->addWidget(new QLabel(tr("Ranks listed:"), this));
    top->addWidget(rank_selection_);
    top->addWidget(status_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(problems_);
    layout->addWidget(rows_notice_);
    layout->addWidget(pages_, 1);

    // Totals per rank, with the charts per rank below them.
    auto* totalsPage = new QWidget(this);
    auto* totalsLayout = new QVBoxLayout(totalsPage);
    auto* totalsPanel = new TablePanel(totals_, QStringLiteral("rankTotals"), totalsPage);
    totals_panel_ = totalsPanel;
    totalsLayout->addWidget(totalsPanel, 1);
    // A rank's own tab on demand: a job of hundreds of ranks opens as this one view.
    totalsPanel->view()->setToolTip(tr("Select ranks to list their rows in the other pages; double-click a "
                                       "rank to open its file in a tab of its own"));
    totalsPanel->view()->setSelectionMode(QAbstractItemView::ExtendedSelection);
    totalsPanel->view()->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(totalsPanel->view()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this, totalsPanel] {
                QVector<int> ranks;
                for (const QModelIndex& i : totalsPanel->view()->selectionModel()->selectedRows()) {
                    const int file = totals_->fileOfRow(totalsPanel->proxy()->mapToSource(i).row());
                    if (file >= 0) {
                        ranks << job_.ranks()[file];
                    }
                }
                const QString text = JobSummary::rankText(ranks);
                if (text != rank_selection_->text()) {
                    rank_selection_->setText(text);
                    applyRankSelection();
                }
            });
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
        auto* cell = new QWidget(chartArea);
        auto* cellLayout = new QVBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        auto* chart = new ChartAdapter(tr(d.title), tr("rank"), tr(d.yTitle), cell);
        chart->setUnits(ChartAdapter::Unit::count, 1, d.unit, 1);
        chart->setMinimumHeight(300);
        auto* extremes = new QLabel(cell);
        extremes->setWordWrap(true);
        extremes->setTextInteractionFlags(Qt::TextSelectableByMouse);
        extremes->hide();
        cellLayout->addWidget(chart, 1);
        cellLayout->addWidget(extremes);
        grid->addWidget(cell, i / 2, i % 2);
        charts_ << chart;
        extremes_ << extremes;
        ++i;
    }
    scroll->setWidget(chartArea);
    totalsLayout->addWidget(scroll, 2);
    pages_->addTab(totalsPage, tr("Ranks"));
    auto* kernelPanel = new TablePanel(kernels_, QStringLiteral("jobKernels"), this);
    kernelPanel->addTextFilter(tr("Filter by kernel (substring or regex)"));
    kernelPanel->setColumnWidths({48});
    pages_->addTab(kernelPanel, tr("Kernels"));

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
    connect(host_, &QComboBox::currentIndexChanged, this, &JobView::applyHostFilter);
    connect(rank_selection_, &QLineEdit::editingFinished, this, &JobView::applyRankSelection);
    connect(reader_, &JobReader::summaryLoaded, this, [this](const JobSummary& job) {
        status_->clear();
        setJob(job);
        if (initial_ && rows_request_ == 0) { // nothing to read: the rows are over the budget
            initial_ = false;
            emit loaded();
        }
    });
    connect(reader_, &JobReader::rowsLoaded, this, [this](const MergedSession& rows, int request) {
        if (request != rows_request_) {
            return; // a selection changed since: its own read follows
        }
        rows_request_ = 0;
        setRows(rows);
        if (initial_) {
            initial_ = false;
            emit loaded();
        }
    });
    connect(reader_, &JobReader::failed, this, [this](const SessionError& e) {
        status_->setText(tr("Cannot open %1: %2").arg(e.path, e.message));
        rows_request_ = 0;
        emit failed(e);
    });
}

JobView::~JobView() = default;

QString JobView::badRankStyle() const {
    return QStringLiteral("QLineEdit { color: %1; }")
        .arg(ThemeColors::status(palette(), ThemeColors::Status::bad).name());
}

void JobView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        problems_->setStyleSheet(ThemeColors::bannerStyleSheet(palette(), ThemeColors::Banner::warning));
        rows_notice_->setStyleSheet(ThemeColors::bannerStyleSheet(palette(), ThemeColors::Banner::notice));
        if (!rank_selection_->styleSheet().isEmpty()) {
            rank_selection_->setStyleSheet(badRankStyle());
        }
    }
}

void JobView::open(const QStringList& paths) {
    status_->setText(tr("Loading %n session file(s)…", nullptr, int(paths.size())));
    initial_ = true;
    reader_->loadSummary(paths);
}

QTableView* JobView::ranksView() const {
    return totals_panel_->view();
}

RankColumnModel* JobView::rankTable(const QString& name) const {
    const int i = int(table_names_.indexOf(name));
    return i >= 0 ? tables_[i] : nullptr;
}

TablePanel* JobView::panel(const QString& name) const {
    const int i = int(table_names_.indexOf(name));
    return i >= 0 ? panels_[i] : nullptr;
}

void JobView::setJob(const JobSummary& job) {
    job_ = job;
    merged_ = {};
    selected_.clear();
    problems_->setText(job.problems().join(QLatin1Char('\n')));
    problems_->setVisible(!job.problems().isEmpty());
    {
        QSignalBlocker block(host_);
        host_->clear();
        host_->addItem(tr("All hosts"));
        for (const QString& h : job.hosts()) {
            host_->addItem(h, h);
        }
        host_->setVisible(job.hosts().size() > 1);
        host_label_->setVisible(job.hosts().size() > 1);
    }
    QSignalBlocker block(rank_selection_);
    rank_selection_->clear();
    applyHostFilter();
}

void JobView::applyHostFilter() {
    const QVariant host = host_->currentData();
    shown_.clear();
    for (int f = 0; f < job_.fileCount(); ++f) {
        if (!host.isValid() || job_.digests()[f].info.hostname == host.toString()) {
            shown_ << f;
        }
    }
    totals_->setJob(job_, shown_.size() == job_.fileCount() ? QVector<int>() : shown_);
    kernels_->setJob(job_, shown_);
    updateCharts();
    listRows();
}

void JobView::selectRanks(const QVector<int>& ranks) {
    rank_selection_->setText(JobSummary::rankText(ranks));
    applyRankSelection();
}

void JobView::applyRankSelection() {
    const std::optional<QVector<int>> ranks = JobSummary::parseRanks(rank_selection_->text());
    rank_selection_->setStyleSheet(ranks ? QString() : badRankStyle());
    if (!ranks) {
        return;
    }
    selected_ = *ranks;
    listRows();
}

QVector<int> JobView::listedFiles() const {
    if (selected_.isEmpty()) {
        return shown_;
    }
    QVector<int> out;
    for (int f : shown_) {
        if (selected_.contains(job_.ranks()[f])) {
            out << f;
        }
    }
    return out;
}

void JobView::listRows() {
    const QVector<int> files = listedFiles();
    QStringList paths;
    qint64 dispatches = 0;
    for (int f : files) {
        paths << job_.digests()[f].path;
        dispatches += job_.digests()[f].totals.dispatches;
    }
    if (!merged_.isNull() && paths == merged_.paths()) {
        rows_request_ = 0; // a read under way for another selection is dropped
        rows_notice_->hide();
        emit rowsListed();
        return;
    }
    if (dispatches > detail_budget_ || paths.isEmpty()) {
        // Listing them would hold every row of these ranks: the user chooses which instead.
        rows_request_ = 0;
        setRows({});
        rows_notice_->setText(
            paths.isEmpty()
                ? tr("No rank of this selection is shown (host filter).")
                : tr("The tables list rows of the ranks selected in the Ranks table (or typed above): the %n "
                     "ranks shown hold %L1 dispatches, more than the %L2 listed at once.",
                     nullptr, int(files.size()))
                      .arg(dispatches)
                      .arg(detail_budget_));
        rows_notice_->show();
        return;
    }
    rows_notice_->setText(tr("Reading the rows of %n rank(s)…", nullptr, int(files.size())));
    rows_notice_->show();
    rows_request_ = reader_->loadRows(paths);
}

void JobView::setRows(const MergedSession& rows) {
    merged_ = rows;
    if (!rows.isNull()) {
        rows_notice_->hide();
    }
    const SessionSnapshot s = rows.snapshot();
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
        m->setMerged(rows);
    }
    selectDispatch(-1);
    emit rowsListed();
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

void JobView::updateCharts() {
    const RankChart charts[] = {job_.kernelMedianByRank(shown_), job_.snapshotRestoreTimeByRank(shown_),
                                job_.bytesByRank(shown_), job_.declinesByRank(shown_),
                                job_.dispatchesByRank(shown_)};
    const bool boxes = shown_.size() > kMaxBarRanks;
    for (int i = 0; i < charts_.size(); ++i) {
        const RankChart& c = charts[i];
        const QString empty = tr(kChartDefs[i].empty);
        if (!boxes) {
            charts_[i]->setTitles(tr(kChartDefs[i].title), tr("rank"), tr(kChartDefs[i].yTitle));
            charts_[i]->setGroupedBars(c.categories, c.sets, empty);
            extremes_[i]->hide();
            continue;
        }
        // Hundreds of bars are unreadable: a box per figure over the ranks, and the ranks at either end.
        charts_[i]->setTitles(tr("%1: distribution over %n ranks", nullptr, int(shown_.size()))
                                  .arg(tr(kChartDefs[i].title).replace(tr(" per rank"), QString())),
                              QString(), tr(kChartDefs[i].yTitle));
        charts_[i]->setBoxes(RankDistribution::boxes(c), empty);
        const auto list = [](const QVector<RankDistribution::Extreme>& e) {
            QStringList out;
            for (const RankDistribution::Extreme& x : e) {
                out << x.rank;
            }
            return out.join(QStringLiteral(", "));
        };
        extremes_[i]->setText(tr("Highest: %1. Lowest: %2 (by the sum of the figures above).")
                                  .arg(list(RankDistribution::extremes(c, 3, true)),
                                       list(RankDistribution::extremes(c, 3, false))));
        extremes_[i]->show();
    }
}

} // namespace rs::app
