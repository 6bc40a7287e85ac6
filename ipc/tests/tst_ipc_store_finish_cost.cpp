// SPDX-License-Identifier: MIT
// What SessionStore::finish costs: every per-process statement it runs is a search of that process's rows
// (EXPLAIN QUERY PLAN: no scan of dispatch_rows, event_counts or the other tables keyed by process), and
// finishing again (a spool appended to a finished file) recounts only the processes that changed, or that
// no finish ended (a writer that died).
#include "test_support.h"

#include "replayscope/ipc/session_store.h"
#include "replayscope/session/write_statements.h"

#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace rs::ipc;

namespace {

/// The lines of EXPLAIN QUERY PLAN of `sql` on the session file `path` (parameters unbound).
QStringList queryPlan(const std::string& path, const char* sql) {
    QStringList lines;
    sqlite3* db = nullptr;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(db, (std::string("EXPLAIN QUERY PLAN ") + sql).c_str(), -1, &st, nullptr) ==
            SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            lines << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 3)));
        }
    } else {
        lines << QString("error: ") + sqlite3_errmsg(db);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return lines;
}

/// A session of `processes` processes of `dispatches` dispatches each and their session_ends, finished.
bool writeFinished(const std::string& path, int processes, std::uint64_t dispatches, std::string& error) {
    auto store = SessionStore::open(path, SessionStore::Mode::overwrite, error);
    if (!store) {
        return false;
    }
    for (int i = 0; i < processes; ++i) {
        const auto p =
            store->process({static_cast<std::uint64_t>(500 + i), static_cast<std::uint32_t>(900 + i), 1});
        for (std::uint64_t s = 1; s <= dispatches; ++s) {
            store->insert(p, rs::test::dispatchRecord(s, s));
        }
        store->insert(p, rs::test::sessionEndRecord(dispatches + 1, dispatches + 1));
    }
    if (!store->finish("session end received")) {
        error = store->last_error();
        return false;
    }
    return true;
}

} // namespace

class StoreFinishCostTest : public QObject {
    Q_OBJECT
  private slots:
    /// No statement finish() runs per process scans a table: the stored counts search each table by the
    /// process (dispatch_rows by its key range, never through the restores view, which filters it by
    /// the unindexed generated `process` column), the names by (process, event type).
    void perProcessStatementsSearch() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/plans.rsdb").toStdString();
        std::string error;
        QVERIFY2(writeFinished(path, 3, 50, error), error.c_str());
        for (const char* sql :
             {rs::session::kUpsertStoredCounts, rs::session::kUpdateEventCountName,
              rs::session::kUpdateProcessEndReason, rs::session::kUpdateProcess, rs::session::kDeleteGaps}) {
            const QStringList plan = queryPlan(path, sql);
            QVERIFY2(!plan.isEmpty(), sql);
            for (const QString& line : plan) {
                // A scan of a constant row or of the statement's own subquery `t` reads no table.
                const bool scansTable =
                    line.startsWith("SCAN ") && line != "SCAN CONSTANT ROW" && line != "SCAN t";
                QVERIFY2(!line.startsWith("error") && !scansTable,
                         qPrintable(line + "\n" + plan.join('\n') + "\n" + sql));
            }
        }
    }

    /// Finishing a file again recounts the processes that changed since (a process added, one that no
    /// finish ended) and leaves the others' counts as they are: a count altered by hand in an unchanged
    /// process stays altered, the changed ones are right.
    void finishAgainRecountsTheChangedProcessesOnly() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/again.rsdb").toStdString();
        std::string error;
        QVERIFY2(writeFinished(path, 4, 20, error), error.c_str());
        {
            rs::test::SessionDb db(path);
            QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE process = 1 AND event_type = 9"), 20);
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
        // Process 1: unchanged, its count altered (a recount would restore 20). Process 2: as if its
        // writer died before finishing it (no end reason), its count altered too.
        QCOMPARE(
            sqlite3_exec(db,
                         "UPDATE event_counts SET stored = 999 WHERE process IN (1, 2) AND event_type = 9;"
                         "UPDATE processes SET end_reason = NULL WHERE process = 2",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(db);
        auto store = SessionStore::open(path, SessionStore::Mode::append, error);
        QVERIFY2(store, error.c_str());
        const auto added = store->process({777, 7777, 1});
        for (std::uint64_t s = 1; s <= 5; ++s) {
            QVERIFY(store->insert(added, rs::test::dispatchRecord(s, s)));
        }
        QVERIFY2(store->finish("session end received"), store->last_error().c_str());
        store.reset();
        rs::test::SessionDb check(path);
        QCOMPARE(check.integer("SELECT stored FROM event_counts WHERE process = 1 AND event_type = 9"), 999);
        QCOMPARE(check.integer("SELECT stored FROM event_counts WHERE process = 2 AND event_type = 9"), 20);
        QCOMPARE(check.text("SELECT end_reason FROM processes WHERE process = 2"),
                 QString("session end received"));
        QCOMPARE(check.integer("SELECT stored FROM event_counts WHERE process = 5 AND event_type = 9"), 5);
        QCOMPARE(check.text("SELECT name FROM event_counts WHERE process = 5 AND event_type = 9"),
                 QString("dispatch"));
        QCOMPARE(check.text("SELECT end_reason FROM processes WHERE process = 5"), QString("no session end"));
        QCOMPARE(check.integer("SELECT process_count FROM session"), 5);
        QCOMPARE(check.integer("SELECT complete FROM session"), 0);
    }
};

QTEST_GUILESS_MAIN(StoreFinishCostTest)
#include "tst_ipc_store_finish_cost.moc"
