// SPDX-License-Identifier: MIT
// The session reader on files produced by the real pipeline (data-driven), its signals (QSignalSpy),
// live following, and bad files: foreign, foreign SQLite, corrupt, truncated, newer format, missing.
#include "app_test_support.h"

#include "model/SessionLoader.h"
#include "model/SessionReader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

using namespace rs::app;

namespace {

/// Waits for the reader's snapshot with regions (or a failure).
SessionSnapshot waitFull(SessionReader& reader, QSignalSpy& ready, QSignalSpy& failed, int ms = 30000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms && failed.isEmpty() &&
           (reader.snapshot().isNull() || !reader.snapshot()->regionsLoaded)) {
        ready.wait(100);
    }
    return reader.snapshot();
}

void execSql(const QString& path, const QStringList& statements) {
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tamper"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const QString& s : statements) {
            QVERIFY2(q.exec(s), qPrintable(s));
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tamper"));
}

} // namespace

class AppReaderTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void readsPipelineSessions_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("dispatches");
        QTest::addColumn<int>("replayed");
        QTest::addColumn<bool>("complete");
        QTest::addColumn<int>("min_passes");
        const QString d = dir_.path();
        SyntheticSession::Options o;
        o.dispatches = 300;
        QTest::newRow("session store, complete")
            << test::synthetic(d, QStringLiteral("complete.rsdb"), o) << 300 << -1 << true << 3;
        o.complete = false;
        QTest::newRow("session store, writer died")
            << test::synthetic(d, QStringLiteral("died.rsdb"), o) << 300 << -1 << false << 3;
        QTest::newRow("replayscope-run + emitter probe")
            << test::probeSession(d, QStringLiteral("probe.rsdb"), 250) << 250 << 0 << true << 0;
        QTest::newRow("replayscope-run --simulate accumulate (engine)")
            << test::simulatedSession(d, QStringLiteral("accumulate.rsdb"), QStringLiteral("accumulate"), 3)
            << 1 << 1 << true << 3;
        QTest::newRow("replayscope-run --simulate two_agents (engine)")
            << test::simulatedSession(d, QStringLiteral("two_agents.rsdb"), QStringLiteral("two_agents"), 2,
                                      {QStringLiteral("HSA_SIM_GPU_AGENTS=2")})
            << 16 << 16 << true << 2;
    }
    void readsPipelineSessions() {
        QFETCH(QString, path);
        QFETCH(int, dispatches);
        QFETCH(int, replayed);
        QFETCH(bool, complete);
        QFETCH(int, min_passes);
        QVERIFY2(!path.isEmpty(), "the pipeline did not produce the session");
        SessionReader reader;
        QSignalSpy ready(&reader, &SessionReader::snapshotReady);
        QSignalSpy failed(&reader, &SessionReader::failed);
        reader.open(path);
        const SessionSnapshot s = waitFull(reader, ready, failed);
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.first().first().value<SessionError>().message));
        QVERIFY(!s.isNull());
        QCOMPARE(ready.count(), 2); // first paint without regions, then with them
        QVERIFY(!ready.first().first().value<SessionSnapshot>()->regionsLoaded);
        QCOMPARE(int(s->dispatches.size()), dispatches);
        QCOMPARE(s->info.complete, complete);
        int r = 0, maxPasses = 0;
        for (const DispatchRow& d : s->dispatches) {
            r += d.decision == 0;
            maxPasses = std::max(maxPasses, d.passes);
        }
        if (replayed >= 0) {
            QCOMPARE(r, replayed);
        }
        QCOMPARE(maxPasses, min_passes);
        QCOMPARE(s->passBegin.size(), s->dispatches.size() + 1);
        QCOMPARE(qsizetype(s->passBegin.back()), qsizetype(s->passes.size()));
        QVERIFY(!s->enumNames.value(QStringLiteral("decision")).isEmpty());
        // What the pipeline writes is never flagged as implausible.
        QVERIFY2(s->implausible.isEmpty(), qPrintable(s->implausible.summary()));
        if (complete) {
            QVERIFY(s->info.ended);
            QCOMPARE(s->info.missingEvents, 0);
        } else {
            QVERIFY(!s->info.ended);
            QVERIFY(s->info.lastSequence > 0);
        }
    }

    void badFiles_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("words");
        const QString d = dir_.path();
        QTest::newRow("missing") << d + QStringLiteral("/nope.rsdb") << int(SessionError::Kind::missing)
                                 << QStringLiteral("does not exist");
        QFile text(d + QStringLiteral("/notes.rsdb"));
        text.open(QIODevice::WriteOnly);
        text.write("these are my notes, not a session\n");
        text.close();
        QTest::newRow("foreign") << text.fileName() << int(SessionError::Kind::foreign)
                                 << QStringLiteral("not a SQLite database (foreign file)");
        QFile empty(d + QStringLiteral("/empty.rsdb"));
        empty.open(QIODevice::WriteOnly);
        empty.close();
        QTest::newRow("empty") << empty.fileName() << int(SessionError::Kind::truncated)
                               << QStringLiteral("empty");
        const QString other = d + QStringLiteral("/other.sqlite");
        execSql(other, {QStringLiteral("CREATE TABLE t(x)"), QStringLiteral("PRAGMA application_id = 1234")});
        QTest::newRow("foreign sqlite")
            << other << int(SessionError::Kind::foreignSqlite) << QStringLiteral("foreign SQLite database");
        SyntheticSession::Options o;
        o.dispatches = 200;
        const QString newer = test::synthetic(d, QStringLiteral("newer.rsdb"), o);
        execSql(newer, {QStringLiteral("PRAGMA user_version = 8")});
        QTest::newRow("newer format")
            << newer << int(SessionError::Kind::newerSchema)
            << QStringLiteral("Session format version 8 is newer than this ReplayScope supports (7)");
        const QString truncated = test::synthetic(d, QStringLiteral("truncated.rsdb"), o);
        QFile t(truncated);
        QVERIFY(t.size() > 8192);
        t.resize(t.size() / 2);
        QTest::newRow("truncated") << truncated << int(SessionError::Kind::truncated)
                                   << QStringLiteral("truncated");
        const QString corrupt = test::synthetic(d, QStringLiteral("corrupt.rsdb"), o);
        QFile c(corrupt);
        c.open(QIODevice::ReadWrite);
        const qint64 size = c.size();
        for (qint64 at = 4096 * 2; at < size; at += 4096) { // scribble over every page but the first two
            c.seek(at + 8);
            c.write(QByteArray(512, '\xa5'));
        }
        c.close();
        QTest::newRow("corrupt") << corrupt << int(SessionError::Kind::corrupt) << QStringLiteral("corrupt");
    }
    /// A format-1 file (four rows per replayed dispatch, no fidelity / async copies / exit status) still
    /// opens: the documented tables are real tables there.
    void readsFormatOneFiles() {
        const QString path = dir_.path() + QStringLiteral("/v1.rsdb");
        execSql(
            path,
            {QStringLiteral("PRAGMA application_id = 1381188674"),
             QStringLiteral("PRAGMA user_version = 1"),
             QStringLiteral("CREATE TABLE session(id INTEGER PRIMARY KEY, format_version, created_wall_ns, "
                            "protocol_version, pid, executable_id, argv_id, hostname_id, engine_version_id, "
                            "configuration_id, start_seq, start_ns, start_wall_ns, end_seq, end_ns, spooled, "
                            "complete, last_sequence, events_stored, end_reason)"),
             QStringLiteral(
                 "INSERT INTO session VALUES (1, 1, 0, 1, 42, 1, 1, 0, 0, 0, 1, 100, 0, 9, 900, 0, "
                 "1, 9, 9, 'session end received')"),
             QStringLiteral("CREATE TABLE sequence_gaps(first_seq, last_seq)"),
             QStringLiteral("CREATE TABLE enum_names(enum, code, name)"),
             QStringLiteral("INSERT INTO enum_names VALUES ('decision', 0, 'replayed')"),
             QStringLiteral("CREATE TABLE strings(id INTEGER PRIMARY KEY, text, original_length, seq)"),
             QStringLiteral("INSERT INTO strings VALUES (1, '/bin/old', 8, 2)"),
             QStringLiteral("CREATE TABLE agents(handle, seq, ts_ns, name_id, isa_id, device_type, node)"),
             QStringLiteral("CREATE TABLE allocations(id, alloc_seq, alloc_ns, address, size, agent, api, "
                            "pool_flags, pointer_type, classification, free_seq, free_ns)"),
             QStringLiteral("CREATE TABLE module_variables(seq, ts_ns, executable, agent, address, size, "
                            "symbol_id, status)"),
             QStringLiteral("CREATE TABLE inventories(agent, generation, seq, ts_ns, bytes, region_count)"),
             QStringLiteral("CREATE TABLE inventory_regions(agent, generation, idx, seq, address, size, "
                            "allocation_id, kind)"),
             QStringLiteral(
                 "CREATE TABLE dispatches(id INTEGER PRIMARY KEY, seq, ts_ns, agent, queue, "
                 "kernel_object, kernel_name_id, grid_x, grid_y, grid_z, workgroup_x, workgroup_y, "
                 "workgroup_z, decision)"),
             QStringLiteral(
                 "INSERT INTO dispatches VALUES (5, 3, 300, 161, 81, 177, 0, 64, 1, 1, 64, 1, 1, 0)"),
             QStringLiteral(
                 "CREATE TABLE snapshots(dispatch_id, seq, ts_ns, agent, generation, regions, bytes, "
                 "duration_ns, ok, failures)"),
             QStringLiteral("INSERT INTO snapshots VALUES (5, 4, 400, 161, 1, 2, 4096, 900, 1, 0)"),
             QStringLiteral("CREATE TABLE snapshot_failures(seq, ts_ns, dispatch_id, address, size, "
                            "allocation_id, reason)"),
             QStringLiteral(
                 "CREATE TABLE passes(dispatch_id, idx, seq, ts_ns, start_tick, end_tick, restore_ns, "
                 "regions_restored, bytes_restored, skips)"),
             QStringLiteral("INSERT INTO passes VALUES (5, 1, 6, 600, 2000, 2300, 700, 2, 4096, 0), "
                            "(5, 0, 5, 500, 1000, 1250, 0, 0, 0, 0)"),
             QStringLiteral("CREATE TABLE restore_skips(seq, ts_ns, dispatch_id, pass_idx, address, size, "
                            "allocation_id, reason)"),
             QStringLiteral("CREATE TABLE warnings(seq, ts_ns, code, dispatch_id, text_id)")});
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(path, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(s->info.formatVersion, 1);
        QCOMPARE(s->info.executable, QStringLiteral("/bin/old"));
        QVERIFY(!s->info.hasExitStatus);
        QCOMPARE(int(s->dispatches.size()), 1);
        QCOMPARE(s->dispatches[0].passes, 2);
        QCOMPARE(s->dispatches[0].kernelMin, 250);
        QCOMPARE(s->passes[0].index, 0);
        QCOMPARE(s->passes[1].index, 1);
        QCOMPARE(s->passes[1].fidelity, -1);
        QVERIFY(s->asyncCopies.empty());
        QVERIFY(s->mismatches.empty());
    }

    void badFiles() {
        QFETCH(QString, path);
        QFETCH(int, kind);
        QFETCH(QString, words);
        SessionReader reader;
        QSignalSpy ready(&reader, &SessionReader::snapshotReady);
        QSignalSpy failed(&reader, &SessionReader::failed);
        reader.open(path);
        QVERIFY(failed.wait(20000));
        const SessionError e = failed.first().first().value<SessionError>();
        QCOMPARE(int(e.kind), kind);
        QVERIFY2(e.message.contains(words, Qt::CaseInsensitive), qPrintable(e.message));
        QCOMPARE(e.path, path);
        QVERIFY(!e.title().isEmpty());
        // The synchronous path (headless commands) agrees.
        SessionError sync;
        QVERIFY(SessionLoader::loadAll(path, sync).isNull());
        QCOMPARE(int(sync.kind), kind);
    }

    void followsLiveSession() {
        // replayscope-run writes while the reader follows; the dispatch count only grows, ending complete.
        const QString path = dir_.path() + QStringLiteral("/live.rsdb");
        QProcess run;
        run.start(QStringLiteral(RS_REPLAYSCOPE_RUN),
                  {QStringLiteral("--engine"), QStringLiteral(RS_PROBE), QStringLiteral("-o"), path,
                   QStringLiteral("--"), QStringLiteral(RS_PROBE), QStringLiteral("30000"),
                   QStringLiteral("0")});
        QVERIFY(run.waitForStarted());
        SessionReader reader(nullptr, 100);
        QSignalSpy ready(&reader, &SessionReader::snapshotReady);
        QSignalSpy failed(&reader, &SessionReader::failed);
        reader.open(path, true);
        QVector<int> counts;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 60000 && failed.isEmpty() &&
               (reader.snapshot().isNull() || !reader.snapshot()->info.complete)) {
            if (ready.wait(200)) {
                counts << int(reader.snapshot()->dispatches.size());
            }
        }
        QVERIFY(run.state() == QProcess::NotRunning || run.waitForFinished(30000));
        QCOMPARE(run.exitCode(), 0);
        QVERIFY(failed.isEmpty());
        QVERIFY(!counts.isEmpty());
        QVERIFY(std::is_sorted(counts.begin(), counts.end()));
        QCOMPARE(counts.last(), 30000);
        QVERIFY(reader.snapshot()->info.complete);
    }

    /// While replayscope-run records a simulated run (two_agents on two GPU agents: 16 dispatches of a 60 ms
    /// kernel, 2 passes each), the followed reader publishes the unfinished session: at least one snapshot
    /// taken while the program still ran holds some but not all 16 dispatches, is neither complete nor
    /// carries an exit status, and every dispatch it shows already has the id, kernel, agent and decision
    /// of the finished session. Dispatch counts only grow; the last snapshot is the complete session.
    void followsLiveSimulatedRun() {
        const QString path = dir_.path() + QStringLiteral("/live-sim.rsdb");
        QProcess run;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HSA_SIM_GPU_AGENTS"), QStringLiteral("2"));
        env.insert(QStringLiteral("HSA_SIM_KERNEL_TIME_NS"), QStringLiteral("accumulate.kd=60000000"));
        run.setProcessEnvironment(env);
        run.start(QStringLiteral(RS_REPLAYSCOPE_RUN),
                  {QStringLiteral("--simulate"), QStringLiteral("--no-progress"), QStringLiteral("--passes"),
                   QStringLiteral("2"), QStringLiteral("-o"), path, QStringLiteral("--"),
                   QStringLiteral(RS_WORKLOAD_DIR "/two_agents")});
        QVERIFY(run.waitForStarted());
        SessionReader reader(nullptr, 100);
        QSignalSpy ready(&reader, &SessionReader::snapshotReady);
        QSignalSpy failed(&reader, &SessionReader::failed);
        reader.open(path, true);
        struct Seen {
            QStringList rows; ///< "id:kernel:agent:decision" per dispatch, in the snapshot's order
            bool complete = false, exitStatus = false;
        };
        QList<Seen> whileRunning;
        QVector<int> counts;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 120000 && failed.isEmpty() &&
               (reader.snapshot().isNull() || !reader.snapshot()->info.complete)) {
            if (!ready.wait(100)) {
                continue;
            }
            const bool running = run.state() == QProcess::Running;
            const SessionSnapshot s = reader.snapshot();
            Seen seen;
            for (const DispatchRow& d : s->dispatches) {
                seen.rows << QStringLiteral("%1:%2:%3:%4")
                                 .arg(d.id)
                                 .arg(s->kernelNames.value(d.kernel), s.agentName(d.process, d.agent),
                                      s.enumName(QStringLiteral("decision"), d.decision));
            }
            seen.complete = s->info.complete;
            seen.exitStatus = s->info.hasExitStatus;
            counts << int(s->dispatches.size());
            if (running) {
                whileRunning << seen;
            }
        }
        QVERIFY(run.state() == QProcess::NotRunning || run.waitForFinished(30000));
        QCOMPARE(run.exitCode(), 0);
        QVERIFY(failed.isEmpty());
        QVERIFY(std::is_sorted(counts.begin(), counts.end()));
        const SessionSnapshot last = reader.snapshot();
        QVERIFY(last->info.complete);
        QCOMPARE(int(last->dispatches.size()), 16);
        QHash<QString, QString> finalRows; // id -> row text
        for (const DispatchRow& d : last->dispatches) {
            QCOMPARE(last.enumName(QStringLiteral("decision"), d.decision), QStringLiteral("replayed"));
            QCOMPARE(d.passes, 2);
            finalRows.insert(QString::number(d.id),
                             QStringLiteral("%1:%2:%3:%4")
                                 .arg(d.id)
                                 .arg(last->kernelNames.value(d.kernel), last.agentName(d.process, d.agent),
                                      last.enumName(QStringLiteral("decision"), d.decision)));
        }
        int partial = 0;
        for (const Seen& seen : whileRunning) {
            if (seen.rows.isEmpty() || seen.rows.size() >= 16) {
                continue;
            }
            QVERIFY(!seen.complete);
            QVERIFY(!seen.exitStatus); // replayscope-run writes it only once the program ended
            ++partial;
            for (const QString& row : seen.rows) {
                QCOMPARE(row, finalRows.value(row.section(QLatin1Char(':'), 0, 0)));
            }
        }
        QVERIFY2(partial > 0,
                 qPrintable(QStringLiteral("no partial snapshot while the program ran; counts: ") + [&] {
                     QStringList c;
                     for (int n : counts) {
                         c << QString::number(n);
                     }
                     return c.join(QLatin1Char(' '));
                 }()));
    }
};

QTEST_GUILESS_MAIN(AppReaderTest)
#include "tst_app_reader.moc"
