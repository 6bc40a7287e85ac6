// SPDX-License-Identifier: MIT
#include "ui/PassSpreadPanel.h"

#include "model/PassSpreadModel.h"
#include "ui/TablePanel.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace rs::app {

PassSpreadPanel::PassSpreadPanel(QWidget* parent)
    : QWidget(parent), model_(new PassSpreadModel(this)), threshold_(new QDoubleSpinBox(this)),
      summary_(new QLabel(this)) {
    auto* title = new QLabel(tr("<b>Dispatches whose passes differ by more than</b>"), this);
    threshold_->setObjectName(QStringLiteral("passSpreadThreshold"));
    threshold_->setRange(0, 1000);
    threshold_->setDecimals(1);
    threshold_->setSingleStep(1);
    threshold_->setSuffix(QStringLiteral(" %"));
    threshold_->setValue(model_->threshold() * 100.0);
    threshold_->setToolTip(tr("Slowest / fastest pass - 1 above which a dispatch is listed: its counters "
                              "differ from pass to pass"));
    summary_->setWordWrap(true);
    summary_->setForegroundRole(QPalette::PlaceholderText); // secondary text, readable on light and dark
    panel_ = new TablePanel(model_, QStringLiteral("passSpread"), this);
    panel_->addTextFilter(tr("Filter by kernel…"));
    panel_->setColumnWidths({36, 9, 7, 10, 10, 9, 8});
    auto* head = new QHBoxLayout;
    head->addWidget(title);
    head->addWidget(threshold_);
    head->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(head);
    layout->addWidget(summary_);
    layout->addWidget(panel_, 1);
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
        model_->setThreshold(percent / 100.0);
        updateSummary();
    });
    connect(panel_->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) {
                    const int row = model_->dispatchRow(panel_->proxy()->mapToSource(current).row());
                    if (row >= 0) {
                        emit dispatchSelected(row);
                    }
                }
            });
    connect(panel_->view(), &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const int row = model_->dispatchRow(panel_->proxy()->mapToSource(index).row());
        if (row >= 0) {
            emit dispatchActivated(row);
        }
    });
    updateSummary();
}

void PassSpreadPanel::setSnapshot(const SessionSnapshot& snapshot, int process) {
    model_->setSnapshot(snapshot, process);
    updateSummary();
}

void PassSpreadPanel::setThresholdPercent(double percent) {
    threshold_->setValue(percent);
}

double PassSpreadPanel::thresholdPercent() const {
    return threshold_->value();
}

void PassSpreadPanel::updateSummary() {
    const int all = int(model_->allEntries().size());
    summary_->setText(all == 0 ? tr("No replayed dispatch with two or more timed passes.")
                               : tr("%L1 of %L2 replayed dispatches with two or more timed passes; kernel "
                                    "times are agent ticks at 1 GHz.")
                                     .arg(model_->rowCount())
                                     .arg(all));
}

} // namespace rs::app
