// SPDX-License-Identifier: MIT
#include "ui/DispatchesPage.h"

#include "model/DispatchTableModel.h"
#include "model/ModelRoles.h"
#include "ui/DispatchDetailWidget.h"
#include "ui/TablePanel.h"

#include <QItemSelectionModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace rs::app {

DispatchesPage::DispatchesPage(QWidget* parent)
    : QWidget(parent), model_(new DispatchTableModel(this)), detail_(new DispatchDetailWidget(this)) {
    panel_ = new TablePanel(model_, QStringLiteral("dispatches"), this);
    panel_->addTextFilter(tr("Filter by kernel (text or regex)…"));
    panel_->addAgentFilter();
    panel_->addProcessFilter();
    panel_->addCodeFilter(tr("Outcome:"), {});
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(panel_);
    splitter->addWidget(detail_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    connect(panel_->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DispatchesPage::showCurrent);
}

void DispatchesPage::setSnapshot(const SessionSnapshot& snapshot) {
    const bool first = snapshot_.isNull();
    snapshot_ = snapshot;
    model_->setSnapshot(snapshot);
    const auto agents = TablePanel::agentChoices(snapshot);
    panel_->setAgents(agents);
    panel_->setProcesses(TablePanel::processChoices(snapshot));
    QList<QPair<QString, int>> codes{{tr("replayed"), int(rs::ipc::DispatchDecision::replayed)},
                                     {tr("declined (any reason)"), SessionFilterProxyModel::kAnyNonZero}};
    const auto names = snapshot->enumNames.value(QStringLiteral("decision"));
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (it.key() != int(rs::ipc::DispatchDecision::replayed)) {
            codes.push_back({tr("declined: %1").arg(it.value()), it.key()});
        }
    }
    std::sort(codes.begin() + 2, codes.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    panel_->setCodes(codes);
    if (first) {
        panel_->setColumnWidths({7, 34, 12, 19, 7, 11, 12, 13, 11, 14, 8, 8, 12, 11, 13, 13, 13, 10});
    }
    showCurrent();
}

void DispatchesPage::selectRow(int proxyRow) {
    panel_->view()->selectRow(proxyRow);
    panel_->view()->setCurrentIndex(panel_->proxy()->index(proxyRow, 0));
}

bool DispatchesPage::selectDispatch(int row) {
    if (row < 0 || row >= model_->rowCount()) {
        return false;
    }
    const QModelIndex at = panel_->proxy()->mapFromSource(model_->index(row, 0));
    if (!at.isValid()) {
        return false;
    }
    selectRow(at.row());
    panel_->view()->scrollTo(at);
    return true;
}

void DispatchesPage::showCurrent() {
    const QModelIndex current = panel_->view()->currentIndex();
    int row = -1;
    if (current.isValid()) {
        row = panel_->proxy()->mapToSource(current).row();
    }
    detail_->setDispatch(snapshot_, row);
    emit currentDispatchChanged(row);
}

} // namespace rs::app
