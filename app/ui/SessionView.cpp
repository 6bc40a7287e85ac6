// SPDX-License-Identifier: MIT
#include "ui/SessionView.h"

#include "model/Format.h"
#include "model/RunCommand.h"
#include "model/SessionReader.h"
#include "model/SimulatedRuntime.h"
#include "ui/AuditPage.h"
#include "ui/ChartsPage.h"
#include "ui/CountersPage.h"
#include "ui/DispatchesPage.h"
#include "ui/KernelsPage.h"
#include "ui/SummaryPage.h"
#include "ui/TimelinePage.h"

#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace rs::app {

SessionView::SessionView(QWidget* parent)
    : QWidget(parent), reader_(new SessionReader(this)), banner_(new QLabel(this)),
      pages_(new QTabWidget(this)), summary_(new SummaryPage(this)), kernels_(new KernelsPage(this)),
      dispatches_(new DispatchesPage(this)), audit_(new AuditPage(this)), charts_(new ChartsPage(this)),
      timeline_(new TimelinePage(this)), counters_(new CountersPage(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    banner_->setTextFormat(Qt::RichText);
    banner_->setText(tr("<i>Loading…</i>"));
    layout->addWidget(banner_);
    pages_->setDocumentMode(true);
    pages_->addTab(summary_, tr("Summary"));
    pages_->addTab(kernels_, tr("Kernels"));
    pages_->addTab(dispatches_, tr("Dispatches"));
    pages_->addTab(audit_, tr("Audit"));
    pages_->addTab(charts_, tr("Charts"));
    pages_->addTab(timeline_, tr("Timeline"));
    pages_->addTab(counters_, tr("Counters"));
    // A window clicked on the timeline is the dispatch selected in the Dispatches page (a double click shows
    // that page); the dispatch current there is outlined on the timeline.
    connect(timeline_, &TimelinePage::dispatchClicked, dispatches_, &DispatchesPage::selectDispatch);
    connect(dispatches_, &DispatchesPage::currentDispatchChanged, timeline_, &TimelinePage::setSelectedRow);
    connect(timeline_, &TimelinePage::dispatchActivated, this, [this](int row) {
        if (dispatches_->selectDispatch(row)) {
            pages_->setCurrentWidget(dispatches_);
        }
    });
    layout->addWidget(pages_, 1);
    connect(reader_, &SessionReader::snapshotReady, this, &SessionView::show);
    // The charts' spread list selects a dispatch on the dispatches page; activating a row goes there.
    connect(charts_, &ChartsPage::dispatchSelected, dispatches_, &DispatchesPage::selectDispatch);
    connect(charts_, &ChartsPage::dispatchActivated, this, [this](int row) {
        if (dispatches_->selectDispatch(row)) {
            pages_->setCurrentWidget(dispatches_);
        }
    });
    // A file replaced or deleted under the open connection: the pages keep what was read, and the banner
    // says so, with a link that reads the file now at the path.
    banner_->setOpenExternalLinks(false);
    connect(reader_, &SessionReader::fileChanged, this, [this](SessionFileChange change) {
        switch (change) {
        case SessionFileChange::none:
            fileNote_.clear();
            break;
        case SessionFileChange::replaced:
            fileNote_ =
                tr("<br><b style='color:#c62828'>The file was replaced on disk</b> (a new run wrote it) "
                   "after it was opened: what is shown is the session as read before. "
                   "<a href='reload'>Open the new file</a>");
            break;
        case SessionFileChange::deleted:
            fileNote_ = tr("<br><b style='color:#c62828'>The file was deleted on disk</b> after it was "
                           "opened: what is shown is the session as read before.");
            break;
        }
        banner_->setText(bannerText_ + fileNote_ + spoolNote_);
    });
    connect(reader_, &SessionReader::leftoverSpools, this, &SessionView::offerSpoolImport);
    connect(banner_, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == QLatin1String("reload")) {
            open(path_, false);
        } else if (link == QLatin1String("import-spools")) {
            importLeftoverSpools();
        }
    });
    connect(reader_, &SessionReader::failed, this, [this](const SessionError& e) {
        banner_->setText(tr("<b style='color:#c62828'>%1:</b> %2").arg(e.title(), e.message.toHtmlEscaped()));
        emit failed(e);
    });
}

void SessionView::open(const QString& path, bool follow) {
    path_ = path;
    fileNote_.clear();
    spoolNote_.clear();
    endedSeen_ = false;
    banner_->setText(follow ? tr("<i>Waiting for the session to start…</i>") : tr("<i>Loading…</i>"));
    reader_->open(path, follow);
}

SessionSnapshot SessionView::snapshot() const {
    return reader_->snapshot();
}

void SessionView::setExitStatus(int status) {
    summary_->setExitStatus(status);
}

void SessionView::show(const SessionSnapshot& s) {
    const SessionInfo& i = s->info;
    const QString state = i.complete ? tr("<span style='color:#2e7d32'>complete</span>")
                          : i.ended  ? tr("<span style='color:#c62828'>incomplete</span>")
                                     : tr("<span style='color:#8d6e00'>live / not ended</span>");
    const QString processes =
        s->processes.size() > 1 ? tr(", %1 processes").arg(s->processes.size()) : QString();
    const QString copy = i.openedCopy.isEmpty()
                             ? QString()
                             : tr(" — <i>read from a checkpointed copy (the WAL needs recovery and the "
                                  "directory is read-only)</i>");
    const QString simulated = SimulatedRuntime::note(s);
    bannerText_ =
        tr("<b>%1</b> — %2 — %3 dispatches, %4 GPU agents%5 — %6%7%8%9")
            .arg(QFileInfo(i.path).fileName().toHtmlEscaped(),
                 (i.argv.isEmpty() ? i.executable : i.argv).toHtmlEscaped(),
                 format::count(qint64(s->dispatches.size())))
            .arg(std::count_if(s->agents.cbegin(), s->agents.cend(),
                               [](const AgentInfo& a) { return a.isGpu(); }))
            .arg(processes, state, s->regionsLoaded ? QString() : tr(" <i>(loading regions…)</i>"), copy,
                 simulated.isEmpty() ? QString()
                                     : tr("<br><b style='color:#8d6e00'>Simulated runtime:</b> %1")
                                           .arg(simulated.toHtmlEscaped()));
    if (!s->implausible.isEmpty()) {
        bannerText_ += tr("<br><b style='color:#c62828'>Implausible values:</b> %1")
                           .arg(s->implausible.summary().toHtmlEscaped());
    }
    banner_->setText(bannerText_ + fileNote_ + spoolNote_);
    summary_->setSnapshot(s);
    kernels_->setSnapshot(s);
    dispatches_->setSnapshot(s);
    audit_->setSnapshot(s);
    charts_->setSnapshot(s);
    timeline_->setSnapshot(s);
    counters_->setSnapshot(s);
    if (first_) {
        first_ = false;
        emit loaded(s);
    }
    if (!endedSeen_ && (i.ended || i.complete)) {
        endedSeen_ = true;
        emit ended(s);
    }
}

void SessionView::offerSpoolImport(const QStringList& spools) {
    spoolDirectory_ = QFileInfo(spools.first()).absolutePath();
    spoolNote_ =
        tr("<br><b style='color:#c62828'>%n spool file(s) of this run were never imported</b> "
           "(its replayscope-run ended without importing them, killed perhaps): the events they hold "
           "are missing here. <a href='import-spools'>Import them</a> (replayscope-run --import-spool "
           "%1 -o %2)",
           nullptr, int(spools.size()))
            .arg(spoolDirectory_.toHtmlEscaped(), path_.toHtmlEscaped());
    banner_->setText(bannerText_ + fileNote_ + spoolNote_);
    emit leftoverSpoolsFound(spools);
}

void SessionView::importLeftoverSpools() {
    if (importer_ != nullptr) {
        return; // an import is running
    }
    // replayscope-run claims the session for the import and checks each spool's origin (its owner, the
    // private directory, the run it names) before it touches the file.
    importer_ = new QProcess(this);
    importer_->setProcessChannelMode(QProcess::MergedChannels);
    spoolNote_ = tr("<br><i>Importing the spools of %1…</i>").arg(spoolDirectory_.toHtmlEscaped());
    banner_->setText(bannerText_ + fileNote_ + spoolNote_);
    connect(importer_, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        const QString output = QString::fromLocal8Bit(importer_->readAll()).trimmed();
        importer_->deleteLater();
        importer_ = nullptr;
        if (status == QProcess::NormalExit && exitCode == 0) {
            emit spoolsImported();
            open(path_, false);
            return;
        }
        spoolNote_ = tr("<br><b style='color:#c62828'>The spools were not imported</b> (replayscope-run "
                        "exited with %1): %2")
                         .arg(exitCode)
                         .arg(output.section(QLatin1Char('\n'), -1).toHtmlEscaped());
        banner_->setText(bannerText_ + fileNote_ + spoolNote_);
    });
    importer_->start(runner_.isEmpty() ? RunCommand::runnerPath() : runner_,
                     {QStringLiteral("--import-spool"), spoolDirectory_, QStringLiteral("-o"), path_});
}

} // namespace rs::app
