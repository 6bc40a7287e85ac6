// SPDX-License-Identifier: MIT
#include "ui/AuditPage.h"

#include "model/AllocationTableModel.h"
#include "model/AsyncCopyTableModel.h"
#include "model/ChartSeriesBuilder.h"
#include "model/ModuleVariableTableModel.h"
#include "model/RestoreMissTableModel.h"
#include "model/ThemeColors.h"
#include "ui/ChartAdapter.h"
#include "ui/TablePanel.h"

#include <QEvent>
#include <QGroupBox>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace rs::app {

AuditPage::AuditPage(QWidget* parent)
    : QWidget(parent), allocations_(new AllocationTableModel(this)),
      variables_(new ModuleVariableTableModel(this)), copies_(new AsyncCopyTableModel(this)),
      misses_(new RestoreMissTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* split = new QSplitter(Qt::Horizontal, this);

    auto* left = new QSplitter(Qt::Vertical, split);
    auto* allocBox = new QGroupBox(tr("Allocations"), left);
    auto* allocLayout = new QVBoxLayout(allocBox);
    allocations_panel_ = new TablePanel(allocations_, QStringLiteral("allocations"), allocBox);
    allocations_panel_->addAgentFilter();
    allocations_panel_->addProcessFilter();
    allocations_panel_->addCodeFilter(tr("Tracking:"), {});
    allocLayout->addWidget(allocations_panel_);
    auto* varBox = new QGroupBox(tr("Module variables"), left);
    auto* varLayout = new QVBoxLayout(varBox);
    variables_panel_ = new TablePanel(variables_, QStringLiteral("moduleVariables"), varBox);
    variables_panel_->addTextFilter(tr("Filter by symbol…"));
    variables_panel_->addProcessFilter();
    variables_panel_->addCodeFilter(tr("Status:"), {});
    varLayout->addWidget(variables_panel_);
    auto* copyBox = new QGroupBox(tr("Async copies held by a replay window"), left);
    auto* copyLayout = new QVBoxLayout(copyBox);
    copies_panel_ = new TablePanel(copies_, QStringLiteral("asyncCopies"), copyBox);
    copies_panel_->addProcessFilter();
    copies_panel_->addCodeFilter(tr("Outcome:"), {});
    copyLayout->addWidget(copies_panel_);
    auto* missBox = new QGroupBox(tr("Chunks a dirty restore missed (fidelity check)"), left);
    missBox->setObjectName(QStringLiteral("restoreMissesBox"));
    missBox->setToolTip(tr("With --fidelity-check every dirty restore is verified against the full snapshot: "
                           "each chunk it left different is listed here and was copied back before the pass "
                           "ran. Sessions before format 4 do not record this."));
    auto* missLayout = new QVBoxLayout(missBox);
    misses_panel_ = new TablePanel(misses_, QStringLiteral("restoreMisses"), missBox);
    misses_panel_->addTextFilter(tr("Filter by kernel…"));
    misses_panel_->addAgentFilter();
    misses_panel_->addProcessFilter();
    missLayout->addWidget(misses_panel_);
    left->addWidget(allocBox);
    left->addWidget(varBox);
    left->addWidget(copyBox);
    left->addWidget(missBox);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    left->setStretchFactor(2, 1);
    left->setStretchFactor(3, 1);

    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    reasons_ =
        new ChartAdapter(tr("Allocations by tracking decision"), tr("allocations"), tr("count"), right);
    outcomes_ =
        new ChartAdapter(tr("Not replayed or not restored, by reason"), tr("count"), tr("count"), right);
    rightLayout->addWidget(reasons_, 1);
    rightLayout->addWidget(outcomes_, 1);
    auto* legend = legend_ = new QLabel(right);
    legend->setObjectName(QStringLiteral("blindSpotsLegend"));
    legend->setWordWrap(true);
    legend->setTextFormat(Qt::RichText);
    legend->setText(tr(
        "<b>Not visible to the mechanism, by design</b><ul style='margin-left:-20px'>"
        "<li><b>Virtual-memory mappings</b> (<code>hsa_amd_vmem_*</code>, e.g. <code>hipMallocAsync</code> "
        "pools): an engine that reports them lists each mapping above with API "
        "<code>hsa_amd_vmem_map</code>; older sessions and runtimes without the report do not track "
        "them.</li>"
        "<li><b>Asynchronous SDMA copies</b>: copies that met a replay window are listed with how long they "
        "were held and the outcome; a copy let through unfenced or after a timeout may change its "
        "destination between passes.</li>"
        "<li><b>Managed (unified) memory</b> migrating between host and device is not owned by one agent's "
        "pools and is excluded.</li></ul>"
        "Excluded allocations (kernarg, host, fine-grained, executable, not-owned, unknown-pointer) are "
        "listed "
        "above with their reason: a kernel writing them sees different inputs in pass 2."));
    legend->setStyleSheet(ThemeColors::bannerStyleSheet(palette(), ThemeColors::Banner::warning));
    rightLayout->addWidget(legend);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split);
}

void AuditPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        legend_->setStyleSheet(ThemeColors::bannerStyleSheet(palette(), ThemeColors::Banner::warning));
    }
}

void AuditPage::setSnapshot(const SessionSnapshot& snapshot) {
    const bool first = snapshot_.isNull();
    snapshot_ = snapshot;
    allocations_->setSnapshot(snapshot);
    variables_->setSnapshot(snapshot);
    copies_->setSnapshot(snapshot);
    misses_->setSnapshot(snapshot);
    const auto agents = TablePanel::agentChoices(snapshot);
    allocations_panel_->setAgents(agents);
    misses_panel_->setAgents(agents);
    const auto processes = TablePanel::processChoices(snapshot);
    allocations_panel_->setProcesses(processes);
    variables_panel_->setProcesses(processes);
    copies_panel_->setProcesses(processes);
    misses_panel_->setProcesses(processes);
    auto codes = [&](const QString& kind, const QString& nonZero) {
        QList<QPair<QString, int>> out;
        const auto names = snapshot->enumNames.value(kind);
        QList<int> keys = names.keys();
        std::sort(keys.begin(), keys.end());
        for (int k : keys) {
            out.push_back({names.value(k), k});
            if (k == SessionFilterProxyModel::kNormalCode) {
                out.push_back({nonZero, SessionFilterProxyModel::kAnyNonZero});
            }
        }
        return out;
    };
    allocations_panel_->setCodes(codes(QStringLiteral("classification"), tr("excluded (any reason)")));
    variables_panel_->setCodes(codes(QStringLiteral("variable_status"), tr("skipped (any reason)")));
    copies_panel_->setCodes(codes(QStringLiteral("async_copy_outcome"), tr("held (waited or timed out)")));
    const ChartSeriesBuilder builder(snapshot);
    reasons_->setBars(builder.allocationReasons());
    outcomes_->setBars(builder.declineAndSkipReasons());
    if (first) {
        allocations_panel_->setColumnWidths({6, 16, 10, 12, 28, 15, 14, 11, 11, 9, 8});
        variables_panel_->setColumnWidths({22, 16, 10, 12, 14});
        copies_panel_->setColumnWidths({8, 14, 16, 16, 10, 9, 9, 12});
        misses_panel_->setColumnWidths({8, 24, 12, 5, 16, 10, 12});
    }
}

} // namespace rs::app
