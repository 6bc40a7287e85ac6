// SPDX-License-Identifier: MIT
// One open session: its reader and the Summary, Kernels, Dispatches, Audit, Charts, Timeline and Counters
// pages (a tab of the main window).
#pragma once

#include "model/SessionError.h"
#include "model/SessionFileChange.h"
#include "model/SessionSnapshot.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QProcess;
class QTabWidget;

namespace rs::app {

class AuditPage;
class ChartsPage;
class CountersPage;
class DispatchesPage;
class KernelsPage;
class SessionReader;
class SummaryPage;
class TimelinePage;

class SessionView : public QWidget {
    Q_OBJECT
  public:
    explicit SessionView(QWidget* parent = nullptr);
    /// Starts reading `path`; `follow` for a session still being written (launched from here).
    void open(const QString& path, bool follow = false);
    QString path() const { return path_; }
    SessionSnapshot snapshot() const;
    void setExitStatus(int status);
    /// The replayscope-run the offered spool import runs (default: the one beside replayscope).
    void setRunnerPath(const QString& path) { runner_ = path; }

    QTabWidget* pages() const { return pages_; }
    SummaryPage* summaryPage() const { return summary_; }
    KernelsPage* kernelsPage() const { return kernels_; }
    DispatchesPage* dispatchesPage() const { return dispatches_; }
    AuditPage* auditPage() const { return audit_; }
    ChartsPage* chartsPage() const { return charts_; }
    TimelinePage* timelinePage() const { return timeline_; }
    CountersPage* countersPage() const { return counters_; }
    SessionReader* reader() const { return reader_; }
    /// The line above every page: file, command, counts, state, when the session ran on the simulated
    /// runtime, that it did (SimulatedRuntime), and when the file was replaced or deleted on disk after it
    /// was opened, that it was (with a link that opens the new file).
    QLabel* banner() const { return banner_; }

  signals:
    void loaded(const rs::app::SessionSnapshot& snapshot);
    /// The first snapshot of the session ended (or complete): the Recent list records its final state.
    void ended(const rs::app::SessionSnapshot& snapshot);
    /// The session's run left spools never imported (the banner offers to import them).
    void leftoverSpoolsFound(const QStringList& spools);
    /// The offered import finished and the session is being read again.
    void spoolsImported();
    void failed(const rs::app::SessionError& error);

  protected:
    /// On QEvent::PaletteChange the banner is written again in the new palette's colours.
    void changeEvent(QEvent* event) override;

  private:
    /// What the banner shows besides the notes: a placeholder while reading, the session, or the error.
    enum class BannerState { loading, waiting, session, failed };
    /// Where the offer to import leftover spools stands.
    enum class SpoolOffer { none, offered, importing, failed };

    void show(const SessionSnapshot& snapshot);
    /// Writes the banner from the state below in the colours of the current palette (ThemeColors).
    void updateBanner();
    QString sessionLine() const;
    QString fileNote() const;
    QString spoolNote() const;
    /// Notes in the banner that `spools` (of the session's run, never imported) exist, with a link that
    /// imports them.
    void offerSpoolImport(const QStringList& spools);
    /// Runs `replayscope-run --import-spool DIR -o SESSION` for the offered spools, then reads the session
    /// again (or says in the banner why the import failed).
    void importLeftoverSpools();

    QString path_;
    BannerState bannerState_ = BannerState::loading;
    SessionSnapshot shown_;                                  ///< the snapshot the banner describes
    SessionError error_;                                     ///< the error shown (BannerState::failed)
    SessionFileChange fileChange_ = SessionFileChange::none; ///< what became of the file on disk
    SpoolOffer spoolOffer_ = SpoolOffer::none; ///< spools of the run never imported, and their import
    int spoolCount_ = 0;
    int importExitCode_ = 0;
    QString importOutput_; ///< the failed import's last line
    QString spoolDirectory_;
    QProcess* importer_ = nullptr; ///< the running import, if any
    QString runner_;
    SessionReader* reader_;
    QLabel* banner_;
    QTabWidget* pages_;
    SummaryPage* summary_;
    KernelsPage* kernels_;
    DispatchesPage* dispatches_;
    AuditPage* audit_;
    ChartsPage* charts_;
    TimelinePage* timeline_;
    CountersPage* counters_;
    bool first_ = true;
    bool endedSeen_ = false;
};

} // namespace rs::app
