// SPDX-License-Identifier: MIT
// Session files altered by whoever could write them, read by every entry point of the inspector: a view or
// trigger in a table's place, a table missing for the declared format, a file the integrity check refuses,
// huge strings, escape sequences, implausible values, a read that would not end. Each file is a real
// session (SyntheticSession, written by the collector's SessionStore) changed with SQL; every command must
// finish (a hang is killed and fails the test) with the refusal or the bounded, printable output asserted.
#include "app_test_support.h"

#include "model/SessionLoader.h"
#include "model/SessionReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <sqlite3.h>

using namespace rs::app;
using namespace rs::app::test;

namespace {

/// Runs `sql` (several statements) on `path` through SQLite directly; SQLite's message on failure, else "".
QString execSql(const QString& path, const QString& sql) {
    sqlite3* db = nullptr;
    QString error;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK) {
        error = QString::fromUtf8(sqlite3_errmsg(db));
    } else {
        char* message = nullptr;
        if (sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &message) != SQLITE_OK) {
            error = QString::fromUtf8(message ? message : "error");
        }
        sqlite3_free(message);
    }
    sqlite3_close(db);
    return error;
}

/// Output of a command that must finish within 60 s (killed otherwise, and the test fails).
RunResult finishing(const QStringList& args, const QStringList& env = {}) {
    bool finished = false;
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    for (const QString& kv : env) {
        e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    }
    p.setProcessEnvironment(e);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(RS_REPLAYSCOPE), args);
    finished = p.waitForFinished(60000);
    if (!finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    RunResult r{finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAll())};
    if (!finished) {
        r.output.prepend(QStringLiteral("(killed after 60 s) "));
    }
    return r;
}

} // namespace

class TestAppHostile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString good_;

    /// A copy of the clean session named `name`, altered by `sql`.
    QString altered(const QString& name, const QString& sql) {
        const QString path = dir_.filePath(name);
        QFile::remove(path);
        if (!QFile::copy(good_, path)) {
            return {};
        }
        const QString error = execSql(path, sql);
        if (!error.isEmpty()) {
            qWarning("%s: %s", qPrintable(name), qPrintable(error));
            return {};
        }
        return path;
    }

    /// Every headless entry point on `path` (and `--compare` with it on either side) refuses it with exit
    /// status 1 and a message holding `words`; the in-process loader and the GUI's reader agree.
    void refusedEverywhere(const QString& path, const QString& words) {
        const QString out = dir_.filePath(QStringLiteral("out"));
        const QList<QStringList> commands{
            {QStringLiteral("--summary"), path},
            {QStringLiteral("--export-charts"), path, out + QStringLiteral("-charts")},
            {QStringLiteral("--export-trace"), out + QStringLiteral(".json"), path},
            {QStringLiteral("--export-counters"), out + QStringLiteral(".csv"), path},
            {QStringLiteral("--compare"), good_, path},
            {QStringLiteral("--compare"), path, good_},
        };
        for (const QStringList& args : commands) {
            const RunResult r = finishing(args);
            QVERIFY2(r.exitCode == 1,
                     qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") +
                                QString::number(r.exitCode) + QStringLiteral(" ") + r.output));
            QVERIFY2(r.output.contains(words), qPrintable(args.first() + QStringLiteral(": ") + r.output));
        }
        for (const auto parts : {SessionLoader::Parts::all, SessionLoader::Parts::withoutRegions}) {
            SessionError e;
            QVERIFY(SessionLoader::loadAll(path, e, parts).isNull());
            QCOMPARE(e.kind, SessionError::Kind::corrupt);
            QVERIFY2(e.message.contains(words), qPrintable(e.message));
        }
        SessionReader reader;
        QSignalSpy failed(&reader, &SessionReader::failed);
        reader.open(path, false, SessionLoader::Parts::withoutRegions);
        QVERIFY(failed.wait(20000));
        QVERIFY2(failed.first().first().value<SessionError>().message.contains(words),
                 qPrintable(failed.first().first().value<SessionError>().message));
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        SyntheticSession::Options o;
        o.dispatches = 80;
        o.counters = {{"SQ_WAVES", 64}};
        good_ = synthetic(dir_.path(), QStringLiteral("good.rsdb"), o);
        QVERIFY(!good_.isEmpty());
        const RunResult r = finishing({QStringLiteral("--summary"), good_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    }

    /// `strings` replaced by a view that never ends (the review's hang): refused from sqlite_master at
    /// every entry point before any row is read.
    void recursiveViewInPlaceOfATable() {
        const QString path =
            altered(QStringLiteral("view.rsdb"),
                    QStringLiteral(
                        "DROP TABLE strings; CREATE VIEW strings(process, id, text, original_length, seq) AS "
                        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                        "SELECT 1, n, 'x', 1, n FROM r;"));
        QVERIFY(!path.isEmpty());
        refusedEverywhere(
            path, QStringLiteral("\"strings\" is a view, not a table (format 7 stores it as a table)"));
    }

    /// A trigger on a table (session files have none) is refused the same way.
    void triggerIsRefused() {
        const QString path =
            altered(QStringLiteral("trigger.rsdb"),
                    QStringLiteral("CREATE TRIGGER t AFTER INSERT ON strings BEGIN SELECT 1; END;"));
        QVERIFY(!path.isEmpty());
        refusedEverywhere(path, QStringLiteral("it holds the trigger \"t\" on \"strings\""));
    }

    /// A format-7 file without `restore_rows`, and the same file declaring format 5: refused, never read
    /// as format 4.
    void missingTableOfTheDeclaredFormat() {
        QString path =
            altered(QStringLiteral("no-restore-rows.rsdb"), QStringLiteral("DROP TABLE restore_rows;"));
        QVERIFY(!path.isEmpty());
        refusedEverywhere(path, QStringLiteral("it lacks the table \"restore_rows\" (required by format 7)"));
        path = altered(QStringLiteral("no-restore-rows-5.rsdb"),
                       QStringLiteral("DROP TABLE restore_rows; DROP VIEW pass_counter_values; DROP TABLE "
                                      "pass_counters; DROP TABLE counters; PRAGMA user_version = 5;"));
        QVERIFY(!path.isEmpty());
        refusedEverywhere(path, QStringLiteral("it lacks the table \"restore_rows\" (required by format 5)"));
    }

    /// The tables are there but not in the layout the declared format writes (restore_rows without its
    /// missed_chunks column): refused, not read with an older format's queries.
    void olderLayoutUnderANewerVersion() {
        const QString path = altered(
            QStringLiteral("old-layout.rsdb"),
            QStringLiteral(
                "DROP TABLE restore_rows; CREATE TABLE restore_rows(process INTEGER NOT NULL, dispatch "
                "INTEGER NOT NULL, pass_index INTEGER NOT NULL, PRIMARY KEY (process, dispatch, "
                "pass_index)) WITHOUT ROWID;"));
        QVERIFY(!path.isEmpty());
        refusedEverywhere(path, QStringLiteral("format 7 requires the folded restore layout"));
    }

    /// A file whose integrity check fails (a NULL in a NOT NULL column, which the readers would read as
    /// an empty string): --summary refused it, --compare and --export-trace compared and exported it.
    void integrityCheckAtEveryEntryPoint() {
        const QString path =
            altered(QStringLiteral("null.rsdb"),
                    QStringLiteral(
                        "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, 'text TEXT "
                        "NOT NULL', 'text TEXT') WHERE name = 'strings';"));
        QVERIFY(!path.isEmpty());
        QCOMPARE(execSql(path, QStringLiteral("INSERT INTO strings VALUES (1, 987654, NULL, 0, 1);")),
                 QString());
        QCOMPARE(
            execSql(path, QStringLiteral("PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = "
                                         "replace(sql, 'text TEXT,', 'text TEXT NOT NULL,') WHERE name = "
                                         "'strings';")),
            QString());
        refusedEverywhere(path, QStringLiteral("the integrity check reports \"NULL value in strings.text\""));
    }

    /// A 1 MB agent name (--export-charts aborted at 100 KB and took 23 GB at 1 MB) and a 4 MB kernel name
    /// (a 64 MB one made a 10 GB trace: 4 MB would still make hundreds of MB, far beyond the bound checked
    /// here): every output holds at most the first 4 KiB of each, with the ellipsis and the original
    /// length. The 4 MB value is made by SQLite in the file.
    void hugeStringsAreCapped() {
        const QString path =
            altered(QStringLiteral("huge.rsdb"),
                    QStringLiteral(
                        "UPDATE strings SET text = 'agent' || substr(hex(zeroblob(524288)), 1) WHERE id = "
                        "(SELECT name_id FROM agents ORDER BY handle LIMIT 1) AND process = 1;"
                        "UPDATE strings SET text = 'kernel' || substr(hex(zeroblob(2097152)), 1) WHERE id = "
                        "(SELECT kernel_name_id FROM dispatches LIMIT 1) AND process = 1;"));
        QVERIFY(!path.isEmpty());
        const QString agentNote = QStringLiteral("\u2026 (1048581 bytes)");
        const QString kernelNote = QStringLiteral("\u2026 (4194310 bytes)");
        RunResult r = finishing({QStringLiteral("--summary"), path});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output.left(2000)));
        QVERIFY2(r.output.contains(kernelNote) || r.output.contains(agentNote),
                 qPrintable(r.output.left(4000)));
        QVERIFY2(r.output.size() < 200000, qPrintable(QString::number(r.output.size())));
        const QString trace = dir_.filePath(QStringLiteral("huge.json"));
        r = finishing({QStringLiteral("--export-trace"), trace, path});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output.left(2000)));
        QVERIFY2(QFileInfo(trace).size() < 8 * 1024 * 1024,
                 qPrintable(QString::number(QFileInfo(trace).size())));
        QFile t(trace);
        QVERIFY(t.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(t.readAll()).contains(kernelNote));
        const QString csv = dir_.filePath(QStringLiteral("huge.csv"));
        r = finishing({QStringLiteral("--export-counters"), csv, path});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output.left(2000)));
        QVERIFY2(QFileInfo(csv).size() < 8 * 1024 * 1024, qPrintable(QString::number(QFileInfo(csv).size())));
        r = finishing(
            {QStringLiteral("--export-charts"), path, dir_.filePath(QStringLiteral("huge-charts"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output.left(2000)));
        r = finishing({QStringLiteral("--compare"), good_, path});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output.left(2000)));
        QVERIFY2(r.output.size() < 400000, qPrintable(QString::number(r.output.size())));
    }

    /// Escape sequences in a kernel name, an agent name, the command line and a warning text reach no
    /// output raw: --summary and --compare print them as \x1b.
    void escapeSequencesAreShownEscaped() {
        const QString path =
            altered(QStringLiteral("escapes.rsdb"),
                    QStringLiteral(
                        "UPDATE strings SET text = char(27) || '[2J' || char(27) || ']0;owned' || char(7) || "
                        "text || char(13) || char(155) WHERE process = 1;"));
        QVERIFY(!path.isEmpty());
        for (const QStringList& args : {QStringList{QStringLiteral("--summary"), path},
                                        QStringList{QStringLiteral("--compare"), good_, path},
                                        QStringList{QStringLiteral("--compare"), path, good_}}) {
            const RunResult r = finishing(args);
            QVERIFY2(r.exitCode == 0, qPrintable(r.output.left(2000)));
            QVERIFY2(!r.output.contains(QChar(27)) && !r.output.contains(QChar(7)) &&
                         !r.output.contains(QChar(13)) && !r.output.contains(QChar(0x9b)),
                     qPrintable(args.first()));
            QVERIFY2(r.output.contains(QStringLiteral("\\x1b[2J\\x1b]0;owned\\x07")),
                     qPrintable(r.output.left(3000)));
        }
        const QString trace = dir_.filePath(QStringLiteral("escapes.json"));
        QCOMPARE(finishing({QStringLiteral("--export-trace"), trace, path}).exitCode, 0);
        QFile t(trace);
        QVERIFY(t.open(QIODevice::ReadOnly));
        const QByteArray bytes = t.readAll();
        QVERIFY(!bytes.contains('\x1b'));
        QVERIFY(bytes.contains("\\\\x1b[2J"));
    }

    /// The read budget bounds every query: lowered by its environment variables, a clean session's reads
    /// exceed it and every entry point stops with a read error instead of reading on.
    void readBudgetStopsAQuery() {
        for (const QStringList& args : {QStringList{QStringLiteral("--summary"), good_},
                                        QStringList{QStringLiteral("--compare"), good_, good_},
                                        QStringList{QStringLiteral("--export-trace"),
                                                    dir_.filePath(QStringLiteral("budget.json")), good_}}) {
            const RunResult r = finishing(args, {QStringLiteral("REPLAYSCOPE_READ_BUDGET_ROWS=5")});
            QVERIFY2(r.exitCode == 1, qPrintable(r.output));
            QVERIFY2(r.output.contains(QStringLiteral("the read budget of 5 rows per query was exceeded")),
                     qPrintable(r.output));
        }
        const RunResult r = finishing({QStringLiteral("--summary"), good_},
                                      {QStringLiteral("REPLAYSCOPE_READ_BUDGET_ROWS=100000")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    }

    /// Values no recording produces (a negative snapshot duration, a negative stored-event count, a pass that
    /// ends before it starts) are shown as stored and flagged: counted with examples by the loader, on a
    /// line of `--summary`; the clean session has none.
    void implausibleValuesAreFlagged() {
        const QString path = altered(
            QStringLiteral("implausible.rsdb"),
            QStringLiteral(
                "UPDATE dispatch_rows SET duration_ns = -5 WHERE key = (SELECT min(key) FROM "
                "dispatch_rows WHERE duration_ns IS NOT NULL); "
                "UPDATE processes SET events_stored = -3; "
                "UPDATE dispatch_rows SET p0_start = 100, p0_ticks = -40 WHERE key = (SELECT max(key) "
                "FROM dispatch_rows WHERE p0_ticks IS NOT NULL)"));
        QVERIFY(!path.isEmpty());
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(path, e);
        QVERIFY2(!s.isNull(), qPrintable(e.message));
        QVERIFY2(s->implausible.count == 3, qPrintable(s->implausible.summary()));
        QVERIFY2(s->implausible.examples.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("snapshot duration -5 ns")),
                 qPrintable(s->implausible.summary()));
        QVERIFY2(s->implausible.summary().contains(QStringLiteral("events stored -3")),
                 qPrintable(s->implausible.summary()));
        const RunResult r = finishing({QStringLiteral("--summary"), path});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("implausible: 3 implausible values")),
                 qPrintable(r.output));
        const SessionSnapshot clean = SessionLoader::loadAll(good_, e);
        QVERIFY(!clean.isNull());
        QVERIFY2(clean->implausible.isEmpty(), qPrintable(clean->implausible.summary()));
    }

    /// The time budget holds on Qt SQL's connection too, where the integrity check runs: on a session of
    /// 300,000 extra rows, a budget of 1 ms stops the check with a read-budget error (the check takes tens
    /// of milliseconds), and the default budget lets it pass; `--summary` stops the same way.
    void readTimeBudgetStopsTheIntegrityCheck() {
        const QString path = altered(
            QStringLiteral("slow-check.rsdb"),
            QStringLiteral("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) "
                           "INSERT INTO handles(ref, handle) SELECT x + 1000000, x FROM c"));
        QVERIFY(!path.isEmpty());
        qputenv("REPLAYSCOPE_READ_BUDGET_MS", "1");
        {
            SessionLoader loader(path);
            const SessionError opened = loader.open();
            QVERIFY2(!opened.isError(), qPrintable(opened.message));
            const SessionError e = loader.quickCheck();
            QVERIFY(e.isError());
            QVERIFY2(e.message.contains(QStringLiteral("the read budget of 1 ms was exceeded")),
                     qPrintable(e.message));
        }
        qunsetenv("REPLAYSCOPE_READ_BUDGET_MS");
        {
            SessionLoader loader(path);
            QVERIFY(!loader.open().isError());
            const SessionError e = loader.quickCheck();
            QVERIFY2(!e.isError(), qPrintable(e.message));
        }
        const RunResult r =
            finishing({QStringLiteral("--summary"), path}, {QStringLiteral("REPLAYSCOPE_READ_BUDGET_MS=1")});
        QVERIFY2(r.exitCode == 1, qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("the read budget of 1 ms")), qPrintable(r.output));
    }
};

QTEST_MAIN(TestAppHostile)
#include "tst_app_hostile.moc"
