// SPDX-License-Identifier: MIT
#include "ui/CountersPage.h"

#include "model/ChartSeriesBuilder.h"
#include "model/CounterTableModel.h"
#include "ui/ChartAdapter.h"
#include "ui/TablePanel.h"

#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace rs::app {

CountersPage::CountersPage(QWidget* parent)
    : QWidget(parent), status_(new QLabel(this)), model_(new CounterTableModel(this)) {
    panel_ = new TablePanel(model_, QStringLiteral("counters"), this);
    panel_->addTextFilter(tr("Filter by kernel or counter (text or regex)…"));
    chart_ = new ChartAdapter(tr("Counter per dispatch"), tr("dispatch order"), tr("value"), this);
    chart_->setUnits(ChartAdapter::Unit::count, 1, ChartAdapter::Unit::count, 1);
    chart_->setMinimumHeight(280);
    chart_->setPlaceholder(tr("select a counter in the table"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(panel_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({550, 450}); // scaled to the splitter's height when it is first laid out
    auto* layout = new QVBoxLayout(this);
    status_->setWordWrap(true);
    layout->addWidget(status_);
    layout->addWidget(split, 1);
    connect(panel_->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showCurrent(current); });
}

void CountersPage::setSnapshot(const SessionSnapshot& snapshot) {
    pending_ = snapshot;
    dirty_ = true;
    if (isVisible()) {
        flush();
    }
}

void CountersPage::flush() {
    if (!dirty_) {
        return;
    }
    dirty_ = false;
    shown_ = pending_;
    model_->setSnapshot(pending_);
    panel_->fitColumnsToContents(48);
    if (pending_.isNull() || pending_->counterValues.empty()) {
        status_->setText(tr("No hardware counters in this session: collect them with replayscope-run --pmc "
                            "NAME... or -i FILE (session format 7)."));
    } else {
        status_->setText(tr("%1 counters over %2 values: per kernel and agent, the dispatches each counter "
                            "was collected for and the minimum, median and maximum of its values.")
                             .arg(pending_->counterNames.size())
                             .arg(qint64(pending_->counterValues.size())));
    }
    restoreCurrent();
}

void CountersPage::restoreCurrent() {
    QAbstractItemModel* proxy = panel_->proxy();
    int row = proxy->rowCount() > 0 ? 0 : -1;
    for (int r = 0; hasCurrent_ && r < proxy->rowCount(); ++r) {
        const CounterSummary::Stat& st = model_->stat(panel_->proxy()->mapToSource(proxy->index(r, 0)).row());
        if (st.kernel == current_.kernel && st.process == current_.process && st.agent == current_.agent &&
            st.counter == current_.counter) {
            row = r;
            break;
        }
    }
    if (row < 0) {
        showCurrent({});
        return;
    }
    const QModelIndex index = proxy->index(row, 0);
    if (panel_->view()->currentIndex().row() == row) {
        showCurrent(index); // the same row: the signal does not come, the values may have changed
    } else {
        panel_->view()->setCurrentIndex(index);
    }
}

void CountersPage::showCurrent(const QModelIndex& current) {
    if (!current.isValid() || shown_.isNull()) {
        chart_->setTitles(tr("Counter per dispatch"), tr("dispatch order"), tr("value"));
        chart_->setPlaceholder(shown_.isNull() || shown_->counterValues.empty()
                                   ? tr("no hardware counters")
                                   : tr("select a counter in the table"));
        return;
    }
    const int row = panel_->proxy()->mapToSource(current).row();
    if (row < 0 || row >= model_->rowCount()) {
        return;
    }
    current_ = model_->stat(row);
    hasCurrent_ = true;
    const ChartSeriesBuilder builder(shown_);
    chart_->setTitles(tr("%1 of %2 on %3, per dispatch")
                          .arg(current_.counter, CounterSummary::kernelLabel(current_.kernel),
                               shown_.agentLabel(current_.process, current_.agent)),
                      tr("dispatch order"), tr("%1 (%2)").arg(current_.counter, current_.unit));
    chart_->setSeries(
        {builder.counterPerDispatch(current_.kernel, current_.counter, current_.process, current_.agent)},
        ChartAdapter::Kind::line);
}

void CountersPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    flush();
}

} // namespace rs::app
