// SPDX-License-Identifier: MIT
// Foreign, corrupt and newer-version session files are refused with a clear message; special files
// (FIFOs, devices, directories) are refused before anything reads them; a version-2 file still reads; a
// session with a write-ahead log beside it is judged by SQLite (and can be read through a copy); the
// exit status lands in the session row and in the root process's row.
#include "test_support.h"

#include "replayscope/ipc/session_store.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <fcntl.h>
#include <future>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace rs::ipc;

class SessionFileTest : public QObject {
    Q_OBJECT
  private:
    /// A valid, finished session file with one dispatch.
    static std::string makeSession(const QString& path) {
        std::string error;
        auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::create, error);
        if (!store) {
            return error;
        }
        store->insert(rs::test::dispatchRecord(1, 1));
        store->finish("test");
        return {};
    }
    static void sql(const QString& path, const char* statement) {
        sqlite3* db = nullptr;
        sqlite3_open(path.toLocal8Bit().constData(), &db);
        sqlite3_exec(db, statement, nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    /// Runs `check` on a thread; false when it has not returned after 5 s (it was blocked: the FIFO is then
    /// opened for writing, which releases a reader blocked in open(), so the test ends either way).
    template <typename F>
    static bool returnsPromptly(const QString& fifo, F check) {
        std::packaged_task<void()> task(check);
        auto done = task.get_future();
        std::thread thread(std::move(task));
        const bool prompt = done.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
        if (!prompt) {
            const int writer = ::open(fifo.toLocal8Bit().constData(), O_WRONLY | O_NONBLOCK);
            done.wait();
            if (writer >= 0) {
                ::close(writer);
            }
        }
        thread.join();
        return prompt;
    }
    /// A version-2 file as the version-2 writer left it (data/session-v2.sql, its sqlite3 dump).
    static bool makeVersionTwo(const QString& path) {
        QFile dump(QStringLiteral(RS_IPC_TEST_DATA "/session-v2.sql"));
        if (!dump.open(QIODevice::ReadOnly)) {
            return false;
        }
        const QByteArray sql =
            dump.readAll() + "\nPRAGMA application_id = 1381188674; PRAGMA user_version = 2;";
        sqlite3* db = nullptr;
        const bool ok = sqlite3_open(path.toLocal8Bit().constData(), &db) == SQLITE_OK &&
                        sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
        sqlite3_close(db);
        return ok;
    }
    static QString refusal(const QString& path) {
        std::string error;
        auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::append, error);
        return store ? QString() : QString::fromStdString(error);
    }

  private slots:
    void validFileIsAccepted() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/ok.rsdb";
        QCOMPARE(makeSession(path), std::string());
        QVERIFY(rs::session::check_session_file(path.toStdString()).ok);
        QCOMPARE(refusal(path), QString());
    }
    void existingFileIsNotOverwrittenWithoutForce() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/ok.rsdb";
        QCOMPARE(makeSession(path), std::string());
        std::string error;
        QVERIFY(!SessionStore::open(path.toStdString(), SessionStore::Mode::create, error));
        QVERIFY(QString::fromStdString(error).contains("already exists"));
        QVERIFY(SessionStore::open(path.toStdString(), SessionStore::Mode::overwrite, error));
    }
    void foreignFileIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/notes.rsdb";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("these are my notes, not a session\n");
        f.close();
        QVERIFY(refusal(path).contains("not a SQLite database (foreign file)"));
        QCOMPARE(QFile(path).size(), 34); // untouched
    }
    void foreignSqliteIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/other.db";
        sql(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
        QVERIFY(refusal(path).contains("foreign SQLite database"));
    }
    void newerVersionIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/newer.rsdb";
        QCOMPARE(makeSession(path), std::string());
        sql(path, "PRAGMA user_version = 99");
        const QString message = refusal(path);
        QVERIFY2(message.contains("version 99 is newer than this ReplayScope supports (7)"),
                 qPrintable(message));
    }
    /// Version-1 files (before the compact layout) pass the check, so readers can open them, but are
    /// not appended to; version 0 is invalid.
    void versionOneIsReadableNotAppendable() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/v1.rsdb";
        QCOMPARE(makeSession(path), std::string());
        sql(path, "PRAGMA user_version = 1");
        const auto check = rs::session::check_session_file(path.toStdString());
        QVERIFY(check.ok);
        QCOMPARE(check.format_version, 1);
        QVERIFY2(refusal(path).contains("version 1 can be read but not appended to; this ReplayScope writes "
                                        "version 7"),
                 qPrintable(refusal(path)));
        sql(path, "PRAGMA user_version = 0");
        QVERIFY2(refusal(path).contains("version 0 is not valid (this ReplayScope reads versions 1 to 7)"),
                 qPrintable(refusal(path)));
    }
    /// A version-4 file (no fence wait) still passes the check and is read, but this build writes version 7
    /// (its dispatch rows have the fence-wait column, its views `dispatches.window_ns`): it is not appended
    /// to.
    void versionFourIsReadableNotAppendable() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/v4.rsdb";
        QCOMPARE(makeSession(path), std::string());
        sql(path, "PRAGMA user_version = 4");
        const auto check = rs::session::check_session_file(path.toStdString());
        QVERIFY2(check.ok, check.message.c_str());
        QCOMPARE(check.format_version, 4);
        QVERIFY2(refusal(path).contains("version 4 can be read but not appended to; this ReplayScope writes "
                                        "version 7"),
                 qPrintable(refusal(path)));
    }
    void exitStatusIsRecorded() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/exit.rsdb";
        QCOMPARE(makeSession(path), std::string());
        std::string error;
        QVERIFY2(record_exit_status(path.toStdString(), 0u, 128 + 9, 9, error), error.c_str());
        sqlite3* db = nullptr;
        sqlite3_open(path.toLocal8Bit().constData(), &db);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT exit_status, exit_signal FROM session", -1, &st, nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(st, 0), 137);
        QCOMPARE(sqlite3_column_int(st, 1), 9);
        sqlite3_finalize(st);
        sqlite3_close(db);
        QVERIFY(rs::session::check_session_file(path.toStdString()).ok);
    }
    /// The job rank replayscope-run found goes to session.job_rank; a file created without the column
    /// gets it; a file without a rank reads -1; bad input is refused and leaves the file as it was.
    void jobRankIsRecorded() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/rank.rsdb";
        QCOMPARE(makeSession(path), std::string());
        std::string error;
        int rank = 7;
        QVERIFY2(read_job_rank(path.toStdString(), rank, error), error.c_str());
        QCOMPARE(rank, -1); // the column exists, NULL
        QVERIFY2(record_job_rank(path.toStdString(), 3, error), error.c_str());
        auto stored = [&](const QString& file) {
            sqlite3* db = nullptr;
            sqlite3_open(file.toLocal8Bit().constData(), &db);
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(db, "SELECT job_rank FROM session", -1, &st, nullptr);
            const int value = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -2;
            sqlite3_finalize(st);
            sqlite3_close(db);
            return value;
        };
        QCOMPARE(stored(path), 3);
        QVERIFY2(read_job_rank(path.toStdString(), rank, error), error.c_str());
        QCOMPARE(rank, 3);
        QVERIFY(rs::session::check_session_file(path.toStdString()).ok);
        QVERIFY(!QFileInfo::exists(path + "-wal"));

        // A file of a build before the column: no rank, and recording one adds the column.
        const QString old = dir.path() + "/old.rsdb";
        QCOMPARE(makeSession(old), std::string());
        sql(old, "ALTER TABLE session DROP COLUMN job_rank");
        QVERIFY2(read_job_rank(old.toStdString(), rank, error), error.c_str());
        QCOMPARE(rank, -1);
        QVERIFY2(record_job_rank(old.toStdString(), 12, error), error.c_str());
        QCOMPARE(stored(old), 12);

        error.clear();
        QVERIFY(!record_job_rank(path.toStdString(), -1, error));
        QVERIFY2(QString::fromStdString(error).contains("job rank -1 is not valid"), error.c_str());
        QCOMPARE(stored(path), 3);
        const QString missing = dir.path() + "/missing.rsdb";
        QVERIFY(!record_job_rank(missing.toStdString(), 1, error));
        QVERIFY(!read_job_rank(missing.toStdString(), rank, error));
        QCOMPARE(rank, -1);
        QVERIFY(!QFileInfo::exists(missing));
    }
    /// The root program's status goes to the session row and to the latest process of its pid (a
    /// program exec'd by the launched shell keeps the pid); the file ends in journal_mode=DELETE.
    void exitStatusGoesToTheRootProcess() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/root.rsdb";
        std::string error;
        {
            auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::create, error);
            QVERIFY2(store, error.c_str());
            const auto shell = store->process({11, 500, 1});
            const auto child = store->process({22, 501, 500});
            const auto execd = store->process({33, 500, 1}); // the shell's pid after exec
            QCOMPARE(shell, 1);
            QCOMPARE(child, 2);
            QCOMPARE(execd, 3);
            QVERIFY(store->insert(shell, rs::test::dispatchRecord(1, 1)));
            QVERIFY(store->insert(child, rs::test::dispatchRecord(1, 1)));
            QVERIFY(store->insert(execd, rs::test::dispatchRecord(1, 1)));
            QVERIFY(store->finish("test"));
        }
        QVERIFY2(record_exit_status(path.toStdString(), 500u, 3, 0, error), error.c_str());
        rs::test::SessionDb db(path.toStdString());
        QCOMPARE(db.integer("SELECT exit_status FROM session"), 3);
        QCOMPARE(db.integer("SELECT exit_signal FROM session"), -1); // NULL: no signal
        QCOMPARE(db.integer("SELECT exit_status FROM processes WHERE process = 3"), 3);
        QCOMPARE(db.integer("SELECT count(*) FROM processes WHERE exit_status IS NULL"), 2);
        QCOMPARE(db.text("PRAGMA journal_mode"), QString("delete"));
        QVERIFY(!QFile::exists(path + "-wal"));
    }
    /// A finished session is one self-contained file: no WAL beside it, rollback-journal mode.
    void finishedSessionIsSelfContained() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/done.rsdb";
        QCOMPARE(makeSession(path), std::string());
        QVERIFY(!QFile::exists(path + "-wal"));
        rs::test::SessionDb db(path.toStdString());
        QCOMPARE(db.text("PRAGMA journal_mode"), QString("delete"));
    }
    /// A FIFO is refused at once by every entry point that would read it (opening one for reading
    /// blocks until a writer comes: the check must never get that far).
    void fifoIsRefusedWithoutBlocking() {
        QTemporaryDir dir;
        const QString fifo = dir.path() + "/pipe.rsdb";
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const std::string path = fifo.toStdString();
        rs::session::FileCheck check;
        QVERIFY(returnsPromptly(fifo, [&] { check = rs::session::check_session_file(path); }));
        QVERIFY(!check.ok);
        QVERIFY2(QString::fromStdString(check.message).contains("a FIFO, not a session file"),
                 check.message.c_str());
        QString appended;
        QVERIFY(returnsPromptly(fifo, [&] { appended = refusal(fifo); }));
        QVERIFY2(appended.contains("a FIFO"), qPrintable(appended));
        std::string error, copy;
        QVERIFY(returnsPromptly(fifo, [&] { copy = rs::session::openable_session_copy(path, error); }));
        QVERIFY(copy.empty());
        QVERIFY2(QString::fromStdString(error).contains("a FIFO"), error.c_str());
        QVERIFY(returnsPromptly(
            fifo, [&] { (void)SessionStore::open(path, SessionStore::Mode::overwrite, error); }));
        QVERIFY2(QString::fromStdString(error).contains("a FIFO"), error.c_str());
        struct stat st{};
        QCOMPARE(::stat(fifo.toLocal8Bit().constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode)); // still there, untouched
    }
    /// A file written by the version-2 writer passes the check (readers take it as one process) and
    /// is not appended to.
    void versionTwoIsReadable() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/v2.rsdb";
        QVERIFY(makeVersionTwo(path));
        const auto check = rs::session::check_session_file(path.toStdString());
        QVERIFY2(check.ok, check.message.c_str());
        QCOMPARE(check.format_version, 2);
        QVERIFY2(refusal(path).contains("version 2 can be read but not appended to; this ReplayScope writes "
                                        "version 7"),
                 qPrintable(refusal(path)));
        rs::test::SessionDb db(path.toStdString());
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 3);
        QCOMPARE(db.integer("SELECT count(*) FROM declines"), 1);
        QCOMPARE(db.integer("SELECT pid FROM session"), 31337);
        QCOMPARE(db.integer("SELECT events_stored FROM session"), 19);
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("PRAGMA user_version"), 2); // the refused append changed nothing
    }
    /// A session whose writer died leaves its rows in the WAL: check_session_file lets SQLite judge it
    /// (ok), and openable_session_copy makes a self-contained copy for readers that cannot recover the
    /// WAL in place, leaving the original as it was.
    void walSessionIsJudgedBySqlite() {
        QTemporaryDir dir;
        const QString live = dir.path() + "/live.rsdb";
        const QString left = dir.path() + "/left.rsdb";
        std::string error;
        auto store = SessionStore::open(live.toStdString(), SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        for (std::uint64_t i = 1; i <= 500; ++i) {
            QVERIFY(store->insert(rs::test::dispatchRecord(i, i)));
        }
        QVERIFY(store->commit());
        // The files as a killed writer leaves them (the store still holds the WAL open, uncheckpointed).
        QVERIFY(QFile::copy(live, left));
        QVERIFY(QFile::copy(live + "-wal", left + "-wal"));
        store.reset();
        const qint64 wal_size = QFileInfo(left + "-wal").size();
        QVERIFY(wal_size > 0);
        const auto check = rs::session::check_session_file(left.toStdString());
        QVERIFY2(check.ok, check.message.c_str());
        QVERIFY(check.has_wal);
        QCOMPARE(check.format_version, rs::session::kFormatVersion);
        const std::string copy = rs::session::openable_session_copy(left.toStdString(), error, true);
        QVERIFY2(!copy.empty(), error.c_str());
        QVERIFY(copy != left.toStdString());
        QVERIFY(!QFile::exists(QString::fromStdString(copy) + "-wal"));
        {
            rs::test::SessionDb db(copy);
            QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 500);
            QCOMPARE(db.integer("SELECT events_stored FROM session"), 500);
            QCOMPARE(db.text("PRAGMA journal_mode"), QString("delete"));
        }
        QCOMPARE(QFileInfo(left + "-wal").size(), wal_size); // the original is untouched
        rs::session::remove_session_copy(left.toStdString(), copy);
        QVERIFY(!QFile::exists(QString::fromStdString(copy)));
        QCOMPARE(rs::session::openable_session_copy(left.toStdString(), error),
                 left.toStdString()); // readable in place
    }
    void corruptFileIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/corrupt.rsdb";
        QCOMPARE(makeSession(path), std::string());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.size() > 8192);
        const qint64 size = f.size();
        f.seek(4096); // every page after the first: clobber the b-trees, keep the database header
        f.write(QByteArray(size - 4096, '\x5a'));
        f.close();
        const QString message = refusal(path);
        QVERIFY2(message.contains("corrupt"), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(SessionFileTest)
#include "tst_ipc_session_file.moc"
