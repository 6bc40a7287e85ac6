// SPDX-License-Identifier: MIT
// Helpers of the inspector suites: session files made by the real pipeline.
#pragma once

#include "synthetic/SyntheticSession.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QString>
#include <QStringList>
#include <QTest>
#include <QUuid>
#include <QVariantList>
#include <QVector>

namespace rs::app::test {

/// A session written by the collector's SessionStore (SyntheticSession).
inline QString synthetic(const QString& dir, const QString& name, SyntheticSession::Options o = {}) {
    const QString path = dir + QLatin1Char('/') + name;
    QString error;
    if (!SyntheticSession::write(path, o, &error)) {
        qWarning("synthetic session: %s", qPrintable(error));
        return {};
    }
    return path;
}

/// The rows of `sql` on the session file `path`, opened through SQLite directly (QSQLITE, read-only
/// unless `write`): the independent reading a test compares the inspector's models with. `ok` (optional)
/// tells whether the file opened and the query ran (else a warning names the error).
inline QVector<QVariantList> sqlRows(const QString& path, const QString& sql, bool write = false,
                                     bool* ok = nullptr) {
    QVector<QVariantList> out;
    if (ok) {
        *ok = false;
    }
    const QString name = QStringLiteral("test-sql-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!write) {
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        }
        if (!db.open()) {
            qWarning("%s: %s", qPrintable(path), qPrintable(db.lastError().text()));
        } else {
            QSqlQuery q(db);
            if (!q.exec(sql)) {
                qWarning("%s: %s: %s", qPrintable(path), qPrintable(sql), qPrintable(q.lastError().text()));
            } else if (ok) {
                *ok = true;
            }
            while (q.next()) {
                QVariantList row;
                for (int c = 0; c < q.record().count(); ++c) {
                    row << q.value(c);
                }
                out.push_back(row);
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return out;
}

/// The first column of the first row of `sql` on `path`; an invalid QVariant when there is no row or the
/// query fails.
inline QVariant sqlValue(const QString& path, const QString& sql) {
    const QVector<QVariantList> rows = sqlRows(path, sql);
    return rows.isEmpty() || rows[0].isEmpty() ? QVariant() : rows[0][0];
}

/// The first column of the first row of `sql` on `path` as a number (0 when there is no row or NULL;
/// -1 when the query fails).
inline qint64 sqlCount(const QString& path, const QString& sql) {
    bool ok = false;
    const QVector<QVariantList> rows = sqlRows(path, sql, false, &ok);
    if (!ok) {
        return -1;
    }
    return rows.isEmpty() || rows[0].isEmpty() ? 0 : rows[0][0].toLongLong();
}

struct RunResult {
    int exitCode = -1;
    QString output;
};

/// Runs replayscope-run with `args` (60 s at most), extra environment `env`.
inline RunResult runPipeline(const QStringList& args, const QStringList& env = {}) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env) {
        e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    }
    p.setProcessEnvironment(e);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(RS_REPLAYSCOPE_RUN), args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromLocal8Bit(p.readAll())};
}

/// Runs the inspector binary (replayscope) with `args`, offscreen, stdout and stderr merged, at most `ms`:
/// a hang is killed and reads as exit code -1 (`finished`, when given, tells which), so that it fails the
/// test instead of the suite. `unset`: environment variables removed (QT_QPA_PLATFORM among them: no
/// platform forced).
inline RunResult runInspector(const QStringList& args, int ms = 60000, bool* finished = nullptr,
                              const QStringList& unset = {}) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    for (const QString& name : unset) {
        e.remove(name);
    }
    p.setProcessEnvironment(e);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(RS_REPLAYSCOPE), args);
    const bool done = p.waitForFinished(ms);
    if (!done) {
        p.kill();
        p.waitForFinished(5000);
    }
    if (finished) {
        *finished = done;
    }
    return {done && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromLocal8Bit(p.readAll())};
}

/// replayscope-run with the emitter probe standing in for the engine: `dispatches` declined dispatches.
inline QString probeSession(const QString& dir, const QString& name, int dispatches) {
    const QString path = dir + QLatin1Char('/') + name;
    const RunResult r = runPipeline(
        {QStringLiteral("--engine"), QStringLiteral(RS_PROBE), QStringLiteral("-o"), path,
         QStringLiteral("--"), QStringLiteral(RS_PROBE), QString::number(dispatches), QStringLiteral("0")});
    return r.exitCode == 0 ? path : QString();
}

/// replayscope-run --simulate of a workload of workloads/ with the real engine.
inline QString simulatedSession(const QString& dir, const QString& name, const QString& workload, int passes,
                                const QStringList& env = {}) {
    const QString path = dir + QLatin1Char('/') + name;
    const RunResult r = runPipeline({QStringLiteral("--simulate"), QStringLiteral("--passes"),
                                     QString::number(passes), QStringLiteral("-o"), path,
                                     QStringLiteral("--"), QStringLiteral(RS_WORKLOAD_DIR "/") + workload},
                                    env);
    if (r.exitCode != 0) {
        qWarning("replayscope-run --simulate %s: %d\n%s", qPrintable(workload), r.exitCode,
                 qPrintable(r.output));
        return {};
    }
    return path;
}

/// replayscope-run --simulate of the HIP demo (workloads/hip/demo, its kernels through their stand-ins)
/// with `passes` passes and `iterations` iterations; empty when the run fails, or when the build has no
/// demo (no hipcc: RS_DEMO undefined).
inline QString demoSession(const QString& dir, const QString& name, int passes, int iterations = 20,
                           const QStringList& env = {}) {
#ifdef RS_DEMO
    const QString path = dir + QLatin1Char('/') + name;
    const RunResult r =
        runPipeline({QStringLiteral("--simulate"), QStringLiteral("--no-progress"),
                     QStringLiteral("--passes"), QString::number(passes), QStringLiteral("--standins"),
                     QStringLiteral(RS_DEMO_STANDINS), QStringLiteral("-o"), path, QStringLiteral("--"),
                     QStringLiteral(RS_DEMO), QStringLiteral("--iterations"), QString::number(iterations)},
                    env);
    if (r.exitCode != 0) {
        qWarning("replayscope-run --simulate demo: %d\n%s", r.exitCode, qPrintable(r.output));
        return {};
    }
    return path;
#else
    Q_UNUSED(dir);
    Q_UNUSED(name);
    Q_UNUSED(passes);
    Q_UNUSED(iterations);
    Q_UNUSED(env);
    return {};
#endif
}

} // namespace rs::app::test
