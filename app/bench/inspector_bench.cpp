// SPDX-License-Identifier: MIT
// Inspector benchmark (docs/performance.md, "Inspector"): writes a synthetic session of 100,000 dispatches
// and >= 1,000,000 inventory region records through the pipeline's SessionStore, then prints
//  1. time to first paint after open (target < 1 s),
//  2. time to apply a filter on the dispatch table (target < 200 ms),
//  3. resident memory once everything is loaded (target < 500 MB).
//   inspector_bench [DISPATCHES] [SESSION]   (runs offscreen unless a display is set)
#include "model/DispatchTableModel.h"
#include "model/SessionFilterProxyModel.h"
#include "model/SessionReader.h"
#include "synthetic/SyntheticSession.h"
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
#include <QTableView>

#include <cstdio>
#include <cstdlib>

namespace {

double residentMiB() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
        }
    }
    return -1;
}

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

template <typename Done>
void waitFor(Done done) {
    while (!done()) {
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    }
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
    const double rss = residentMiB();

    std::printf(
        "time to first paint after open: %.0f ms (target < 1000 ms); all regions loaded after %.0f ms\n",
        firstPaint, fullLoad);
    std::printf("dispatch table filter: kernel text %.0f ms (%d rows), outcome 'declined' %.0f ms (%d rows) "
                "(target < 200 ms); sort by snapshot size %.0f ms\n",
                textFilter, textRows, codeFilter, codeRows, sort);
    std::printf(
        "resident memory: %.0f MiB with the session open (%.0f MiB before opening; target < 500 MB)\n", rss,
        rssBefore);
    return 0;
}
