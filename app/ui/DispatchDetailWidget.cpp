// SPDX-License-Identifier: MIT
#include "ui/DispatchDetailWidget.h"

#include "model/DispatchTableModel.h"
#include "model/Format.h"
#include "model/PassTableModel.h"
#include "model/RegionTableModel.h"
#include "model/RestoreSkipTableModel.h"
#include "model/ThemeColors.h"
#include "ui/TablePanel.h"

#include <QEvent>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rs::app {

DispatchDetailWidget::DispatchDetailWidget(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), tabs_(new QTabWidget(this)),
      regions_(new RegionTableModel(this)), passes_(new PassTableModel(this)),
      skips_(new RestoreSkipTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    title_->setTextFormat(Qt::RichText);
    title_->setWordWrap(true);
    layout->addWidget(title_);
    regions_panel_ = new TablePanel(regions_, QStringLiteral("regions"), this);
    regions_panel_->addTextFilter(tr("Filter by symbol…"));
    passes_panel_ = new TablePanel(passes_, QStringLiteral("passes"), this);
    skips_panel_ = new TablePanel(skips_, QStringLiteral("restoreSkips"), this);
    tabs_->addTab(regions_panel_, tr("Snapshot regions"));
    tabs_->addTab(passes_panel_, tr("Passes"));
    tabs_->addTab(skips_panel_, tr("Restore skips"));
    layout->addWidget(tabs_, 1);
    setDispatch({}, -1);
}

void DispatchDetailWidget::setDispatch(const SessionSnapshot& snapshot, int row) {
    const bool firstData = regions_->snapshot().isNull() && !snapshot.isNull();
    snapshot_ = snapshot;
    row_ = row;
    regions_->setDispatch(snapshot, row);
    passes_->setDispatch(snapshot, row);
    skips_->setDispatch(snapshot, row);
    if (firstData) {
        regions_panel_->setColumnWidths({5, 16, 10, 16, 10, 22, 14});
        passes_panel_->setColumnWidths({6, 12, 12, 16, 14, 9, 11, 14, 16, 18, 9, 12});
        skips_panel_->setColumnWidths({9, 16, 10, 10});
    }
    updateTitle();
}

void DispatchDetailWidget::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        updateTitle();
    }
}

void DispatchDetailWidget::updateTitle() {
    const SessionSnapshot& snapshot = snapshot_;
    const int row = row_;
    if (snapshot.isNull() || row < 0 || row >= int(snapshot->dispatches.size())) {
        title_->setText(tr("<i>Select a dispatch to see its snapshot, passes and restore skips.</i>"));
        return;
    }
    const QPalette& p = palette();
    const DispatchRow& d = snapshot->dispatches[row];
    // The process follows below when there are several: the agent's own name here.
    QString text = tr("<b>Dispatch %1</b> — <code>%2</code> on %3, %4 — ")
                       .arg(d.id)
                       .arg(snapshot->kernelNames.value(d.kernel).toHtmlEscaped(),
                            snapshot.agentName(d.process, d.agent), d.launchShape());
    if (snapshot->processes.size() > 1) {
        text += tr("%1 — ").arg(snapshot.processName(d.process));
    }
    if (!d.replayed()) {
        text += ThemeColors::statusHtml(
            p, ThemeColors::Status::bad,
            tr("declined: %1").arg(snapshot.enumName(QStringLiteral("decision"), d.decision)));
    } else {
        text += tr("%1, %2 passes; snapshot %3 in %4 regions (generation %5) took %6 ms%7")
                    .arg(ThemeColors::statusHtml(p, ThemeColors::Status::good, tr("replayed")))
                    .arg(d.passes)
                    .arg(format::bytes(d.snapshotBytes))
                    .arg(d.snapshotRegions)
                    .arg(d.generation)
                    .arg(format::ms(d.snapshotNs))
                    .arg(d.snapshotFailures ? tr(", <b>%1 failures</b>").arg(d.snapshotFailures) : QString());
        // Format 5: the drain before the snapshot.
        if (d.fenceWaitNs >= 0) {
            text += tr(", after a fence wait of %1 µs").arg(format::us(d.fenceWaitNs));
        }
        // Format 4: where the snapshot was kept and what its restores moved against full restores.
        if (d.store >= 0) {
            text += tr("; store <b>%1</b> (host %2, device %3)")
                        .arg(DispatchTableModel::storeText(snapshot, d),
                             d.hostBytes >= 0 ? format::bytes(d.hostBytes) : format::kNotRecorded,
                             d.deviceBytes >= 0 ? format::bytes(d.deviceBytes) : format::kNotRecorded);
        }
        if (d.restores > 0) {
            text += tr("; %1 restores moved <b>%2</b> (%3 over the host link, %4 inside the device) of the "
                       "%5 full restores would, %6 of %7 chunks dirty")
                        .arg(d.restores)
                        .arg(format::bytes(d.movedBytes()), format::bytes(d.movedHost),
                             format::bytes(d.movedDevice), format::bytes(d.fullRestoreBytes()),
                             format::count(d.dirtyChunks), format::count(d.comparedChunks));
            if (d.missedChunks > 0) {
                text += QStringLiteral(", ") +
                        ThemeColors::statusHtml(p, ThemeColors::Status::bad,
                                                tr("%1 chunks missed").arg(d.missedChunks));
            }
        } else if (!snapshot->hasRestoreRecords) {
            text += tr("; bytes moved per restore: %1 (recorded from session format 4)")
                        .arg(format::kNotRecorded);
        }
    }
    title_->setText(text);
    tabs_->setTabText(0, tr("Snapshot regions (%1)").arg(regions_->rowCount()));
    // The passes run; the table's extra row is the final restore, not a pass.
    tabs_->setTabText(1, passes_->rowCount() > d.passes ? tr("Passes (%1 + final restore)").arg(d.passes)
                                                        : tr("Passes (%1)").arg(d.passes));
    tabs_->setTabText(2, tr("Restore skips (%1)").arg(skips_->rowCount()));
}

} // namespace rs::app
