// SPDX-License-Identifier: MIT
#include "ui/SessionView.h"

#include "model/Format.h"
#include "model/RunCommand.h"
#include "model/SessionReader.h"
#include "model/SimulatedRuntime.h"
#include "model/ThemeColors.h"
#include "ui/AuditPage.h"
#include "ui/ChartsPage.h"
#include "ui/CountersPage.h"
#include "ui/DispatchesPage.h"
#include "ui/KernelsPage.h"
#include "ui/SummaryPage.h"
#include "ui/TimelinePage.h"

#include <QEvent>
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
    updateBanner();
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
        fileChange_ = change;
        updateBanner();
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
        error_ = e;
        bannerState_ = BannerState::failed;
        updateBanner();
        emit failed(e);
    });
}

void SessionView::open(const QString& path, bool follow) {
    path_ = path;
    fileChange_ = SessionFileChange::none;
    spoolOffer_ = SpoolOffer::none;
    endedSeen_ = false;
    bannerState_ = follow ? BannerState::waiting : BannerState::loading;
    updateBanner();
    reader_->open(path, follow);
}

SessionSnapshot SessionView::snapshot() const {
    return reader_->snapshot();
}

void SessionView::setExitStatus(int status) {
    summary_->setExitStatus(status);
}

void SessionView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        updateBanner();
    }
}

void SessionView::updateBanner() {
    switch (bannerState_) {
    case BannerState::loading:
        banner_->setText(tr("<i>Loading…</i>"));
        return;
    case BannerState::waiting:
        banner_->setText(tr("<i>Waiting for the session to start…</i>"));
        return;
    case BannerState::session:
        banner_->setText(sessionLine() + fileNote() + spoolNote());
        return;
    case BannerState::failed:
        banner_->setText(
            ThemeColors::statusHtml(palette(), ThemeColors::Status::bad, tr("%1:").arg(error_.title())) +
            QLatin1Char(' ') + error_.message.toHtmlEscaped() + fileNote() + spoolNote());
        return;
    }
}

QString SessionView::fileNote() const {
    switch (fileChange_) {
    case SessionFileChange::none:
        break;
    case SessionFileChange::replaced:
        return QStringLiteral("<br>") +
               ThemeColors::statusHtml(palette(), ThemeColors::Status::bad,
                                       tr("The file was replaced on disk")) +
               tr(" (a new run wrote it) after it was opened: what is shown is the session as read before. "
                  "<a href='reload'>Open the new file</a>");
    case SessionFileChange::deleted:
        return QStringLiteral("<br>") +
               ThemeColors::statusHtml(palette(), ThemeColors::Status::bad,
                                       tr("The file was deleted on disk")) +
               tr(" after it was opened: what is shown is the session as read before.");
    }
    return {};
}

QString SessionView::spoolNote() const {
    switch (spoolOffer_) {
    case SpoolOffer::none:
        break;
    case SpoolOffer::offered:
        return QStringLiteral("<br>") +
               ThemeColors::statusHtml(
                   palette(), ThemeColors::Status::bad,
                   tr("%n spool file(s) of this run were never imported", nullptr, spoolCount_)) +
               tr(" (its replayscope-run ended without importing them, killed perhaps): the events they hold "
                  "are missing here. <a href='import-spools'>Import them</a> (replayscope-run --import-spool "
                  "%1 -o %2)")
                   .arg(spoolDirectory_.toHtmlEscaped(), path_.toHtmlEscaped());
    case SpoolOffer::importing:
        return tr("<br><i>Importing the spools of %1…</i>").arg(spoolDirectory_.toHtmlEscaped());
    case SpoolOffer::failed:
        return QStringLiteral("<br>") +
               ThemeColors::statusHtml(palette(), ThemeColors::Status::bad,
                                       tr("The spools were not imported")) +
               tr(" (replayscope-run exited with %1): %2")
                   .arg(importExitCode_)
                   .arg(importOutput_.toHtmlEscaped());
    }
    return {};
}

QString SessionView::sessionLine() const {
    const SessionSnapshot& s = shown_;
    const SessionInfo& i = s->info;
    const QPalette& p = palette();
    const QString state =
        i.complete ? ThemeColors::statusHtml(p, ThemeColors::Status::good, tr("complete"), false)
        : i.ended  ? ThemeColors::statusHtml(p, ThemeColors::Status::bad, tr("incomplete"), false)
                   : ThemeColors::statusHtml(p, ThemeColors::Status::caution, tr("live / not ended"), false);
    const QString processes =
        s->processes.size() > 1 ? tr(", %1 processes").arg(s->processes.size()) : QString();
    const QString copy = i.openedCopy.isEmpty()
                             ? QString()
                             : tr(" — <i>read from a checkpointed copy (the WAL needs recovery and the "
                                  "directory is read-only)</i>");
    const QString simulated = SimulatedRuntime::note(s);
    QString line =
        tr("<b>%1</b> — %2 — %3 dispatches, %4 GPU agents%5 — %6%7%8%9")
            .arg(QFileInfo(i.path).fileName().toHtmlEscaped(),
                 (i.argv.isEmpty() ? i.executable : i.argv).toHtmlEscaped(),
                 format::count(qint64(s->dispatches.size())))
            .arg(std::count_if(s->agents.cbegin(), s->agents.cend(),
                               [](const AgentInfo& a) { return a.isGpu(); }))
            .arg(processes, state, s->regionsLoaded ? QString() : tr(" <i>(loading regions…)</i>"), copy,
                 simulated.isEmpty() ? QString()
                                     : QStringLiteral("<br>") +
                                           ThemeColors::statusHtml(p, ThemeColors::Status::caution,
                                                                   tr("Simulated runtime:")) +
                                           QLatin1Char(' ') + simulated.toHtmlEscaped());
    if (!s->implausible.isEmpty()) {
        line += QStringLiteral("<br>") +
                ThemeColors::statusHtml(p, ThemeColors::Status::bad, tr("Implausible values:")) +
                QLatin1Char(' ') + s->implausible.summary().toHtmlEscaped();
    }
    return line;
}

void SessionView::show(const SessionSnapshot& s) {
    const SessionInfo& i = s->info;
    shown_ = s;
    bannerState_ = BannerState::session;
    updateBanner();
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
    spoolCount_ = int(spools.size());
    spoolOffer_ = SpoolOffer::offered;
    updateBanner();
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
    spoolOffer_ = SpoolOffer::importing;
    updateBanner();
    connect(importer_, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        const QString output = QString::fromLocal8Bit(importer_->readAll()).trimmed();
        importer_->deleteLater();
        importer_ = nullptr;
        if (status == QProcess::NormalExit && exitCode == 0) {
            emit spoolsImported();
            open(path_, false);
            return;
        }
        spoolOffer_ = SpoolOffer::failed;
        importExitCode_ = exitCode;
        importOutput_ = output.section(QLatin1Char('\n'), -1);
        updateBanner();
    });
    importer_->start(runner_.isEmpty() ? RunCommand::runnerPath() : runner_,
                     {QStringLiteral("--import-spool"), spoolDirectory_, QStringLiteral("-o"), path_});
}

} // namespace rs::app
