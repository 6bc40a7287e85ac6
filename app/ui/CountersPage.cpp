// SPDX-License-Identifier: MIT
#include "ui/CountersPage.h"

#include "model/CounterTableModel.h"
#include "ui/TablePanel.h"

#include <QLabel>
#include <QVBoxLayout>

namespace rs::app {

CountersPage::CountersPage(QWidget* parent)
    : QWidget(parent), status_(new QLabel(this)), model_(new CounterTableModel(this)) {
    panel_ = new TablePanel(model_, QStringLiteral("counters"), this);
    panel_->addTextFilter(tr("Filter by kernel or counter (text or regex)…"));
    auto* layout = new QVBoxLayout(this);
    status_->setWordWrap(true);
    layout->addWidget(status_);
    layout->addWidget(panel_, 1);
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
    model_->setSnapshot(pending_);
    if (pending_.isNull() || pending_->counterValues.empty()) {
        status_->setText(tr("No hardware counters in this session: collect them with replayscope-run --pmc "
                            "NAME... or -i FILE (session format 7)."));
    } else {
        status_->setText(tr("%1 counters over %2 values: per kernel and agent, the dispatches each counter "
                            "was collected for and the minimum, median and maximum of its values.")
                             .arg(pending_->counterNames.size())
                             .arg(qint64(pending_->counterValues.size())));
    }
}

void CountersPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    flush();
}

} // namespace rs::app
