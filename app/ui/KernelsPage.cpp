// SPDX-License-Identifier: MIT
#include "ui/KernelsPage.h"

#include "model/Format.h"
#include "model/KernelTableModel.h"
#include "ui/TablePanel.h"

#include <QLabel>
#include <QVBoxLayout>

namespace rs::app {

KernelsPage::KernelsPage(QWidget* parent)
    : QWidget(parent), status_(new QLabel(this)), model_(new KernelTableModel(this)) {
    panel_ = new TablePanel(model_, QStringLiteral("kernels"), this);
    panel_->addTextFilter(tr("Filter by kernel name or symbol (text or regex)…"));
    auto* layout = new QVBoxLayout(this);
    status_->setWordWrap(true);
    layout->addWidget(status_);
    layout->addWidget(panel_, 1);
}

void KernelsPage::setSnapshot(const SessionSnapshot& snapshot) {
    pending_ = snapshot;
    dirty_ = true;
    if (isVisible()) {
        flush();
    }
}

void KernelsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    flush();
}

void KernelsPage::flush() {
    if (!dirty_) {
        return;
    }
    dirty_ = false;
    model_->setSnapshot(pending_);
    panel_->fitColumnsToContents(48);
    qint64 dispatches = 0, declined = 0;
    for (int r = 0; r < model_->rowCount(); ++r) {
        dispatches += model_->stat(r).dispatches;
        declined += model_->stat(r).declinedCount();
    }
    status_->setText(model_->rowCount() == 0
                         ? tr("No dispatch in this session yet.")
                         : tr("%1 kernels, %2 dispatches, %3 declined: per kernel what replay did with its "
                              "dispatches and what it cost. Sort by a column; filter by name or symbol.")
                               .arg(model_->rowCount())
                               .arg(format::count(dispatches), format::count(declined)));
}

} // namespace rs::app
