// SPDX-License-Identifier: MIT
// Queries on a session file (docs/session-schema.md) for the suites that run programs under
// replayscope-run and assert its rows: tests/engine and tests/hip. Enum codes are compared through the
// file's `enum_names` table and texts through `strings`, so the queries hold whatever value encoding the
// session file uses.
#pragma once

#include <sqlite3.h>

#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace rs::test {

/// How SessionRun::decisions() spells a kernel name.
enum class KernelNames {
    as_recorded,       ///< the symbol name as the session file stores it (e.g. "accumulate.kd")
    without_kd_suffix, ///< a trailing ".kd" (the kernel descriptor symbol's suffix) removed
};

/// A finished run: replayscope-run's exit status, the program's output, and the session file it wrote,
/// opened read-only. The run itself is the suite's business (it fills the public fields and calls
/// open()); suites derive from this class for queries of their own. Query errors (no file open, bad SQL)
/// surface as a qWarning() and an empty result, so the assertion on that result fails.
class SessionRun {
  public:
    SessionRun() = default;
    SessionRun(const SessionRun&) = delete;
    SessionRun& operator=(const SessionRun&) = delete;
    ~SessionRun() {
        if (db_) {
            sqlite3_close(db_);
        }
    }

    /// The exit status replayscope-run reported (the program's), -1 when it did not exit normally.
    int exit_code = -1;
    /// What the run printed on its standard output and standard error.
    QString stdout_text, stderr_text;

    /// Opens the session file at `path` read-only; false when sqlite3 cannot (the queries then warn).
    bool open(const QString& path) {
        return sqlite3_open_v2(qPrintable(path), &db_, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK;
    }
    /// Every row of `sql`, each column as text ("" for NULL).
    QList<QStringList> rows(const QString& sql) const {
        QList<QStringList> out;
        sqlite3_stmt* stmt = nullptr;
        if (!db_ || sqlite3_prepare_v2(db_, sql.toUtf8().constData(), -1, &stmt, nullptr) != SQLITE_OK) {
            qWarning("SQL error: %s in %s", db_ ? sqlite3_errmsg(db_) : "no session file", qPrintable(sql));
            return out;
        }
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            QStringList row;
            for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
                row << (text ? QString::fromUtf8(text) : QString());
            }
            out << row;
        }
        sqlite3_finalize(stmt);
        return out;
    }
    /// The first column of the first row of `sql` as an integer (-1 when there is no row).
    qint64 value(const QString& sql) const {
        const auto r = rows(sql);
        return r.isEmpty() || r[0].isEmpty() ? -1 : r[0][0].toLongLong();
    }
    /// Dispatch rows as "kernel:decision" in (process, id) order, the kernel name spelled as `names` says and
    /// the decision by its enum_names name (e.g. "accumulate.kd:replayed").
    QStringList decisions(KernelNames names = KernelNames::as_recorded) const {
        QStringList out;
        for (const auto& r : rows(
                 "SELECT s.text, e.name FROM dispatches d JOIN strings s ON s.process = d.process AND s.id = "
                 "d.kernel_name_id JOIN enum_names e ON e.enum = 'decision' AND e.code = d.decision "
                 "ORDER BY d.process, d.id")) {
            QString kernel = r[0];
            if (names == KernelNames::without_kd_suffix && kernel.endsWith(".kd")) {
                kernel.chop(3);
            }
            out << kernel + ":" + r[1];
        }
        return out;
    }
    /// Rows of `table` whose enum column `column` (named in enum_names under `enum_name`) is `name`.
    qint64 count_named(const QString& table, const QString& column, const QString& enum_name,
                       const QString& name) const {
        return value(
            QStringLiteral("SELECT count(*) FROM %1 t JOIN enum_names e ON e.enum = '%2' AND e.code = "
                           "t.%3 WHERE e.name = '%4'")
                .arg(table, enum_name, column, name));
    }
    /// Replay passes recorded, all dispatches together.
    qint64 passes() const { return value("SELECT count(*) FROM passes"); }
    /// Texts of the warnings with this code name.
    QStringList warnings(const QString& code) const {
        QStringList out;
        for (const auto& r :
             rows("SELECT s.text FROM warnings w JOIN enum_names e ON e.enum = 'warning' AND "
                  "e.code = w.code JOIN strings s ON s.process = w.process AND s.id = w.text_id "
                  "WHERE e.name = '" +
                  code + "'")) {
            out << r[0];
        }
        return out;
    }
    /// Whether the session row has complete = 1: session_end was stored and no sequence gap remains.
    bool complete() const { return value("SELECT complete FROM session") == 1; }
    /// Exit status and both outputs, for an assertion's failure message.
    QString describe() const {
        return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3")
            .arg(exit_code)
            .arg(stdout_text, stderr_text);
    }

  private:
    sqlite3* db_ = nullptr;
};

/// The system environment plus `env`, entries NAME=VALUE (a later entry overrides an earlier one).
inline QProcessEnvironment environment_with(const QStringList& env) {
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env) {
        const auto eq = kv.indexOf('=');
        e.insert(kv.left(eq), kv.mid(eq + 1));
    }
    return e;
}

/// `arguments` of a replayscope-run command line with `--restore MODE` in front when the test's own
/// environment has RS_TEST_RESTORE=MODE (CTest's `<suite>.restore_full` entries set it to `full`, so that
/// every replay suite also runs with full restores); `arguments` unchanged otherwise.
inline QStringList with_test_restore_mode(const QStringList& arguments) {
    const QString mode = qEnvironmentVariable("RS_TEST_RESTORE");
    return mode.isEmpty() ? arguments : QStringList{"--restore", mode} + arguments;
}

/// Runs `runner` (replayscope-run) with `arguments` (with_test_restore_mode) in environment `env`, killing
/// it after `limit_ms`; fills `r`'s exit_code and outputs and opens the session file `session` (a
/// qWarning() if it cannot). Returns whether the run ended within the limit.
inline bool run_and_open(SessionRun& r, const QString& runner, const QStringList& arguments,
                         const QProcessEnvironment& env, const QString& session, int limit_ms) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(runner, runner.endsWith("replayscope-run") ? with_test_restore_mode(arguments) : arguments);
    const bool finished = p.waitForFinished(limit_ms);
    if (!finished) {
        p.kill();
        p.waitForFinished();
    }
    r.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.stdout_text = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.stderr_text = QString::fromLocal8Bit(p.readAllStandardError());
    if (!r.open(session)) {
        qWarning("cannot open %s", qPrintable(session));
    }
    return finished;
}

} // namespace rs::test
