// SPDX-License-Identifier: MIT
// Job view benchmark (docs/performance.md, "A job of many ranks"): writes a job of RANKS synthetic session
// files of DISPATCHES dispatches each (ranks recorded, 8 ranks per host), then prints
//  1. the time until the job view shows the job (JobView::loaded: every rank's summary read, the Ranks and
//     Kernels pages and charts drawn; the rows of no rank listed, as the job is over the listing budget) and
//     the resident memory then (targets for 512 x 1,000: < 2 s, < 500 MB);
//  2. the same after selecting 4 ranks (their rows read and listed);
//  3. the baseline in the same run: every file loaded and merged into one session (MergedSession::load, what
//     the job view held before it kept a summary per rank), its time and the memory it adds.
//   job_bench [RANKS] [DISPATCHES] [DIR]   (runs offscreen unless a display is set; files are reused)
#include "BenchProcess.h"
#include "model/MergedSession.h"
#include "model/SessionLoader.h"
#include "synthetic/SyntheticSession.h"
#include "ui/JobView.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTabWidget>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>

using rs::app::bench::residentMiB;
using rs::app::bench::waitFor;

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    const bool noMemStatus =
        qEnvironmentVariableIsEmpty("RS_BENCH_MEMSTATUS") && rs::app::SessionLoader::configureSqlite();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ReplayScopeBench"));
    const int ranks = argc > 1 ? std::atoi(argv[1]) : 512;
    const int dispatches = argc > 2 ? std::atoi(argv[2]) : 1000;
    const QString dirPath = argc > 3 ? QString::fromLocal8Bit(argv[3])
                                     : QStringLiteral("/tmp/rs-job-bench-%1x%2").arg(ranks).arg(dispatches);
    QDir dir(dirPath);
    dir.mkpath(QStringLiteral("."));
    QStringList paths;
    QElapsedTimer t;
    t.start();
    qint64 bytes = 0;
    for (int r = 0; r < ranks; ++r) {
        const QString p = dir.filePath(QStringLiteral("rank-%1.rsdb").arg(r));
        if (!QFileInfo::exists(p)) {
            rs::app::SyntheticSession::Options o;
            o.dispatches = dispatches;
            o.seed = unsigned(r + 1);
            o.jobRank = r;
            o.hostname = "node" + std::to_string(r / 8);
            o.kernelTimeScale = 1.0 + 0.01 * (r % 13); // ranks differ a little, as a real job's do
            QString error;
            if (!rs::app::SyntheticSession::write(p, o, &error)) {
                std::fprintf(stderr, "job_bench: %s\n", qPrintable(error));
                return 1;
            }
        }
        bytes += QFileInfo(p).size();
        paths << p;
    }
    std::printf("ReplayScope job view benchmark (SQLite memory statistics %s)\n", noMemStatus ? "off" : "on");
    std::printf("job: %d rank files of %d dispatches, %.0f MB in %s (ready after %.1f s)\n", ranks,
                dispatches, double(bytes) / 1e6, qPrintable(dirPath), double(t.elapsed()) / 1000.0);
    const double rssBefore = residentMiB();
    {
        rs::app::MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        QApplication::processEvents();
        t.restart();
        rs::app::JobView* job = window.openJob(paths);
        bool loaded = false;
        QObject::connect(job, &rs::app::JobView::loaded, job, [&loaded] { loaded = true; });
        if (!waitFor([&] { return loaded; })) {
            std::fprintf(stderr, "job_bench: the job view did not load\n");
            return 1;
        }
        window.grab(); // paints the Ranks page: totals and charts
        const double openMs = double(t.nsecsElapsed()) / 1e6;
        const double rssOpen = residentMiB();
        t.restart();
        bool listed = false;
        QObject::connect(job, &rs::app::JobView::rowsListed, job, [&listed] { listed = true; });
        job->selectRanks({0, 1, 2, 3});
        waitFor([&] { return listed && !job->merged().isNull(); });
        job->pages()->setCurrentIndex(3); // the dispatches of the 4 ranks
        window.grab();
        const double selectMs = double(t.nsecsElapsed()) / 1e6;
        std::printf("job view shown (summary of every rank, charts drawn): %.0f ms (target < 2000 ms); "
                    "resident %.0f MiB (%.0f MiB before; target < 500 MB)\n",
                    openMs, rssOpen, rssBefore);
        std::printf("4 ranks selected, their %lld dispatches listed: %.0f ms; resident %.0f MiB\n",
                    qlonglong(job->merged().isNull() ? 0 : job->merged().snapshot().data().dispatches.size()),
                    selectMs, residentMiB());
    }
    malloc_trim(0);
    const double rssBase = residentMiB();
    t.restart();
    rs::app::SessionError error;
    const rs::app::MergedSession merged = rs::app::MergedSession::load(paths, error);
    const double mergeMs = double(t.nsecsElapsed()) / 1e6;
    std::printf("baseline, every rank's rows loaded and merged (the job view before): %.0f ms; resident %.0f "
                "MiB (+%.0f MiB)%s\n",
                mergeMs, residentMiB(), residentMiB() - rssBase,
                error.isError() ? qPrintable(QStringLiteral(" refused: ") + error.message) : "");
    return 0;
}
