// SPDX-License-Identifier: MIT
// Every instrumented process of a run is recorded into its one session (docs/session-schema.md, session
// format 3): scripts run under `replayscope-run --simulate` start several programs (workloads/accumulate_n,
// N dispatches each, its exit status an argument), and the session file must hold each of them as a
// process with its pid, parent pid and command line, all of its events (nothing missing, every event type
// stored as often as its session end says it was sent), its dispatches and passes, its exit status, and
// the session must be complete. `--follow-children=no` records only the first. Two cases run the engine
// without a launcher (log sink, spool only): the exit status reaches the session end, and a process that
// finds the session claimed touches nothing.
#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

#include <memory>

namespace {

const QString kWorkload = QStringLiteral(RS_WORKLOAD_DIR "/accumulate_n");
const QString kInertLine = QStringLiteral("replayscope: not recording this process (--follow-children=no)");
constexpr int kRunLimitMs = 180000;

/// One row of the session's `processes` table with what the other tables hold for it.
struct ProcessRow {
    qint64 process = 0, pid = 0, parent_pid = 0, events_stored = 0, last_sequence = 0, missing = 0;
    bool complete = false;
    qint64 exit_status = -999; ///< -999: NULL
    QString command;           ///< its argv string
    qint64 dispatches = 0, replayed = 0, passes = 0;
    qint64 counts_differing = 0; ///< event types whose stored count differs from the count sent
    qint64 counts_stored = 0;    ///< sum of event_counts.stored
};

/// What one accumulate_n printed: "accumulate_n: pid P ppid Q dispatches N".
struct Started {
    qint64 pid = 0, ppid = 0, dispatches = 0;
};

/// A finished run with the queries of this suite.
class Run : public rs::test::SessionRun {
  public:
    bool finished = false;

    QList<ProcessRow> processes() const {
        QList<ProcessRow> out;
        const auto table = rows(
            "SELECT p.process, p.pid, p.parent_pid, p.events_stored, p.last_sequence, p.missing_events, "
            "p.complete, coalesce(p.exit_status, -999), "
            "coalesce((SELECT s.text FROM strings s WHERE s.process = p.process AND s.id = p.argv_id), ''), "
            "(SELECT count(*) FROM dispatches d WHERE d.process = p.process), "
            "(SELECT count(*) FROM dispatches d JOIN enum_names e ON e.enum = 'decision' AND e.code = "
            "d.decision WHERE d.process = p.process AND e.name = 'replayed'), "
            "(SELECT count(*) FROM passes x WHERE x.process = p.process), "
            "(SELECT count(*) FROM event_counts c WHERE c.process = p.process AND c.sent IS NOT NULL AND "
            "c.sent <> c.stored), "
            "(SELECT coalesce(sum(c.stored), 0) FROM event_counts c WHERE c.process = p.process) "
            "FROM processes p ORDER BY p.process");
        for (const QStringList& r : table) {
            ProcessRow p;
            p.process = r[0].toLongLong();
            p.pid = r[1].toLongLong();
            p.parent_pid = r[2].toLongLong();
            p.events_stored = r[3].toLongLong();
            p.last_sequence = r[4].toLongLong();
            p.missing = r[5].toLongLong();
            p.complete = r[6] == "1";
            p.exit_status = r[7].toLongLong();
            p.command = r[8];
            p.dispatches = r[9].toLongLong();
            p.replayed = r[10].toLongLong();
            p.passes = r[11].toLongLong();
            p.counts_differing = r[12].toLongLong();
            p.counts_stored = r[13].toLongLong();
            out << p;
        }
        return out;
    }
    /// The process row of `pid` (process 0 when there is none).
    ProcessRow process_of(qint64 pid) const {
        for (const ProcessRow& p : processes()) {
            if (p.pid == pid) {
                return p;
            }
        }
        return {};
    }
    /// Every "accumulate_n: pid P ppid Q dispatches N" line of the output, in order.
    QList<Started> started() const {
        QList<Started> out;
        static const QRegularExpression re(
            QStringLiteral("^accumulate_n: pid (\\d+) ppid (\\d+) dispatches (\\d+)$"),
            QRegularExpression::MultilineOption);
        for (auto it = re.globalMatch(stdout_text); it.hasNext();) {
            const auto m = it.next();
            out << Started{m.captured(1).toLongLong(), m.captured(2).toLongLong(),
                           m.captured(3).toLongLong()};
        }
        return out;
    }
    /// The shell's pid, printed by the scripts as "shell PID" (-1 when absent).
    qint64 shell_pid() const {
        static const QRegularExpression re(QStringLiteral("^shell (\\d+)$"),
                                           QRegularExpression::MultilineOption);
        const auto m = re.match(stdout_text);
        return m.hasMatch() ? m.captured(1).toLongLong() : -1;
    }
    QString describe_all() const {
        QString text = describe() + "\nprocesses:\n";
        for (const ProcessRow& p : processes()) {
            text += QStringLiteral("  %1 pid %2 ppid %3 events %4 last %5 missing %6 complete %7 exit %8 "
                                   "dispatches %9 replayed %10 passes %11 differing %12 [%13]\n")
                        .arg(p.process)
                        .arg(p.pid)
                        .arg(p.parent_pid)
                        .arg(p.events_stored)
                        .arg(p.last_sequence)
                        .arg(p.missing)
                        .arg(p.complete)
                        .arg(p.exit_status)
                        .arg(p.dispatches)
                        .arg(p.replayed)
                        .arg(p.passes)
                        .arg(p.counts_differing)
                        .arg(p.command);
        }
        return text;
    }
};

/// Runs `sh -c script` (or `command` when `script` is empty) under replayscope-run --simulate with
/// `options` before "--", into a new session file of `dir`. `env` (NAME=VALUE) is added to the environment.
std::unique_ptr<Run> run(const QTemporaryDir& dir, const QStringList& command,
                         const QStringList& options = {}, const QStringList& env = {}) {
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("run-%1.rsdb").arg(++counter));
    auto r = std::make_unique<Run>();
    r->finished = rs::test::run_and_open(*r, RS_RUNNER_PATH,
                                         QStringList{"--simulate", "--no-progress", "-o", session} + options +
                                             QStringList{"--"} + command,
                                         rs::test::environment_with(env), session, kRunLimitMs);
    return r;
}

/// `sh -c` with `script`, in which W stands for the workload's path; the script starts by printing the
/// shell's pid.
QStringList script(QString text) {
    return {"/bin/sh", "-c", "echo shell $$; " + text.replace("W", kWorkload)};
}

/// The engine loaded straight through HSA_TOOLS_LIB (no launcher) into accumulate_n with `args`, in the
/// environment plus `env`; returns its exit status (-1 when it crashed or hung) and both outputs.
struct Direct {
    int exit_code = -1;
    QString out, err;
    qint64 pid = 0;
};
Direct direct(const QStringList& args, const QStringList& env) {
    QProcess p;
    QProcessEnvironment e = rs::test::environment_with(env);
    e.insert("HSA_TOOLS_LIB", RS_ENGINE_PATH);
    p.setProcessEnvironment(e);
    p.start(kWorkload, args);
    Direct d;
    if (!p.waitForFinished(kRunLimitMs)) {
        p.kill();
        p.waitForFinished();
        return d;
    }
    d.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    d.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    d.err = QString::fromLocal8Bit(p.readAllStandardError());
    static const QRegularExpression re(QStringLiteral("^accumulate_n: pid (\\d+) "),
                                       QRegularExpression::MultilineOption);
    const auto m = re.match(d.out);
    d.pid = m.hasMatch() ? m.captured(1).toLongLong() : 0;
    return d;
}

/// Asserts that `p` is the complete record of a program that did `dispatches` dispatches, each replayed
/// (2 passes each, the default), with nothing missing and every event type stored as often as sent.
#define VERIFY_PROGRAM(r, p, n)                                                                              \
    do {                                                                                                     \
        QVERIFY2((p).process > 0, qPrintable((r).describe_all()));                                           \
        QVERIFY2((p).complete, qPrintable((r).describe_all()));                                              \
        QCOMPARE((p).dispatches, qint64(n));                                                                 \
        QCOMPARE((p).replayed, qint64(n));                                                                   \
        QCOMPARE((p).passes, 2 * qint64(n));                                                                 \
        QCOMPARE((p).missing, qint64(0));                                                                    \
        QCOMPARE((p).events_stored, (p).last_sequence);                                                      \
        QCOMPARE((p).counts_stored, (p).events_stored);                                                      \
        QCOMPARE((p).counts_differing, qint64(0));                                                           \
        QVERIFY2((p).command.contains(QStringLiteral("accumulate_n %1").arg(n)), qPrintable((p).command));   \
    } while (0)

/// Run `r` (a Run*) ended with status 0 and recorded a complete session of exactly the `n` programs of
/// `started`, each one checked with VERIFY_PROGRAM and with the parent the program printed.
#define VERIFY_EVERY_PROGRAM(r, started, n)                                                                  \
    do {                                                                                                     \
        QVERIFY2((r)->finished && (r)->exit_code == 0, qPrintable((r)->describe()));                         \
        QCOMPARE((started).size(), n);                                                                       \
        QVERIFY2((r)->complete(), qPrintable((r)->describe_all()));                                          \
        QCOMPARE((r)->value("SELECT process_count FROM session"), n);                                        \
        QCOMPARE((r)->value("SELECT count(*) FROM processes"), n);                                           \
        for (const Started& s : (started)) {                                                                 \
            const ProcessRow p = (r)->process_of(s.pid);                                                     \
            VERIFY_PROGRAM(*(r), p, s.dispatches);                                                           \
            QCOMPARE(p.parent_pid, s.ppid);                                                                  \
        }                                                                                                    \
    } while (0)

} // namespace

class SessionsTest : public QObject {
    Q_OBJECT
  private slots:
    /// No launcher, log sink: the status the program returns from main reaches the session end. The
    /// engine's on_exit hook, registered in OnLoad, must run before its static teardown, which emits the
    /// session end; in the other order the line would say -1.
    void exitHookRunsBeforeSessionEnd() {
        const Direct d = direct({"3", "5"}, {"REPLAYSCOPE_LOG=1"});
        QVERIFY2(d.exit_code == 5 && d.out.contains("\nPASS"), qPrintable(d.out + d.err));
        const QStringList lines = d.err.split('\n', Qt::SkipEmptyParts);
        QVERIFY(!lines.isEmpty());
        QCOMPARE(lines.last(), QStringLiteral("replayscope: session_end internal_errors=0 exit_status=5"));
        QCOMPARE(d.err.count(QRegularExpression("^replayscope: dispatch .*decision=replayed",
                                                QRegularExpression::MultilineOption)),
                 3);
    }

    /// No launcher, REPLAYSCOPE_FOLLOW_CHILDREN=0: the first process claims the session (the claim file
    /// beside the socket, or beside the spool when there is no socket, holds its pid) and records; a
    /// later process of the same run says one line and does nothing else (no event, no spool file, its
    /// own results and exit status as without the engine); with follow-children on the claim is ignored.
    void inertProcessTouchesNothing() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString spool = dir.filePath("s.spool.%p");
        const QStringList env{"REPLAYSCOPE_LOG=1", "REPLAYSCOPE_FOLLOW_CHILDREN=0",
                              "REPLAYSCOPE_SPOOL=" + spool};

        const Direct first = direct({"10"}, env);
        QVERIFY2(first.exit_code == 0 && first.pid > 0, qPrintable(first.out + first.err));
        QVERIFY2(!first.err.contains(kInertLine), qPrintable(first.err));
        QVERIFY(first.err.contains("replayscope: session_end internal_errors=0 exit_status=0"));
        QFile claim(spool + ".first");
        QVERIFY2(claim.open(QIODevice::ReadOnly), qPrintable(claim.fileName()));
        QCOMPARE(claim.readAll().trimmed().toLongLong(), first.pid);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("s.spool.%1").arg(first.pid))));

        const Direct second = direct({"20", "4"}, env);
        QVERIFY2(second.exit_code == 4 && second.out.contains("initial + 20\nPASS"),
                 qPrintable(second.out + second.err));
        QCOMPARE(second.err, kInertLine + "\n");
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("s.spool.%1").arg(second.pid))));

        const Direct followed = direct(
            {"2"}, {"REPLAYSCOPE_LOG=1", "REPLAYSCOPE_FOLLOW_CHILDREN=1", "REPLAYSCOPE_SPOOL=" + spool});
        QVERIFY2(followed.exit_code == 0 && followed.err.contains("exit_status=0"), qPrintable(followed.err));
        QVERIFY(!followed.err.contains(kInertLine));

        // With a socket path the claim is <socket directory>/first-process (nobody listens: the emitter
        // spools).
        QVERIFY(QDir(dir.path()).mkdir("sock"));
        const QStringList socket_env{"REPLAYSCOPE_FOLLOW_CHILDREN=0",
                                     "REPLAYSCOPE_SPOOL=" + dir.filePath("t.%p"),
                                     "REPLAYSCOPE_SOCKET=" + dir.filePath("sock/session.sock")};
        const Direct a = direct({"5"}, socket_env);
        QVERIFY2(a.exit_code == 0 && !a.err.contains(kInertLine), qPrintable(a.err));
        QFile socket_claim(dir.filePath("sock/first-process"));
        QVERIFY(socket_claim.open(QIODevice::ReadOnly));
        QCOMPARE(socket_claim.readAll().trimmed().toLongLong(), a.pid);
        QVERIFY(!QFile::exists(dir.filePath("t.%p.first")));
        const Direct b = direct({"5"}, socket_env);
        QCOMPARE(b.exit_code, 0);
        QCOMPARE(b.err, kInertLine + "\n");
    }

    /// `sh -c './w 1000; ./w 3000'`: two processes, each with all of its events, its own dispatches and
    /// passes, its pid, the shell as parent and its command line; the session complete.
    void twoProgramsOfAScript() {
        QTemporaryDir dir;
        const auto r = run(dir, script("W 1000; W 3000"));
        const QList<Started> started = r->started();
        VERIFY_EVERY_PROGRAM(r, started, 2);
        QCOMPARE(r->stdout_text.count("\nPASS"), 2);
        QCOMPARE(r->value("SELECT missing_events FROM session"), 0);
        const qint64 shell = r->shell_pid();
        QVERIFY(shell > 0);
        // The first program is the shell's child; the shell may exec the last one itself.
        QCOMPARE(started[0].ppid, shell);
        QVERIFY(started[1].ppid == shell || started[1].pid == shell);
        QCOMPARE(started[0].dispatches, 1000);
        QCOMPARE(started[1].dispatches, 3000);
        // Process 1 is the first to authenticate: the 1000-dispatch program.
        QCOMPARE(r->processes().first().pid, started[0].pid);
        QCOMPARE(r->value("SELECT sum(events_stored) FROM processes"),
                 r->value("SELECT events_stored FROM session"));
    }

    /// Three programs of different sizes, two of them at the same time: three complete processes.
    void threeProgramsTwoConcurrent() {
        QTemporaryDir dir;
        const auto r = run(dir, script("W 5000 & W 1000; wait; W 3000"));
        const QList<Started> started = r->started();
        VERIFY_EVERY_PROGRAM(r, started, 3);
        QCOMPARE(r->stdout_text.count("\nPASS"), 3);
        QMap<qint64, qint64> sizes; // dispatches -> pid
        for (const Started& s : started) {
            sizes.insert(s.dispatches, s.pid);
        }
        QCOMPARE(sizes.keys(), (QList<qint64>{1000, 3000, 5000}));
        QCOMPARE(r->value("SELECT sum(events_stored) FROM processes"),
                 r->value("SELECT events_stored FROM session"));
    }

    /// Programs started by a child of the launched program (a Python driver running a shell that starts
    /// two programs at once, then one more program of its own): every one of them is a process of the
    /// session, with the parent it really had.
    void grandchildrenOfAPythonDriver() {
        const QString python = QStandardPaths::findExecutable("python3");
        if (python.isEmpty()) {
            QSKIP("no python3 on PATH");
        }
        QTemporaryDir dir;
        const QString driver =
            QStringLiteral("import os, subprocess; print('driver', os.getpid(), flush=True); "
                           "subprocess.run(['/bin/sh', '-c', 'W 700 & W 1300; wait'], check=True); "
                           "subprocess.run(['W', '400'], check=True)")
                .replace("W", kWorkload);
        const auto r = run(dir, {python, "-c", driver});
        const QList<Started> started = r->started();
        VERIFY_EVERY_PROGRAM(r, started, 3);
        static const QRegularExpression re(QStringLiteral("^driver (\\d+)$"),
                                           QRegularExpression::MultilineOption);
        const auto m = re.match(r->stdout_text);
        QVERIFY2(m.hasMatch(), qPrintable(r->stdout_text));
        const qint64 driver_pid = m.captured(1).toLongLong();
        QMap<qint64, qint64> parent_of; // dispatches -> parent pid
        for (const Started& s : started) {
            parent_of.insert(s.dispatches, s.ppid);
        }
        QCOMPARE(parent_of.keys(), (QList<qint64>{400, 700, 1300}));
        QCOMPARE(parent_of[400], driver_pid);
        QCOMPARE(parent_of[700], parent_of[1300]); // the shell
        QVERIFY(parent_of[700] != driver_pid);
    }

    /// --follow-children=no: only the first program is recorded, the second still runs correctly (its
    /// own check, exit status 0) and says once that it is not recorded. No socket directory (claim file
    /// included) is left behind.
    void followChildrenNo() {
        QTemporaryDir dir;
        QTemporaryDir runtime; // XDG_RUNTIME_DIR: where the collector's private directory goes
        QVERIFY(runtime.isValid());
        const auto r = run(dir, script("W 1000; W 3000"), {"--follow-children=no"},
                           {"XDG_RUNTIME_DIR=" + runtime.path()});
        QVERIFY2(r->finished && r->exit_code == 0, qPrintable(r->describe()));
        QVERIFY2(r->stdout_text.contains("initial + 1000\nPASS") &&
                     r->stdout_text.contains("initial + 3000\nPASS"),
                 qPrintable(r->describe()));
        QCOMPARE(r->stderr_text.count(kInertLine), 1);
        const QList<Started> started = r->started();
        QCOMPARE(started.size(), 2);
        QCOMPARE(r->value("SELECT count(*) FROM processes"), 1);
        QCOMPARE(r->value("SELECT process_count FROM session"), 1);
        const ProcessRow p = r->process_of(started[0].pid);
        VERIFY_PROGRAM(*r, p, 1000);
        QVERIFY2(r->complete(), qPrintable(r->describe_all()));
        QCOMPARE(QDir(runtime.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList());
    }

    /// Each process's exit status is recorded: a child exiting 3 (only the engine's on_exit hook can
    /// know it: the launcher waits for the shell), the next one 0, and a launched program itself 7
    /// (the launcher's own exit status and the session's too).
    void exitStatusOfEachProcess() {
        QTemporaryDir dir;
        const auto r = run(dir, script("W 100 3; echo first exited $?; W 200 0; true"));
        QVERIFY2(r->finished && r->exit_code == 0, qPrintable(r->describe()));
        QVERIFY(r->stdout_text.contains("first exited 3"));
        const QList<Started> started = r->started();
        QCOMPARE(started.size(), 2);
        const ProcessRow first = r->process_of(started[0].pid), second = r->process_of(started[1].pid);
        VERIFY_PROGRAM(*r, first, 100);
        VERIFY_PROGRAM(*r, second, 200);
        QCOMPARE(first.exit_status, 3);
        QCOMPARE(second.exit_status, 0);
        QCOMPARE(r->value("SELECT exit_status FROM session"), 0); // the shell's

        const auto root = run(dir, {kWorkload, "50", "7"});
        QVERIFY2(root->finished && root->exit_code == 7, qPrintable(root->describe()));
        const QList<Started> root_started = root->started();
        QCOMPARE(root_started.size(), 1);
        const ProcessRow program = root->process_of(root_started[0].pid);
        VERIFY_PROGRAM(*root, program, 50);
        QCOMPARE(program.exit_status, 7);
        QCOMPARE(root->value("SELECT exit_status FROM session"), 7);
        QVERIFY2(root->complete(), qPrintable(root->describe_all()));
    }
};

QTEST_GUILESS_MAIN(SessionsTest)
#include "tst_sessions.moc"
