// SPDX-License-Identifier: MIT
#include "ui/MainWindow.h"

#include "model/MergedSession.h"
#include "model/RecentSessions.h"
#include "model/SessionComparison.h"
#include "model/SessionLoader.h"
#include "model/TraceExporter.h"
#include "ui/ChartsPage.h"
#include "ui/ComparePage.h"
#include "ui/JobView.h"
#include "ui/LaunchDialog.h"
#include "ui/SessionView.h"
#include "ui/StartPage.h"
#include "ui/Theme.h"
#include "ui/WindowState.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QUrl>

#include <utility>

namespace rs::app {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), tabs_(new QTabWidget(this)), start_(new StartPage(this)) {
    setWindowTitle(QStringLiteral("ReplayScope"));
    setAcceptDrops(true);
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    tabs_->addTab(start_, tr("Start"));
    tabs_->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    setCentralWidget(tabs_);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int i) {
        if (i > 0) {
            QWidget* w = tabs_->widget(i);
            tabs_->removeTab(i);
            w->deleteLater();
        }
    });
    connect(start_, &StartPage::openRequested, this, [this](const QString& p) { openSession(p); });
    connect(start_, &StartPage::openDialogRequested, this, &MainWindow::showOpenDialog);
    connect(start_, &StartPage::launchRequested, this, [this] {
        launchDialog()->show();
        launchDialog()->raise();
    });

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, &MainWindow::showOpenDialog);
    file->addAction(tr("&Launch…"), QKeySequence(tr("Ctrl+L")), this, [this] { launchDialog()->show(); });
    file->addAction(tr("Export charts of this session…"), this, &MainWindow::exportCurrentCharts);
    file->addAction(tr("Export &trace of this session…"), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::exportCurrentTrace);
    file->addAction(tr("Compare with…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Compare with"), QString(),
                                                       tr("ReplayScope sessions (*.rsdb);;All files (*)"));
        if (!p.isEmpty()) {
            compareWith(p);
        }
    });
    file->addSeparator();
    file->addAction(tr("&Close tab"), QKeySequence::Close, this, &MainWindow::closeCurrentTab);
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Find in table"), QKeySequence::Find, this, &MainWindow::focusTableFilter);
    // View > Theme: the desktop's colours or Fusion light or dark, applied at once and remembered (the
    // same setting as replayscope --theme).
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* themes = view->addMenu(tr("&Theme"));
    auto* themeGroup = new QActionGroup(this);
    for (const auto& [choice, label] :
         {std::pair{Theme::Choice::system, tr("&System")}, std::pair{Theme::Choice::light, tr("&Light")},
          std::pair{Theme::Choice::dark, tr("&Dark")}}) {
        QAction* action = themes->addAction(label);
        action->setObjectName(QStringLiteral("theme-") + Theme::name(choice));
        action->setCheckable(true);
        action->setChecked(Theme::current() == choice);
        themeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [choice = choice] {
            Theme::apply(choice);
            Theme::save(choice);
        });
    }
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    help->addAction(tr("&Documentation"), this, [this] {
        // The installed package's documentation, beside the binary's prefix (share/doc/replayscope).
        const QString dir = QDir(QApplication::applicationDirPath())
                                .absoluteFilePath(QStringLiteral("../share/doc/replayscope"));
        if (QFileInfo(dir).isDir()) {
            QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
        } else {
            statusBar()->showMessage(tr("No documentation installed at %1: see docs/inspector.md in the "
                                        "source tree, or man replayscope")
                                         .arg(dir));
        }
    });
    help->addSeparator();
    help->addAction(tr("&About ReplayScope"), this, [this] {
        QMessageBox::about(
            this, tr("About ReplayScope"),
            tr("<b>ReplayScope %1</b><p>Kernel replay with snapshot and restore for AMD ROCm: "
               "launch programs under replayscope-run, open session files (*.rsdb), audit what "
               "was captured, excluded, skipped and declined.</p>")
                .arg(QApplication::applicationVersion()));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    QSettings settings;
    WindowState::restore(this, settings); // last geometry, or 90 % of the screen on first start
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    WindowState::save(this, settings);
    QMainWindow::closeEvent(event);
}

LaunchDialog* MainWindow::launchDialog() {
    if (!launch_) {
        launch_ = new LaunchDialog(this);
        connect(launch_, &LaunchDialog::sessionStarted, this,
                [this](const QString& p) { openSession(p, true); });
        connect(launch_, &LaunchDialog::runFinished, this, [this](const QString& p, int status) {
            for (int i = 1; i < tabs_->count(); ++i) {
                if (auto* v = qobject_cast<SessionView*>(tabs_->widget(i)); v && v->path() == p) {
                    v->setExitStatus(status);
                }
            }
            statusBar()->showMessage(
                tr("%1 finished with status %2").arg(QFileInfo(p).fileName()).arg(status));
        });
    }
    return launch_;
}

SessionView* MainWindow::openSession(const QString& path, bool follow) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (int i = 1; i < tabs_->count(); ++i) {
        if (auto* v = qobject_cast<SessionView*>(tabs_->widget(i)); v && v->path() == absolute) {
            if (follow) {
                v->open(absolute, true);
            }
            tabs_->setCurrentIndex(i);
            return v;
        }
    }
    auto* view = new SessionView(tabs_);
    const int index = tabs_->addTab(view, QFileInfo(absolute).fileName());
    tabs_->setTabToolTip(index, absolute);
    tabs_->setCurrentIndex(index);
    // Recorded when first shown, and again when it ends: a launch followed live is not left in the Recent
    // list as "incomplete, 0 dispatches".
    for (auto signal : {&SessionView::loaded, &SessionView::ended}) {
        connect(view, signal, this, [this](const SessionSnapshot& s) {
            RecentSessions::add(s);
            start_->refresh();
        });
    }
    connect(view, &SessionView::failed, this, [this, view](const SessionError& e) {
        if (view->snapshot().isNull()) { // nothing to show: close the tab
            const int i = tabs_->indexOf(view);
            if (i > 0) {
                tabs_->removeTab(i);
            }
            view->deleteLater();
        }
        if (interactive_) {
            QMessageBox box(QMessageBox::Warning, e.title(), tr("<b>%1</b>").arg(e.path.toHtmlEscaped()),
                            QMessageBox::Ok, this);
            box.setInformativeText(e.message);
            box.exec();
        }
        emit openFailed(e);
    });
    view->open(absolute, follow);
    return view;
}

void MainWindow::showOpenDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open session"), QString(), tr("ReplayScope sessions (*.rsdb);;All files (*)"));
    openFiles(paths);
}

void MainWindow::openFiles(const QStringList& paths) {
    // A job of many ranks opens as its one view: a tab per rank only up to kMaxRankTabs files (the Ranks
    // table opens any other on a double click).
    if (paths.size() <= kMaxRankTabs) {
        for (const QString& p : paths) {
            openSession(p);
        }
    }
    if (paths.size() > 1) {
        openJob(paths);
    }
}

ComparePage* MainWindow::compareWith(const QString& path) {
    auto* view = qobject_cast<SessionView*>(tabs_->currentWidget());
    SessionError e;
    if (!view || view->snapshot().isNull()) {
        e.kind = SessionError::Kind::read;
        e.path = path;
        e.message = tr("Open a session first: it is the base of the comparison.");
    }
    // The checks that need no SQLite are immediate; the files are then read on reader threads (the page
    // fills in when both are there) and a later refusal reaches the page and openFailed.
    if (!e.isError()) {
        e = SessionLoader::checkFile(path);
    }
    if (e.isError()) {
        if (interactive_) {
            QMessageBox::warning(this, e.title(),
                                 tr("<b>%1</b><br>%2").arg(e.path.toHtmlEscaped(), e.message));
        }
        emit openFailed(e);
        return nullptr;
    }
    auto* page = new ComparePage(tabs_);
    connect(page, &ComparePage::failed, this, &MainWindow::openFailed);
    page->openFiles(view->path(), path);
    const int i = tabs_->addTab(
        page, tr("Compare: %1 / %2").arg(QFileInfo(view->path()).fileName(), QFileInfo(path).fileName()));
    tabs_->setCurrentIndex(i);
    return page;
}

JobView* MainWindow::openJob(const QStringList& paths) {
    // The files are read and merged on the job view's reader thread; the tab shows "Loading…" until then.
    auto* job = new JobView(tabs_);
    const int i = tabs_->addTab(job, tr("Job (%1 ranks)").arg(paths.size()));
    tabs_->setTabToolTip(i, paths.join(QLatin1Char('\n')));
    tabs_->setCurrentIndex(i);
    connect(job, &JobView::failed, this, [this, job](const SessionError& e) {
        // The file's own tab has already reported it (the message box is there).
        if (const int at = tabs_->indexOf(job); at >= 0) {
            tabs_->removeTab(at);
        }
        job->deleteLater();
        emit openFailed(e);
    });
    connect(job, &JobView::openRankRequested, this, [this](const QString& p) { openSession(p); });
    job->open(paths);
    return job;
}

void MainWindow::closeCurrentTab() {
    const int i = tabs_->currentIndex();
    if (i > 0) { // the start page stays
        emit tabs_->tabCloseRequested(i);
    }
}

void MainWindow::focusTableFilter() {
    // The text filter of a table visible on the current tab's current page.
    QWidget* page = tabs_->currentWidget();
    if (page == nullptr) {
        return;
    }
    // The top-most one: the page's main table sits above its detail tables.
    QLineEdit* best = nullptr;
    for (QLineEdit* edit : page->findChildren<QLineEdit*>()) {
        if (edit->isVisible() && edit->objectName().endsWith(QLatin1String("TextFilter")) &&
            (best == nullptr || edit->mapTo(page, QPoint()).y() < best->mapTo(page, QPoint()).y())) {
            best = edit;
        }
    }
    if (best != nullptr) {
        best->setFocus(Qt::ShortcutFocusReason);
        best->selectAll();
    }
}

void MainWindow::showShortcuts() {
    QMessageBox::information(
        this, tr("Keyboard shortcuts"),
        tr("<table>"
           "<tr><td><b>%1</b></td><td>Open a session</td></tr>"
           "<tr><td><b>Ctrl+L</b></td><td>Launch a program with replay</td></tr>"
           "<tr><td><b>Ctrl+E</b></td><td>Export the current session's trace (Perfetto "
           ".pftrace or Chrome .json)</td></tr>"
           "<tr><td><b>%2</b></td><td>Find: the current table's filter</td></tr>"
           "<tr><td><b>%3</b></td><td>Close the current tab</td></tr>"
           "<tr><td><b>%4</b></td><td>Quit</td></tr>"
           "<tr><td><b>Timeline</b></td><td>wheel: zoom; drag: pan; double click: fit</td></tr>"
           "</table>")
            .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText),
                 QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText),
                 QKeySequence(QKeySequence::Close).toString(QKeySequence::NativeText),
                 QKeySequence(QKeySequence::Quit).toString(QKeySequence::NativeText)));
}

void MainWindow::exportCurrentTrace() {
    auto* view = qobject_cast<SessionView*>(tabs_->currentWidget());
    if (!view) {
        statusBar()->showMessage(tr("Open a session first: the trace is the current session's."));
        return;
    }
    const QString base = QFileInfo(view->path()).completeBaseName();
    const QString file =
        QFileDialog::getSaveFileName(this, tr("Export trace"), base + QStringLiteral(".pftrace"),
                                     tr("Perfetto trace (*.pftrace);;Chrome trace JSON (*.json)"));
    if (file.isEmpty()) {
        return;
    }
    QString error;
    if (TraceExporter::exportFiles({view->path()}, file, error)) {
        statusBar()->showMessage(tr("Trace written to %1 (open it in ui.perfetto.dev)").arg(file));
    } else {
        QMessageBox::warning(this, tr("Export trace"), error);
    }
}

void MainWindow::exportCurrentCharts() {
    auto* view = qobject_cast<SessionView*>(tabs_->currentWidget());
    if (!view) {
        return;
    }
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export charts to"));
    if (!dir.isEmpty()) {
        view->chartsPage()->flush();
        const QStringList files = view->chartsPage()->exportPngs(dir);
        statusBar()->showMessage(tr("%1 charts written to %2").arg(files.size()).arg(dir));
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            openSession(url.toLocalFile());
        }
    }
    event->acceptProposedAction();
}

} // namespace rs::app
