// SPDX-License-Identifier: MIT
#include "ui/JobView.h"

#include "model/AllocationTableModel.h"
#include "model/DispatchTableModel.h"
#include "model/RankColumnModel.h"
#include "model/RankTotalsModel.h"
#include "model/WarningTableModel.h"
#include "ui/ChartAdapter.h"
#include "ui/TablePanel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rs::app {

JobView::JobView(QWidget* parent)
    : QWidget(parent), rank_(new QComboBox(this)), pages_(new QTabWidget(this)),
      totals_(new RankTotalsModel(this)), dispatch_source_(new DispatchTableModel(this)),
      allocation_source_(new AllocationTableModel(this)), warning_source_(new WarningTableModel(this)) {
    rank_->setObjectName(QStringLiteral("jobRankFilter"));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Rank:"), this));
    top->addWidget(rank_);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(pages_, 1);

    // Totals per rank, with one chart per figure below them.
    auto* totalsPage = new QWidget(this);
    auto* totalsLayout = new QVBoxLayout(totalsPage);
    auto* totalsPanel = new TablePanel(totals_, QStringLiteral("rankTotals"), totalsPage);
    totalsLayout->addWidget(totalsPanel, 1);
    auto* scroll = new QScrollArea(totalsPage);
    scroll->setWidgetResizable(true);
    auto* chartArea = new QWidget(scroll);
    auto* grid = new QGridLayout(chartArea);
    const struct {
        int column;
        const char* title;
        const char* unit;
    } defs[] = {{RankTotalsModel::Dispatches, "Dispatches per rank", "dispatches"},
                {RankTotalsModel::Replayed, "Replayed dispatches per rank", "dispatches"},
                {RankTotalsModel::Declined, "Declined dispatches per rank", "dispatches"},
                {RankTotalsModel::SnapshotBytes, "Snapshot bytes per rank", "MiB"},
                {RankTotalsModel::RestoredBytes, "Bytes restored per rank (host link + device)", "MiB"},
                {RankTotalsModel::SnapshotTime, "Snapshot time per rank", "ms"},
                {RankTotalsModel::RestoreTime, "Restore time per rank", "ms"}};
    int i = 0;
    for (const auto& d : defs) {
        auto* chart = new ChartAdapter(tr(d.title), tr(d.unit), tr("rank"), chartArea);
        chart->setMinimumHeight(260);
        grid->addWidget(chart, i / 2, i % 2);
        charts_ << chart;
        chart_columns_ << d.column;
        ++i;
    }
    scroll->setWidget(chartArea);
    totalsLayout->addWidget(scroll, 2);
    pages_->addTab(totalsPage, tr("Ranks"));

    auto addTable = [this](QAbstractItemModel* source, const QString& name, const QString& title) {
        auto* model = new RankColumnModel(source, merged_, this);
        auto* panel = new TablePanel(model, name, this);
        panel->addTextFilter(tr("Filter (substring or regex)"));
        pages_->addTab(panel, title);
        tables_ << model;
    };
    addTable(dispatch_source_, QStringLiteral("jobDispatches"), tr("Dispatches"));
    addTable(allocation_source_, QStringLiteral("jobAllocations"), tr("Allocations"));
    addTable(warning_source_, QStringLiteral("jobWarnings"), tr("Warnings"));
    connect(rank_, &QComboBox::currentIndexChanged, this, &JobView::applyRankFilter);
}

void JobView::setMerged(const MergedSession& merged) {
    merged_ = merged;
    const SessionSnapshot s = merged.snapshot();
    dispatch_source_->setSnapshot(s);
    allocation_source_->setSnapshot(s);
    warning_source_->setSnapshot(s);
    for (RankColumnModel* m : tables_) {
        m->setMerged(merged);
    }
    totals_->setMerged(merged);
    QSignalBlocker block(rank_);
    rank_->clear();
    rank_->addItem(tr("All ranks"));
    for (int r : merged.ranks()) {
        rank_->addItem(tr("Rank %1").arg(r), r);
    }
    applyRankFilter();
    updateCharts();
}

void JobView::applyRankFilter() {
    const QVariant v = rank_->currentData();
    const std::optional<int> rank = v.isValid() ? std::optional<int>(v.toInt()) : std::nullopt;
    for (RankColumnModel* m : tables_) {
        m->setRankFilter(rank);
    }
}

void JobView::updateCharts() {
    for (int i = 0; i < charts_.size(); ++i) {
        charts_[i]->setBars(totals_->bars(RankTotalsModel::Column(chart_columns_[i])));
    }
}

} // namespace rs::app
