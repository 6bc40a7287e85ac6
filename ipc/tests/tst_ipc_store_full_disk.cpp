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

} // namespace

class StoreFullDiskTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY2(shimWritten() != nullptr, "the ENOSPC shim is not loaded"); }
    void cleanup() { unlimitDisk(); }

    /// The disk is full before the start (or fills while the schema is written): open fails and leaves
    /// no file (neither a 0-byte nor a schema-less one) and no -wal/-shm.
    void fullBeforeTheStartLeavesNoFile_data() {
        QTest::addColumn<long long>("budget");
        QTest::newRow("nothing") << 0LL;
        QTest::newRow("one page") << 4096LL;
        QTest::newRow("part of the schema") << 40000LL;
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
        limitDisk(path, 600 * 1024);
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
                                                            400 * 1024, {RS_WORKLOAD_ACCUMULATE_N, "3000"});
        QVERIFY2(run.shim_injected, qPrintable(run.output));
        QVERIFY2(run.summary_events >= 0, qPrintable(run.output));
        const auto check = rs::session::check_session_file(session.toStdString());
        QVERIFY2(check.ok, check.message.c_str());
        rs::test::SessionDb db(session.toStdString());
        QCOMPARE(db.integer("SELECT events_stored FROM session"), run.summary_events);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), run.summary_dispatches);
        QVERIFY2(run.summary_dispatches < 3000, qPrintable(run.output));
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
