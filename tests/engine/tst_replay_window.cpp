// SPDX-License-Identifier: MIT
// The replay window never harms the application (docs/replay-window.md), shown with raw HSA workloads
// (workloads/cross_queue_wait, second_thread_write, early_completion, own_queue, vmem_window) under
// `replayscope-run --simulate`: no stall on a wait across queues submitted from one thread, no write of
// another thread lost to a restore, the application's completion signal fired only when its kernel is
// done (also after a pass timeout and without a private queue), the application's dispatch executed once
// on its own queue with its own settings and timestamps, and vmem mappings tracked from their handles.
// Each case asserts the program's own results, the decisions of the session file and, where the question
// is where or when a dispatch ran, the simulator's dispatch log (HSA_SIM_DISPATCH_LOG).
// HSA headers first: they name parameters `signals`, which Qt defines as a keyword macro.
#include <hsa_api_trace.h> // HSA_API_TABLE_MAJOR_VERSION

#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "dispatch_log.h"
#include "replay_run.h"
#include "session_file.h"

#include <algorithm>
#include <cstdint>
#include <memory>

namespace {

/// A finished run (rs::test::SessionRun), whether it ended within its time limit, how long it took, and
/// the simulator's dispatch log of the run.
class WindowRun : public rs::test::SessionRun {
  public:
    bool finished = false;
    qint64 wall_ms = 0;
    QList<rs::test::LoggedDispatch> log;

    /// The first capture group of `pattern` (a regular expression) in the program's output, "" if none.
    QString printed(const QString& pattern) const {
        const auto m = QRegularExpression(pattern).match(stdout_text);
        return m.hasMatch() ? m.captured(1) : QString();
    }
};

QString workload(const char* name) {
    return QStringLiteral(RS_WORKLOAD_DIR "/") + name;
}

/// Runs workload `name` under replayscope-run --simulate with `options`, extra environment `env`
/// (NAME=VALUE) and program arguments `args`; kills it after `limit_ms`. The simulator writes its dispatch
/// log into the run's directory.
std::unique_ptr<WindowRun> run(const char* name, const QStringList& options, const QStringList& env = {},
                               const QStringList& args = {}, int limit_ms = 60000) {
    static QTemporaryDir dir;
    static int counter = 0;
    ++counter;
    const QString session = dir.filePath(QStringLiteral("%1-%2.rsdb").arg(name).arg(counter));
    const QString log = dir.filePath(QStringLiteral("%1-%2.log").arg(name).arg(counter));
    QElapsedTimer timer;
    timer.start();
    auto r = std::make_unique<WindowRun>();
    r->finished = rs::test::run_simulated(*r, RS_RUNNER_PATH, session, options, workload(name), args,
                                          QStringList{"HSA_SIM_DISPATCH_LOG=" + log} + env, limit_ms);
    r->wall_ms = timer.elapsed();
    r->log = rs::test::read_dispatch_log(log);
    return r;
}

/// Checks, in the dispatch log of `r`, that `replayed` ran `passes` passes on one queue (the engine's
/// private queue) and the program's own dispatch alone on another, and that the one dispatch of `other`
/// did not overlap the passes (it started after the last ended, or ended before the first began: it may
/// have been forwarded before the window opened). "" when it holds, else what failed.
QString passes_apart_from(const WindowRun& r, const char* replayed, const char* other, int passes) {
    const auto runs = rs::test::dispatches_of(r.log, replayed);
    const auto others = rs::test::dispatches_of(r.log, other);
    if (runs.size() != passes + 1 || others.size() != 1) {
        return QStringLiteral("%1 x %2, %3 x %4 in the dispatch log")
            .arg(runs.size())
            .arg(replayed)
            .arg(others.size())
            .arg(other);
    }
    QMap<quint64, int> per_queue;
    for (const auto& d : runs) {
        ++per_queue[d.queue];
    }
    if (per_queue.size() != 2 || per_queue.key(passes) == others[0].queue) {
        return QStringLiteral("the passes and the program's own dispatch did not run on two queues apart");
    }
    const quint64 private_queue = per_queue.key(passes);
    quint64 first_pass_start = UINT64_MAX, last_pass_end = 0;
    for (const auto& d : runs) {
        if (d.queue == private_queue) {
            first_pass_start = std::min(first_pass_start, d.start_ns);
            last_pass_end = std::max(last_pass_end, d.end_ns);
        }
    }
    if (others[0].start_ns >= last_pass_end || others[0].end_ns <= first_pass_start) {
        return {};
    }
    return QStringLiteral("%1 overlapped the passes").arg(other);
}

/// The run finished in time, exited 0, printed PASS, and its session is complete.
#define VERIFY_PASSED(r) RS_VERIFY_RUN_PASSED(r)

} // namespace

class TestReplayWindow : public QObject {
    Q_OBJECT
  private slots:
    /// No stall, raw HSA: Q1 gets a barrier-AND on S and dispatch P1, then Q2 the dispatch P2 whose
    /// completion is S, all from one thread. The handler never waits for the GPU, so the thread reaches
    /// P2; P2's window opens while P1 is still held by its fence, then P1's once S fired. With a 20 s drain
    /// timeout a stall would last at least 20 s: the whole program must be done in a few seconds, every
    /// dispatch replayed (P1, P2, and P2 again), results right, no drain timeout.
    void crossQueueWaitFromOneThread() {
        const auto r = run("cross_queue_wait", {"--replay-drain-timeout-ms", "20000"}, {}, {}, 15000);
        VERIFY_PASSED(r);
        const double ms = r->printed("both dispatches done in ([0-9.]+) ms").toDouble();
        QVERIFY2(ms > 0 && ms < 3000, qPrintable(r->stdout_text));
        QCOMPARE(r->decisions(),
                 (QStringList{"add_one.kd:replayed", "add_one.kd:replayed", "add_one.kd:replayed"}));
        QCOMPARE(r->passes(), 6);
        QCOMPARE(r->warnings("drain-timeout"), QStringList{});
        // Executions: 2 passes + the application's own per dispatch.
        QCOMPARE(rs::test::dispatches_of(r->log, "add_one").size(), 9);
    }

    /// No stall on the window's own dependents, raw HSA (wait_on_window): behind a 200 ms late_fill on
    /// Q1, add_one P (completion S) and an event marker (completion E); on three other queues a
    /// barrier-AND on S, a barrier-OR on E and a BARRIER_VALUE S == 0, each followed by set_values
    /// (filtered). All are written before P can start, so the set_values are counted in flight when P's
    /// window drains; they wait for P, which waits for the window. Held signals make each waiting barrier
    /// a hold: with a 20 s drain timeout the program is done within a few seconds, P replayed 3 passes, no
    /// drain timeout, every value right. Row "peer": the barrier-AND's queue is one of a second agent that
    /// was granted agent 0's buffers, so P's window drains and gates that agent too, and the hold is
    /// recorded across agents.
    void waitersOnWindowDoNotStall_data() {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("one agent") << QStringList{} << QStringList{};
        QTest::newRow("peer") << QStringList{"HSA_SIM_GPU_AGENTS=2"} << QStringList{"--peer"};
    }
    void waitersOnWindowDoNotStall() {
        QFETCH(QStringList, env);
        QFETCH(QStringList, args);
        const auto r =
            run("wait_on_window",
                {"--passes", "3", "--kernel-include-regex", "add_one", "--replay-drain-timeout-ms", "20000"},
                env, args, 30000);
        VERIFY_PASSED(r);
        const double ms = r->printed("every queue done in ([0-9.]+) ms").toDouble();
        QVERIFY2(ms > 0 && ms < 5000, qPrintable(r->stdout_text));
        QCOMPARE(r->decisions(),
                 (QStringList{"late_fill.kd:filtered", "add_one.kd:replayed", "set_values.kd:filtered",
                              "set_values.kd:filtered", "set_values.kd:filtered"}));
        QCOMPARE(r->passes(), 3);
        QCOMPARE(r->warnings("drain-timeout"), QStringList{});
    }

    /// No overlap, raw HSA: a second thread's set_values(x) on its own queue, submitted 40 ms into the
    /// window of a 4-pass replay of a 100 ms add_one (selected by --kernel-include-regex), is held behind
    /// the window's gate instead of running inside it: x holds the write afterwards, a holds one
    /// execution, and in the dispatch log set_values does not overlap the passes.
    void secondThreadWriteNotLost() {
        const auto r =
            run("second_thread_write",
                {"--passes", "4", "--kernel-include-regex", "^add_one", "--replay-drain-timeout-ms", "100"},
                {"HSA_SIM_KERNEL_TIME_NS=add_one.kd=100000000"});
        VERIFY_PASSED(r);
        QCOMPARE(r->decisions(), (QStringList{"add_one.kd:replayed", "set_values.kd:filtered"}));
        QCOMPARE(r->passes(), 4);
        // The 4 passes ran on one queue, the application's add_one alone on its own; set_values (submitted
        // 40 ms into the window) never overlapped them: nothing ran inside the window.
        const QString apart = passes_apart_from(*r, "add_one", "set_values", 4);
        QVERIFY2(apart.isEmpty(), qPrintable(apart + "\n" + r->stdout_text));
    }

    /// No lost copy, raw HSA (docs/replay-window.md, "Synchronous copies"): a second thread copies into 16
    /// buffers of the agent with hsa_memory_copy, 5 ms apart, while the first thread's accumulate.kd (20
    /// ms) is replayed with 3 passes, dispatch after dispatch, until every copy returned. A copy meeting a
    /// window waits in its call until the window's final restore is done: every buffer holds its copy and
    /// a holds one execution per dispatch (the workload checks both), and each copy that met a window is
    /// an async_copies row, outcome waited, naming a replayed dispatch of the agent, the copy's 4096
    /// bytes and a wait; none timed out. The first copy is issued 10 ms into the first window.
    void syncCopyWaitsForWindow() {
        const auto r = run("sync_copy_during_dispatch", {"--passes", "3"},
                           {"HSA_SIM_KERNEL_TIME_NS=accumulate.kd=20000000"});
        VERIFY_PASSED(r);
        const int dispatches = r->printed(QStringLiteral("(\\d+) dispatches, 16 copies")).toInt();
        QVERIFY2(dispatches >= 4, qPrintable(r->stdout_text));
        QCOMPARE(r->decisions(), QStringList(dispatches, QStringLiteral("accumulate.kd:replayed")));
        const auto copies = r->rows("SELECT e.name, c.size, c.waited_ns > 0, c.agent = d.agent, d.decision "
                                    "FROM async_copies c JOIN enum_names e ON e.enum = 'async_copy_outcome' "
                                    "AND e.code = c.outcome LEFT JOIN dispatches d ON d.id = c.dispatch_id");
        QVERIFY2(!copies.isEmpty(), qPrintable(r->stdout_text));
        for (const QStringList& c : copies) {
            QCOMPARE(c, (QStringList{"waited", "4096", "1", "1", "0"}));
        }
        QVERIFY(r->warnings("drain-timeout").isEmpty());
    }

    /// Agents that share memory, raw HSA (docs/replay-window.md, "Agents that share memory"): agent 1 is
    /// granted agent 0's buffers; a second thread submits set_values into agent 0's x on a queue of agent 1
    /// 40 ms into the window of agent 0's add_one (4 passes of 100 ms). The window gates agent 1 too:
    /// set_values never overlaps the passes and x keeps its values (the final restore reverted them before).
    void peerAgentWriteNotLost() {
        const auto r = run("peer_agents", {"--passes", "4", "--kernel-include-regex", "^add_one"},
                           {"HSA_SIM_GPU_AGENTS=2", "HSA_SIM_KERNEL_TIME_NS=add_one.kd=100000000"});
        VERIFY_PASSED(r);
        QCOMPARE(r->decisions(), (QStringList{"add_one.kd:replayed", "set_values.kd:filtered"}));
        QCOMPARE(r->passes(), 4);
        const QString apart = passes_apart_from(*r, "add_one", "set_values", 4);
        QVERIFY2(apart.isEmpty(), qPrintable(apart + "\n" + r->stdout_text));
    }

    /// Fence wait, raw HSA: add_one (300 ms, not replayed: --kernel-include-regex ^set_values) runs on Q1
    /// when a second thread submits set_values on Q2 40 ms later. set_values' window must drain Q1 first:
    /// its snapshot records a fence wait of most of the 260 ms left (more than 100 ms) and at most what the
    /// program's own clock allows (set_values done less the 40 ms before its submission), and in the
    /// dispatch log no execution of set_values starts before add_one ended. With a 50 ms drain timeout the
    /// window is declined drain-timeout instead: no snapshot, and the warning names the wait (>= 50 ms).
    void fenceWaitCoversKernelInFlight() {
        const QStringList options{"--kernel-include-regex", "^set_values"};
        const QStringList env{"HSA_SIM_KERNEL_TIME_NS=add_one.kd=300000000"};
        const auto r =
            run("second_thread_write", options + QStringList{"--replay-drain-timeout-ms", "5000"}, env);
        VERIFY_PASSED(r);
        QCOMPARE(r->decisions(), (QStringList{"add_one.kd:filtered", "set_values.kd:replayed"}));
        const auto fence = r->rows(
            "SELECT s.fence_wait_ns FROM snapshots s JOIN dispatches d ON d.process = s.process AND "
            "d.id = s.dispatch_id JOIN strings k ON k.process = d.process AND k.id = d.kernel_name_id "
            "WHERE k.text = 'set_values.kd'");
        QCOMPARE(fence.size(), 1);
        QVERIFY2(!fence[0][0].isEmpty(), "fence_wait_ns is NULL"); // NULL reads as ""
        const qint64 fence_ns = fence[0][0].toLongLong();
        QVERIFY2(fence_ns > 100'000'000, qPrintable(fence[0][0]));
        const double writer_done_ms = r->printed("set_values after ([0-9.]+) ms").toDouble();
        QVERIFY2(writer_done_ms > 0, qPrintable(r->stdout_text));
        QVERIFY2(double(fence_ns) / 1e6 <= writer_done_ms - 40.0 + 1.0,
                 qPrintable(QString("%1 ns, set_values done after %2 ms").arg(fence_ns).arg(writer_done_ms)));
        const auto add_one = rs::test::dispatches_of(r->log, "add_one");
        const auto set_values = rs::test::dispatches_of(r->log, "set_values");
        QCOMPARE(add_one.size(), 1);
        QCOMPARE(set_values.size(), 3); // 2 passes and the application's own
        for (const auto& d : set_values) {
            QVERIFY(d.start_ns >= add_one[0].end_ns);
        }

        const auto timed_out =
            run("second_thread_write", options + QStringList{"--replay-drain-timeout-ms", "50"}, env);
        VERIFY_PASSED(timed_out);
        QCOMPARE(timed_out->decisions(), (QStringList{"add_one.kd:filtered", "set_values.kd:drain-timeout"}));
        QCOMPARE(timed_out->value("SELECT count(*) FROM snapshots"), 0);
        const QStringList warnings = timed_out->warnings("drain-timeout");
        QCOMPARE(warnings.size(), 1);
        const auto waited = QRegularExpression("after (\\d+) ms").match(warnings[0]);
        QVERIFY2(waited.hasMatch() && waited.captured(1).toLongLong() >= 50, qPrintable(warnings[0]));
    }

    /// Bounded wait, pass timeout: late_fill sleeps 300 ms before writing its output, the pass timeout is
    /// 50 ms. The pass is abandoned (decision pass-timeout, one warning), the engine waits until it really
    /// completed and restores, then the application's own dispatch runs: its completion signal fires after
    /// its output is complete (the program reads it at once), at least 300 ms after the doorbell.
    void passTimeoutCompletesAfterKernel() {
        const auto r = run("early_completion", {"--replay-pass-timeout-ms", "50"});
        VERIFY_PASSED(r);
        QCOMPARE(r->decisions(), QStringList{"late_fill.kd:pass-timeout"});
        QCOMPARE(r->warnings("pass-timeout").size(), 1);
        const double ms = r->printed("reached 0 after ([0-9.]+) ms").toDouble();
        QVERIFY2(ms >= 300, qPrintable(r->stdout_text));
        // The timed-out pass and the application's dispatch, on two queues, one after the other.
        const auto runs = rs::test::dispatches_of(r->log, "late_fill");
        QCOMPARE(runs.size(), 2);
        QVERIFY(runs[0].queue != runs[1].queue);
        QVERIFY(runs[1].start_ns >= runs[0].end_ns);
    }

    /// Bounded wait, no private queue: every queue creation after the application's fails
    /// (HSA_SIM_FAIL_QUEUE_CREATE=2-64), so the window has nowhere to run passes: decision
    /// no-private-queue, no pass, and the application's dispatch still runs once on its own queue, its
    /// signal firing only when the output is complete.
    void noPrivateQueueRunsOnOwnQueue() {
        const auto r = run("early_completion", {}, {"HSA_SIM_FAIL_QUEUE_CREATE=2-64"}, {"100"});
        VERIFY_PASSED(r);
        QCOMPARE(r->decisions(), QStringList{"late_fill.kd:no-private-queue"});
        QCOMPARE(r->passes(), 0);
        QCOMPARE(r->warnings("no-private-queue").size(), 1);
        QVERIFY2(r->printed("reached 0 after ([0-9.]+) ms").toDouble() >= 100, qPrintable(r->stdout_text));
        QCOMPARE(rs::test::dispatches_of(r->log, "late_fill").size(), 1);
    }

    void ownQueueSettingsAndTimestamps_data() {
        QTest::addColumn<QString>("type");
        QTest::newRow("multi") << "multi";
        QTest::newRow("cooperative") << "cooperative";
    }
    /// Queue settings: the application's add_one (50 ms) on a queue with its own type, CU mask, priority
    /// and profiling, replayed with 3 passes. The dispatch log shows exactly one execution on the
    /// application's queue (its hsa_queue_t::id), with the application's completion signal, type, CU mask
    /// and priority, after every pass. The dispatch times the application reads from its own signal are
    /// that execution's: at least 50 ms and less than 100 (a single pass more would be 50 ms), not the
    /// passes'. On a multi-producer queue the 3 passes ran on one other queue of the same type, CU mask and
    /// priority. A cooperative queue is one queue per agent that ROCr hands to every creator (hsa.h,
    /// HSA_QUEUE_TYPE_COOPERATIVE: "the runtime may return the same queue to serve multiple hsa_queue_create
    /// calls"; the simulator does so), so no second cooperative queue exists for the passes: the engine
    /// declines (no-private-queue) rather than queue passes behind its own gate, and the dispatch runs once
    /// on its own queue. Any pass there is must have run elsewhere, before it.
    void ownQueueSettingsAndTimestamps() {
        QFETCH(QString, type);
        const auto r = run("own_queue", {"--passes", "3", "--replay-pass-timeout-ms", "2000"},
                           {"HSA_SIM_KERNEL_TIME_NS=add_one.kd=50000000"}, {type}, 30000);
        VERIFY_PASSED(r);
        const QRegularExpression re("own_queue: queue=(\\d+) type=(\\w+) completion=(\\d+) start=(\\d+) "
                                    "end=(\\d+) ms=([0-9.]+)");
        const auto m = re.match(r->stdout_text);
        QVERIFY2(m.hasMatch(), qPrintable(r->stdout_text));
        const quint64 queue = m.captured(1).toULongLong(), completion = m.captured(3).toULongLong();
        const quint64 start = m.captured(4).toULongLong(), end = m.captured(5).toULongLong();
        const double ms = m.captured(6).toDouble();
        QVERIFY2(ms >= 50 && ms < 100, qPrintable(r->stdout_text));

        QList<rs::test::LoggedDispatch> own, passes;
        for (const auto& d : rs::test::dispatches_of(r->log, "add_one")) {
            (d.queue == queue ? own : passes) << d;
        }
        QCOMPARE(own.size(), 1);
        QCOMPARE(own[0].completion, completion);
        QCOMPARE(own[0].type, type);
        QCOMPARE(own[0].cu_mask, QStringLiteral("0f0f0f0f,00ff00ff,00000000,00000000"));
        QCOMPARE(own[0].priority, 2);
        QCOMPARE(own[0].start_ns, start); // system ticks are ns on the simulator (1 GHz)
        QCOMPARE(own[0].end_ns, end);
        QCOMPARE(r->passes(), static_cast<qint64>(passes.size()));
        for (const auto& p : passes) {
            QCOMPARE(p.queue, passes[0].queue);
            QVERIFY(p.completion != completion);
            QCOMPARE(p.cu_mask, own[0].cu_mask);
            QCOMPARE(p.priority, 2);
            QVERIFY2(p.end_ns <= own[0].start_ns, "a pass ran after (or during) the application's dispatch");
        }
        if (type == "multi") {
            QCOMPARE(r->decisions(), QStringList{"add_one.kd:replayed"});
            QCOMPARE(passes.size(), 3);
            for (const auto& p : passes) {
                QCOMPARE(p.type, type);
            }
        } else {
            // The engine's "private" cooperative queue would be the application's own: declined.
            QCOMPARE(r->decisions(), QStringList{"add_one.kd:no-private-queue"});
            QCOMPARE(passes.size(), 0);
            QCOMPARE(r->warnings("no-private-queue").size(), 1);
        }
    }

    /// Vmem mappings, ROCr 6.x: the simulator answers hsa_amd_pointer_info for a vmem mapping as ROCr
    /// 6.1.2 does (type unknown, owner the CPU agent: the thunk's view of the reservation), yet the engine
    /// knows each mapping's owner and granularity from the handle it maps: the coarse-grained mapping is
    /// tracked (owner the GPU), snapshotted and restored (the kernel on it is replayed with 3 passes and the
    /// program sees one execution); the fine-grained mapping is classified fine-grained and never
    /// snapshotted.
    void vmemMappingsFromHandles() {
#if HSA_API_TABLE_MAJOR_VERSION < 3
        QSKIP("hsa_amd_vmem_* exist from ROCr 6.x on (this build uses ROCr 5.2.3 headers)");
#else
        const auto r = run("vmem_window", {"--passes", "3"}, {}, {"--coarse-only"});
        VERIFY_PASSED(r);
        for (const char* kind : {"coarse", "fine"}) {
            QVERIFY2(
                r->stdout_text.contains(QRegularExpression(
                    QStringLiteral("%1 mapping at 0x[0-9a-f]+ pointer info type=0 owner=cpu").arg(kind))),
                qPrintable(r->stdout_text));
        }
        QCOMPARE(r->decisions(), QStringList{"add_one.kd:replayed"});
        const auto mappings = r->rows(
            "SELECT a.id, a.address, c.name, d.name FROM allocations a JOIN enum_names p ON p.enum = 'api' "
            "AND p.code = a.api JOIN enum_names c ON c.enum = 'classification' AND c.code = a.classification "
            "JOIN agents g ON g.handle = a.agent JOIN enum_names d ON d.enum = 'device_type' AND d.code = "
            "g.device_type WHERE p.name = 'hsa_amd_vmem_map' ORDER BY a.address");
        QCOMPARE(mappings.size(), 2);
        QCOMPARE(mappings[0].mid(2), (QStringList{"tracked", "gpu"}));
        QCOMPARE(mappings[1].mid(2), (QStringList{"fine-grained", "gpu"}));
        QCOMPARE(r->value("SELECT count(*) FROM inventory_regions WHERE allocation_id = " + mappings[0][0]),
                 1);
        QCOMPARE(r->value("SELECT count(*) FROM inventory_regions WHERE allocation_id = " + mappings[1][0]),
                 0);
        QCOMPARE(r->passes(), 3);
        QVERIFY(r->value("SELECT count(*) FROM passes WHERE bytes_restored >= 65536") >= 2);
#endif
    }

    /// Vmem mappings, ROCr 6.x: a kernel whose argument points into the fine-grained vmem mapping writes
    /// memory no restore covers, so it must not be replayed (decision unrestorable-memory, one execution:
    /// the program checks initial + 1 in both mappings).
    void vmemFineGrainedArgumentNotReplayed() {
#if HSA_API_TABLE_MAJOR_VERSION < 3
        QSKIP("hsa_amd_vmem_* exist from ROCr 6.x on (this build uses ROCr 5.2.3 headers)");
#else
        const auto r = run("vmem_window", {"--passes", "3"});
        QVERIFY2(r->exit_code == 0, qPrintable(r->describe()));
        VERIFY_PASSED(r);
        QCOMPARE(r->decisions(), (QStringList{"add_one.kd:replayed", "add_one.kd:unrestorable-memory"}));
        QCOMPARE(r->passes(), 3);
#endif
    }
};

QTEST_GUILESS_MAIN(TestReplayWindow)
#include "tst_replay_window.moc"
