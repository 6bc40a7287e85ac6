// SPDX-License-Identifier: MIT
// The session format module on its own terms: the embedded schema builds a database (tables, views,
// indexes) that the writer stamps with the module's application id and version, every view reads an empty
// session, and check_session_file names each kind of unusable file.
#include "replayscope/ipc/session_store.h"
#include "replayscope/session/file_check.h"
#include "replayscope/session/format.h"
#include "replayscope/session/printable_text.h"
#include "replayscope/session/schema_check.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtCore/QtEndian>
#include <QtTest/QtTest>

#include <sqlite3.h>

#include <string>
#include <sys/stat.h>
#include <vector>

using rs::session::FileCheckKind;

namespace {

/// Runs `sql` on the database `path` (created when missing); SQLite's message on failure, else "".
std::string exec(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    std::string error;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
    } else {
        char* message = nullptr;
        if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
            error = message ? message : "error";
        }
        sqlite3_free(message);
    }
    sqlite3_close(db);
    return error;
}

/// First column of the rows of `sql` on `path`, as text (opened read-only).
std::vector<std::string> column(const std::string& path, const std::string& sql) {
    std::vector<std::string> out;
    sqlite3* db = nullptr;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const auto* text = sqlite3_column_text(st, 0);
            out.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

/// A finished session with no process, written by the store; "" or why it failed.
std::string make_session(const std::string& path) {
    std::string error;
    auto store = rs::ipc::SessionStore::open(path, rs::ipc::SessionStore::Mode::create, error);
    if (!store) {
        return error;
    }
    return store->finish("test") ? std::string() : store->last_error();
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestSessionFormat : public QObject {
    Q_OBJECT

  private slots:
    void constantsAreTheDocumentedOnes() {
        QCOMPARE(rs::session::kApplicationId, 0x52534442); // "RSDB"
        QCOMPARE(rs::session::kFormatVersion, 7);
        QCOMPARE(rs::session::kOldestReadableVersion, 1);
    }

    /// The three schema texts run in order on an empty database and create every table, view and index
    /// they name.
    void embeddedSchemaBuildsTheDatabase() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/schema.db";
        const std::string tables(rs::session::tables_sql()), views(rs::session::views_sql()),
            indexes(rs::session::indexes_sql());
        QVERIFY(tables.find("CREATE TABLE dispatch_rows(") != std::string::npos);
        QCOMPARE(exec(path, tables), std::string());
        QCOMPARE(exec(path, views), std::string());
        QCOMPARE(exec(path, indexes), std::string());
        auto count = [&](const char* type) {
            return column(path,
                          std::string("SELECT count(*) FROM sqlite_master WHERE type = '") + type + "'");
        };
        QCOMPARE(count("table"), std::vector<std::string>{"27"});
        QCOMPARE(count("view"), std::vector<std::string>{"8"});
        // The explicit indexes of indexes.sql (SQLite's own autoindexes are named sqlite_autoindex_*).
        QCOMPARE(column(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name NOT LIKE "
                              "'sqlite_autoindex%'"),
                 std::vector<std::string>{"8"});
        // indexes.sql runs again on a finished file (IF NOT EXISTS).
        QCOMPARE(exec(path, indexes), std::string());
    }

    /// A file the writer creates carries the module's application id and version, and the check accepts it.
    void writerStampsTheConstants() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/new.rsdb";
        QCOMPARE(make_session(path), std::string());
        QCOMPARE(column(path, "PRAGMA application_id"),
                 std::vector<std::string>{std::to_string(rs::session::kApplicationId)});
        QCOMPARE(column(path, "PRAGMA user_version"),
                 std::vector<std::string>{std::to_string(rs::session::kFormatVersion)});
        QCOMPARE(column(path, "SELECT format_version FROM session"),
                 std::vector<std::string>{std::to_string(rs::session::kFormatVersion)});
        const auto check = rs::session::check_session_file(path);
        QVERIFY2(check.ok, check.message.c_str());
        QCOMPARE(check.kind, FileCheckKind::ok);
        QCOMPARE(check.format_version, rs::session::kFormatVersion);
        QVERIFY(check.message.empty());
        QVERIFY(!check.has_wal);
    }

    /// Every view of the schema selects without error on a session with no process and no row.
    void everyViewReadsAnEmptySession() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/empty.rsdb";
        QCOMPARE(make_session(path), std::string());
        const auto views = column(path, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name");
        QCOMPARE(views,
                 (std::vector<std::string>{"declines", "dispatches", "pass_counter_values", "passes",
                                           "process_totals", "restores", "snapshot_stores", "snapshots"}));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        for (const std::string& view : views) {
            sqlite3_stmt* st = nullptr;
            const std::string sql = "SELECT * FROM " + view;
            QVERIFY2(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK, sqlite3_errmsg(db));
            QVERIFY2(sqlite3_column_count(st) > 1, view.c_str());
            QCOMPARE(sqlite3_step(st), SQLITE_DONE); // no row, and no error
            sqlite3_finalize(st);
        }
        sqlite3_close(db);
    }

    void missingFileIsMissing() {
        QTemporaryDir dir;
        const auto check = rs::session::check_session_file(dir.path().toStdString() + "/none.rsdb");
        QVERIFY(!check.ok);
        QCOMPARE(check.kind, FileCheckKind::missing);
        QCOMPARE(check.error_number, ENOENT);
        QVERIFY2(QString::fromStdString(check.message).contains("cannot be opened"), check.message.c_str());
    }

    void emptyFileIsEmpty() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/empty.rsdb";
        QVERIFY(write_file(path, QByteArray()));
        const auto check = rs::session::check_session_file(path.toStdString());
        QVERIFY(!check.ok);
        QCOMPARE(check.kind, FileCheckKind::empty);
        QCOMPARE(check.file_size, std::uint64_t{0});
        QCOMPARE(rs::session::file_check_kind_name(check.kind), std::string_view("empty"));
    }

    void foreignFileIsForeign() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/notes.rsdb";
        QVERIFY(write_file(path, "these are my notes, not a session\n"));
        const auto check = rs::session::check_session_file(path.toStdString());
        QCOMPARE(check.kind, FileCheckKind::foreign_file);
        QCOMPARE(check.file_size, std::uint64_t{34});
        QVERIFY2(QString::fromStdString(check.message).contains("not a SQLite database (foreign file)"),
                 check.message.c_str());
        QCOMPARE(QFile(path).size(), 34); // untouched
    }

    void foreignSqliteIsAForeignDatabase() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/other.db";
        QCOMPARE(exec(path, "PRAGMA application_id = 7; CREATE TABLE t(x); INSERT INTO t VALUES (1);"),
                 std::string());
        const auto check = rs::session::check_session_file(path);
        QCOMPARE(check.kind, FileCheckKind::foreign_database);
        QCOMPARE(check.application_id, std::int64_t{7});
        QVERIFY2(QString::fromStdString(check.message).contains("foreign SQLite database"),
                 check.message.c_str());
    }

    void newerVersionIsTooNew() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/newer.rsdb";
        QCOMPARE(make_session(path), std::string());
        QCOMPARE(exec(path, "PRAGMA user_version = 99"), std::string());
        const auto check = rs::session::check_session_file(path);
        QCOMPARE(check.kind, FileCheckKind::too_new);
        QCOMPARE(check.format_version, 99);
        QVERIFY2(QString::fromStdString(check.message)
                     .contains("version 99 is newer than this ReplayScope supports (7)"),
                 check.message.c_str());
    }

    /// Versions below 1 are too old; user_version is a signed 32-bit value: -1 is reported as -1 (not 0,
    /// not 4294967295). Version 1, the oldest readable, passes.
    void versionsBelowOneAreTooOld() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/old.rsdb";
        QCOMPARE(make_session(path), std::string());
        QCOMPARE(exec(path, "PRAGMA user_version = 0"), std::string());
        auto check = rs::session::check_session_file(path);
        QCOMPARE(check.kind, FileCheckKind::too_old);
        QCOMPARE(check.format_version, 0);
        QCOMPARE(exec(path, "PRAGMA user_version = -1"), std::string());
        check = rs::session::check_session_file(path);
        QVERIFY(!check.ok);
        QCOMPARE(check.kind, FileCheckKind::too_old);
        QCOMPARE(check.format_version, -1);
        QVERIFY2(
            QString::fromStdString(check.message)
                .contains("session format version -1 is not valid (this ReplayScope reads versions 1 to 7)"),
            check.message.c_str());
        QCOMPARE(exec(path, "PRAGMA user_version = 1"), std::string());
        check = rs::session::check_session_file(path);
        QVERIFY2(check.ok, check.message.c_str());
        QCOMPARE(check.format_version, 1);
    }

    /// A page of the b-tree overwritten with garbage (the header intact): SQLite's quick_check refuses it.
    void damagedPageIsCorrupt() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/damaged.rsdb";
        QCOMPARE(make_session(path.toStdString()), std::string());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 size = f.size();
        QVERIFY(size >= 3 * 4096);
        QVERIFY(f.seek(4096)); // page 2 (the store writes 4096-byte pages)
        QCOMPARE(f.write(QByteArray(4096, '\xa5')), qint64(4096));
        f.close();
        const auto check = rs::session::check_session_file(path.toStdString());
        QVERIFY(!check.ok);
        QCOMPARE(check.kind, FileCheckKind::corrupt);
        QVERIFY(!check.integrity.empty());
        QVERIFY2(QString::fromStdString(check.message).contains("corrupt session file"),
                 check.message.c_str());
    }

    /// Cut short: below a SQLite header, and below the pages the (valid) header announces.
    void shortFilesAreTruncated() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/cut.rsdb";
        QCOMPARE(make_session(path.toStdString()), std::string());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray whole = f.readAll();
        f.close();
        const auto pages = qFromBigEndian<quint32>(reinterpret_cast<const uchar*>(whole.constData()) + 28);
        QCOMPARE(qint64(pages) * 4096, qint64(whole.size()));
        QVERIFY(write_file(path, whole.left(4096)));
        auto check = rs::session::check_session_file(path.toStdString());
        QCOMPARE(check.kind, FileCheckKind::truncated);
        QCOMPARE(check.file_size, std::uint64_t{4096});
        QCOMPARE(check.announced_pages, std::uint32_t{pages});
        QCOMPARE(check.announced_bytes, std::uint64_t{pages} * 4096);
        QVERIFY(write_file(path, whole.left(50)));
        check = rs::session::check_session_file(path.toStdString());
        QCOMPARE(check.kind, FileCheckKind::truncated);
        QCOMPARE(check.announced_bytes, std::uint64_t{0});
        QVERIFY2(QString::fromStdString(check.message).contains("less than a SQLite header"),
                 check.message.c_str());
    }

    /// Devices, directories and FIFOs are refused by kind before anything opens them; so is a session whose
    /// -wal is a FIFO (SQLite would open it).
    void nonRegularFilesAreRefusedByKind() {
        auto check = rs::session::check_session_file("/dev/null");
        QCOMPARE(check.kind, FileCheckKind::not_regular);
        QCOMPARE(check.file_kind, std::string("a character device"));
        QVERIFY2(QString::fromStdString(check.message).contains("a character device"), check.message.c_str());
        QTemporaryDir dir;
        check = rs::session::check_session_file(dir.path().toStdString());
        QCOMPARE(check.kind, FileCheckKind::directory);
        QVERIFY2(QString::fromStdString(check.message).contains("a directory"), check.message.c_str());
        const std::string fifo = dir.path().toStdString() + "/pipe.rsdb";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        check = rs::session::check_session_file(fifo);
        QCOMPARE(check.kind, FileCheckKind::not_regular);
        QCOMPARE(check.file_kind, std::string("a FIFO"));
        QVERIFY(!check.wal_refused);
        const std::string session = dir.path().toStdString() + "/live.rsdb";
        QCOMPARE(make_session(session), std::string());
        QCOMPARE(::mkfifo((session + "-wal").c_str(), 0600), 0);
        check = rs::session::check_session_file(session);
        QCOMPARE(check.kind, FileCheckKind::not_regular);
        QVERIFY(check.wal_refused);
        QCOMPARE(check.file_kind, std::string("a FIFO"));
    }

    /// check_session_header alone never opens the database: a session with a newer version passes it.
    void headerCheckLeavesTheDatabaseToSqlite() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/newer.rsdb";
        QCOMPARE(make_session(path), std::string());
        QCOMPARE(exec(path, "PRAGMA user_version = 99"), std::string());
        const auto header = rs::session::check_session_header(path);
        QVERIFY2(header.ok, header.message.c_str());
        QCOMPARE(header.format_version, 0);
        QCOMPARE(rs::session::check_session_file(path).kind, FileCheckKind::too_new);
    }

    /// A view where the schema has a table (a recursive one would make any read of it endless), a trigger,
    /// and a table the declared format requires that is missing: each refused as corrupt, naming the object.
    void schemaObjectsOfTheDeclaredFormat() {
        QTemporaryDir dir;
        struct Case {
            const char* name;
            const char* sql;
            const char* object;
            const char* words;
        };
        const Case cases[] = {
            {"view",
             "DROP TABLE strings; CREATE VIEW strings AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL "
             "SELECT n + 1 FROM r) SELECT 1 AS process, n AS id, 'x' AS text FROM r;",
             "strings", "\"strings\" is a view, not a table (format 7 stores it as a table)"},
            {"trigger", "CREATE TRIGGER t AFTER INSERT ON warnings BEGIN SELECT 1; END;", "t",
             "it holds the trigger \"t\" on \"warnings\" (session files have none)"},
            {"format7", "DROP TABLE restore_rows;", "restore_rows",
             "it lacks the table \"restore_rows\" (required by format 7)"},
            {"format5",
             "DROP TABLE restore_rows; DROP VIEW pass_counter_values; DROP TABLE pass_counters; DROP TABLE "
             "counters; PRAGMA user_version = 5;",
             "restore_rows", "it lacks the table \"restore_rows\" (required by format 5)"},
            {"view-as-table", "DROP VIEW restores; CREATE TABLE restores(process INTEGER);", "restores",
             "\"restores\" is a table, not a view (format 7 stores it as a view)"},
        };
        for (const Case& c : cases) {
            const std::string path = dir.path().toStdString() + "/" + c.name + ".rsdb";
            QCOMPARE(make_session(path), std::string());
            QVERIFY(rs::session::check_session_file(path).ok);
            QCOMPARE(exec(path, c.sql), std::string());
            const auto check = rs::session::check_session_file(path);
            QVERIFY2(!check.ok, c.name);
            QCOMPARE(check.kind, FileCheckKind::corrupt);
            QVERIFY2(QString::fromStdString(check.message).contains(c.words), check.message.c_str());
            QVERIFY2(QString::fromStdString(check.message).startsWith(QString::fromStdString(path)),
                     check.message.c_str());
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
            const auto schema = rs::session::check_session_schema(db, check.format_version);
            sqlite3_close(db);
            QCOMPARE(schema.object, std::string(c.object));
        }
    }

    /// Control characters become visible escapes; valid UTF-8 stays; invalid bytes are escaped; a long
    /// text is cut on a character boundary with an ellipsis and its length.
    void printableText() {
        using rs::session::printable_text;
        using rs::session::shown_text;
        QCOMPARE(printable_text("kernel_a"), std::string("kernel_a"));
        QCOMPARE(printable_text("\x1b[31mred\x07"), std::string("\\x1b[31mred\\x07"));
        QCOMPARE(printable_text("a\tb\nc\x7f"), std::string("a\\x09b\\x0ac\\x7f"));
        QCOMPARE(printable_text("a\nb", true), std::string("a\nb"));
        QCOMPARE(printable_text(std::string("nul\0x", 5)), std::string("nul\\x00x"));
        // C1 controls as UTF-8 (U+009B, CSI) and as raw bytes (invalid UTF-8).
        QCOMPARE(printable_text("\xc2\x9b"
                                "2J"),
                 std::string("\\x9b2J"));
        QCOMPARE(printable_text("\x9b"
                                "2J"),
                 std::string("\\x9b2J"));
        QCOMPARE(printable_text("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82"),
                 std::string("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82"));
        QCOMPARE(printable_text("\xc3"), std::string("\\xc3"));
        QCOMPARE(printable_text("\xc0\xaf"), std::string("\\xc0\\xaf")); // overlong '/'
        QCOMPARE(shown_text("abc", 4), std::string("abc"));
        QCOMPARE(shown_text("abcdef", 4), std::string("abcd\xe2\x80\xa6 (6 bytes)"));
        // 'é' is two bytes: a limit inside it cuts before it.
        QCOMPARE(shown_text("ab\xc3\xa9"
                            "cd",
                            3),
                 std::string("ab\xe2\x80\xa6 (6 bytes)"));
        const std::string big(1 << 20, 'k');
        const std::string shown = shown_text(big);
        QCOMPARE(shown.size(),
                 rs::session::kShownTextBytes + std::string("\xe2\x80\xa6 (1048576 bytes)").size());
    }
};

QTEST_GUILESS_MAIN(TestSessionFormat)
#include "tst_session_format.moc"
