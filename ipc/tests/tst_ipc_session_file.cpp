// Foreign, corrupt and newer-version session files are refused with a clear message.
#include "test_support.hpp"

#include "replayscope/ipc/session_store.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

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
        QVERIFY(checkSessionFile(path.toStdString()).ok);
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
        QVERIFY2(message.contains("version 99 is newer than this ReplayScope supports (2)"),
                 qPrintable(message));
    }
    /// Version-1 files (before the compact layout) pass the check, so readers can open them, but are
    /// not appended to; version 0 is invalid.
    void versionOneIsReadableNotAppendable() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/v1.rsdb";
        QCOMPARE(makeSession(path), std::string());
        sql(path, "PRAGMA user_version = 1");
        const auto check = checkSessionFile(path.toStdString());
        QVERIFY(check.ok);
        QCOMPARE(check.format_version, 1);
        QVERIFY2(refusal(path).contains("version 1 can be read but not appended to; this ReplayScope writes "
                                        "version 2"),
                 qPrintable(refusal(path)));
        sql(path, "PRAGMA user_version = 0");
        QVERIFY2(refusal(path).contains("version 0 is not valid (this ReplayScope reads versions 1 to 2)"),
                 qPrintable(refusal(path)));
    }
    void exitStatusIsRecorded() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/exit.rsdb";
        QCOMPARE(makeSession(path), std::string());
        std::string error;
        QVERIFY2(recordExitStatus(path.toStdString(), 128 + 9, 9, error), error.c_str());
        sqlite3* db = nullptr;
        sqlite3_open(path.toLocal8Bit().constData(), &db);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT exit_status, exit_signal FROM session", -1, &st, nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(st, 0), 137);
        QCOMPARE(sqlite3_column_int(st, 1), 9);
        sqlite3_finalize(st);
        sqlite3_close(db);
        QVERIFY(checkSessionFile(path.toStdString()).ok);
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
