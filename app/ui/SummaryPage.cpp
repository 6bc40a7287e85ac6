// SPDX-License-Identifier: MIT
#include "ui/SummaryPage.h"

#include "model/AgentSummaryModel.h"
#include "model/Format.h"
#include "model/ProcessTableModel.h"
#include "model/ReplaySettings.h"
#include "model/ThemeColors.h"
#include "model/WarningTableModel.h"
#include "ui/TablePanel.h"

#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace rs::app {

namespace {
QLabel* value(QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}
} // namespace

SummaryPage::SummaryPage(QWidget* parent)
    : QWidget(parent), command_(value(this)), exit_(value(this)), status_(value(this)), host_(value(this)),
      totals_(value(this)), config_(value(this)), processes_(new ProcessTableModel(this)),
      agents_(new AgentSummaryModel(this)), warnings_(new WarningTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* session = new QGroupBox(tr("Session"), this);
    auto* form = new QFormLayout(session);
    form->setLabelAlignment(Qt::AlignRight);
    form->addRow(tr("Command:"), command_);
    form->addRow(tr("Exit status:"), exit_);
    form->addRow(tr("Session:"), status_);
    form->addRow(tr("Recorded:"), host_);
    form->addRow(tr("Dispatches:"), totals_);
    form->addRow(tr("Replay settings:"), config_);
    command_->setStyleSheet(QStringLiteral("font-family: monospace;"));
    layout->addWidget(session);

    auto* processesBox = new QGroupBox(tr("Processes"), this);
    auto* processesLayout = new QVBoxLayout(processesBox);
    processes_panel_ = new TablePanel(processes_, QStringLiteral("processes"), processesBox);
    processes_panel_->view()->setMinimumHeight(80);
    processesLayout->addWidget(processes_panel_);
    layout->addWidget(processesBox, 1);

    auto* agentsBox = new QGroupBox(tr("Agents"), this);
    auto* agentsLayout = new QVBoxLayout(agentsBox);
    agents_panel_ = new TablePanel(agents_, QStringLiteral("agents"), agentsBox);
    agents_panel_->view()->setMinimumHeight(110);
    agentsLayout->addWidget(agents_panel_);
    layout->addWidget(agentsBox, 1);

    auto* warningsBox = new QGroupBox(tr("Warnings"), this);
    auto* warningsLayout = new QVBoxLayout(warningsBox);
    warnings_panel_ = new TablePanel(warnings_, QStringLiteral("warnings"), warningsBox);
    warnings_panel_->addProcessFilter();
    warningsLayout->addWidget(warnings_panel_);
    layout->addWidget(warningsBox, 2);
}

void SummaryPage::setExitStatus(int status) {
    exit_status_ = status;
    refresh();
}

void SummaryPage::setSnapshot(const SessionSnapshot& snapshot) {
    // Columns are fitted to the first snapshot, and again to the first one of the ended session: a live
    // session's first picture holds few rows and short cells, which would keep its columns squeezed.
    const bool ended = !snapshot.isNull() && snapshot->info.ended;
    const bool first = snapshot_.isNull() || (ended && !fittedEnded_);
    fittedEnded_ = fittedEnded_ || ended;
    snapshot_ = snapshot;
    processes_->setSnapshot(snapshot);
    agents_->setSnapshot(snapshot);
    warnings_->setSnapshot(snapshot);
    warnings_panel_->setProcesses(TablePanel::processChoices(snapshot));
    refresh();
    // Each table's share of the page follows its rows (capped): a one-row table leaves no large empty pane.
    if (auto* box = qobject_cast<QVBoxLayout*>(layout())) {
        box->setStretch(1, 1 + std::min(processes_->rowCount(), 8));
        box->setStretch(2, 1 + std::min(agents_->rowCount(), 8));
        box->setStretch(3, 1 + std::min(warnings_->rowCount(), 24));
    }
    if (first) {
        // Small tables: each column as wide as its header and cells (ISA names, commands, warning texts
        // whole up to the cap; longer ones elide in the middle).
        agents_panel_->fitColumnsToContents(48);
        warnings_panel_->fitColumnsToContents(100);
        processes_panel_->fitColumnsToContents(60);
    }
}

void SummaryPage::refresh() {
    if (snapshot_.isNull()) {
        return;
    }
    const SessionInfo& i = snapshot_->info;
    command_->setText(i.argv.isEmpty() ? i.executable : i.argv);
    command_->setToolTip(i.executable);
    // The session file's own record (written by replayscope-run, format 2) wins over what a launch
    // from this window saw.
    if (i.hasExitStatus) {
        exit_->setText(i.exitSignal > 0 ? tr("%1 (killed by signal %2)").arg(i.exitStatus).arg(i.exitSignal)
                                        : QString::number(i.exitStatus));
        exit_->setForegroundRole(QPalette::WindowText);
    } else if (exit_status_) {
        const int s = *exit_status_;
        exit_->setText(s > 128 && s < 160 ? tr("%1 (killed by signal %2)").arg(s).arg(s - 128)
                                          : QString::number(s));
        exit_->setForegroundRole(QPalette::WindowText);
    } else {
        exit_->setText(tr("not recorded in the session file (the program is still running, or the file "
                          "predates format 2)"));
        exit_->setForegroundRole(QPalette::PlaceholderText); // secondary text, readable on light and dark
    }
    QString status;
    const QPalette& p = palette();
    if (i.complete) {
        status = tr("%1 — %2").arg(ThemeColors::statusHtml(p, ThemeColors::Status::good, tr("complete")),
                                   i.endReason);
    } else if (!i.endReason.isEmpty()) {
        status = tr("%1 — %2").arg(ThemeColors::statusHtml(p, ThemeColors::Status::bad, tr("incomplete")),
                                   i.endReason);
    } else {
        status = tr("%1 — no end recorded yet")
                     .arg(ThemeColors::statusHtml(p, ThemeColors::Status::caution,
                                                  tr("in progress or writer stopped")));
    }
    status += tr("; %L1 events stored, last sequence %L2").arg(i.eventsStored).arg(i.lastSequence);
    if (i.missingEvents > 0) {
        status += tr(", <b>%L1 events missing</b> in %2 gaps").arg(i.missingEvents).arg(i.gapRanges);
    }
    if (i.spooled > 0) {
        status += tr(", %L1 via the spool").arg(i.spooled);
    }
    if (i.internalErrors > 0) {
        status += tr(", <b>%L1 engine-internal errors</b> caught (see the warnings)").arg(i.internalErrors);
    }
    if (snapshot_->processes.size() > 1) {
        status += tr("; %1 processes").arg(snapshot_->processes.size());
    }
    if (i.rejectedFrames > 0) {
        status += tr(", <b>%L1 frames rejected</b>").arg(i.rejectedFrames);
    }
    if (!i.openedCopy.isEmpty()) {
        status += tr("<br><i>The file's write-ahead log needed recovery that a read-only directory does not "
                     "allow: showing a checkpointed copy (%1).</i>")
                      .arg(i.openedCopy.toHtmlEscaped());
    }
    status_->setText(status);
    host_->setText(tr("%1 on %2, pid %3, engine %4, session format %5")
                       .arg(format::wallTime(i.startWallNs > 0 ? i.startWallNs : i.createdWallNs), i.hostname)
                       .arg(i.pid)
                       .arg(i.engineVersion)
                       .arg(i.formatVersion));
    const SessionTotals totals = sessionTotals(snapshot_->dispatches);
    totals_->setText(
        tr("%1 dispatches: %2 replayed, %3 declined; %4 snapshotted; %5 regions skipped at restore")
            .arg(format::count(totals.dispatches), format::count(totals.replayed),
                 format::count(totals.declined()), format::bytes(totals.snapshotBytes),
                 format::count(totals.skips)));
    // Format 4: bytes the restores moved against what full restores would have moved.
    if (snapshot_->hasRestoreRecords) {
        const RestoreTotals& t = totals.restores;
        totals_->setText(
            totals_->text() +
            tr("<br>%1 restores moved <b>%2</b> of the %3 full restores would (%4 over the host "
               "link, %5 inside the device); %6 of %7 chunks dirty%8")
                .arg(format::count(t.restores), format::bytes(t.movedHost + t.movedDevice),
                     format::bytes(t.fullBytes), format::bytes(t.movedHost), format::bytes(t.movedDevice),
                     format::count(t.dirtyChunks), format::count(t.comparedChunks))
                .arg(t.missedChunks > 0 ? QStringLiteral(", ") +
                                              ThemeColors::statusHtml(
                                                  p, ThemeColors::Status::bad,
                                                  tr("%1 chunks missed").arg(format::count(t.missedChunks))) +
                                              tr(" by dirty restores (see the audit)")
                                        : QString()));
    }
    // The runner's options with readable values; the lines as recorded in the tooltip.
    config_->setText(ReplaySettings::text(i.configuration));
    // The recorded command line, whole, where the session holds it (the settings string may be cut).
    config_->setToolTip(i.runnerCommand.isEmpty()
                            ? i.configuration
                            : tr("%1\n\nRecorded with: %2").arg(i.configuration, i.runnerCommand));
}

void SummaryPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        refresh();
    }
}

} // namespace rs::app
