// SPDX-License-Identifier: MIT
// Sessions on a disk that fills up (the ENOSPC shim of tests/support, preloaded: this suite re-executes
// itself under it). A disk full before the start leaves no file; after a full disk the store's counts,
// the runner's summary and the rows of the file agree (only committed rows count); a session whose
// final checkpoint was cut short (the database header already names the new page count, the file is
// shorter, the WAL holds the pages) is read by SQLite and accepted by check_session_file.
#include "test_support.h"

#include "full_disk_session.h"
#include "replayscope/ipc/session_store.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <dlfcn.h>
#include <tuple>
#include <unistd.h>

using namespace rs::ipc;

namespace {

using Written = long long (*)();
using Reset = void (*)();

Written shimWritten() {
    return reinterpret_cast<Written>(dlsym(RTLD_DEFAULT, "rs_enospc_shim_written"));
}

/// Budget for the session file at `path` (and its -wal/-journal): `bytes` from now on.
void limitDisk(const std::string& path, long long bytes) {
    reinterpret_cast<Reset>(dlsym(RTLD_DEFAULT, "rs_enospc_shim_reset"))();
    ::setenv("RS_ENOSPC_PATH", path.c_str(), 1);
    ::setenv("RS_ENOSPC_AFTER_BYTES", std::to_string(bytes).c_str(), 1);
}

void unlimitDisk() {
    ::unsetenv("RS_ENOSPC_PATH");
    ::unsetenv("RS_ENOSPC_MODE");
}

/// The bytes the session file at `path` and its -wal and -journal occupy.
long long diskUsage(const std::string& path) {
    long long total = 0;
    for (const char* suffix : {"", "-wal", "-journal"}) {
        const QFileInfo file(QString::fromStdString(path + suffix));
        total += file.exists() ? file.size() : 0;
    }
    return total;
}

/// A disk that is full once the session file at `path` and its -wal and -journal occupy `bytes` more
/// than now (the shim's usage mode: rewriting what a file has is free, as on a real disk).
void limitDiskUsage(const std::string& path, long long bytes) {
    limitDisk(path, diskUsage(path) + bytes);
    ::setenv("RS_ENOSPC_MODE", "usage", 1);
}

/// Writes a session of `dispatches` dispatches (commit every 1000, session_end, finish) until the
/// first failure. Returns the events the store counted as committed at the end.
std::uint64_t writeSession(const std::string& path, std::uint64_t dispatches, bool& finished,
                           std::string& error) {
    finished = false;
    auto store = SessionStore::open(path, SessionStore::Mode::overwrite, error);
    if (!store) {
        return 0;
    }
    const auto p = store->process({77, 700, 1});
    std::uint64_t s = 1;
    for (; s <= dispatches; ++s) {
        if (!store->insert(p, rs::test::dispatchRecord(s, s)) || (s % 1000 == 0 && !store->commit())) {
            error = store->last_error();
            break;
        }
    }
    if (s > dispatches) {
        finished =
            store->insert(p, rs::test::sessionEndRecord(s, s)) && store->finish("session end received");
        if (!finished) {
            error = store->last_error();
        }
    }
    const std::uint64_t committed = store->committed_events();
    if (store->processes().empty() || store->processes()[0].events_stored != committed) {
        error += "; processes() disagrees with committed_events()";
    }
    return committed;
}

/// What writeKeepingOn left: the store's view at the end (after finish, successful or not).
struct KeptOnRun {
    bool finished = false;
    std::vector<ProcessSummary> processes;
    std::uint64_t committed = 0;
    long long before_finish = 0; ///< bytes the session files grew by until finish began
    std::string error;
};

constexpr std::uint64_t kKeptOnDispatches = 10000;
/// Sent by each process of writeKeepingOn: its dispatches and its session_end.
constexpr std::uint64_t kKeptOnSent = kKeptOnDispatches + 1;

/// Writes two processes of kKeptOnDispatches dispatches each and their session_ends as the collector
/// does on a disk that fills `budget` bytes after the file was created (-1: no limit): every failed
/// insert or commit is ignored and the stream goes on, commits every 1000 events, finish at the end.
/// `space_returns`: the limit is lifted before finish (space freed meanwhile).
KeptOnRun writeKeepingOn(const std::string& path, long long budget, bool space_returns) {
    KeptOnRun run;
    auto store = SessionStore::open(path, SessionStore::Mode::overwrite, run.error);
    if (!store) {
        return run;
    }
    const long long opened = diskUsage(path);
    if (budget >= 0) {
        limitDiskUsage(path, budget);
    }
    const std::int64_t processes[] = {store->process({101, 1001, 1}), store->process({102, 1002, 1})};
    for (std::uint64_t s = 1; s <= kKeptOnDispatches; ++s) {
        for (const std::int64_t p : processes) {
            store->insert(p, rs::test::dispatchRecord(s, s));
        }
        if (s % 1000 == 0) {
            store->commit();
        }
    }
    for (const std::int64_t p : processes) {
        auto end = rs::test::sessionEndRecord(kKeptOnSent, kKeptOnSent);
        end.session_end.counts[static_cast<std::size_t>(rs::ipc::EventType::dispatch)] = kKeptOnDispatches;
        end.session_end.counts[static_cast<std::size_t>(rs::ipc::EventType::session_end)] = 1;
        store->insert(p, end);
    }
    store->commit();
    run.before_finish = diskUsage(path) - opened;
    if (space_returns) {
        unlimitDisk();
    }
    run.finished = store->finish("session end received");
    if (!run.finished) {
        run.error = store->last_error();
    }
    run.processes = store->processes();
    run.committed = store->committed_events();
    unlimitDisk();
    return run;
}

/// Bytes the files of writeKeepingOn grow by after creating the file until finish when nothing fails (-1:
/// it failed).
long long keptOnBytes(const std::string& path) {
    const KeptOnRun run = writeKeepingOn(path, 1LL << 40, false);
    return run.finished ? run.before_finish : -1;
}

} // namespace

class StoreFullDiskTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY2(shimWritten() != nullptr, "the ENOSPC shim is not loaded"); }
    void cleanup() { unlimitDisk(); }

    /// The disk is full before the start (or fills while the schema is written, or has no room for the
    /// end rows after it): open fails and leaves no file (neither a 0-byte nor a schema-less one) and no
    /// -wal/-shm.
    void fullBeforeTheStartLeavesNoFile_data() {
        QTest::addColumn<long long>("budget");
        QTest::newRow("nothing") << 0LL;
        QTest::newRow("one page") << 4096LL;
        QTest::newRow("part of the schema") << 40000LL;
        // The schema fits, the 256 KiB the end rows need after it do not.
        QTest::newRow("no room for the end") << 300000LL;
    }
    void fullBeforeTheStartLeavesNoFile() {
        QFETCH(long long, budget);
        QTemporaryDir dir;
        const QString path = dir.path() + "/full.rsdb";
        std::string error;
        limitDisk(path.toStdString(), budget);
        auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::create, error);
        unlimitDisk();
        QVERIFY(!store);
        QVERIFY2(QString::fromStdString(error).contains("full"), error.c_str());
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(path + "-wal"));
        QVERIFY(!QFile::exists(path + "-shm"));
        QVERIFY(!QFile::exists(path + "-journal"));
    }

    /// The disk fills in the middle: the store's committed count (what a summary prints) equals the rows
    /// the file holds and its session row; the file is accepted.
    void committedCountsAfterFullDisk() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/mid.rsdb").toStdString();
        std::string error;
        bool finished = false;
        // (The byte budget counts every write, the WAL reserve's allocation and the frames written into it
        // alike.)
        limitDisk(path, 1700 * 1024);
        const std::uint64_t committed = writeSession(path, 20000, finished, error);
        unlimitDisk();
        QVERIFY2(!finished, "the budget did not run out");
        QVERIFY2(!QString::fromStdString(error).contains("disagrees"), error.c_str());
        QVERIFY(committed > 1000);
        QVERIFY(committed < 20000);
        const auto check = rs::session::check_session_file(path);
        QVERIFY2(check.ok, check.message.c_str());
        rs::test::SessionDb db(path);
        QCOMPARE(static_cast<std::uint64_t>(db.integer("SELECT count(*) FROM dispatches")), committed);
        QCOMPARE(static_cast<std::uint64_t>(db.integer("SELECT events_stored FROM session")), committed);
        QCOMPARE(static_cast<std::uint64_t>(db.integer("SELECT events_stored FROM processes")), committed);
    }

    /// The disk fills at several points (at once, early, half-way, during finish) and stays full, or
    /// space returns before finish: for every process, sent (its session_end's last sequence) = stored
    /// + missing exactly, in the store's summary and, when finish could write, in the file, whose
    /// event_counts keep the session_end's sent counts. Events of a rolled-back transaction are missing,
    /// never forgotten, and no event is counted twice.
    void sentIsStoredPlusMissing_data() {
        QTemporaryDir dir;
        const long long total = keptOnBytes((dir.path() + "/measure.rsdb").toStdString());
        QVERIFY(total > 512 * 1024);
        QTest::addColumn<long long>("budget");
        QTest::addColumn<bool>("space_returns");
        QTest::addColumn<bool>("loses");
        // Budgets: growth of the files allowed after the open (the WAL reserve is in place by then).
        const std::tuple<const char*, long long, bool> budgets[] = {
            {"nothing", 0, true},
            {"small", 64 * 1024, true},
            {"half", total / 2, true},
            {"near the end", total - 16 * 1024, false}};
        for (const auto& [name, budget, loses] : budgets) {
            QTest::addRow("%s, stays full", name) << budget << false << loses;
            QTest::addRow("%s, space returns", name) << budget << true << loses;
        }
    }
    void sentIsStoredPlusMissing() {
        QFETCH(long long, budget);
        QFETCH(bool, space_returns);
        QFETCH(bool, loses);
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/lossy.rsdb").toStdString();
        const KeptOnRun run = writeKeepingOn(path, budget, space_returns);
        QVERIFY2(run.processes.size() == 2, run.error.c_str());
        QCOMPARE(run.finished, space_returns);
        std::uint64_t stored = 0;
        for (const ProcessSummary& p : run.processes) {
            QCOMPARE(p.last_sequence, kKeptOnSent);
            QCOMPARE(p.events_stored + p.missing, kKeptOnSent);
            QCOMPARE(p.complete, p.missing == 0);
            stored += p.events_stored;
        }
        QCOMPARE(run.committed, stored);
        if (loses) {
            QVERIFY2(stored < 2 * kKeptOnSent, "the budget did not run out");
        }
        const auto check = rs::session::check_session_file(path);
        QVERIFY2(check.ok, check.message.c_str());
        rs::test::SessionDb db(path);
        for (const ProcessSummary& p : run.processes) {
            const std::string where = " FROM processes WHERE process = " + std::to_string(p.process);
            const long long sent = db.integer("SELECT coalesce(max(last_sequence), 0)" + where);
            const long long rows =
                db.integer("SELECT count(*) FROM dispatches WHERE process = " + std::to_string(p.process)) +
                db.integer("SELECT count(*)" + where + " AND end_seq IS NOT NULL");
            // The file says what the store says, also when the disk stayed full (the end rows went
            // into the WAL reserve): its stored events are its rows, the rest of what was sent missing.
            QCOMPARE(db.integer("SELECT coalesce(max(events_stored), 0)" + where), rows);
            QCOMPARE(static_cast<std::uint64_t>(sent), kKeptOnSent);
            QCOMPARE(static_cast<std::uint64_t>(rows), p.events_stored);
            QCOMPARE(static_cast<std::uint64_t>(db.integer("SELECT missing_events" + where)), p.missing);
            QCOMPARE(db.integer("SELECT complete" + where), p.complete ? 1 : 0);
            if (space_returns) { // finish wrote the per-type counts, the session_end's and the end reasons
                QVERIFY(!db.text("SELECT end_reason" + where).isEmpty());
                QCOMPARE(db.integer("SELECT sent FROM event_counts WHERE event_type = 9 AND process = " +
                                    std::to_string(p.process)),
                         static_cast<long long>(kKeptOnDispatches));
                QCOMPARE(db.integer("SELECT count(*)" + where + " AND end_seq IS NOT NULL"), 1);
            }
        }
        QCOMPARE(static_cast<std::uint64_t>(db.integer("SELECT events_stored FROM session")), stored);
        QCOMPARE(db.integer("SELECT events_stored + missing_events FROM session"),
                 static_cast<long long>(2 * kKeptOnSent));
    }

    /// Events lost with a rolled-back transaction are missing, and stored once when they come again (a
    /// spool, twice over): never counted twice, never left missing once stored.
    void lostEventsStoredOnceWhenTheyComeAgain() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/again.rsdb").toStdString();
        std::string error;
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        const auto p = store->process({88, 800, 1});
        limitDisk(path, 0);
        for (std::uint64_t s = 1; s <= 1000; ++s) {
            store->insert(p, rs::test::dispatchRecord(s, s));
        }
        QVERIFY(!store->commit());
        unlimitDisk();
        auto summary = store->processes();
        QCOMPARE(summary[0].events_stored, std::uint64_t{0});
        QCOMPARE(summary[0].missing, std::uint64_t{1000});
        QCOMPARE(summary[0].last_sequence, std::uint64_t{1000});
        for (int pass = 0; pass < 2; ++pass) {
            for (std::uint64_t s = 1; s <= 1000; ++s) {
                QVERIFY(store->insert(p, rs::test::dispatchRecord(s, s)));
            }
        }
        QVERIFY(store->insert(p, rs::test::sessionEndRecord(1001, 1001)));
        QVERIFY2(store->finish("session end received"), store->last_error().c_str());
        summary = store->processes();
        QCOMPARE(summary[0].events_stored, std::uint64_t{1001});
        QCOMPARE(summary[0].missing, std::uint64_t{0});
        QVERIFY(summary[0].complete);
        store.reset();
        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 1000);
        QCOMPARE(db.integer("SELECT events_stored FROM processes"), 1001);
        QCOMPARE(db.integer("SELECT missing_events FROM processes"), 0);
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 0);
    }

    /// The disk fills during finish()'s checkpoint: page 1 (with the new page count) reached the
    /// database file, later pages did not. The file is shorter than its header says; SQLite reads it
    /// through the WAL, and check_session_file accepts it with every committed row.
    void checkpointCutShortIsReadable() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/cut.rsdb").toStdString();
        std::string error;
        bool finished = false;
        // Measure: every write of a normal session, and those before the checkpoint.
        limitDisk(path, 1LL << 40);
        std::uint64_t committed = writeSession(path, 5000, finished, error);
        QVERIFY2(finished, error.c_str());
        const long long total = shimWritten()();
        QCOMPARE(committed, std::uint64_t{5001});
        // The checkpoint writes the database pages (the whole file, after the WAL frames): allow the
        // WAL and page 1 of the checkpoint plus a part of page 2.
        const long long database = QFileInfo(QString::fromStdString(path)).size();
        QVERIFY(database > 3 * 4096);
        const long long budget = total - database + 4096 + 100;
        limitDisk(path, budget);
        committed = writeSession(path, 5000, finished, error);
        unlimitDisk();
        QVERIFY2(!finished, "the checkpoint did not run out of space");
        QCOMPARE(committed, std::uint64_t{5001}); // the last commit went through; only the checkpoint failed
        QVERIFY(QFileInfo(QString::fromStdString(path + "-wal")).size() > 0);
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray header = file.read(100);
        const auto pages = (static_cast<quint32>(static_cast<quint8>(header[28])) << 24) |
                           (static_cast<quint32>(static_cast<quint8>(header[29])) << 16) |
                           (static_cast<quint32>(static_cast<quint8>(header[30])) << 8) |
                           static_cast<quint32>(static_cast<quint8>(header[31]));
        QVERIFY2(static_cast<qint64>(pages) * 4096 > file.size(),
                 qPrintable(QString("%1 pages, %2 bytes").arg(pages).arg(file.size())));
        file.close();
        const auto check = rs::session::check_session_file(path);
        QVERIFY2(check.ok, check.message.c_str());
        QVERIFY(check.has_wal);
        rs::test::SessionDb db(path);
        QCOMPARE(db.text("PRAGMA quick_check"), QString("ok"));
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 5000);
        QCOMPARE(db.integer("SELECT events_stored FROM session"), 5001);
    }

    /// replayscope-run on a disk that fills during the run: its summary counts what the file holds.
    void runnerSummaryCountsCommittedRows() {
        QTemporaryDir dir;
        const QString session = dir.path() + "/run.rsdb";
        const auto run = rs::test::record_full_disk_session(RS_REPLAYSCOPE_RUN, RS_ENOSPC_SHIM, session,
                                                            1700 * 1024, {RS_WORKLOAD_ACCUMULATE_N, "3000"});
        QVERIFY2(run.shim_injected, qPrintable(run.output));
        QVERIFY2(run.summary_events >= 0, qPrintable(run.output));
        const auto check = rs::session::check_session_file(session.toStdString());
        QVERIFY2(check.ok, check.message.c_str());
        rs::test::SessionDb db(session.toStdString());
        QCOMPARE(db.integer("SELECT events_stored FROM session"), run.summary_events);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), run.summary_dispatches);
        QVERIFY2(run.summary_dispatches < 3000, qPrintable(run.output));
    }

    /// replayscope-run on a disk that fills early, half-way or near the end of the run (the shim's usage
    /// mode: the space the session's files may occupy, from 25% to all but a page of what a run on a
    /// free disk occupied at most): its process line names every event the program sent (the count of
    /// that free run) as stored or missing, and the file records the same counts, whatever the commits'
    /// timing (its end rows go into the part of the WAL no other transaction may use). At least one
    /// budget loses events.
    void runnerReportsEverySentEvent() {
        QTemporaryDir dir;
        const auto free =
            rs::test::record_full_disk_session(RS_REPLAYSCOPE_RUN, RS_ENOSPC_SHIM, dir.path() + "/free.rsdb",
                                               1LL << 40, {RS_WORKLOAD_ACCUMULATE_N, "3000"}, 120000, true);
        QVERIFY2(free.processes.size() == 1 && free.processes[0].complete && free.shim_total > 0,
                 qPrintable(free.output));
        const long long peak = free.shim_total, sent = free.processes[0].events;
        int lossy = 0, lossyAndExactInTheFile = 0;
        // Every budget is a run of the simulated program: under a sanitizer (ten times slower) three of
        // them, the smallest, a middle one and all but a page.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
        const long long budgets[] = {peak * 25 / 100, peak * 55 / 100, peak - 4096};
#else
        const long long budgets[] = {peak * 25 / 100, peak * 30 / 100, peak * 40 / 100,
                                     peak * 55 / 100, peak * 80 / 100, peak - 4096};
#endif
        for (const long long budget : budgets) {
            const QString session = dir.path() + QString("/lossy-%1.rsdb").arg(budget);
            const auto run =
                rs::test::record_full_disk_session(RS_REPLAYSCOPE_RUN, RS_ENOSPC_SHIM, session, budget,
                                                   {RS_WORKLOAD_ACCUMULATE_N, "3000"}, 120000, true);
            const QByteArray context =
                QString("budget %1 of %2: %3").arg(budget).arg(peak).arg(run.output).toLocal8Bit();
            // (The most a run occupies varies with its commits' timing: near the end the disk may not fill.)
            QVERIFY2(run.processes.size() == 1, context.constData());
            const auto& p = run.processes[0];
            const long long shownSent = p.sent >= 0 ? p.sent : p.events;
            QVERIFY2(shownSent == sent, context.constData());
            QVERIFY2(p.events + p.missing == sent, context.constData());
            QVERIFY2(run.summary_events == p.events, context.constData());
            const auto check = rs::session::check_session_file(session.toStdString());
            QVERIFY2(check.ok, check.message.c_str());
            rs::test::SessionDb db(session.toStdString());
            const long long fileStored = db.integer("SELECT coalesce(sum(events_stored), 0) FROM processes");
            const long long fileMissing =
                db.integer("SELECT coalesce(sum(missing_events), 0) FROM processes");
            const long long fileSent = db.integer("SELECT coalesce(sum(last_sequence), 0) FROM processes");
            QVERIFY2(fileStored == p.events, context.constData()); // the file holds what the runner counts
            QVERIFY2(fileStored + fileMissing == fileSent, context.constData());
            QVERIFY2(fileSent == sent && fileMissing == p.missing, context.constData());
            QVERIFY2(!run.output.contains("could not record the end"), context.constData());
            if (p.missing > 0) {
                ++lossy;
                lossyAndExactInTheFile += fileSent == sent && fileMissing == p.missing ? 1 : 0;
            }
        }
        QVERIFY2(lossy > 0, "no budget lost events");
        QVERIFY2(lossyAndExactInTheFile > 0, "no lossy run recorded its counts in the file");
    }

    /// replayscope-run with the disk full before the start: no session file is left behind.
    void runnerFullBeforeTheStartLeavesNoFile() {
        QTemporaryDir dir;
        const QString session = dir.path() + "/none.rsdb";
        const auto run = rs::test::record_full_disk_session(RS_REPLAYSCOPE_RUN, RS_ENOSPC_SHIM, session, 0,
                                                            {RS_WORKLOAD_ACCUMULATE_N, "5"});
        QVERIFY2(run.exit_code != 0, qPrintable(run.output));
        QVERIFY2(!QFile::exists(session), qPrintable(run.output));
        QVERIFY(!QFile::exists(session + "-wal"));
    }
};

int main(int argc, char** argv) {
    // Re-executed with the shim preloaded (after a sanitizer runtime the environment preloads).
    if (shimWritten() == nullptr && std::getenv("RS_ENOSPC_REEXEC") == nullptr) {
        const char* preload = std::getenv("LD_PRELOAD");
        const std::string value =
            preload && *preload ? std::string(preload) + ":" + RS_ENOSPC_SHIM : RS_ENOSPC_SHIM;
        ::setenv("LD_PRELOAD", value.c_str(), 1);
        const char* asan = std::getenv("ASAN_OPTIONS");
        ::setenv("ASAN_OPTIONS",
                 (std::string(asan ? asan : "") + (asan ? ":" : "") + "verify_asan_link_order=0").c_str(), 1);
        ::setenv("RS_ENOSPC_REEXEC", "1", 1);
        ::execv("/proc/self/exe", argv);
        std::perror("execv");
        return 1;
    }
    QCoreApplication app(argc, argv);
    StoreFullDiskTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_ipc_store_full_disk.moc"
