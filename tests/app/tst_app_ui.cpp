// SPDX-License-Identifier: MIT
// Widgets offscreen: the launch dialog driving a real replayscope-run with the session filling in,
// Stop, the main window on good and bad files, chart batching, the headless commands, and the dark theme.
#include "app_test_support.h"

#include "model/ChartSeriesBuilder.h"
#include "model/DispatchTableModel.h"
#include "model/PassTableModel.h"
#include "model/RecentSessions.h"
#include "model/SessionLoader.h"
#include "model/SessionReader.h"
#include "model/ThemeColors.h"
#include "ui/AuditPage.h"
#include "ui/ChartAdapter.h"
#include "ui/ChartsPage.h"
#include "ui/DispatchDetailWidget.h"
#include "ui/DispatchesPage.h"
#include "ui/LaunchDialog.h"
#include "ui/MainWindow.h"
#include "ui/SessionView.h"
#include "ui/StartPage.h"
#include "ui/TablePanel.h"
#include "ui/Theme.h"
#include "ui/TimelineCanvas.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <algorithm>
#include <cstdio>

using namespace rs::app;

namespace {
/// Environment variables a run on a machine without a display lacks.
const QStringList kNoDisplay = {QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("DISPLAY"),
                                QStringLiteral("WAYLAND_DISPLAY")};

/// The colours a style sheet sets: `background` (or background-color) and `color`; invalid when absent.
struct SheetColors {
    QColor background, foreground;
};
SheetColors sheetColors(const QString& sheet) {
    static const QRegularExpression background(QStringLiteral("background(?:-color)?\\s*:\\s*([#\\w]+)"));
    static const QRegularExpression foreground(QStringLiteral("(?<![-\\w])color\\s*:\\s*([#\\w]+)"));
    const QRegularExpressionMatch b = background.match(sheet), f = foreground.match(sheet);
    return {b.hasMatch() ? QColor::fromString(b.captured(1)) : QColor(),
            f.hasMatch() ? QColor::fromString(f.captured(1)) : QColor()};
}

/// A colour rich text sets inline (`<b style='color:#c62828'>text</b>`); a swatch colours a legend's square
/// only ("■"): a graphic, not text.
struct InlineColor {
    QColor color;
    bool swatch = false;
};
QList<InlineColor> inlineColors(const QString& html) {
    static const QRegularExpression color(
        QStringLiteral("(?<![-\\w])color\\s*:\\s*(#[0-9a-fA-F]{3,6})['\"]?>([^<]*)<"));
    QList<InlineColor> out;
    for (const QRegularExpressionMatch& m : color.globalMatch(html)) {
        out.push_back({QColor::fromString(m.captured(1)), m.captured(2) == QStringLiteral("■")});
    }
    return out;
}

/// The inspector run with no display and no platform chosen: headless commands must pick offscreen
/// themselves.
test::RunResult runInspector(const QStringList& args, int ms = 60000, bool* finished = nullptr) {
    return test::runInspector(args, ms, finished, kNoDisplay);
}
} // namespace

class AppUiTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void launchDialogRunsSimulatedWorkload() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        LaunchDialog* launch = window.launchDialog();
        launch->setRunnerPath(QStringLiteral(RS_REPLAYSCOPE_RUN));
        RunCommand::Options o;
        o.program = QStringLiteral(RS_WORKLOAD_DIR "/two_agents");
        // 16 dispatches of a 60 ms kernel, 3 passes each: the run lasts seconds, so the tab fills in live.
        // Two simulated GPUs by the dialog's default, as packaging/demo.sh runs the demo.
        o.environment = {QStringLiteral("HSA_SIM_KERNEL_TIME_NS=accumulate.kd=60000000")};
        o.passes = 3;
        o.simulate = true;
        o.output = dir_.path() + QStringLiteral("/launched.rsdb");
        launch->setOptions(o);
        // The command Run will start is shown before it runs, with the simulated GPU count.
        QVERIFY2(launch->commandLine().startsWith(QStringLiteral("HSA_SIM_GPU_AGENTS=2 ")) &&
                     launch->commandLine().contains(QStringLiteral(" --simulate -- ")),
                 qPrintable(launch->commandLine()));
        QSignalSpy started(launch, &LaunchDialog::sessionStarted);
        QSignalSpy finished(launch, &LaunchDialog::runFinished);
        QVERIFY(launch->start());
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.first().first().toString(), o.output);
        QCOMPARE(window.tabs()->count(), 2);
        auto* view = qobject_cast<SessionView*>(window.tabs()->widget(1));
        QVERIFY(view);
        DispatchTableModel* model = view->dispatchesPage()->model();
        // What the tab shows while the program still runs: the table's rows (id, kernel, outcome) and the
        // banner's dispatch count and state, captured whenever rows are inserted.
        auto rowText = [model](int row) {
            return QStringList{model->index(row, DispatchTableModel::Id).data().toString(),
                               model->index(row, DispatchTableModel::Kernel).data().toString(),
                               model->index(row, DispatchTableModel::Outcome).data().toString()}
                .join(QLatin1Char(':'));
        };
        auto bannerText = [view] {
            for (const QLabel* label : view->findChildren<QLabel*>()) {
                if (label->text().contains(QStringLiteral(" dispatches, "))) {
                    return label->text();
                }
            }
            return QString();
        };
        QVector<int> seen;
        QList<QStringList> liveRows; // rows shown before the run finished, one list per insertion
        QStringList liveBanners;
        connect(model, &QAbstractItemModel::rowsInserted, this, [&] {
            seen << model->rowCount();
            if (finished.isEmpty() && launch->isRunning() && model->rowCount() < 16) {
                QStringList rows;
                for (int i = 0; i < model->rowCount(); ++i) {
                    rows << rowText(i);
                }
                liveRows << rows;
                liveBanners << bannerText();
            }
        });
        connect(model, &QAbstractItemModel::modelReset, this, [&] { seen << model->rowCount(); });
        QVERIFY(finished.wait(90000));
        QCOMPARE(finished.first().at(1).toInt(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!view->snapshot().isNull() && view->snapshot()->info.complete, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 16, 10000);
        // The Recent list holds the ended session, not its first live picture; GPUs only (no CPU agent).
        QTRY_VERIFY(!RecentSessions::load().isEmpty() && RecentSessions::load().first().complete);
        QCOMPARE(RecentSessions::load().first().dispatches, 16);
        QCOMPARE(RecentSessions::load().first().agents, 2);
        QVERIFY(!seen.isEmpty());
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        // The finished table: every dispatch replayed with 3 passes (rows first shown live refreshed in
        // place).
        QStringList finalRows;
        for (int i = 0; i < 16; ++i) {
            QCOMPARE(model->index(i, DispatchTableModel::Kernel).data().toString(),
                     QStringLiteral("accumulate"));
            QCOMPARE(model->index(i, DispatchTableModel::Outcome).data().toString(),
                     QStringLiteral("replayed"));
            QCOMPARE(model->index(i, DispatchTableModel::Passes).data().toString(), QStringLiteral("3"));
            finalRows << rowText(i);
        }
        // Live: rows appeared before the run ended, fewer than all, each already as it is at the end, and
        // the banner counted them (agents: the CPU and the two GPUs) and said the session is still live.
        QVERIFY2(!liveRows.isEmpty(),
                 qPrintable(QStringLiteral("no rows shown while the program ran; counts: ") +
                            QString::number(seen.size())));
        for (int k = 0; k < liveRows.size(); ++k) {
            const QStringList& rows = liveRows[k];
            QVERIFY(!rows.isEmpty() && rows.size() < 16);
            for (const QString& row : rows) {
                QVERIFY2(finalRows.contains(row), qPrintable(row));
            }
            QVERIFY2(liveBanners[k].contains(QStringLiteral("live / not ended")), qPrintable(liveBanners[k]));
            QVERIFY2(liveBanners[k].contains(QStringLiteral("%1 dispatches, 2 GPU agents").arg(rows.size())),
                     qPrintable(liveBanners[k]));
        }
        QVERIFY(launch->log().contains(QStringLiteral("16 dispatches")));
        // The detail shows the selected dispatch's passes.
        view->dispatchesPage()->selectRow(0);
        // Three passes, and once the engine reports restores (format 4) the restore after the last pass.
        const SessionSnapshot shown = view->snapshot();
        const int row = view->dispatchesPage()->detail()->dispatchRow();
        QVERIFY(row >= 0);
        const int restores = shown->restoreBegin.empty() ? 0
                                                         : shown->restoreBegin[std::size_t(row) + 1] -
                                                               shown->restoreBegin[std::size_t(row)];
        QVERIFY2(restores == 0 || restores == 3, qPrintable(QString::number(restores)));
        QCOMPARE(view->dispatchesPage()->detail()->passes()->rowCount(), restores ? 4 : 3);
        // The tab counts the passes run; the final restore's row is named, not counted as a pass.
        QCOMPARE(view->dispatchesPage()->detail()->tabs()->tabText(1),
                 restores ? QStringLiteral("Passes (3 + final restore)") : QStringLiteral("Passes (3)"));
    }

    void launchDialogStandinsField() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("hip")));
        QFile lib(dir.filePath(QStringLiteral("hip/libdemo-standins.so")));
        QVERIFY(lib.open(QIODevice::WriteOnly));
        lib.close();
        LaunchDialog launch;
        auto* standins = launch.findChild<QLineEdit*>(QStringLiteral("standins"));
        auto* simulate = launch.findChild<QCheckBox*>(QStringLiteral("simulate"));
        auto* program = launch.findChild<QLineEdit*>(QStringLiteral("program"));
        QVERIFY(standins && simulate && program);
        QVERIFY(!standins->isEnabledTo(&launch)); // follows "Simulate", off by default
        simulate->setChecked(true);
        QVERIFY(standins->isEnabledTo(&launch));
        // Choosing a program with lib<name>-standins.so beside it fills the empty field.
        program->setText(dir.filePath(QStringLiteral("hip/demo")));
        QCOMPARE(standins->text(), dir.filePath(QStringLiteral("hip/libdemo-standins.so")));
        QCOMPARE(launch.options().standins, dir.filePath(QStringLiteral("hip/libdemo-standins.so")));
        // What the user typed is kept when the program changes.
        standins->setText(QStringLiteral("/x/liba.so,/x/libb.so"));
        program->setText(dir.filePath(QStringLiteral("hip/demo2")));
        program->setText(dir.filePath(QStringLiteral("hip/demo")));
        QCOMPARE(standins->text(), QStringLiteral("/x/liba.so,/x/libb.so"));
        // setOptions: a relative program with the working directory given afterwards still prefills.
        RunCommand::Options o;
        o.program = QStringLiteral("hip/demo");
        o.workingDirectory = dir.path();
        o.simulate = true;
        launch.setOptions(o);
        QCOMPARE(standins->text(), QStringLiteral("hip/libdemo-standins.so"));
        o.standins = QStringLiteral("/y/libc.so");
        launch.setOptions(o);
        QCOMPARE(launch.options().standins, QStringLiteral("/y/libc.so"));
        o.simulate = false;
        launch.setOptions(o);
        QVERIFY(!standins->isEnabledTo(&launch));
    }

    void stopEndsTheTargetCleanly() {
        LaunchDialog launch;
        launch.setRunnerPath(QStringLiteral(RS_REPLAYSCOPE_RUN));
        RunCommand::Options o;
        o.program = QStringLiteral("/bin/sleep");
        o.arguments = {QStringLiteral("60")};
        o.output = dir_.path() + QStringLiteral("/stopped.rsdb");
        launch.setOptions(o);
        QSignalSpy finished(&launch, &LaunchDialog::runFinished);
        // No engine is involved for /bin/sleep beyond the environment; replayscope-run still records.
        QVERIFY(launch.start());
        QTest::qWait(500);
        QVERIFY(launch.isRunning());
        QElapsedTimer t;
        t.start();
        launch.stop();
        QVERIFY(finished.wait(15000));
        QVERIFY(t.elapsed() < 10000);
        QCOMPARE(finished.first().at(1).toInt(), 128 + 15); // SIGTERM forwarded to the target
        QVERIFY(QFileInfo::exists(o.output));
    }

    void mainWindowOpensSessionsAsTabs() {
        SyntheticSession::Options o;
        o.dispatches = 500;
        const QString a = test::synthetic(dir_.path(), QStringLiteral("a.rsdb"), o);
        o.dispatches = 120;
        const QString b = test::synthetic(dir_.path(), QStringLiteral("b.rsdb"), o);
        MainWindow window;
        window.setInteractive(false);
        window.show();
        SessionView* va = window.openSession(a);
        SessionView* vb = window.openSession(b);
        QCOMPARE(window.tabs()->count(), 3);
        QCOMPARE(window.openSession(a), va); // already open: same tab
        QTRY_VERIFY(!va->snapshot().isNull() && va->snapshot()->regionsLoaded);
        QTRY_VERIFY(!vb->snapshot().isNull());
        QCOMPARE(va->dispatchesPage()->model()->rowCount(), 500);
        QCOMPARE(vb->dispatchesPage()->model()->rowCount(), 120);
        // Filter the table through its widgets.
        auto* panel = va->dispatchesPage()->panel();
        panel->proxy()->setTextFilter(QStringLiteral("fillBuffer"));
        QCOMPARE(panel->proxy()->rowCount(), 71); // dispatches 7, 14, ..., 497
        const QString csv = dir_.path() + QStringLiteral("/filtered.csv");
        QVERIFY(panel->exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), 72);
        // The menus' shortcuts: Find focuses the current table's filter, Close closes the current tab (never
        // the start page), and File has the trace export; Help exists.
        auto action = [&](QKeySequence::StandardKey key) -> QAction* {
            for (QAction* candidate : window.findChildren<QAction*>()) {
                if (candidate->shortcut() == QKeySequence(key)) {
                    return candidate;
                }
            }
            return nullptr;
        };
        window.tabs()->setCurrentWidget(va);
        va->pages()->setCurrentWidget(va->dispatchesPage());
        QVERIFY(action(QKeySequence::Find) != nullptr);
        action(QKeySequence::Find)->trigger();
        QCOMPARE(window.focusWidget(), panel->findChild<QLineEdit*>(QStringLiteral("dispatchesTextFilter")));
        QVERIFY(action(QKeySequence::Close) != nullptr);
        action(QKeySequence::Close)->trigger();
        QTRY_COMPARE(window.tabs()->count(), 2);
        window.tabs()->setCurrentIndex(0);
        action(QKeySequence::Close)->trigger();
        QCOMPARE(window.tabs()->count(), 2);
        QStringList menus;
        for (QAction* menu : window.menuBar()->actions()) {
            menus << menu->text();
        }
        QVERIFY2(menus.contains(QStringLiteral("&Help")), qPrintable(menus.join(' ')));
        bool traceExport = false;
        for (QAction* item : window.findChildren<QAction*>()) {
            traceExport = traceExport || item->text().startsWith(QStringLiteral("Export &trace"));
        }
        QVERIFY(traceExport);
    }

    /// A session file replaced on disk after it was opened (as a run with --force does: a new file, a new
    /// inode, at the same path) is noticed: the view keeps what it read and its banner says the file was
    /// replaced; the banner's link reads the new file; a deleted file is reported as deleted.
    void fileReplacedUnderTheViewIsNoticed() {
        SyntheticSession::Options o;
        o.dispatches = 300;
        const QString path = test::synthetic(dir_.path(), QStringLiteral("swapped.rsdb"), o);
        o.dispatches = 40;
        const QString next = test::synthetic(dir_.path(), QStringLiteral("swapped.next.rsdb"), o);
        SessionView view;
        QSignalSpy changed(view.reader(), &SessionReader::fileChanged);
        view.open(path);
        QTRY_VERIFY(!view.snapshot().isNull() && view.snapshot()->regionsLoaded);
        QCOMPARE(view.dispatchesPage()->model()->rowCount(), 300);
        QVERIFY(!view.banner()->text().contains(QStringLiteral("was replaced")));
        QVERIFY(::rename(QFile::encodeName(next).constData(), QFile::encodeName(path).constData()) == 0);
        QTRY_VERIFY(view.banner()->text().contains(QStringLiteral("was replaced on disk")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().first().value<SessionFileChange>(), SessionFileChange::replaced);
        QCOMPARE(view.dispatchesPage()->model()->rowCount(), 300); // what was read stays
        emit view.banner()->linkActivated(QStringLiteral("reload"));
        QTRY_COMPARE(view.dispatchesPage()->model()->rowCount(), 40);
        QVERIFY(!view.banner()->text().contains(QStringLiteral("was replaced")));
        QVERIFY(QFile::remove(path));
        QTRY_VERIFY(view.banner()->text().contains(QStringLiteral("was deleted on disk")));
        QCOMPARE(view.reader()->fileChange(), SessionFileChange::deleted);
        QCOMPARE(view.dispatchesPage()->model()->rowCount(), 40);
    }

    /// A run whose replayscope-run was killed leaves spools its processes kept writing: opening its session
    /// finds those of its run (origin checked by leftover_spools: its private directory, its run id), the
    /// banner offers them, and the offer's link imports them through replayscope-run (which claims the
    /// session and checks each spool again) and reads the session again with their dispatches.
    void leftoverSpoolsAreOffered() {
        const QString path = dir_.path() + QStringLiteral("/leftover.rsdb");
        QProcess run;
        run.start(QStringLiteral(RS_REPLAYSCOPE_RUN),
                  {QStringLiteral("--engine"), QStringLiteral(RS_PROBE), QStringLiteral("--no-progress"),
                   QStringLiteral("-o"), path, QStringLiteral("--"), QStringLiteral(RS_PROBE),
                   QStringLiteral("20"), QStringLiteral("0")});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 0);
        const auto id = test::sqlRows(path, QStringLiteral("SELECT run_id FROM session"));
        QCOMPARE(id.size(), 1);
        const QString runId = id[0][0].toString();
        QVERIFY(!runId.isEmpty());
        // A process of that run spooling with its collector gone (what a killed replayscope-run leaves).
        const QString spoolDir = path + QStringLiteral(".spool.d");
        QVERIFY(QDir().mkdir(spoolDir));
        QVERIFY(QFile::setPermissions(spoolDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QProcess spooler;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("REPLAYSCOPE_SPOOL"),
                   spoolDir + QStringLiteral("/") + runId + QStringLiteral(".%p"));
        env.insert(QStringLiteral("REPLAYSCOPE_RUN_ID"), runId);
        env.insert(QStringLiteral("RS_PROBE_SPOOL_ONLY"), QStringLiteral("1"));
        spooler.setProcessEnvironment(env);
        spooler.start(QStringLiteral(RS_PROBE), {QStringLiteral("30"), QStringLiteral("0")});
        QVERIFY(spooler.waitForFinished(30000));
        QCOMPARE(QDir(spoolDir).entryList(QDir::Files).size(), 1);

        SessionView view;
        view.setRunnerPath(QStringLiteral(RS_REPLAYSCOPE_RUN));
        QSignalSpy found(&view, &SessionView::leftoverSpoolsFound);
        QSignalSpy imported(&view, &SessionView::spoolsImported);
        view.open(path);
        QVERIFY(found.wait(10000));
        QCOMPARE(found.first().first().toStringList().size(), 1);
        QTRY_VERIFY(view.banner()->text().contains(QStringLiteral("were never imported")));
        QTRY_COMPARE(view.dispatchesPage()->model()->rowCount(), 20);
        emit view.banner()->linkActivated(QStringLiteral("import-spools"));
        QVERIFY(imported.wait(30000));
        QTRY_COMPARE_WITH_TIMEOUT(view.dispatchesPage()->model()->rowCount(), 50, 10000);
        QVERIFY(!view.banner()->text().contains(QStringLiteral("never imported")));
        QVERIFY(!QFileInfo::exists(spoolDir)); // emptied by the import and removed
        QCOMPARE(view.snapshot()->processes.size(), 2);
    }

    void badFileGivesErrorAndNoTab() {
        MainWindow window;
        window.setInteractive(false);
        QSignalSpy failed(&window, &MainWindow::openFailed);
        QFile junk(dir_.path() + QStringLiteral("/junk.rsdb"));
        junk.open(QIODevice::WriteOnly);
        junk.write(QByteArray(9000, 'x'));
        junk.close();
        window.openSession(junk.fileName());
        QVERIFY(failed.wait(10000));
        QCOMPARE(int(failed.first().first().value<SessionError>().kind), int(SessionError::Kind::foreign));
        QTRY_COMPARE(window.tabs()->count(), 1);
    }

    void chartsAreBatched() {
        SyntheticSession::Options o;
        o.dispatches = 200;
        const QString path = test::synthetic(dir_.path(), QStringLiteral("charts.rsdb"), o);
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(path, e);
        QVERIFY(!e.isError());
        ChartsPage page;
        page.resize(1200, 900);
        page.show();
        for (int i = 0; i < 50; ++i) {
            page.setSnapshot(s);
        }
        QCOMPARE(page.rebuilds(), 0);
        QTRY_COMPARE(page.rebuilds(), 1);
        QTest::qWait(200);
        QCOMPARE(page.rebuilds(), 1);
        const QStringList files = page.exportPngs(dir_.path() + QStringLiteral("/charts"));
        QCOMPARE(files.size(), 7);
        QVERIFY(files.last().endsWith(QStringLiteral("/7-bytes-moved.png")));
        const QImage image(files.first());
        QCOMPARE(image.size(), QSize(1200, 600));
    }

    void headlessCommands() {
        SyntheticSession::Options o;
        o.dispatches = 300;
        const QString path = test::synthetic(dir_.path(), QStringLiteral("headless.rsdb"), o);
        const QString out = dir_.path() + QStringLiteral("/export");
        const test::RunResult charts = runInspector({QStringLiteral("--export-charts"), path, out});
        QVERIFY2(charts.exitCode == 0, qPrintable(charts.output));
        QCOMPARE(QDir(out).entryList({QStringLiteral("*.png")}).size(), 9);
        QVERIFY(!QImage(out + QStringLiteral("/1-snapshot-bytes.png")).isNull());
        // The pass-to-pass spread replaced the kernel-time-per-pass chart (same position).
        QVERIFY(!QImage(out + QStringLiteral("/3-pass-spread.png")).isNull());
        QVERIFY(!QImage(out + QStringLiteral("/7-bytes-moved.png")).isNull());
        QVERIFY(!QImage(out + QStringLiteral("/8-audit-tracking-decisions.png")).isNull());
        QVERIFY(!QImage(out + QStringLiteral("/9-audit-not-replayed-reasons.png")).isNull());

        const test::RunResult summary = runInspector({QStringLiteral("--summary"), path});
        QCOMPARE(summary.exitCode, 0);
        QVERIFY2(summary.output.contains(QStringLiteral("dispatches:  300 (")), qPrintable(summary.output));
        QVERIFY(summary.output.contains(QStringLiteral("complete (session end received)")));
        QVERIFY(summary.output.contains(QStringLiteral("gfx90a #1")));

        const test::RunResult missing =
            runInspector({QStringLiteral("--export-charts"), path + QStringLiteral(".nope"), out});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.output.contains(QStringLiteral("File not found: The file does not exist.")),
                 qPrintable(missing.output));
        const test::RunResult version = runInspector({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY2(version.output.contains(QStringLiteral("replayscope 0.")), qPrintable(version.output));

        // No display: the window is refused at once with what works instead (it used to run offscreen,
        // invisible, until killed); the headless commands above ran without one.
        bool finished = false;
        const test::RunResult window = runInspector({path}, 20000, &finished);
        QVERIFY(finished);
        QCOMPARE(window.exitCode, 2);
        QVERIFY2(window.output.contains(QStringLiteral("no display")), qPrintable(window.output));
        QVERIFY(window.output.contains(QStringLiteral("--summary SESSION")));
    }

    /// The dark theme (Fusion with Theme::darkPalette(), what `--theme dark` and View > Theme > Dark apply)
    /// keeps every text of the window readable: a session tab opened under the light palette and switched
    /// to dark through the menu (every widget recomputes what it derived from the palette), another opened
    /// under the dark one, and both switched back to light. In each state every label's text colours
    /// (its own, its style sheet's and inline rich-text ones: the banner's complete / live / simulated /
    /// deleted notes, the summary's status, the dispatch detail, the audit's warning banner) and every table
    /// cell's status colour have a WCAG contrast of at least 4.5:1 with what they are drawn on; no style
    /// sheet holds a light background under the dark palette (or a dark one under the light); the
    /// categorical colours of the timeline and the charts keep 3:1 with both lane colours. The command line
    /// takes --theme too: the screenshots it draws are dark or light, and a wrong name is refused.
    void darkThemeKeepsTextReadable() {
        SyntheticSession::Options o;
        o.dispatches = 120;
        o.complete = false;        // the banner's state "live / not ended"
        o.simulatedRuntime = true; // and its "Simulated runtime:" line
        const QString live = test::synthetic(dir_.path(), QStringLiteral("theme-live.rsdb"), o);
        o.complete = true;
        o.simulatedRuntime = false;
        const QString gone = test::synthetic(dir_.path(), QStringLiteral("theme-gone.rsdb"), o);
        const QString later = test::synthetic(dir_.path(), QStringLiteral("theme-later.rsdb"), o);
        QVERIFY(!live.isEmpty() && !gone.isEmpty() && !later.isEmpty());
        const auto restore = qScopeGuard([] {
            Theme::apply(Theme::Choice::system);
            QSettings().remove(QStringLiteral("appearance/theme"));
        });
        Theme::apply(Theme::Choice::light);

        MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        SessionView* first = window.openSession(live);
        SessionView* deleted = window.openSession(gone);
        QTRY_VERIFY(!first->snapshot().isNull() && first->snapshot()->regionsLoaded);
        QTRY_VERIFY(!deleted->snapshot().isNull());
        // The deleted file's banner note (a "bad" status) and a dispatch's detail line ("replayed").
        QVERIFY(QFile::remove(gone));
        QTRY_VERIFY(deleted->banner()->text().contains(QStringLiteral("was deleted on disk")));
        QVERIFY(first->dispatchesPage()->selectDispatch(0));
        QVERIFY(first->dispatchesPage()->detail()->findChild<QLabel*>()->text().contains(
            QStringLiteral("Dispatch")));
        QVERIFY(first->banner()->text().contains(QStringLiteral("live / not ended")));
        QVERIFY(first->banner()->text().contains(QStringLiteral("Simulated runtime:")));

        auto checkReadable = [&](bool dark) {
            const QPalette app = QApplication::palette();
            QCOMPARE(ThemeColors::isDark(app), dark);
            // The widgets' palettes follow once the change events are delivered.
            QTRY_COMPARE(ThemeColors::isDark(first->palette()), dark);
            int coloured = 0; // inline and style-sheet colours checked
            for (QLabel* label : window.findChildren<QLabel*>()) {
                if (label->text().isEmpty()) {
                    continue;
                }
                label->ensurePolished();
                const SheetColors sheet = sheetColors(label->styleSheet());
                const QColor background =
                    sheet.background.isValid() ? sheet.background : label->palette().color(QPalette::Window);
                QList<InlineColor> texts{{sheet.foreground.isValid()
                                              ? sheet.foreground
                                              : label->palette().color(label->foregroundRole())}};
                const QList<InlineColor> inlined = inlineColors(label->text());
                texts << inlined;
                coloured += int(inlined.size()) + (sheet.foreground.isValid() ? 1 : 0);
                if (label->text().contains(QStringLiteral("<a "))) {
                    texts.push_back({label->palette().color(QPalette::Link)});
                }
                for (const auto& [c, swatch] : texts) {
                    const double ratio = ThemeColors::contrastRatio(c, background);
                    QVERIFY2(ratio >= (swatch ? ThemeColors::kGraphicContrast : ThemeColors::kTextContrast),
                             qPrintable(QStringLiteral("%1 on %2: %3:1 in \"%4\"")
                                            .arg(c.name(), background.name())
                                            .arg(ratio, 0, 'f', 2)
                                            .arg(label->text().left(120))));
                }
            }
            QVERIFY2(coloured >= 6, qPrintable(QString::number(coloured)));
            // No style sheet with a background of the other lightness (the app's own sheet included).
            QStringList sheets{qApp->styleSheet()};
            for (QWidget* w : window.findChildren<QWidget*>()) {
                sheets << w->styleSheet();
            }
            for (const QString& sheet : sheets) {
                const QColor background = sheetColors(sheet).background;
                QVERIFY2(!background.isValid() || (background.lightnessF() < 0.5) == dark, qPrintable(sheet));
            }
            // The audit's banner as painted: its background inside the border is the sheet's.
            AuditPage* audit = first->auditPage();
            window.tabs()->setCurrentWidget(first);
            first->pages()->setCurrentWidget(audit);
            QLabel* legend = audit->blindSpotsLegend();
            QTRY_VERIFY(legend->isVisible() && legend->width() > 20);
            const ThemeColors::BannerColors banner =
                ThemeColors::banner(audit->palette(), ThemeColors::Banner::warning);
            QCOMPARE(sheetColors(legend->styleSheet()).background, banner.background);
            const QImage painted = legend->grab().toImage();
            QCOMPARE(painted.pixelColor(QPoint(painted.width() / 2, 3)).rgb(), banner.background.rgb());
            QVERIFY(ThemeColors::contrastRatio(banner.foreground, banner.background) >=
                    ThemeColors::kTextContrast);
            first->pages()->setCurrentIndex(0);
            // Every table cell's status colour (Qt::ForegroundRole) on the table's rows and alternate rows.
            int cells = 0;
            for (QTableView* table : window.findChildren<QTableView*>()) {
                QAbstractItemModel* model = table->model();
                const QColor base = table->palette().color(QPalette::Base),
                             alternate = table->palette().color(QPalette::AlternateBase);
                for (int r = 0; r < std::min(model->rowCount(), 150); ++r) {
                    for (int c = 0; c < model->columnCount(); ++c) {
                        const QVariant v = model->index(r, c).data(Qt::ForegroundRole);
                        if (!v.isValid()) {
                            continue;
                        }
                        const QColor color =
                            v.userType() == QMetaType::QBrush ? v.value<QBrush>().color() : v.value<QColor>();
                        ++cells;
                        QVERIFY2(ThemeColors::contrastRatio(color, base) >= ThemeColors::kTextContrast &&
                                     ThemeColors::contrastRatio(color, alternate) >=
                                         ThemeColors::kTextContrast,
                                 qPrintable(QStringLiteral("%1 (%2) on %3 / %4")
                                                .arg(table->objectName(), color.name(), base.name(),
                                                     alternate.name())));
                    }
                }
            }
            QVERIFY2(cells >= 120, qPrintable(QString::number(cells))); // at least each dispatch's outcome
            // The recent list's status column.
            const QTreeWidget* recent = window.startPage()->recentList();
            QVERIFY(recent->topLevelItemCount() > 0);
            for (int i = 0; i < recent->topLevelItemCount(); ++i) {
                const QColor c = recent->topLevelItem(i)->foreground(4).color();
                QVERIFY(ThemeColors::contrastRatio(c, recent->palette().color(QPalette::Base)) >=
                        ThemeColors::kTextContrast);
            }
            // Categorical colours (timeline parts and marks, chart series) against both lane colours; the
            // kernel name on its band over every part.
            QList<QColor> categorical{TimelineCanvas::declinedColor(), TimelineCanvas::mergedColor(),
                                      TimelineCanvas::releasedColor()};
            for (auto kind :
                 {TimelinePart::Kind::fenceWait, TimelinePart::Kind::snapshot, TimelinePart::Kind::pass,
                  TimelinePart::Kind::restore, TimelinePart::Kind::finalRestore}) {
                for (int pass : {0, 1}) {
                    TimelinePart part;
                    part.kind = kind;
                    part.pass = pass;
                    const QColor c = TimelineCanvas::colorOf(part);
                    categorical << c;
                    const QColor band = ThemeColors::over(TimelineCanvas::labelBandColor(app), c);
                    QVERIFY(ThemeColors::contrastRatio(app.color(QPalette::Text), band) >=
                            ThemeColors::kTextContrast);
                }
            }
            for (int i = 0; i < 8; ++i) {
                categorical << ChartSeriesBuilder::color(i);
            }
            for (const QColor& c : categorical) {
                for (QPalette::ColorRole role : {QPalette::Base, QPalette::AlternateBase}) {
                    QVERIFY2(ThemeColors::contrastRatio(c, app.color(role)) >= ThemeColors::kGraphicContrast,
                             qPrintable(QStringLiteral("%1 on %2").arg(c.name(), app.color(role).name())));
                }
            }
        };
        checkReadable(false);

        // View > Theme > Dark: applied at once to the open tabs, and remembered.
        QAction* darkAction = window.findChild<QAction*>(QStringLiteral("theme-dark"));
        QVERIFY(darkAction);
        darkAction->trigger();
        QCOMPARE(Theme::current(), Theme::Choice::dark);
        QCOMPARE(QSettings().value(QStringLiteral("appearance/theme")).toString(), QStringLiteral("dark"));
        QCOMPARE(Theme::saved(), Theme::Choice::dark);
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 Theme::darkPalette().color(QPalette::Window));
        checkReadable(true);
        // A session opened under the dark palette.
        SessionView* opened = window.openSession(later);
        QTRY_VERIFY(!opened->snapshot().isNull() && opened->snapshot()->regionsLoaded);
        QVERIFY(opened->banner()->text().contains(QStringLiteral("complete")));
        checkReadable(true);
        // And back to light.
        window.findChild<QAction*>(QStringLiteral("theme-light"))->trigger();
        checkReadable(false);

        // replayscope --theme: the screenshots are drawn dark or light (the status bar's corner is the
        // window colour); an unknown theme is a usage error.
        for (const QString& theme : {QStringLiteral("dark"), QStringLiteral("light")}) {
            const QString out = dir_.path() + QStringLiteral("/shots-") + theme;
            const test::RunResult shots =
                runInspector({QStringLiteral("--theme"), theme, QStringLiteral("--screenshots"), later, out});
            QVERIFY2(shots.exitCode == 0, qPrintable(shots.output));
            const QImage summary(out + QStringLiteral("/summary.png"));
            QVERIFY(!summary.isNull());
            const QColor corner = summary.pixelColor(2, summary.height() - 2);
            QVERIFY2((corner.lightnessF() < 0.5) == (theme == QStringLiteral("dark")),
                     qPrintable(corner.name()));
        }
        const test::RunResult wrong = runInspector(
            {QStringLiteral("--theme"), QStringLiteral("purple"), QStringLiteral("--summary"), later});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.output.contains(QStringLiteral("--theme takes light, dark or system")),
                 qPrintable(wrong.output));
    }
};

QTEST_MAIN(AppUiTest)
#include "tst_app_ui.moc"
