// SPDX-License-Identifier: MIT
// Inspector benchmark (docs/performance.md, "Inspector"): writes a synthetic session of 100,000 dispatches
// and >= 1,000,000 inventory region records through the pipeline's SessionStore, then prints
//  1. time to first paint after open (target < 1 s),
//  2. time to apply a filter on the dispatch table (target < 200 ms),
//  3. resident memory once everything is loaded (target < 500 MB),
//  4. time to build the replay timeline of the session and to query one full view of it, with the resident
//     memory after it (targets < 1 s, < 500 MB).
//  5. compare and timeline of two such sessions from their files (target < 1 s, < 500 MB resident), beside
//     the way the comparison loaded before; and the session's rows read through Qt SQL beside SQLite's API.
//  6. one rebuild of the charts page and the pass-to-pass spread within it (not targets).
//   inspector_bench [DISPATCHES] [SESSION]   (runs offscreen unless a display is set)
#include "BenchProcess.h"
#include "model/ComparisonTableModel.h"
#include "model/DispatchTableModel.h"
#include "model/PassSpreadModel.h"
#include "model/PerfettoTraceWriter.h"
#include "model/SessionComparison.h"
#include "model/SessionFilterProxyModel.h"
#include "model/SessionLoader.h"
#include "model/SessionReader.h"
#include "model/TimelineModel.h"
#include "model/TraceExporter.h"
#include "model/reading/RowCursor.h"
#include "synthetic/SyntheticSession.h"
#include "ui/ChartsPage.h"
#include "ui/ComparePage.h"
#include "ui/DispatchesPage.h"
#include "ui/MainWindow.h"
#include "ui/SessionView.h"
#include "ui/TablePanel.h"

#include <replayscope/session/read_queries.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTableView>

#include <malloc.h>
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>

namespace {

using rs::app::bench::residentMiB;
using rs::app::bench::waitFor;

qint64 count(const QString& path, rs::session::CountedRows rows) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bench-count"));
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
    qint64 n = -1;
    if (db.open()) {
        QSqlQuery q(db);
        if (q.exec(QString::fromStdString(rs::session::row_count_query(rows))) && q.next()) {
            n = q.value(0).toLongLong();
        }
    }
    db = {};
    QSqlDatabase::removeDatabase(QStringLiteral("bench-count"));
    return n;
}

/// The timeline case: TimelineModel over the loaded session, then a level-of-detail query of every lane at
/// 1,400 px (one fit view), timed; resident memory with both the session and the timeline held.
void benchTimeline(const rs::app::SessionSnapshot& snapshot) {
    QElapsedTimer t;
    t.start();
    const rs::app::TimelineModel timeline(snapshot);
    const double build = double(t.nsecsElapsed()) / 1e6;
    t.restart();
    std::size_t items = 0;
    for (int lane = 0; lane < int(timeline.lanes().size()); ++lane) {
        items += timeline.visibleItems(lane, timeline.beginNs(), timeline.endNs(), 1400).size();
    }
    const double query = double(t.nsecsElapsed()) / 1e6;
    std::printf("timeline: built in %.0f ms (target < 1000 ms) for %lld windows, %lld declined, %zu lanes; "
                "fit view at 1400 px: %zu items in %.1f ms; resident memory %.0f MiB (target < 500 MB)\n",
                build, timeline.windowCount(), timeline.declinedCount(), timeline.lanes().size(), items,
                query, residentMiB());
    QFile trace(QStringLiteral("/tmp/rs-inspector-bench-trace.json"));
    if (trace.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::vector<rs::app::TraceExporter::Input> inputs{{QStringLiteral("bench"), timeline}};
        t.restart();
        rs::app::TraceExporter::write(inputs, trace);
        const double written = double(t.nsecsElapsed()) / 1e6;
        std::printf("trace export (Chrome JSON): %.1f MB in %.0f ms; resident memory %.0f MiB\n",
                    double(trace.size()) / 1e6, written, residentMiB());
        trace.remove();
    }
    // The same timeline in Perfetto's protobuf format, beside the JSON figure of the same run.
    QFile pftrace(QStringLiteral("/tmp/rs-inspector-bench-trace.pftrace"));
    if (pftrace.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::vector<rs::app::TraceExporter::Input> inputs{{QStringLiteral("bench"), timeline}};
        t.restart();
        rs::app::PerfettoTraceWriter::write(inputs, pftrace);
        const double written = double(t.nsecsElapsed()) / 1e6;
        std::printf("trace export (Perfetto protobuf): %.1f MB in %.0f ms; resident memory %.0f MiB\n",
                    double(pftrace.size()) / 1e6, written, residentMiB());
        pftrace.remove();
    }
}

/// Row reading, side by side: every column of every `restores` row of `path` through Qt SQL (QSqlQuery,
/// one QVariant per value: the inspector's reader before model/reading/RowCursor) and through SQLite's C API
/// (RowCursor, what the readers use). Prints rows and ms of each.
void benchRowReading(const QString& path) {
    qint64 qtRows = 0, qtSum = 0;
    QElapsedTimer t;
    double qtMs = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bench-rows"));
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            q.setForwardOnly(true);
            t.start();
            if (q.exec(QStringLiteral("SELECT * FROM restores"))) {
                const int columns = q.record().count();
                while (q.next()) {
                    for (int c = 0; c < columns; ++c) {
                        qtSum += q.value(c).toLongLong();
                    }
                    ++qtRows;
                }
            }
            qtMs = double(t.nsecsElapsed()) / 1e6;
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-rows"));
    qint64 cursorRows = 0, cursorSum = 0;
    double cursorMs = -1;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        rs::app::RowCursor q(db);
        t.restart();
        if (q.exec("SELECT * FROM restores") && q.next()) {
            const int columns = q.columnCount();
            do {
                for (int c = 0; c < columns; ++c) {
                    cursorSum += q.int64(c);
                }
                ++cursorRows;
            } while (q.next());
        }
        cursorMs = double(t.nsecsElapsed()) / 1e6;
    }
    sqlite3_close_v2(db);
    std::printf(
        "row reading, every column of %lld restores rows: Qt SQL (QSqlQuery::value) %.0f ms | SQLite C API "
        "(RowCursor) %.0f ms (%.1fx); column sums %s\n",
        qtRows, qtMs, cursorMs, cursorMs > 0 ? qtMs / cursorMs : 0.0,
        qtSum == cursorSum && qtRows == cursorRows ? "equal" : "DIFFER");
}

/// Compare and timeline of two sessions, each of `dispatches`: the benchmark's session at `basePath` and a
/// second one (other seed, two passes instead of three, the default inventories). Times what the inspector
/// does to open them from their files: the compare page (ComparePage::openFiles: both read at once on
/// reader threads, the comparison shown when both first phases are there) and the timeline of each
/// (TimelineModel over those snapshots); then until both are completely read. Side by side, the way the
/// comparison loaded before: one file after the other, completely (regions and integrity check included),
/// then compared. Run before the window opens, so the resident memory is that of the two sessions, their
/// readers and timelines. Returns false when a session cannot be written or read.
bool benchCompareAndTimeline(const QString& basePath, int dispatches) {
    rs::app::SyntheticSession::Options o;
    o.dispatches = dispatches;
    o.passes = 2;
    o.seed = 2;
    const QString other = basePath + QStringLiteral("-new.rsdb");
    QString error;
    if (!rs::app::SyntheticSession::write(other, o, &error)) {
        std::fprintf(stderr, "inspector_bench: %s\n", qPrintable(error));
        return false;
    }
    const double rssBefore = residentMiB();
    {
        rs::app::ComparePage page;
        page.resize(1400, 900);
        page.show();
        bool shown = false, refused = false;
        QObject::connect(&page, &rs::app::ComparePage::compared, [&] { shown = true; });
        QObject::connect(&page, &rs::app::ComparePage::failed, [&] { refused = true; });
        QElapsedTimer t;
        t.start();
        page.openFiles(basePath, other);
        waitFor([&] { return shown || refused; });
        if (refused) {
            std::fprintf(stderr, "inspector_bench: the sessions cannot be compared\n");
            return false;
        }
        page.grab(); // the table and chart painted
        const double comparedMs = double(t.nsecsElapsed()) / 1e6;
        const rs::app::TimelineModel baseTimeline(page.baseSnapshot()), newTimeline(page.newSnapshot());
        const double openMs = double(t.nsecsElapsed()) / 1e6;
        const double rssOpen = residentMiB();
        std::printf(
            "compare and timeline of two sessions (%zu and %zu dispatches, %d comparison rows, every "
            "figure and restore in): compare page painted after %.0f ms, both timelines built (%lld and "
            "%lld windows) after %.0f ms (target < 1000 ms), resident memory %.0f MiB (%.0f MiB before; "
            "target < 500 MB)\n",
            page.baseSnapshot()->dispatches.size(), page.newSnapshot()->dispatches.size(),
            page.model()->rowCount(), comparedMs, baseTimeline.windowCount(), newTimeline.windowCount(),
            openMs, rssOpen, rssBefore);
    }
    {
        QElapsedTimer t;
        t.start();
        rs::app::SessionError e;
        const rs::app::SessionSnapshot base = rs::app::SessionLoader::loadAll(basePath, e);
        const rs::app::SessionSnapshot now = rs::app::SessionLoader::loadAll(other, e);
        const rs::app::SessionComparison c = rs::app::SessionComparison::compare(base, now);
        std::printf("  baseline, the same comparison loaded as before (one file after the other, completely, "
                    "on the calling thread): %.0f ms\n",
                    double(t.nsecsElapsed()) / 1e6);
    }
    QFile::remove(other);
    malloc_trim(0); // what the two sessions held goes back before the window's figures
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ReplayScopeBench"));
    const int dispatches = argc > 1 ? std::atoi(argv[1]) : 100000;
    const QString path =
        argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("/tmp/rs-inspector-bench.rsdb");

    // ~80.6% of synthetic dispatches are replayed, each with a fresh inventory.
    rs::app::SyntheticSession::Options o;
    o.dispatches = dispatches;
    o.newInventoryEvery = 1;
    o.regionsPerInventory = int(1'000'000.0 / (dispatches * 0.80) + 1);
    o.allocations = 400;
    QElapsedTimer t;
    t.start();
    QString error;
    if (!rs::app::SyntheticSession::write(path, o, &error)) {
        std::fprintf(stderr, "inspector_bench: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("ReplayScope inspector benchmark\n");
    std::printf(
        "session: %s, %.1f MB, %lld dispatches, %lld inventory regions, %lld passes (written in %.1f s)\n",
        qPrintable(path), double(QFileInfo(path).size()) / 1e6,
        count(path, rs::session::CountedRows::dispatches),
        count(path, rs::session::CountedRows::inventory_regions),
        count(path, rs::session::CountedRows::passes), double(t.elapsed()) / 1000.0);
    benchRowReading(path);
    if (!benchCompareAndTimeline(path, dispatches)) {
        return 1;
    }
    const double rssBefore = residentMiB();

    rs::app::MainWindow window;
    window.setInteractive(false);
    window.resize(1400, 900);
    window.show();
    QApplication::processEvents();
    t.restart();
    rs::app::SessionView* view = window.openSession(path);
    view->pages()->setCurrentWidget(view->dispatchesPage());
    waitFor([&] { return !view->snapshot().isNull(); });
    window.grab(); // paints the window with the dispatch table filled in
    const double firstPaint = double(t.nsecsElapsed()) / 1e6;
    waitFor([&] { return !view->snapshot().isNull() && view->snapshot()->regionsLoaded; });
    const double fullLoad = double(t.nsecsElapsed()) / 1e6;
    QApplication::processEvents();

    auto* proxy = view->dispatchesPage()->panel()->proxy();
    t.restart();
    proxy->setTextFilter(QStringLiteral("Kinematics"));
    const double textFilter = double(t.nsecsElapsed()) / 1e6;
    const int textRows = proxy->rowCount();
    t.restart();
    proxy->setCodeFilter(rs::app::SessionFilterProxyModel::kAnyNonZero);
    const double codeFilter = double(t.nsecsElapsed()) / 1e6;
    const int codeRows = proxy->rowCount();
    proxy->setCodeFilter(std::nullopt);
    proxy->setTextFilter(QString());
    t.restart();
    view->dispatchesPage()->panel()->view()->sortByColumn(rs::app::DispatchTableModel::SnapshotBytes,
                                                          Qt::DescendingOrder);
    const double sort = double(t.nsecsElapsed()) / 1e6;
    // The charts page rebuilt once (what a live session does at most every 100 ms), and within it the
    // pass-to-pass spread of every replayed dispatch.
    t.restart();
    const auto spread = rs::app::PassSpreadModel::entries(view->snapshot());
    const double spreadMs = double(t.nsecsElapsed()) / 1e6;
    t.restart();
    view->chartsPage()->flush();
    const double chartsMs = double(t.nsecsElapsed()) / 1e6;
    const double rss = residentMiB();

    std::printf(
        "time to first paint after open: %.0f ms (target < 1000 ms); all regions loaded after %.0f ms\n",
        firstPaint, fullLoad);
    std::printf("dispatch table filter: kernel text %.0f ms (%d rows), outcome 'declined' %.0f ms (%d rows) "
                "(target < 200 ms); sort by snapshot size %.0f ms\n",
                textFilter, textRows, codeFilter, codeRows, sort);
    std::printf("charts page rebuild: %.0f ms (not a target; a live session rebuilds at most every 100 ms); "
                "pass-to-pass spread of %zu dispatches: %.1f ms\n",
                chartsMs, spread.size(), spreadMs);
    std::printf(
        "resident memory: %.0f MiB with the session open (%.0f MiB before opening; target < 500 MB)\n", rss,
        rssBefore);
    benchTimeline(view->snapshot());
    return 0;
}
