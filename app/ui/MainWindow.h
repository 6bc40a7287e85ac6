// SPDX-License-Identifier: MIT
// The inspector's window: the start page and one tab per open session; open by menu, drag-and-drop or
// command line; launch dialog; errors shown in a dialog that says which problem and why.
#pragma once

#include "model/SessionError.h"

#include <QMainWindow>

class QTabWidget;

namespace rs::app {

class ComparePage;
class JobView;
class LaunchDialog;
class SessionView;
class StartPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    /// Opens `path` in a new tab (or shows its tab when already open).
    SessionView* openSession(const QString& path, bool follow = false);
    QTabWidget* tabs() const { return tabs_; }
    StartPage* startPage() const { return start_; }
    LaunchDialog* launchDialog();
    /// Compares the current session tab's file (base) with the session file `path` in a new compare tab,
    /// which reads both on reader threads (ComparePage::openFiles); nullptr (and openFailed) when there is
    /// no loaded session tab or `path` fails the checks that need no SQLite (missing, not a regular file,
    /// empty, not SQLite, truncated); a later refusal reaches the page and openFailed.
    ComparePage* compareWith(const QString& path);
    /// Opens `paths` as the user gave them (command line, Open dialog): one file in its tab; several, the
    /// ranks of a job, as one Job tab, plus a tab per file when there are at most kMaxRankTabs of them.
    void openFiles(const QStringList& paths);
    static constexpr int kMaxRankTabs = 8;
    /// Opens the session files of one job (one per rank) merged in a tab "Job (N ranks)", loaded on the
    /// job view's reader thread (JobView::loaded). When a file is refused the tab is closed again (deleted
    /// later) and openFailed is emitted. Their own tabs are opened by openFiles, or one by one from the
    /// job view's Ranks table.
    JobView* openJob(const QStringList& paths);
    /// With false, errors are not shown in modal dialogs (tests, screenshots); they still close the tab.
    void setInteractive(bool interactive) { interactive_ = interactive; }

  signals:
    /// A session could not be opened (after the dialog, when interactive).
    void openFailed(const rs::app::SessionError& error);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    /// Saves the geometry and state for the next start (WindowState).
    void closeEvent(QCloseEvent* event) override;

  private:
    void showOpenDialog();
    void exportCurrentCharts();
    /// File > Export trace (Ctrl+E): the current session as a Perfetto (.pftrace) or Chrome (.json) trace.
    void exportCurrentTrace();
    /// File > Close tab (Ctrl+W): closes the current session tab (never the start page).
    void closeCurrentTab();
    /// Edit > Find (Ctrl+F): focuses the text filter of the top-most visible table on the current tab.
    void focusTableFilter();
    /// Help > Keyboard shortcuts.
    void showShortcuts();

    QTabWidget* tabs_;
    StartPage* start_;
    LaunchDialog* launch_ = nullptr;
    bool interactive_ = true;
};

} // namespace rs::app
