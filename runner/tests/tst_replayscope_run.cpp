// SPDX-License-Identifier: MIT
// replayscope-run end to end: environment handed to the target, session recorded, exit status
// propagated (128+signal when killed), clear errors for a missing engine / refused session file.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct Run {
    int exit_code = -1;
    QString err;
};

Run run(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
        const QString& working_directory = QString()) {
    QProcess p;
    p.setProcessEnvironment(env);
    if (!working_directory.isEmpty()) {
        p.setWorkingDirectory(working_directory);
    }
    // RS_TEST_RESTORE=MODE (CTest's tst_replayscope_run.restore_full): every run with --restore MODE.
    const QString restore = qEnvironmentVariable("RS_TEST_RESTORE");
    p.start(RS_REPLAYSCOPE_RUN, restore.isEmpty() ? args : QStringList{"--restore", restore} + args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

QString scalar(const QString& path, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.toLocal8Bit().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    QString value;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const auto* t = sqlite3_column_text(st, 0);
        value = t ? QString::fromUtf8(reinterpret_cast<const char*>(t)) : QString();
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return value;
}

/// A shell command that appends `name` to `started` (the program has started), sleeps `seconds`, then
/// runs the probe with `dispatches` and exit status `status`.
QString startedThenProbe(const QString& started, const QString& name, int seconds, int dispatches,
                         int status) {
    return QString("echo %1 >> '%2'; sleep %3; exec '%4' %5 %6")
        .arg(name, started)
        .arg(seconds)
        .arg(RS_PROBE)
        .arg(dispatches)
        .arg(status);
}

/// The lines of `path` (empty when it does not exist).
QStringList lines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}

/// Waits up to 30 s for `path` to hold at least one line.
bool waitForLine(const QString& path) {
    QElapsedTimer timer;
    timer.start();
    while (lines(path).isEmpty() && timer.elapsed() < 30000) {
        QTest::qWait(20);
    }
    return !lines(path).isEmpty();
}

/// The permission bits of `path` (-1 when stat fails).
int modeOf(const QString& path) {
    struct stat st{};
    return ::stat(path.toLocal8Bit().constData(), &st) == 0 ? static_cast<int>(st.st_mode & 07777) : -1;
}

} // namespace

/// How much longer than the baseline the run with hostile clients may take, in ms. The clients hold
/// their connections 10 s, so a run that waited for them would take the baseline plus about 10 s; the
/// margin stays well below that and far above what load costs: the dripping clients compete with the
/// target for the two cores, and on a loaded machine the run took 667 ms more than its baseline (904 ms
/// more under ThreadSanitizer).
constexpr qint64 kHostileClientMarginMs = 5000;

class ReplayScopeRunTest : public QObject {
    Q_OBJECT
  private slots:
    void recordsSessionAndPropagatesExitStatus() {
        QTemporaryDir dir;
        const QString session = dir.path() + "/run.rsdb";
        const Run r = run({"--engine",
                           RS_PROBE,
                           "--passes",
                           "3",
                           "--kernel-include-regex",
                           "^acc.*",
                           "--kernel-exclude-regex",
                           "slow",
                           "--dispatch-skip",
                           "2",
                           "--dispatch-count",
                           "5",
                           "--agent",
                           "1",
                           "--host-memory-budget",
                           "2G",
                           "--fidelity-check",
                           "-o",
                           session,
                           "--",
                           RS_PROBE,
                           "250",
                           "7"});
        QCOMPARE(r.exit_code, 7);
        QVERIFY2(r.err.contains("250 dispatches"), qPrintable(r.err));
        QVERIFY(r.err.contains("complete"));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("250"));
        QCOMPARE(scalar(session, "SELECT complete FROM session"), QString("1"));
        const QString config =
            scalar(session, "SELECT s.text FROM session JOIN strings s ON s.id = session.configuration_id");
        const QString engine = QFileInfo(RS_PROBE).canonicalFilePath();
        QVERIFY2(config.contains("HSA_TOOLS_LIB=" + engine + "\n"), qPrintable(config));
        QVERIFY(config.contains("HSA_TOOLS_ROCPROFILER_V1_TOOLS=1\n"));
        QVERIFY(config.contains("REPLAYSCOPE_PASSES=3\n"));
        QVERIFY(config.contains("REPLAYSCOPE_KERNEL_INCLUDE_REGEX=^acc.*\n"));
        QVERIFY(config.contains("REPLAYSCOPE_KERNEL_EXCLUDE_REGEX=slow\n"));
        QVERIFY(config.contains("REPLAYSCOPE_DISPATCH_SKIP=2\n"));
        QVERIFY(config.contains("REPLAYSCOPE_DISPATCH_COUNT=5\n"));
        QVERIFY(config.contains("REPLAYSCOPE_AGENT_FILTER=1\n"));
        QVERIFY(config.contains("REPLAYSCOPE_HOST_MEMORY_BUDGET=2147483648\n"));
        QVERIFY(config.contains("REPLAYSCOPE_FIDELITY_CHECK=1\n"));
        QVERIFY(!config.contains("LD_PRELOAD=" + engine)); // the probe does not link HIP: no preload
        QCOMPARE(QDir(dir.path()).entryList({"run.rsdb.spool*"}), QStringList()); // none left, none needed
        QCOMPARE(scalar(session, "SELECT exit_status FROM session"), QString("7"));
        QCOMPARE(scalar(session, "SELECT exit_signal IS NULL FROM session"), QString("1"));
    }

    /// --preload-engine auto looks through a wrapper: an executable argument that links libamdhip64 (here
    /// a file naming it, standing for `timeout 60 ./app`) makes the engine LD_PRELOADed; an argument
    /// that does not, or off, leaves LD_PRELOAD unset.
    void preloadAutoSeesThroughWrappers() {
        QTemporaryDir dir;
        const QString hipApp = dir.filePath("hip_app");
        const QString plainApp = dir.filePath("plain_app");
        for (const auto& [path, bytes] : {std::pair{hipApp, QByteArray("\x7f"
                                                                       "ELF...libamdhip64.so.5...")},
                                          std::pair{plainApp, QByteArray("\x7f"
                                                                         "ELF...libc.so.6...")}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
            f.close();
            QVERIFY(
                f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        }
        const QString engine = QFileInfo(RS_PROBE).canonicalFilePath();
        const auto preloaded = [&](const QStringList& options, const QString& argument) {
            const QString session = dir.filePath("preload.rsdb");
            const Run r = run(options + QStringList{"--engine", RS_PROBE, "--force", "-o", session, "--",
                                                    RS_PROBE, "1", "0", "0", argument});
            if (r.exit_code != 0) {
                return QString("exit %1: %2").arg(r.exit_code).arg(r.err);
            }
            const QString config = scalar(
                session, "SELECT s.text FROM session JOIN strings s ON s.id = session.configuration_id");
            return config.contains("LD_PRELOAD=" + engine) ? QString("preloaded") : QString("not preloaded");
        };
        QCOMPARE(preloaded({}, hipApp), QString("preloaded"));
        QCOMPARE(preloaded({}, plainApp), QString("not preloaded"));
        QCOMPARE(preloaded({"--preload-engine", "off"}, hipApp), QString("not preloaded"));
        QCOMPARE(preloaded({"--preload-engine", "on"}, plainApp), QString("preloaded"));
    }

    /// REPLAYSCOPE_LOG and the two replay timeouts come through from the caller; the options override
    /// them; any other stale REPLAYSCOPE_* variable is dropped.
    void callerVariablesAndTimeoutOptions() {
        QTemporaryDir dir;
        const QString session = dir.path() + "/env.rsdb";
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("REPLAYSCOPE_LOG", "1");
        env.insert("REPLAYSCOPE_DRAIN_TIMEOUT_MS", "77");
        env.insert("REPLAYSCOPE_PASS_TIMEOUT_MS", "88");
        env.insert("REPLAYSCOPE_STALE_THING", "x");
        const Run r = run({"--engine", RS_PROBE, "--replay-pass-timeout-ms", "900", "-o", session, "--",
                           RS_PROBE, "3", "0"},
                          env);
        QCOMPARE(r.exit_code, 0);
        const QString config =
            scalar(session, "SELECT s.text FROM session JOIN strings s ON s.id = session.configuration_id");
        QVERIFY2(config.contains("REPLAYSCOPE_LOG=1\n"), qPrintable(config));
        QVERIFY(config.contains("REPLAYSCOPE_DRAIN_TIMEOUT_MS=77\n"));
        QVERIFY(config.contains("REPLAYSCOPE_PASS_TIMEOUT_MS=900\n"));
        QVERIFY(!config.contains("REPLAYSCOPE_STALE_THING"));
        const Run r2 = run({"--engine", RS_PROBE, "--replay-drain-timeout-ms", "5", "--force", "-o", session,
                            "--", RS_PROBE, "1", "0"});
        QCOMPARE(r2.exit_code, 0);
        QVERIFY(
            scalar(session, "SELECT s.text FROM session JOIN strings s ON s.id = session.configuration_id")
                .contains("REPLAYSCOPE_DRAIN_TIMEOUT_MS=5\n"));
        const Run help = run({"--help"});
        QVERIFY(help.exit_code == 0);
    }

    void killedProgramGives128PlusSignal() {
        QTemporaryDir dir;
        const QString session = dir.path() + "/killed.rsdb";
        const Run r = run({"--engine", RS_PROBE, "-o", session, "--", RS_PROBE, "10", "0", "9"});
        QCOMPARE(r.exit_code, 128 + 9);
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("10"));
        QCOMPARE(scalar(session, "SELECT exit_status FROM session"), QString("137"));
        QCOMPARE(scalar(session, "SELECT exit_signal FROM session"), QString("9"));
    }

    void missingEngineIsAClearError() {
        QTemporaryDir dir;
        const Run r = run(
            {"--engine", dir.path() + "/nope.so", "-o", dir.path() + "/x.rsdb", "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("engine library not found: " + dir.path() + "/nope.so"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.path() + "/x.rsdb"));
    }

    void existingSessionNeedsForce() {
        QTemporaryDir dir;
        const QString session = dir.path() + "/again.rsdb";
        QCOMPARE(run({"--engine", RS_PROBE, "-o", session, "--", RS_PROBE, "1", "0"}).exit_code, 0);
        const Run refused = run({"--engine", RS_PROBE, "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(refused.exit_code, 125);
        QVERIFY(refused.err.contains("already exists"));
        QCOMPARE(run({"--engine", RS_PROBE, "--force", "-o", session, "--", RS_PROBE, "3", "0"}).exit_code,
                 0);
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("3"));
    }

    void importSpoolRefusesForeignFile() {
        QTemporaryDir dir;
        QFile foreign(dir.path() + "/foreign.rsdb");
        QVERIFY(foreign.open(QIODevice::WriteOnly));
        foreign.write("not a session");
        foreign.close();
        QFile spool(dir.path() + "/x.spool");
        QVERIFY(spool.open(QIODevice::WriteOnly));
        spool.close();
        const Run r = run({"--import-spool", dir.path() + "/x.spool", "-o", dir.path() + "/foreign.rsdb"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("not a SQLite database (foreign file)"), qPrintable(r.err));
    }

    void simulatePicksTheSimulatedRuntime() {
        // hsa-info links Debian's real libhsa-runtime64; --simulate must put build/sim/lib first.
        QTemporaryDir dir;
        const QString session = dir.path() + "/simulate.rsdb";
        QProcess p;
        p.start(RS_REPLAYSCOPE_RUN,
                {"--simulate", "--engine", RS_NOOP_TOOL, "--no-progress", "-o", session, "--", RS_HSA_INFO});
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY2(out.contains("gfx90a"), qPrintable(out + err));
    }

    /// The version is the build's (project(VERSION) through replayscope/version.h): replayscope-run
    /// --version prints it, and the engine records the same one as the session's engine version.
    void engineVersionIsTheBuildVersion() {
        QProcess v;
        v.start(RS_REPLAYSCOPE_RUN, {"--version"});
        QVERIFY(v.waitForFinished(60000));
        QCOMPARE(QString::fromUtf8(v.readAllStandardOutput()).trimmed(),
                 QStringLiteral("replayscope-run " RS_PROJECT_VERSION));

        QTemporaryDir dir;
        const QString session = dir.path() + "/version.rsdb";
        const Run r =
            run({"--simulate", "--engine", RS_ENGINE, "--no-progress", "-o", session, "--", RS_HSA_INFO});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(scalar(session, "SELECT s.text FROM processes p JOIN strings s ON s.process = p.process AND "
                                 "s.id = p.engine_version_id"),
                 QStringLiteral(RS_PROJECT_VERSION));
        // The command line is recorded whole (the engine's settings string is cut at the string limit).
        // (The suite's restore-full variant adds its --restore right after the program name.)
        const QString recorded = scalar(session, "SELECT runner_command FROM session");
        QVERIFY2(recorded.startsWith(QString(RS_REPLAYSCOPE_RUN) + " ") &&
                     recorded.endsWith(QString(" --simulate --engine ") + RS_ENGINE + " --no-progress -o " +
                                       session + " -- " + RS_HSA_INFO),
                 qPrintable(recorded));
        // What the engine could not apply of the options is said at the end of the run, not only recorded:
        // an --agent entry naming no GPU replays nothing.
        const QString unmatched = dir.path() + "/agent.rsdb";
        const Run agent = run({"--simulate", "--engine", RS_ENGINE, "--no-progress", "--agent", "9", "-o",
                               unmatched, "--", RS_HSA_INFO});
        QVERIFY2(agent.exit_code == 0, qPrintable(agent.err));
        QVERIFY2(agent.err.contains("replayscope-run: warning: --agent 9: GPUs are 0 "),
                 qPrintable(agent.err));
    }

    /// --standins: the libraries reach the target as HSA_SIM_STANDINS, absolute and ':'-separated in the
    /// given order; a missing file, or --standins without --simulate, is a tool failure (125).
    void standinsBecomeHsaSimStandins() {
        QTemporaryDir dir;
        for (const char* name : {"liba-standins.so", "libb-standins.so"}) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const QString session = dir.path() + "/standins.rsdb";
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(RS_REPLAYSCOPE_RUN,
                {"--simulate", "--engine", RS_NOOP_TOOL, "--no-progress", "--drain-timeout", "100",
                 "--standins", QString("libb-standins.so,") + dir.filePath("liba-standins.so"), "-o", session,
                 "--", "/usr/bin/env"});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 0);
        const QStringList lines = QString::fromUtf8(p.readAllStandardOutput()).split('\n');
        const QString canonical = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY2(lines.contains("HSA_SIM_STANDINS=" + canonical + "/libb-standins.so:" + canonical +
                                "/liba-standins.so"),
                 qPrintable(lines.filter("HSA_SIM").join('\n') + err));

        const Run missing = run({"--simulate", "--engine", RS_NOOP_TOOL, "--standins",
                                 dir.filePath("liba-standins.so") + "," + dir.filePath("nope.so"), "--force",
                                 "-o", session, "--", "/usr/bin/env"});
        QCOMPARE(missing.exit_code, 125);
        QVERIFY2(missing.err.contains("stand-in library not found: " + dir.filePath("nope.so")),
                 qPrintable(missing.err));
        const Run empty =
            run({"--simulate", "--engine", RS_NOOP_TOOL, "--standins", dir.filePath("liba-standins.so") + ",",
                 "--force", "-o", session, "--", "/usr/bin/env"});
        QCOMPARE(empty.exit_code, 125);
        QVERIFY2(empty.err.contains("--standins: empty entry"), qPrintable(empty.err));
        const Run unsimulated = run({"--engine", RS_NOOP_TOOL, "--standins", dir.filePath("liba-standins.so"),
                                     "--force", "-o", session, "--", "/usr/bin/env"});
        QCOMPARE(unsimulated.exit_code, 125);
        QVERIFY2(unsimulated.err.contains("--standins needs --simulate"), qPrintable(unsimulated.err));
        const Run help = run({"--help"});
        QCOMPARE(help.exit_code, 0);
    }

    /// A shell command line with two, and with three, instrumented programs of different sizes: every
    /// program is a process of the one session, every event stored under its process, per-process
    /// counts equal to what each emitter sent, the session complete; the summary lists each process.
    void shellScriptProcessesAllRecorded_data() {
        QTest::addColumn<QList<int>>("sizes");
        QTest::addColumn<QString>(
            "queue"); // emitter queue capacity: small ones spool (imported after the run)
        QTest::newRow("1000 then 3000") << QList<int>{1000, 3000} << "16384";
        QTest::newRow("1000 then 300000, spooling") << QList<int>{1000, 300000} << "256";
        QTest::newRow("three") << QList<int>{2000, 50, 20000} << "16384";
    }
    void shellScriptProcessesAllRecorded() {
        QFETCH(QList<int>, sizes);
        QFETCH(QString, queue);
        QTemporaryDir dir;
        const QString session = dir.path() + "/script.rsdb";
        QStringList commands;
        for (int n : sizes) {
            commands << QString("'%1' %2 0").arg(RS_PROBE).arg(n);
        }
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_QUEUE", queue);
        const Run r = run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", "/bin/sh", "-c",
                           commands.join("; ")},
                          env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains(QString("%1 processes").arg(sizes.size())), qPrintable(r.err));
        QVERIFY2(r.err.contains("complete (") && !r.err.contains("incomplete"), qPrintable(r.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM processes").toInt(), sizes.size());
        QCOMPARE(scalar(session, "SELECT complete FROM session"), QString("1"));
        QCOMPARE(scalar(session, "SELECT process_count FROM session").toInt(), sizes.size());
        long long total = 0;
        for (int i = 0; i < sizes.size(); ++i) {
            const QByteArray process =
                QString("(SELECT process FROM processes WHERE process = %1)").arg(i + 1).toUtf8();
            // Processes are numbered in order of first authentication: the script's order.
            QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches WHERE process = " + process).toInt(),
                     sizes[i]);
            QCOMPARE(scalar(session,
                            "SELECT sent FROM event_counts WHERE name = 'dispatch' AND process = " + process)
                         .toInt(),
                     sizes[i]);
            QCOMPARE(
                scalar(session,
                       "SELECT stored FROM event_counts WHERE name = 'dispatch' AND process = " + process)
                    .toInt(),
                sizes[i]);
            QCOMPARE(scalar(session, "SELECT complete FROM processes WHERE process = " + process),
                     QString("1"));
            QCOMPARE(scalar(session, "SELECT missing_events FROM processes WHERE process = " + process),
                     QString("0"));
            QVERIFY2(r.err.contains(QString("process %1: pid").arg(i + 1)) &&
                         r.err.contains(QString("probe %1: ").arg(sizes[i])),
                     qPrintable(r.err));
            total += sizes[i];
        }
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches").toLongLong(), total);
        QCOMPARE(scalar(session, "SELECT count(*) FROM sequence_gaps"), QString("0"));
        // Every process's spool was imported and removed.
        QCOMPARE(QDir(dir.path()).entryList({"script.rsdb.spool*"}).size(), 0);
    }

    /// A same-uid client connected before the target, with a wrong token, and a silent one (both held
    /// open 10 s by a child of the program): the target's events all arrive, the session is complete,
    /// and the run is not delayed by them.
    void earlyHostileClientsCostNothing_data() {
        QTest::addColumn<QString>("clients");
        QTest::newRow("wrong token and silent") << "1";
        QTest::newRow("dripping bytes, reconnecting") << "drip";
    }
    void earlyHostileClientsCostNothing() {
        QFETCH(QString, clients);
        QTemporaryDir dir;
        const QString session = dir.path() + "/early.rsdb";
        // The same run without the clients first: the time it takes here.
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(run({"--engine", RS_PROBE, "--no-progress", "-o", dir.path() + "/baseline.rsdb", "--",
                      RS_PROBE, "50000", "0"})
                     .exit_code,
                 0);
        const qint64 baseline = timer.elapsed();
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_EARLY_CLIENTS", clients);
        timer.restart();
        const Run r =
            run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", RS_PROBE, "50000", "0"}, env);
        const qint64 elapsed = timer.elapsed();
        QCOMPARE(r.exit_code, 0);
        // Not delayed by them (they stay open, or keep dripping and reconnecting, for 10 s): the drain
        // at the end waits for authenticated connections only.
        QVERIFY2(elapsed < baseline + kHostileClientMarginMs,
                 qPrintable(QString("%1 ms, without the clients %2 ms").arg(elapsed).arg(baseline)));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("50000"));
        QCOMPARE(scalar(session, "SELECT complete FROM session"), QString("1"));
        QCOMPARE(scalar(session, "SELECT count(*) FROM processes"), QString("1"));
        QCOMPARE(scalar(session, "SELECT missing_events FROM session"), QString("0"));
    }

    /// A relative -o with a script that changes directory before the instrumented program starts: the
    /// spool (the emitter's queue is small, so it spools) is still found, imported and removed.
    void relativeOutputWithChangedDirectory() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("elsewhere"));
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_QUEUE", "256");
        const Run r = run({"--engine", RS_PROBE, "--no-progress", "-o", "rel.rsdb", "--", "/bin/sh", "-c",
                           QString("cd elsewhere && '%1' 100000 0").arg(RS_PROBE)},
                          env, dir.path());
        QCOMPARE(r.exit_code, 0);
        const QString session = dir.path() + "/rel.rsdb";
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("100000"));
        QCOMPARE(scalar(session, "SELECT complete FROM session"), QString("1"));
        QVERIFY2(r.err.contains("imported from"), qPrintable(r.err)); // the spool path was used
        QCOMPARE(QDir(dir.path()).entryList({"rel.rsdb.spool*"}).size(), 0);
        QCOMPARE(QDir(dir.path() + "/elsewhere").entryList(QDir::Files).size(), 0);
    }

    /// --follow-children reaches the target as REPLAYSCOPE_FOLLOW_CHILDREN; the launched program's exit
    /// status lands in its process row too.
    void followChildrenOptionAndExitStatus() {
        QTemporaryDir dir;
        const QString session = dir.path() + "/follow.rsdb";
        const auto configuration = [&] {
            return scalar(session,
                          "SELECT s.text FROM session JOIN strings s ON s.id = session.configuration_id "
                          "AND s.process = 1");
        };
        Run r = run({"--engine", RS_PROBE, "--follow-children=no", "-o", session, "--", RS_PROBE, "5", "3"});
        QCOMPARE(r.exit_code, 3);
        QVERIFY2(configuration().contains("REPLAYSCOPE_FOLLOW_CHILDREN=0\n"), qPrintable(configuration()));
        QCOMPARE(scalar(session, "SELECT exit_status FROM processes WHERE process = 1"), QString("3"));
        QCOMPARE(scalar(session, "SELECT exit_status FROM session"), QString("3"));
        r = run({"--engine", RS_PROBE, "--force", "-o", session, "--", RS_PROBE, "5", "0"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(configuration().contains("REPLAYSCOPE_FOLLOW_CHILDREN=1\n"), qPrintable(configuration()));
        QCOMPARE(run({"--engine", RS_PROBE, "--follow-children=maybe", "--force", "-o", session, "--",
                      RS_PROBE, "1", "0"})
                     .exit_code,
                 125);
    }

    /// A run that never starts (the program cannot be executed) leaves no session file behind.
    void unstartedRunLeavesNoSessionFile() {
        QTemporaryDir dir;
        QFile notExecutable(dir.path() + "/data.txt");
        QVERIFY(notExecutable.open(QIODevice::WriteOnly));
        notExecutable.write("#!/nonexistent/interpreter\n");
        notExecutable.close();
        QVERIFY(notExecutable.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QString session = dir.path() + "/never.rsdb";
        const Run r = run({"--engine", RS_PROBE, "-o", session, "--", dir.path() + "/data.txt"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("cannot start"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(session));
        QVERIFY(!QFileInfo::exists(session + "-wal"));
    }

    /// Two -f runs on one output, the second a second after the first's program started: the second is
    /// refused (125) before its program starts and removes nothing; the first stores all its events and
    /// its own exit status.
    void forcedRunRefusedWhileAnotherHoldsTheOutput() {
        QTemporaryDir dir;
        const QString session = dir.filePath("s.rsdb");
        const QString started = dir.filePath("started");
        // An earlier session: both runs need -f.
        QCOMPARE(
            run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", RS_PROBE, "1", "0"}).exit_code,
            0);
        QProcess first;
        first.start(RS_REPLAYSCOPE_RUN,
                    {"--engine", RS_PROBE, "--no-progress", "--force", "-o", session, "--", "/bin/sh", "-c",
                     startedThenProbe(started, "first", 3, 400, 3)});
        QVERIFY(waitForLine(started));
        QTest::qWait(1000);
        const Run second = run({"--engine", RS_PROBE, "--no-progress", "--force", "-o", session, "--",
                                "/bin/sh", "-c", startedThenProbe(started, "second", 0, 7, 5)});
        QCOMPARE(second.exit_code, 125);
        QVERIFY2(second.err.contains(session + ": in use by another replayscope-run (pid " +
                                     QString::number(first.processId()) + ")"),
                 qPrintable(second.err));
        QVERIFY(first.waitForFinished(60000));
        const QString firstErr = QString::fromUtf8(first.readAllStandardError());
        QCOMPARE(first.exitCode(), 3);
        QVERIFY2(firstErr.contains("400 dispatches"), qPrintable(firstErr));
        QCOMPARE(lines(started), QStringList{"first"});
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("400"));
        QCOMPARE(scalar(session, "SELECT exit_status FROM session"), QString("3"));
        QCOMPARE(scalar(session, "SELECT complete FROM session"), QString("1"));
        QCOMPARE(scalar(session, "SELECT count(*) FROM processes"), QString("1"));
        QVERIFY(!QFileInfo::exists(session + ".lock")); // released at the end
    }

    /// Two runs on one new output started together: exactly one runs its program, the other exits 125
    /// saying the output is in use and never started its program.
    void simultaneousRunsOnlyOneStarts() {
        QTemporaryDir dir;
        const QString session = dir.filePath("together.rsdb");
        const QString started = dir.filePath("started");
        QProcess a, b;
        for (const auto& [p, name] :
             {std::pair<QProcess*, QString>{&a, "a"}, std::pair<QProcess*, QString>{&b, "b"}}) {
            p->start(RS_REPLAYSCOPE_RUN, {"--engine", RS_PROBE, "--no-progress", "-o", session, "--",
                                          "/bin/sh", "-c", startedThenProbe(started, name, 2, 100, 0)});
        }
        QVERIFY(a.waitForStarted(60000));
        QVERIFY(b.waitForStarted(60000));
        const qint64 pidA = a.processId(), pidB = b.processId();
        QVERIFY(a.waitForFinished(60000));
        QVERIFY(b.waitForFinished(60000));
        const QString errA = QString::fromUtf8(a.readAllStandardError());
        const QString errB = QString::fromUtf8(b.readAllStandardError());
        QCOMPARE(QList<int>({a.exitCode(), b.exitCode()}).count(0), 1);
        QCOMPARE(QList<int>({a.exitCode(), b.exitCode()}).count(125), 1);
        const QString& loserErr = a.exitCode() == 0 ? errB : errA;
        QVERIFY2(loserErr.contains(session + ": in use by another replayscope-run (pid " +
                                   QString::number(a.exitCode() == 0 ? pidA : pidB) + ")"),
                 qPrintable(errA + errB));
        QCOMPARE(lines(started), QStringList{a.exitCode() == 0 ? "a" : "b"});
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("100"));
        QCOMPARE(scalar(session, "SELECT exit_status FROM session"), QString("0"));
        QCOMPARE(scalar(session, "SELECT complete FROM session"), QString("1"));
    }

    /// The claim of a replayscope-run killed by SIGKILL (its lock file left, nobody holding it) is taken
    /// over by the next run, which says so.
    void staleClaimTakenOver() {
        QTemporaryDir dir;
        const QString session = dir.filePath("stale.rsdb");
        const QString child = dir.filePath("child");
        QProcess killed;
        killed.start(RS_REPLAYSCOPE_RUN,
                     {"--engine", RS_PROBE, "--no-progress", "-o", session, "--", "/bin/sh", "-c",
                      QString("echo $$ > '%1'; exec sleep 30").arg(child)});
        QVERIFY(waitForLine(child));
        const qint64 deadPid = killed.processId();
        killed.kill();
        QVERIFY(killed.waitForFinished(10000));
        ::kill(lines(child).value(0).toInt(), SIGKILL);
        QVERIFY(QFileInfo::exists(session + ".lock"));
        const Run r =
            run({"--engine", RS_PROBE, "--no-progress", "--force", "-o", session, "--", RS_PROBE, "20", "4"});
        QCOMPARE(r.exit_code, 4);
        QVERIFY2(r.err.contains("taking over the stale claim of replayscope-run pid " +
                                QString::number(deadPid) + ", which ended without releasing it"),
                 qPrintable(r.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("20"));
        QCOMPARE(scalar(session, "SELECT exit_status FROM session"), QString("4"));
        QVERIFY(!QFileInfo::exists(session + ".lock"));
    }

    /// Files named like spools of the output but not written by this run (an engine's spool of another
    /// run, one of another run id) are neither imported nor removed, and are named on one line; the run's
    /// own spools are imported.
    void foreignSpoolsLeftAlone() {
        QTemporaryDir dir;
        const QString session = dir.filePath("own.rsdb");
        // A genuine spool: the probe with no collector spools every event.
        auto spoolEnv = QProcessEnvironment::systemEnvironment();
        spoolEnv.insert("REPLAYSCOPE_SPOOL", session + ".spool.%p");
        spoolEnv.insert("REPLAYSCOPE_TOKEN", QString(64, '0'));
        spoolEnv.remove("REPLAYSCOPE_SOCKET");
        QProcess writer;
        writer.setProcessEnvironment(spoolEnv);
        writer.start(RS_PROBE, {"40", "0"});
        QVERIFY(writer.waitForStarted(60000));
        const qint64 writerPid = writer.processId();
        QVERIFY(writer.waitForFinished(60000));
        QCOMPARE(writer.exitCode(), 0);
        const QString pidSpool = session + ".spool." + QString::number(writerPid);
        QVERIFY(QFileInfo(pidSpool).size() > 0);
        const QString otherRunSpool = session + ".spool.0123456789abcdef.4242";
        QVERIFY(QFile::copy(pidSpool, otherRunSpool));
        const qint64 size = QFileInfo(pidSpool).size();

        auto env = QProcessEnvironment::systemEnvironment();
        // This run's own process spools too; a long drain so that a loaded machine loses no event.
        env.insert("RS_PROBE_QUEUE", "256");
        const Run r = run({"--engine", RS_PROBE, "--no-progress", "--drain-timeout", "60000", "-o", session,
                           "--", RS_PROBE, "100000", "0"},
                          env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains("imported from"), qPrintable(r.err));
        QVERIFY2(scalar(session, "SELECT count(*) FROM dispatches") == "100000", qPrintable(r.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM processes"), QString("1"));
        QCOMPARE(QFileInfo(pidSpool).size(), size);
        QCOMPARE(QFileInfo(otherRunSpool).size(), size);
        const QStringList named = r.err.split('\n').filter("not of this run");
        QCOMPARE(named.size(), 1);
        QVERIFY2(named[0].contains(pidSpool) && named[0].contains(otherRunSpool), qPrintable(r.err));
        QCOMPARE(QDir(dir.path()).entryList({"own.rsdb.spool*"}).size(), 2);
    }

    /// Session files hold command lines, paths and configuration: written 0600, by a run and by
    /// --import-spool into a new file, whatever the umask allows.
    void sessionFilesArePrivate() {
        QTemporaryDir dir;
        const QString session = dir.filePath("private.rsdb");
        QCOMPARE(
            run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", RS_PROBE, "5", "0"}).exit_code,
            0);
        QCOMPARE(modeOf(session), 0600);
        QCOMPARE(
            run({"--engine", RS_PROBE, "--no-progress", "--force", "-o", session, "--", RS_PROBE, "5", "0"})
                .exit_code,
            0);
        QCOMPARE(modeOf(session), 0600);

        auto spoolEnv = QProcessEnvironment::systemEnvironment();
        spoolEnv.insert("REPLAYSCOPE_SPOOL", dir.filePath("x.spool"));
        spoolEnv.insert("REPLAYSCOPE_TOKEN", QString(64, '0'));
        spoolEnv.remove("REPLAYSCOPE_SOCKET");
        QProcess writer;
        writer.setProcessEnvironment(spoolEnv);
        writer.start(RS_PROBE, {"3", "0"});
        QVERIFY(writer.waitForFinished(60000));
        const QString imported = dir.filePath("imported.rsdb");
        const Run r = run({"--import-spool", dir.filePath("x.spool"), "-o", imported});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(scalar(imported, "SELECT count(*) FROM dispatches"), QString("3"));
        QCOMPARE(modeOf(imported), 0600);
    }

    /// A symbolic link planted where a spool is created: the emitter never opens it (nor any existing
    /// file) and writes its spool under the next free name (`.1`); a link in place of the spool's
    /// directory gets nothing (the records are lost, the program goes on). The victim file stays as it
    /// was, and the spool written under the other name imports whole.
    void plantedSymlinkNeverWrittenThrough() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("spools"));
        QVERIFY(QFile::setPermissions(dir.filePath("spools"), QFileDevice::ReadOwner |
                                                                  QFileDevice::WriteOwner |
                                                                  QFileDevice::ExeOwner));
        const QString victim = dir.filePath("victim");
        {
            QFile f(victim);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("precious\n");
        }
        QVERIFY(QFile::setPermissions(victim, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(QFile::link(victim, dir.filePath("spools/planted")));
        QVERIFY(QFile::link(dir.filePath("spools"), dir.filePath("linked-spools")));
        const QString runId = "00000000000000a1";
        const auto spoolWith = [&](const QString& spool) {
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert("REPLAYSCOPE_SPOOL", spool);
            env.insert("REPLAYSCOPE_RUN_ID", runId);
            env.remove("REPLAYSCOPE_SOCKET");
            QProcess writer;
            writer.setProcessEnvironment(env);
            writer.start(RS_PROBE, {"40", "0"});
            return writer.waitForFinished(60000) && writer.exitStatus() == QProcess::NormalExit
                       ? writer.exitCode()
                       : -1;
        };
        QCOMPARE(spoolWith(dir.filePath("spools/planted")), 0);
        QCOMPARE(spoolWith(dir.filePath("linked-spools/through-link")), 0);
        QFile f(victim);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("precious\n"));
        QVERIFY(QFileInfo(dir.filePath("spools/planted")).isSymLink());
        QVERIFY(QFileInfo(dir.filePath("spools/planted.1")).size() > 0);
        QCOMPARE(modeOf(dir.filePath("spools/planted.1")), 0600);
        QVERIFY(!QFileInfo::exists(dir.filePath("spools/through-link")));
        const QString session = dir.filePath("planted.rsdb");
        const Run r = run({"--import-spool", dir.filePath("spools/planted.1"), "-o", session});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("40"));
        QCOMPARE(scalar(session, "SELECT run_id FROM session"), runId); // a new session takes the spool's run
        // The link itself given to --import-spool: refused, nothing read through it.
        const Run link = run({"--import-spool", dir.filePath("spools/planted"), "-o", session});
        QCOMPARE(link.exit_code, 125);
        QVERIFY2(link.err.contains("a symbolic link"), qPrintable(link.err));
    }

    /// The spool directory beside the session must be a directory of this user with mode 0700: a
    /// symbolic link in its place (to a directory the spools would land in), a directory of mode 0755 or of
    /// another user, or a file refuse the run with one line and exit 125 before the program starts and
    /// before any session file is made; nothing is written through the link.
    void unsafeSpoolDirectoryRefused_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("said");
        QTest::newRow("symbolic link") << "link" << "a symbolic link, not a directory";
        QTest::newRow("mode 0755") << "0755" << "mode 0755, not 0700";
        QTest::newRow("another owner") << "owner" << "owned by uid 65534";
        QTest::newRow("a file") << "file" << "not a directory";
    }
    void unsafeSpoolDirectoryRefused() {
        QFETCH(QString, kind);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QString session = dir.filePath("guarded.rsdb");
        const QString spoolDir = session + ".spool.d";
        const QString elsewhere = dir.filePath("elsewhere");
        QVERIFY(QDir(dir.path()).mkdir("elsewhere"));
        if (kind == "link") {
            QVERIFY(QFile::link(elsewhere, spoolDir));
        } else if (kind == "file") {
            QFile f(spoolDir);
            QVERIFY(f.open(QIODevice::WriteOnly));
        } else {
            QVERIFY(QDir(dir.path()).mkdir("guarded.rsdb.spool.d"));
            QVERIFY(::chmod(spoolDir.toLocal8Bit().constData(), kind == "0755" ? 0755 : 0700) == 0);
            if (kind == "owner") {
                if (::geteuid() != 0) {
                    QSKIP("giving the directory to another user needs root");
                }
                QVERIFY(::chown(spoolDir.toLocal8Bit().constData(), 65534, 65534) == 0);
            }
        }
        const QString started = dir.filePath("started");
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_QUEUE", "64"); // it would spool, were it started
        const Run r = run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", "/bin/sh", "-c",
                           startedThenProbe(started, "started", 0, 2000, 0)},
                          env);
        QCOMPARE(r.exit_code, 125);
        const QStringList said_lines = r.err.split('\n', Qt::SkipEmptyParts).filter(spoolDir + ": ");
        QCOMPARE(said_lines.size(), 1);
        QVERIFY2(said_lines[0].contains(said) && said_lines[0].contains("not started"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(started));
        QVERIFY(!QFileInfo::exists(session));
        QCOMPARE(QDir(elsewhere).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList());
    }

    /// --import-spool of a spool of another run than the session's is refused (exit 125, one line naming
    /// both run ids) and changes nothing; with --force-import it is merged, the terminal says so and the
    /// session records it (session.foreign_spools).
    void foreignRunSpoolImportNeedsForce() {
        QTemporaryDir dir;
        const QString session = dir.filePath("mine.rsdb");
        QCOMPARE(
            run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", RS_PROBE, "10", "0"}).exit_code,
            0);
        const QString sessionRun = scalar(session, "SELECT run_id FROM session");
        QCOMPARE(sessionRun.size(), 16);
        const QString otherRun = "0123456789abcdef";
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("REPLAYSCOPE_SPOOL", dir.filePath("other.spool"));
        env.insert("REPLAYSCOPE_RUN_ID", otherRun);
        env.remove("REPLAYSCOPE_SOCKET");
        QProcess writer;
        writer.setProcessEnvironment(env);
        writer.start(RS_PROBE, {"40", "0"});
        QVERIFY(writer.waitForFinished(60000));
        QCOMPARE(writer.exitCode(), 0);

        const Run refused = run({"--import-spool", dir.filePath("other.spool"), "-o", session});
        QCOMPARE(refused.exit_code, 125);
        const QStringList said = refused.err.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(said.size(), 1);
        QVERIFY2(said[0].contains("run " + otherRun) && said[0].contains("run " + sessionRun) &&
                     said[0].contains("--force-import"),
                 qPrintable(refused.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("10"));
        QCOMPARE(scalar(session, "SELECT foreign_spools IS NULL FROM session"), QString("1"));

        const Run forced =
            run({"--import-spool", dir.filePath("other.spool"), "--force-import", "-o", session});
        QVERIFY2(forced.exit_code == 0, qPrintable(forced.err));
        QVERIFY2(forced.err.contains("merged by --force-import"), qPrintable(forced.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("50"));
        QCOMPARE(scalar(session, "SELECT count(*) FROM processes"), QString("2"));
        QCOMPARE(scalar(session, "SELECT run_id FROM session"), sessionRun);
        const QString recorded = scalar(session, "SELECT foreign_spools FROM session");
        QVERIFY2(recorded.contains(dir.filePath("other.spool")) && recorded.contains("run " + otherRun),
                 qPrintable(recorded));
    }

    /// replayscope-run killed (SIGKILL) while its program runs: the program's later process spools
    /// everything into the session's spool directory. The next run on that output names the leftover
    /// spool and how to import it; --import-spool of the directory imports it (and removes it and the
    /// directory), the file returns to journal_mode=DELETE, and every process's sent events are stored
    /// or missing: sent = stored + missing.
    void killedCollectorSpoolsRecovered() {
        QTemporaryDir dir;
        const QString session = dir.filePath("killed.rsdb");
        const QString firstDone = dir.filePath("first-done");
        const QString go = dir.filePath("go");
        const QString secondDone = dir.filePath("second-done");
        QProcess killed;
        killed.start(RS_REPLAYSCOPE_RUN,
                     {"--engine", RS_PROBE, "--no-progress", "-o", session, "--", "/bin/sh", "-c",
                      // (waiting at most 60 s for the go, so that a failed test leaves no process behind)
                      QString("'%1' 3000 0; echo done > '%2'; i=0; while [ ! -e '%3' ] && [ $i -lt 1200 ]; "
                              "do sleep 0.05; i=$((i+1)); done; '%1' 4000 0; echo done > '%4'")
                          .arg(RS_PROBE, firstDone, go, secondDone)});
        QVERIFY(waitForLine(firstDone));
        QElapsedTimer stored;
        stored.start();
        // Its 3000 dispatches and its session_end (which carries its sent counts) committed.
        while (scalar(session, "SELECT count(*) FROM dispatches") != "3000" ||
               scalar(session, "SELECT count(*) FROM processes WHERE end_seq IS NOT NULL") != "1") {
            QVERIFY(stored.elapsed() < 30000);
            QTest::qWait(50);
        }
        // Now the collector dies, the program goes on.
        killed.kill();
        QVERIFY(killed.waitForFinished(10000));
        QFile(go).open(QIODevice::WriteOnly);
        QVERIFY(waitForLine(secondDone));
        const QString spoolDir = session + ".spool.d";
        const QStringList left = QDir(spoolDir).entryList(QDir::Files);
        QCOMPARE(left.size(), 1);
        const QString runId = scalar(session, "SELECT run_id FROM session");
        QVERIFY2(left[0].startsWith(runId + "."), qPrintable(left.join(' ') + " " + runId));
        QCOMPARE(scalar(session, "PRAGMA journal_mode"), QString("wal"));

        const Run next =
            run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(next.exit_code, 125); // the session exists: refused as ever, after saying what it left
        const QStringList named = next.err.split('\n').filter("never imported");
        QCOMPARE(named.size(), 1);
        QVERIFY2(named[0].contains(spoolDir + "/" + left[0]) &&
                     named[0].contains("--import-spool " + spoolDir + " -o " + session),
                 qPrintable(next.err));

        const Run imported = run({"--import-spool", spoolDir, "-o", session});
        QVERIFY2(imported.exit_code == 0, qPrintable(imported.err));
        QVERIFY2(imported.err.contains("1 spool file of " + spoolDir), qPrintable(imported.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM processes"), QString("2"));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString("7000"));
        QCOMPARE(scalar(session, "SELECT sum(sent) FROM event_counts"),
                 scalar(session, "SELECT (SELECT sum(stored) FROM event_counts) + "
                                 "(SELECT sum(missing_events) FROM processes)"));
        QCOMPARE(scalar(session, "SELECT sum(sent) FROM event_counts WHERE name = 'dispatch'"),
                 QString("7000"));
        QCOMPARE(scalar(session, "PRAGMA journal_mode"), QString("delete"));
        QVERIFY(!QFileInfo::exists(spoolDir));
        QVERIFY(!QFileInfo::exists(session + "-wal"));
    }

    /// Thirty processes of one run all spool (a small queue): their thirty spools are imported in one
    /// import (one open, one finish of the session), every event under its process, and the directory is
    /// removed once empty.
    void thirtySpoolsImportedTogether() {
        QTemporaryDir dir;
        const QString session = dir.filePath("thirty.rsdb");
        QStringList commands;
        for (int i = 0; i < 30; ++i) {
            commands << QString("'%1' %2 0").arg(RS_PROBE).arg(500 + i);
        }
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_QUEUE", "64");
        env.insert("RS_PROBE_SPOOL_ONLY", "1");
        const Run r = run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", "/bin/sh", "-c",
                           commands.join("; ")},
                          env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains("imported from 30 spool files"), qPrintable(r.err));
        QCOMPARE(scalar(session, "SELECT count(*) FROM processes"), QString("30"));
        QCOMPARE(scalar(session, "SELECT count(*) FROM dispatches"), QString::number(30 * 500 + 29 * 30 / 2));
        QCOMPARE(scalar(session, "SELECT complete FROM session"), QString("1"));
        QCOMPARE(scalar(session, "PRAGMA journal_mode"), QString("delete"));
        QVERIFY(!QFileInfo::exists(session + ".spool.d"));
    }

    /// An invalid kernel regex is refused before the program starts (exit 125, one line): the program
    /// never runs (its marker file is not made), no session file or spool directory is left; the engine
    /// would otherwise have ignored the regex and replayed every kernel.
    void invalidRegexRefusedBeforeStart() {
        QTemporaryDir dir;
        const QString marker = dir.filePath("started");
        const QString session = dir.filePath("out/run.rsdb");
        for (const char* option : {"--kernel-include-regex", "--kernel-exclude-regex"}) {
            const Run r = run({"--engine", RS_PROBE, option, "([", "-o", session, "--", "/bin/sh", "-c",
                               "touch '" + marker + "'"});
            QCOMPARE(r.exit_code, 125);
            QVERIFY2(r.err.startsWith(QString("replayscope-run: ") + option +
                                      ": '([' is not a valid ECMAScript regular expression"),
                     qPrintable(r.err));
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY(!QFile::exists(marker));
            QVERIFY(!QFileInfo::exists(dir.filePath("out")));
        }
        // The same regex made valid: the program runs.
        const Run r = run({"--engine", RS_PROBE, "--no-progress", "--kernel-include-regex", "(\\[)", "-o",
                           session, "--", "/bin/sh", "-c", "touch '" + marker + "'"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY(QFile::exists(marker));
    }

    /// --stats and --output-format csv on a simulated run (two_agents: 16 dispatches of one kernel on two
    /// agents, each replayed with 2 passes): <name>_kernel_stats.csv beside the session in -d's new
    /// directory, rocprofv3's header, and values equal to SQL on the session's timed passes; the csv file
    /// comes from the inspector beside replayscope-run, or one line says it is missing.
    void statsAndCsvBesideTheSession() {
        QTemporaryDir dir;
        const QString out = dir.filePath("results/sub");
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("HSA_SIM_GPU_AGENTS", "2");
        const Run r = run({"--simulate", "--engine", RS_ENGINE, "--no-progress", "-d", out, "-o", "two",
                           "--stats", "--output-format", "csv", "--", RS_WORKLOAD_DIR "/two_agents"},
                          env);
        QCOMPARE(r.exit_code, 0);
        const QString session = out + "/two.rsdb";
        QVERIFY2(QFileInfo(session).size() > 0, qPrintable(r.err));
        QFile stats(out + "/two_kernel_stats.csv");
        QVERIFY2(stats.open(QIODevice::ReadOnly), qPrintable(r.err));
        QCOMPARE(stats.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions()); // 0600
        const QStringList lines = QString::fromUtf8(stats.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0),
                 QString("\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\","
                         "\"MaxNs\",\"StdDev\""));
        QCOMPARE(lines.size(), 2); // one kernel
        const QStringList row = lines[1].split(',');
        QCOMPARE(row.size(), 8);
        QCOMPARE(row[0], QString("\"accumulate\""));
        const char* timed = " FROM passes WHERE end_tick >= start_tick AND end_tick > 0";
        const QString calls = scalar(session, (std::string("SELECT count(*)") + timed).c_str());
        QCOMPARE(calls, QString("32")); // 16 dispatches x 2 passes
        QCOMPARE(row[1], calls);
        QCOMPARE(row[2], scalar(session, (std::string("SELECT sum(end_tick - start_tick)") + timed).c_str()));
        QCOMPARE(row[3], QString::number(row[2].toDouble() / 32, 'f', 6));
        QCOMPARE(row[4], QString("100.00"));
        QCOMPARE(row[5], scalar(session, (std::string("SELECT min(end_tick - start_tick)") + timed).c_str()));
        QCOMPARE(row[6], scalar(session, (std::string("SELECT max(end_tick - start_tick)") + timed).c_str()));
        const double mean = row[2].toDouble() / 32;
        const double squares =
            scalar(session, (std::string("SELECT sum(CAST(end_tick - start_tick AS REAL) * (end_tick - "
                                         "start_tick))") +
                             timed)
                                .c_str())
                .toDouble();
        QVERIFY(std::abs(row[7].toDouble() - std::sqrt((squares - 32 * mean * mean) / 31)) < 1e-3);
        QVERIFY2(r.err.contains("replayscope-run: --stats: " + stats.fileName() +
                                " (1 kernel; most pass time: accumulate, 100.0%)"),
                 qPrintable(r.err));
        const QString inspector = QFileInfo(RS_REPLAYSCOPE_RUN).absolutePath() + "/replayscope";
        const QString csv = out + "/two_counter_collection.csv";
        if (QFileInfo(inspector).isExecutable()) {
            QFile f(csv);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(r.err));
            QVERIFY(f.readLine().contains("Correlation_Id"));
        } else {
            QVERIFY2(r.err.contains("--output-format csv: " + csv + " not written: no replayscope inspector"),
                     qPrintable(r.err));
        }
    }

    void versionAndUsage() {
        const Run v = run({"--version"});
        QCOMPARE(v.exit_code, 0);
        QProcess p;
        p.start(RS_REPLAYSCOPE_RUN, {"--version"});
        p.waitForFinished();
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).startsWith("replayscope-run "));
        const Run noProgram = run({"-o", "/tmp/unused.rsdb"});
        QCOMPARE(noProgram.exit_code, 125);
        QVERIFY(noProgram.err.contains("no program given"));
    }
};

QTEST_GUILESS_MAIN(ReplayScopeRunTest)
#include "tst_replayscope_run.moc"
