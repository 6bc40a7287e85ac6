// SPDX-License-Identifier: MIT
// Real HIP programs (workloads/hip, built by hipcc for gfx90a and linked with Debian's libamdhip64 5.2.3)
// replayed on the simulated runtime: each runs under `replayscope-run --simulate --standins LIB -o X.rsdb`
// (or, with RS_TEST_EXECUTOR=isa, `--executor isa`: the gfx90a interpreter runs the kernels' machine code)
// and must still produce its correct results (the program checks them and prints PASS), and the rows of
// the session file (docs/session-schema.md) must show what the engine did with HIP's memory and
// dispatches: hipMalloc and stream-ordered memory tracked and restored, pinned host, fine-grained and
// kernarg memory excluded, `__device__` variables captured, HIP's blit kernels declined as
// runtime-kernel, graph launches declined once with one warning. Enum codes are compared through
// `enum_names`, texts through `strings`. Kernel names are matched without the ".kd" suffix.
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "dispatch_log.h"
#include "session_file.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <memory>

namespace {

/// A finished run (rs::test::SessionRun) with the queries of this suite: kernel names are compared
/// without the ".kd" suffix, and the program prints the addresses of its allocations.
class HipRun : public rs::test::SessionRun {
  public:
    /// Whether the program ended within the run's time limit.
    bool finished = false;
    /// The simulator's dispatch log of the run (HSA_SIM_DISPATCH_LOG, docs/sim-fidelity.md).
    QList<rs::test::LoggedDispatch> log;
    /// The first capture group of `pattern` in the program's output as a number (-1 when absent).
    double printed_number(const QString& pattern) const {
        const auto m = QRegularExpression(pattern).match(stdout_text);
        return m.hasMatch() ? m.captured(1).toDouble() : -1;
    }
    /// Dispatch rows as "kernel:decision" in id order (kernel without a ".kd" suffix).
    QStringList decisions() const { return SessionRun::decisions(rs::test::KernelNames::without_kd_suffix); }
    /// decisions() of the program's own kernels (HIP's blit kernels, __amd_rocclr_*, left out).
    QStringList program_decisions() const {
        QStringList out;
        for (const QString& d : decisions()) {
            if (!d.startsWith("__amd_rocclr_")) {
                out << d;
            }
        }
        return out;
    }
    /// The classification name of the allocation starting at `address` ("" when there is none).
    QString classification_at(qint64 address) const {
        const auto r =
            rows(QStringLiteral("SELECT e.name FROM allocations a JOIN enum_names e ON e.enum = "
                                "'classification' AND e.code = a.classification WHERE a.address = %1")
                     .arg(address));
        return r.isEmpty() ? QString() : r[0][0];
    }
    /// Allocations classified as `name`.
    qint64 count_classified(const QString& name) const {
        return count_named("allocations", "classification", "classification", name);
    }
    /// Passes recorded for the dispatches of kernels whose name contains `kernel`.
    qint64 passes_of(const QString& kernel) const {
        return value(
            "SELECT count(*) FROM passes p JOIN dispatches d ON d.id = p.dispatch_id JOIN strings s ON "
            "s.id = d.kernel_name_id WHERE s.text LIKE '%" +
            kernel + "%'");
    }
    /// "alloc CLASS ADDRESS BYTES" lines of the program's output: address by class.
    qint64 printed_address(const QString& cls) const {
        const QRegularExpression re("^alloc " + cls + " (-?\\d+) (\\d+)$",
                                    QRegularExpression::MultilineOption);
        const auto m = re.match(stdout_text);
        return m.hasMatch() ? m.captured(1).toLongLong() : 0;
    }
};

/// Runs the HIP program `name` of RS_HIP_PROGRAM_DIR under replayscope-run --simulate --standins with its
/// stand-in library (with RS_TEST_EXECUTOR=isa: --executor isa, no stand-ins), `options` before "--", `env`
/// (NAME=VALUE) added to the environment and program arguments `args`; kills it after `limit_ms`. The
/// simulator writes its dispatch log next to the session.
std::unique_ptr<HipRun> run(const QString& name, const QStringList& options = {}, const QStringList& env = {},
                            const QStringList& args = {}, int limit_ms = 240000) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("%1-%2.rsdb").arg(name).arg(++counter));
    const QString log = dir.filePath(QStringLiteral("%1-%2.log").arg(name).arg(counter));
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove("HSA_SIM_STANDINS"); // only --standins may name them
    e.insert("HSA_SIM_DISPATCH_LOG", log);
    for (const QString& kv : env) {
        const auto eq = kv.indexOf('=');
        e.insert(kv.left(eq), kv.mid(eq + 1));
    }
    p.setProcessEnvironment(e);
    const QString dir_path = QStringLiteral(RS_HIP_PROGRAM_DIR);
    const QStringList executor = qEnvironmentVariable("RS_TEST_EXECUTOR") == "isa"
                                     ? QStringList{"--executor", "isa"}
                                     : QStringList{"--standins", dir_path + "/lib" + name + "-standins.so"};
    p.start(RS_RUNNER_PATH,
            rs::test::with_test_restore_mode(QStringList{"--simulate", "--no-progress"} + executor +
                                             QStringList{"-o", session} + options +
                                             QStringList{"--", dir_path + "/" + name} + args));
    auto r = std::make_unique<HipRun>();
    r->finished = p.waitForFinished(limit_ms);
    if (!r->finished) {
        p.kill();
        p.waitForFinished();
    }
    r->log = rs::test::read_dispatch_log(log);
    r->exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r->stdout_text = QString::fromLocal8Bit(p.readAllStandardOutput());
    r->stderr_text = QString::fromLocal8Bit(p.readAllStandardError());
    if (!r->open(session)) {
        qWarning("cannot open %s", qPrintable(session));
    }
    return r;
}

/// The program ended with status 0, printed PASS, and the session is complete.
#define VERIFY_PASSED(r)                                                                                     \
    do {                                                                                                     \
        QVERIFY2((r)->exit_code == 0 && (r)->stdout_text.contains("\nPASS"), qPrintable((r)->describe()));   \
        QVERIFY2((r)->complete(), qPrintable((r)->describe()));                                              \
    } while (0)

} // namespace

class TestHipReplay : public QObject {
    Q_OBJECT
  private slots:
    /// hipMalloc memory is tracked and restored between passes (the in-place increment happened once);
    /// hipHostMalloc memory is host, hipExtMallocWithFlags(hipDeviceMallocFinegrained) fine-grained, and
    /// HIP's kernel-argument pool host: none of them is in the snapshot, and a launch whose arguments
    /// point into them is not replayed. ROCclr 5.2.x places kernel
    /// arguments in coarse-grained system memory by default (fine-grained system memory when the CPU has
    /// no coarse pool, as on the simulator), never in the KERNARG_INIT pool: 512 KiB per hardware queue,
    /// owned by the CPU agent, so the engine classifies it host.
    void allocationClassesAndRestore() {
        const auto r = run("hip_memory");
        VERIFY_PASSED(r);
        const qint64 device = r->printed_address("device"), host = r->printed_address("host"),
                     fine = r->printed_address("fine");
        QVERIFY2(device != 0 && host != 0 && fine != 0, qPrintable(r->stdout_text));
        QCOMPARE(r->classification_at(device), QString("tracked"));
        QCOMPARE(r->classification_at(host), QString("host"));
        QCOMPARE(r->classification_at(fine), QString("fine-grained"));
        QVERIFY2(
            r->value("SELECT count(*) FROM allocations a JOIN enum_names e ON e.enum = 'classification' AND "
                     "e.code = a.classification WHERE a.size = 524288 AND e.name = 'host'") >= 1,
            "no host-classified 512 KiB kernel-argument pool");
        // Every allocation of the CPU agent (pinned host memory, kernel arguments, staging buffers) is host.
        QCOMPARE(
            r->value("SELECT count(*) FROM allocations a JOIN agents g ON g.handle = a.agent JOIN enum_names "
                     "d ON d.enum = 'device_type' AND d.code = g.device_type JOIN enum_names c ON c.enum = "
                     "'classification' AND c.code = a.classification WHERE d.name = 'cpu' AND c.name <> "
                     "'host'"),
            0);
        // bump (device memory only) is replayed; mirror writes host and fine-grained memory, which no
        // restore covers: declined (unrestorable-memory), run once.
        QCOMPARE(r->program_decisions(),
                 (QStringList{"_Z4bumpPfi:replayed", "_Z6mirrorPKfPfS1_ii:unrestorable-memory"}));
        QCOMPARE(r->passes_of("_Z4bump"), 2);
        QCOMPARE(r->passes_of("_Z6mirror"), 0);
        // The snapshot holds the hipMalloc buffer and none of the excluded ones; pass 1 restored it.
        const QString in_inventory = "SELECT count(*) FROM inventory_regions i JOIN allocations a ON a.id = "
                                     "i.allocation_id WHERE a.address = %1";
        QCOMPARE(r->value(in_inventory.arg(device)), 1);
        QCOMPARE(r->value(in_inventory.arg(host)), 0);
        QCOMPARE(r->value(in_inventory.arg(fine)), 0);
        QCOMPARE(
            r->value("SELECT count(*) FROM inventory_regions i JOIN allocations a ON a.id = i.allocation_id "
                     "JOIN enum_names e ON e.enum = 'classification' AND e.code = a.classification WHERE "
                     "e.name <> 'tracked'"),
            0);
        QVERIFY(
            r->value("SELECT p.bytes_restored FROM passes p JOIN dispatches d ON d.id = p.dispatch_id JOIN "
                     "strings s ON s.id = d.kernel_name_id WHERE s.text LIKE '%bump%' AND p.idx = 1") >=
            263168 * 4);
    }

    /// A __device__ counter incremented by a replayed kernel reads 1 afterwards: the engine captured the
    /// module variable and restored it before pass 2. The __constant__ table is captured too.
    void deviceCounterRestored() {
        const auto r = run("hip_device_counter");
        VERIFY_PASSED(r);
        QVERIFY(r->stdout_text.contains("counter 1\n"));
        QCOMPARE(r->program_decisions(), (QStringList{"_Z10count_oncev:replayed", "_Z6lookupPii:replayed"}));
        QCOMPARE(r->passes_of("count_once"), 2);
        const QString captured =
            "SELECT count(*) FROM module_variables v JOIN strings s ON s.id = v.symbol_id "
            "JOIN enum_names e ON e.enum = 'variable_status' AND e.code = v.status WHERE "
            "s.text = '%1' AND e.name = 'captured'";
        QVERIFY2(r->value(captured.arg("counter")) >= 1, qPrintable(r->describe()));
        QVERIFY(r->value(captured.arg("table")) >= 1);
    }

    /// hipMemset, device-to-device hipMemcpy and hipMemcpy2D run HIP's own blit kernels: the engine
    /// forwards them unchanged, once (runtime-kernel, no passes); the program's kernel is replayed.
    void blitKernelsDeclinedAsRuntimeKernels() {
        const auto r = run("hip_blit");
        VERIFY_PASSED(r);
        const QStringList all = r->decisions();
        const QStringList blits = all.filter(QRegularExpression("^__amd_rocclr_"));
        QVERIFY2(!blits.filter(QRegularExpression("^__amd_rocclr_fillBuffer")).isEmpty(),
                 qPrintable(all.join(' ')));
        QVERIFY2(!blits.filter(QRegularExpression("^__amd_rocclr_copyBuffer")).isEmpty(),
                 qPrintable(all.join(' ')));
        for (const QString& d : blits) {
            QVERIFY2(d.endsWith(":runtime-kernel"), qPrintable(d));
        }
        QCOMPARE(r->passes_of("__amd_rocclr_"), 0);
        QCOMPARE(r->program_decisions(), QStringList{"_Z16count_mismatchesPKiiiPi:replayed"});
        QCOMPARE(r->passes_of("count_mismatches"), 2);
    }

    /// hipGraphLaunch through Debian's libamdhip64: the engine, LD_PRELOADed because the program links
    /// libamdhip64 (--preload-engine auto), declines every dispatch of the three graph launches
    /// (graph-launch) with one warning for the process; each ran once (the program checks y = 4, z = 8).
    void graphLaunchDeclinedOnce() {
        const auto r = run("hip_graph");
        VERIFY_PASSED(r);
        QStringList expected;
        for (int i = 0; i < 3; ++i) {
            expected << "_Z7add_onePfi:graph-launch"
                     << "_Z5scalePffi:graph-launch";
        }
        expected << "_Z7add_onePfi:replayed";
        QCOMPARE(r->program_decisions(), expected);
        QCOMPARE(r->warnings("graph-launch").size(), 1);
        QCOMPARE(r->passes_of("scale"), 0);
    }

    /// hipMallocAsync memory: HIP 5.2.3 backs its default pool with ordinary device allocations
    /// (hsa_amd_memory_pool_allocate on the coarse-grained pool), so it is tracked and restored, on both
    /// ROCr header generations.
    void asyncAllocationTracked() {
        const auto r = run("hip_async_alloc");
        VERIFY_PASSED(r);
        const qint64 address = r->printed_address("async");
        QVERIFY2(address != 0, qPrintable(r->stdout_text));
        QCOMPARE(
            r->value(QStringLiteral("SELECT count(*) FROM allocations a JOIN enum_names e ON e.enum = 'api' "
                                    "AND e.code = a.api WHERE a.address = %1 AND e.name = "
                                    "'hsa_amd_memory_pool_allocate'")
                         .arg(address)),
            1);
        QCOMPARE(r->classification_at(address), QString("tracked"));
        QCOMPARE(r->program_decisions(), (QStringList{"_Z3addPffi:replayed", "_Z3addPffi:replayed"}));
        QCOMPARE(r->passes_of("_Z3add"), 4);
    }

    /// Cross-stream ordering (hipEventRecord + hipStreamWaitEvent) and hipStreamWaitValue32 /
    /// hipStreamWriteValue32 (HIP's streamOpsWait / streamOpsWrite runtime kernels) hold under replay.
    /// Phase 1's consume is queued behind a wait the host releases 100 ms after the launch returned: the
    /// launching thread is never held (the window waits on the engine's worker), so the host sets the flag,
    /// the wait ends, and the window opens well within the drain timeout (500 ms): consume is replayed.
    /// Phase 2's wait is released by the other stream; its consume is replayed too.
    void streamsEventsAndWaitValue() {
        const auto r = run("hip_streams", {"--replay-drain-timeout-ms", "500"});
        VERIFY_PASSED(r);
        const QStringList all = r->decisions();
        QCOMPARE(all.filter(QRegularExpression("^__amd_rocclr_streamOpsWait:runtime-kernel$")).size(), 2);
        QCOMPARE(all.filter(QRegularExpression("^__amd_rocclr_streamOpsWrite:runtime-kernel$")).size(), 1);
        QCOMPARE(r->program_decisions(),
                 (QStringList{"_Z7producePii:replayed", "_Z7consumePKiPii:replayed", "_Z7producePii:replayed",
                              "_Z7consumePKiPii:replayed"}));
        QCOMPARE(r->warnings("drain-timeout"), QStringList{});
    }

    /// No stall: waits across streams from one host thread (hip_cross_stream_wait). Stream A waits
    /// for a flag, then a kernel is launched on A, and only then stream B sets the flag; in round 2 the
    /// producer on B is submitted after the consumer on A that waits for it. The launching thread is never
    /// held by the engine, so with a 20 s drain timeout (a stall would last at least that long) each round
    /// is done within a few seconds, every kernel of the program is replayed and the results are right.
    void crossStreamWaitFromOneThread() {
        const auto r = run("hip_cross_stream_wait", {"--replay-drain-timeout-ms", "20000"}, {}, {}, 30000);
        QVERIFY2(r->finished, qPrintable("killed after 30 s\n" + r->describe()));
        VERIFY_PASSED(r);
        const double round1 = r->printed_number("stream A done in ([0-9.]+) ms");
        const double round2 = r->printed_number("producer done in ([0-9.]+) ms");
        QVERIFY2(round1 >= 0 && round1 < 3000 && round2 >= 0 && round2 < 3000, qPrintable(r->stdout_text));
        QCOMPARE(r->program_decisions(), (QStringList{"_Z7add_onePii:replayed", "_Z7consumePKiPii:replayed",
                                                      "_Z7producePii:replayed"}));
        QCOMPARE(
            r->decisions().filter(QRegularExpression("^__amd_rocclr_streamOpsWait:runtime-kernel$")).size(),
            2);
        QCOMPARE(r->passes_of("_Z7"), 6);
        QCOMPARE(r->warnings("drain-timeout"), QStringList{});
    }

    /// The kernel regexes match the name rocprofv3 matches, the demangled one ("update(int*, int)"), as
    /// well as the symbol: '^update\\(' selects update only (its symbol _Z6updatePii does not start so),
    /// and an exclude regex on a demangled name keeps that kernel out.
    void kernelRegexesMatchTheShownName() {
        const auto r =
            run("hip_event_dependents",
                {"--passes", "2", "--kernel-include-regex", "^update\\(int\\*, int\\)$"}, {}, {}, 60000);
        VERIFY_PASSED(r);
        QCOMPARE(
            r->program_decisions(),
            (QStringList{"_Z7preparePiii:filtered", "_Z6updatePii:replayed", "_Z6followPKiPii:filtered",
                         "_Z7preparePiii:filtered", "_Z6updatePii:replayed", "_Z6followPKiPii:filtered",
                         "_Z7preparePiii:filtered", "_Z6updatePii:replayed", "_Z6followPKiPii:filtered"}));
        const auto excluded =
            run("hip_event_dependents", {"--passes", "2", "--kernel-exclude-regex", "^(prepare|follow)\\("},
                {}, {}, 60000);
        VERIFY_PASSED(excluded);
        QCOMPARE(excluded->program_decisions(), r->program_decisions());
    }

    /// No stall on the window's own dependents (hip_event_dependents): stream B waits for the event of
    /// update on stream A, then runs follow (filtered), a device-to-host copy and a fill, all forwarded
    /// while update's window waits for prepare (filtered, 200 ms) before it. They can only run after update,
    /// so the drain must not wait for them: with a 20 s drain timeout (a stall lasts at least that long)
    /// every round ends within a few seconds, update is replayed 3 passes in every round, no drain times out,
    /// and the values are one update per round.
    void eventDependentsDoNotStall() {
        const auto r =
            run("hip_event_dependents",
                {"--passes", "3", "--kernel-include-regex", "update", "--replay-drain-timeout-ms", "20000"},
                {"HSA_SIM_KERNEL_TIME_NS=_Z7preparePiii.kd=200000000,_Z6updatePii.kd=50000000"}, {}, 60000);
        QVERIFY2(r->finished, qPrintable("killed after 60 s\n" + r->describe()));
        VERIFY_PASSED(r);
        for (int round = 1; round <= 3; ++round) {
            const double ms = r->printed_number(QString("round %1: done in ([0-9.]+) ms").arg(round));
            QVERIFY2(ms >= 0 && ms < 5000, qPrintable(r->stdout_text));
        }
        QCOMPARE(
            r->program_decisions(),
            (QStringList{"_Z7preparePiii:filtered", "_Z6updatePii:replayed", "_Z6followPKiPii:filtered",
                         "_Z7preparePiii:filtered", "_Z6updatePii:replayed", "_Z6followPKiPii:filtered",
                         "_Z7preparePiii:filtered", "_Z6updatePii:replayed", "_Z6followPKiPii:filtered"}));
        QCOMPARE(r->passes_of("_Z6update"), 9);
        QCOMPARE(r->warnings("drain-timeout"), QStringList{});
        // What the program's events measure of update (hipEventElapsedTime around it) is its own 50 ms plus
        // its window, which the session records per dispatch (dispatches.window_ns): they agree within
        // 10 ms, the worker's latency in noticing the fence and the marker's completion.
        const auto windows = r->rows("SELECT d.window_ns FROM dispatches d JOIN strings s ON s.process = "
                                     "d.process AND s.id = d.kernel_name_id WHERE s.text LIKE '_Z6update%' "
                                     "ORDER BY d.id");
        QCOMPARE(windows.size(), 3);
        for (int round = 1; round <= 3; ++round) {
            const double timed = r->printed_number(QString("round %1: update timed ([0-9.]+) ms").arg(round));
            const double window_ms = windows[round - 1][0].toDouble() / 1e6;
            QVERIFY2(
                window_ms > 150 && std::abs(timed - 50 - window_ms) < 10,
                qPrintable(
                    QString("round %1: timed %2 ms, window %3 ms").arg(round).arg(timed).arg(window_ms)));
        }
        QVERIFY2(
            r->stderr_text.contains(QRegularExpression("windows: 3 held their dispatches [0-9.]+ ms in all")),
            qPrintable(r->stderr_text));
    }

    /// No overlap: a second host thread writes X (its own kernel, declined filtered) and Y
    /// (hipMemsetAsync, a runtime kernel) through its own stream 40 ms into the window of long_update (100
    /// ms, 4 passes, selected by --kernel-include-regex; drain timeout 100 ms, shorter than the window). Its
    /// work is held behind the window's gate on the GPU side, never run inside the window: X and Y hold the
    /// writes (the program checks), and in the dispatch log both started only after the last pass ended.
    void secondThreadWriteNotLost() {
        const auto r = run(
            "hip_second_thread_write",
            {"--passes", "4", "--kernel-include-regex", "long_update", "--replay-drain-timeout-ms", "100"},
            {"HSA_SIM_KERNEL_TIME_NS=_Z11long_updatePii.kd=100000000"});
        VERIFY_PASSED(r);
        QCOMPARE(r->program_decisions(),
                 (QStringList{"_Z11long_updatePii:replayed", "_Z6fill_xPiii:filtered"}));
        QCOMPARE(r->passes_of("long_update"), 4);
        const auto updates = rs::test::dispatches_of(r->log, "_Z11long_updatePii");
        const auto fills = rs::test::dispatches_of(r->log, "_Z6fill_xPiii");
        QCOMPARE(updates.size(), 5);
        QCOMPARE(fills.size(), 1);
        QMap<quint64, int> per_queue;
        for (const auto& d : updates) {
            ++per_queue[d.queue];
        }
        QCOMPARE(per_queue.size(), 2); // 4 passes on the private queue, the program's own on its stream's
        const quint64 private_queue = per_queue.key(4);
        quint64 first_pass_start = UINT64_MAX, last_pass_end = 0;
        for (const auto& d : updates) {
            if (d.queue == private_queue) {
                first_pass_start = std::min(first_pass_start, d.start_ns);
                last_pass_end = std::max(last_pass_end, d.end_ns);
            }
        }
        // Submitted 40 ms into the window they normally run after it; on a slow machine they may have been
        // forwarded before it opened. Either way they never overlap the passes.
        const auto outside = [&](const rs::test::LoggedDispatch& d) {
            return d.start_ns >= last_pass_end || d.end_ns <= first_pass_start;
        };
        QVERIFY(fills[0].queue != private_queue);
        QVERIFY2(outside(fills[0]), "the second thread's kernel ran inside the window");
        // Y's memset: the blit kernel on the second thread's queue.
        const auto blits = rs::test::dispatches_of(r->log, "__amd_rocclr_fillBufferAligned");
        QVERIFY(!blits.isEmpty());
        QCOMPARE(blits.last().queue, fills[0].queue);
        QVERIFY2(outside(blits.last()), "the second thread's memset ran inside the window");
    }

    /// Bounded wait, pass timeout: late_fill spins 300 ms before it writes its output; the pass timeout is
    /// 50 ms. The pass is abandoned (pass-timeout, one warning), the engine waits for it to complete,
    /// restores and releases; the program's own launch then runs, and hipStreamSynchronize returns only when
    /// its output is complete (the program reads it at once), at least 300 ms after the launch.
    void earlyCompletionAfterPassTimeout() {
        const auto r = run("hip_early_completion", {"--replay-pass-timeout-ms", "50"});
        VERIFY_PASSED(r);
        QCOMPARE(r->program_decisions(), QStringList{"_Z9late_fillPiix:pass-timeout"});
        QCOMPARE(r->warnings("pass-timeout").size(), 1);
        QVERIFY2(r->printed_number("synchronised after ([0-9.]+) ms") >= 300, qPrintable(r->stdout_text));
        const auto runs = rs::test::dispatches_of(r->log, "_Z9late_fillPiix");
        QCOMPARE(runs.size(), 2); // the abandoned pass, then the program's own launch
        QVERIFY(runs[0].queue != runs[1].queue);
        QVERIFY(runs[1].start_ns >= runs[0].end_ns);
    }

    /// Bounded wait, no private queue: HIP makes two queues (null stream and the program's stream); every
    /// later queue creation fails (HSA_SIM_FAIL_QUEUE_CREATE=3-64), so the engine has no private queue:
    /// decision no-private-queue, no pass, the launch runs once on its own queue and the stream completes
    /// only with its output (spin 100 ms).
    void earlyCompletionWithoutPrivateQueue() {
        const auto r = run("hip_early_completion", {}, {"HSA_SIM_FAIL_QUEUE_CREATE=3-64"}, {"100"});
        VERIFY_PASSED(r);
        QCOMPARE(r->program_decisions(), QStringList{"_Z9late_fillPiix:no-private-queue"});
        QCOMPARE(r->passes(), 0);
        QCOMPARE(r->warnings("no-private-queue").size(), 1);
        QVERIFY2(r->printed_number("synchronised after ([0-9.]+) ms") >= 100, qPrintable(r->stdout_text));
        QCOMPARE(rs::test::dispatches_of(r->log, "_Z9late_fillPiix").size(), 1);
    }

    void restoreFailureNamesRegion_data() {
        QTest::addColumn<QString>("failing");
        QTest::addColumn<int>("bytes");
        QTest::newRow("overwritten region") << "squares" << 20480;
        QTest::newRow("in-place region") << "counts" << 12288;
    }
    /// Failed restore (docs/replay-failures.md#failed-restore), HIP form: the first three copies of the
    /// region of `bytes` bytes fail (HSA_SIM_FAIL_H2D_COPY_BYTES=bytes:3, the engine's three
    /// hsa_memory_copy calls of the restore before pass 1). The other path, hsa_amd_memory_async_copy,
    /// writes it: no restore_failures row, every pass runs, one restore-recovered warning names the region,
    /// and the program computes from its inputs: the in-place `counts` shows one execution (it showed two,
    /// pass 0's and the program's own, when the failed region was given up), the overwritten `squares` is
    /// right. A region that no path can restore: tst_hip_failure_contract.
    void restoreFailureNamesRegion() {
        QFETCH(QString, failing);
        QFETCH(int, bytes);
        // The host store, so that restores are the host-to-device copies the injection counts.
        const auto r = run("hip_restore_regions", {"--passes", "3", "--snapshot-store", "host"},
                           {QStringLiteral("HSA_SIM_FAIL_H2D_COPY_BYTES=%1:3").arg(bytes)});
        VERIFY_PASSED(r);
        QVERIFY2(r->stdout_text.contains("counts: 1 execution(s)\nsquares: intact\n"),
                 qPrintable(r->describe()));
        QCOMPARE(r->program_decisions(), QStringList{"_Z6updatePiiS_i:replayed"});
        QCOMPARE(r->passes_of("_Z6update"), 3);
        QCOMPARE(r->value("SELECT count(*) FROM restore_failures"), 0);
        QCOMPARE(r->warnings("restore-failed"), QStringList{});
        const qint64 address = r->printed_address(failing);
        QVERIFY2(address != 0, qPrintable(r->stdout_text));
        const QStringList recovered = r->warnings("restore-recovered");
        QCOMPARE(recovered.size(), 1);
        QVERIFY2(recovered[0].contains(QStringLiteral("before pass 1 could not write 1 range(s)")) &&
                     recovered[0].contains(
                         QStringLiteral("0x%1 (%2 bytes, allocation ").arg(address, 0, 16).arg(bytes)),
                 qPrintable(recovered[0]));
    }

    /// Queue settings: kernels on a CU-masked stream (hipExtStreamCreateWithCUMask) and on the highest-
    /// priority stream, 50 ms each, replayed with 3 passes, timed by hipExtLaunchKernelGGL's events. The
    /// dispatch log (each stream's queue named by the memset before its kernel) shows the program's launch
    /// executed exactly once on its stream's queue, with that queue's CU mask or priority, lasting at least
    /// 50 ms (below 500: a loaded 2-core machine overshoots a 50 ms sleep by tens of ms; that it ran once
    /// is the count of its executions on its queue), after the 3 passes, which ran on one other
    /// queue with the same CU mask and priority. The events HIP 5.2.3 reports start before the window (seen
    /// here: about when the launch was submitted, not at the dispatch's own start time), so they measure the
    /// window too (snapshot, passes, restores: 150 ms and more here, over 2 s under AddressSanitizer): only
    /// their lower bound, the kernel's own 50 ms, is the engine's to keep.
    void ownQueueSettingsAndTimestamps() {
        const auto r =
            run("hip_own_queue", {"--passes", "3"},
                {"HSA_SIM_KERNEL_TIME_NS=_Z8timed_cuPii.kd=50000000,_Z10timed_prioPii.kd=50000000"});
        VERIFY_PASSED(r);
        QCOMPARE(r->program_decisions(),
                 (QStringList{"_Z8timed_cuPii:replayed", "_Z10timed_prioPii:replayed"}));
        const auto memsets = rs::test::dispatches_of(r->log, "__amd_rocclr_fillBufferAligned");
        QCOMPARE(memsets.size(), 2);
        const auto all_cus = [](const QString& mask) {
            return mask == "all" || mask == "ffffffff,ffffffff,ffffffff,ffffffff";
        };
        struct Case {
            const char* kernel;
            quint64 queue;
        };
        for (const Case& c :
             {Case{"_Z8timed_cuPii", memsets[0].queue}, Case{"_Z10timed_prioPii", memsets[1].queue}}) {
            QList<rs::test::LoggedDispatch> own, passes;
            for (const auto& d : rs::test::dispatches_of(r->log, c.kernel)) {
                (d.queue == c.queue ? own : passes) << d;
            }
            QCOMPARE(own.size(), 1);
            const double own_ms = static_cast<double>(own[0].end_ns - own[0].start_ns) / 1e6;
            QVERIFY2(own_ms >= 50 && own_ms < 500, qPrintable(QString::number(own_ms)));
            QCOMPARE(passes.size(), 3);
            for (const auto& p : passes) {
                QCOMPARE(p.queue, passes[0].queue);
                QCOMPARE(p.type, own[0].type);
                QVERIFY2(p.cu_mask == own[0].cu_mask || (all_cus(p.cu_mask) && all_cus(own[0].cu_mask)),
                         qPrintable(p.cu_mask + " vs " + own[0].cu_mask));
                QCOMPARE(p.priority, own[0].priority);
                QVERIFY2(p.end_ns <= own[0].start_ns, "a pass ran after (or during) the program's launch");
            }
            if (QString(c.kernel).contains("cu")) {
                QCOMPARE(own[0].cu_mask, QStringLiteral("0f0f0f0f,00ff00ff,00000000,00000000"));
            } else {
                QCOMPARE(own[0].priority, 2);
            }
        }
        for (const char* k : {"timed_cu", "timed_prio"}) {
            const double ms = r->printed_number(QStringLiteral("timed %1 elapsed ([0-9.]+) ms").arg(k));
            QVERIFY2(ms >= 50, qPrintable(r->stdout_text));
        }
    }

    /// Queue settings, cooperative launch (hipLaunchCooperativeKernel: HIP's cooperative queue). ROCr hands
    /// every creator of a cooperative queue the agent's one shared cooperative queue (hsa.h,
    /// HSA_QUEUE_TYPE_COOPERATIVE; the simulator does so), so a private cooperative queue for the passes
    /// would be the program's own queue behind the window's gate: the engine declines the launch
    /// (no-private-queue) and it runs once, on the cooperative queue (named by HIP's gwsInit kernel).
    void cooperativeLaunchRunsOnce() {
        const auto r =
            run("hip_own_queue", {"--passes", "3"}, {"HSA_SIM_KERNEL_TIME_NS=_Z10timed_coopPii.kd=50000000"},
                {"--cooperative"}, 60000);
        QVERIFY2(r->finished, "killed after 60 s: the program hangs");
        VERIFY_PASSED(r);
        QCOMPARE(r->program_decisions(), (QStringList{"_Z8timed_cuPii:replayed", "_Z10timed_prioPii:replayed",
                                                      "_Z10timed_coopPii:no-private-queue"}));
        QCOMPARE(r->passes_of("timed_coop"), 0);
        const auto gws = rs::test::dispatches_of(r->log, "__amd_rocclr_gwsInit");
        QVERIFY(!gws.isEmpty());
        const auto coop = rs::test::dispatches_of(r->log, "_Z10timed_coopPii");
        QCOMPARE(coop.size(), 1);
        QCOMPARE(coop[0].queue, gws[0].queue);
        QCOMPARE(coop[0].type, QStringLiteral("cooperative"));
        QVERIFY2(r->printed_number("timed timed_coop elapsed ([0-9.]+) ms") >= 50,
                 qPrintable(r->stdout_text));
    }

    /// Kernels of Debian's ROCm libraries, which only the interpreter runs: rocPRIM's warp, block and device
    /// algorithms (look-back scan, radix sort), rocRAND's precompiled Philox generator and rocSPARSE's
    /// precompiled csrmv (vector and adaptive kernels), replayed three passes each. The programs' own checks
    /// (against the host, word for word for rocRAND, value for value for rocSPARSE) still pass: the
    /// passes saw the same inputs and the application one execution.
    void libraryKernelsReplayed() {
        if (qEnvironmentVariable("RS_TEST_EXECUTOR") != "isa") {
            QSKIP("library kernels have no stand-ins: hip.tst_hip_replay.isa runs this");
        }
        for (const char* name : {"hip_rocprim", "hip_rocrand", "hip_rocsparse"}) {
            if (!QFile::exists(QStringLiteral(RS_HIP_PROGRAM_DIR "/") + name)) {
                QSKIP("rocPRIM, rocRAND or rocSPARSE is not installed: the library programs were not built");
            }
            const auto r = run(name, {"--passes", "3"});
            VERIFY_PASSED(r);
            const QStringList decisions = r->program_decisions();
            QVERIFY2(decisions.size() >= 2, qPrintable(decisions.join(' ')));
            QCOMPARE(decisions.filter(":replayed").size(), decisions.size());
            QCOMPARE(r->passes(), 3 * decisions.size());
        }
    }

    /// A grid barrier (this_grid().sync(), ds_gws_barrier) under the engine, with the interpreter: both
    /// cooperative launches run on the agent's one cooperative queue, so the engine declines them
    /// (no-private-queue) and each runs once, its barriers completing (the program checks every sum), each
    /// after its own gwsInit on that queue.
    void gridSyncRunsOnce() {
        if (qEnvironmentVariable("RS_TEST_EXECUTOR") != "isa") {
            QSKIP("stand-ins cannot run a grid barrier: hip.tst_hip_replay.isa runs this");
        }
        const auto r = run("hip_grid_sync", {"--passes", "3"}, {}, {}, 60000);
        QVERIFY2(r->finished, "killed after 60 s: the program hangs");
        VERIFY_PASSED(r);
        const QStringList decisions = r->program_decisions();
        QCOMPARE(decisions.size(), 2);
        QCOMPARE(decisions.filter(":no-private-queue").size(), 2);
        const auto gws = rs::test::dispatches_of(r->log, "__amd_rocclr_gwsInit");
        QCOMPARE(gws.size(), 2);
        int launches = 0;
        for (const auto& d : r->log) {
            if (d.kernel.contains("exchange")) {
                QCOMPARE(d.type, QStringLiteral("cooperative"));
                QCOMPARE(d.queue, gws[0].queue);
                ++launches;
            }
        }
        QCOMPARE(launches, 2);
    }

    /// Device malloc/free and new/delete (ockl's allocator) under the engine, with the interpreter: blocks
    /// allocated in one kernel are read and freed in the next, which finds each block's 2 MiB slab by its
    /// address (the program checks every sum). Each kernel's hidden hostcall buffer, through which the
    /// allocator asks the runtime for slabs, is fine-grained memory the engine cannot restore, so it
    /// declines all six dispatches (unrestorable-memory) and each runs once.
    void deviceMallocRunsOnce() {
        if (qEnvironmentVariable("RS_TEST_EXECUTOR") != "isa") {
            QSKIP("no stand-ins for device malloc: hip.tst_hip_replay.isa runs this");
        }
        const auto r = run("hip_device_malloc", {"--passes", "3"});
        QVERIFY2(r->finished, "killed: the program hangs");
        VERIFY_PASSED(r);
        const QStringList decisions = r->program_decisions();
        QCOMPARE(decisions.size(), 6);
        QCOMPARE(decisions.filter(":unrestorable-memory").size(), 6);
    }

    /// Device printf (hostcall) under the engine: every work-item's line appears exactly once, as in one
    /// execution of the kernel, whatever the passes.
    void devicePrintfOnce() {
        if (qEnvironmentVariable("RS_TEST_EXECUTOR") != "isa") {
            QSKIP("no stand-ins for device printf: hip.tst_hip_replay.isa runs this");
        }
        const auto r = run("hip_device_printf", {"--passes", "3"});
        QVERIFY2(r->finished, "killed: the program hangs");
        VERIFY_PASSED(r);
        for (int block = 0; block < 2; ++block) {
            for (int thread = 0; thread < 4; ++thread) {
                const QString line =
                    QStringLiteral("hip_device_printf: block %1 thread %2 value %3 half %4 end\n")
                        .arg(block)
                        .arg(thread)
                        .arg(100 + block * 10 + thread)
                        .arg(0.5 * (block * 4 + thread), 0, 'f', 1);
                QVERIFY2(r->stdout_text.count(line) == 1, qPrintable(line + r->describe()));
            }
        }
        QCOMPARE(r->program_decisions().size(), 1);
    }

    /// Pinned host memory reached through a pointer the kernel's arguments do not hold
    /// (hip_hidden_host_pointer; docs/replay-failures.md, "Arguments in unrestorable memory"):
    /// bump_via_buffer (its only argument a hipMalloc buffer holding the pointer) and bump_via_variable (the
    /// pointer in a __device__ variable) increment it in place, sum_via_buffer only reads it. The kernarg
    /// scan cannot see these pointers, so all three are replayed (3 passes) and the bump kernels show
    /// passes + 1 = 4 executions, with the check or without. With --fidelity-check one
    /// unrestorable-memory-written warning per bump dispatch names its own pinned buffer (address, size,
    /// allocation id) and no other range; the read buffer is named by no warning, and every range fits the
    /// default budget (nothing unchecked). Without --fidelity-check nothing is said.
    void hiddenHostPointerWritesFlagged() {
        for (const bool fidelity : {true, false}) {
            const auto r = run("hip_hidden_host_pointer",
                               fidelity ? QStringList{"--passes", "3", "--fidelity-check"}
                                        : QStringList{"--passes", "3"},
                               {}, {"4"});
            VERIFY_PASSED(r);
            QCOMPARE(r->program_decisions(),
                     (QStringList{"_Z15bump_via_bufferPKPi:replayed", "_Z17bump_via_variablei:replayed",
                                  "_Z14sum_via_bufferPKPiS_i:replayed"}));
            QCOMPARE(r->passes_of("_via_"), 9);
            QCOMPARE(r->warnings("unrestorable-memory-unchecked"), QStringList{});
            if (!fidelity) {
                QCOMPARE(r->warnings("unrestorable-memory-written"), QStringList{});
                continue;
            }
            const auto named = [&](const QString& allocation) {
                const qint64 address = r->printed_address(allocation);
                const qint64 id =
                    r->value(QStringLiteral("SELECT id FROM allocations WHERE address = %1").arg(address));
                return QStringLiteral("0x%1 (4096 bytes, host allocation %2)").arg(address, 0, 16).arg(id);
            };
            const QList<QStringList> written = r->rows(
                "SELECT k.text, t.text FROM warnings w JOIN enum_names e ON e.enum = 'warning' AND e.code = "
                "w.code JOIN strings t ON t.process = w.process AND t.id = w.text_id JOIN dispatches d ON "
                "d.process = w.process AND d.id = w.dispatch_id JOIN strings k ON k.process = d.process AND "
                "k.id = d.kernel_name_id WHERE e.name = 'unrestorable-memory-written' ORDER BY d.id");
            QCOMPARE(written.size(), 2);
            QCOMPARE(written[0][0], QStringLiteral("_Z15bump_via_bufferPKPi.kd"));
            QCOMPARE(written[1][0], QStringLiteral("_Z17bump_via_variablei.kd"));
            for (int k = 0; k < 2; ++k) {
                const QString range = named(k == 0 ? "pinned_buffer" : "pinned_variable");
                QVERIFY2(
                    written[k][1].contains("pass 0 changed 1 range(s) no restore puts back: " + range + ";"),
                    qPrintable(written[k][1] + "\nexpected " + range));
            }
            const QString read = QStringLiteral("0x%1 ").arg(r->printed_address("pinned_read"), 0, 16);
            QCOMPARE(
                r->value("SELECT count(*) FROM warnings w JOIN strings t ON t.process = w.process AND t.id "
                         "= w.text_id WHERE t.text LIKE '%" +
                         read + "%'"),
                0);
        }
    }

    /// Arguments that reach memory no snapshot restores (docs/replay-failures.md, "Arguments in
    /// unrestorable memory"), each kernel launched once and checked against one execution: a pinned host
    /// pointer at kernarg offset 4 of a packed by-value struct, a pointer one past the end of pinned host
    /// memory, hipMallocManaged memory (ROCclr maps it and only calls hsa_amd_svm_attributes_set) and
    /// hipHostRegister'ed memory (hsa_amd_memory_lock_to_pool) are all updated in place: declined
    /// (unrestorable-memory), run once. A kernel reading pinned host memory through a const __restrict__
    /// pointer (`.access: read_only` in its metadata) and updating hipMalloc memory is replayed (3 passes),
    /// and the registered memory has its allocation row (api hsa_amd_memory_lock_to_pool, class host).
    void unrestorableArgumentsRunOnce() {
        const auto r = run("hip_unrestorable_args", {"--passes", "3"});
        VERIFY_PASSED(r);
        for (const char* kernel :
             {"packed_bump", "end_bump", "managed_bump", "registered_bump", "read_only_add"}) {
            QVERIFY2(r->stdout_text.contains(QStringLiteral("%1: 1 execution(s)\n").arg(kernel)),
                     qPrintable(r->describe()));
        }
        QCOMPARE(
            r->program_decisions(),
            (QStringList{"_Z11packed_bump10PackedArgs:unrestorable-memory",
                         "_Z8end_bumpPii:unrestorable-memory", "_Z12managed_bumpPii:unrestorable-memory",
                         "_Z15registered_bumpPii:unrestorable-memory", "_Z13read_only_addPKiPii:replayed"}));
        QCOMPARE(r->passes_of("read_only_add"), 3);
        QCOMPARE(r->passes_of("_bump"), 0);
        const qint64 registered = r->printed_address("registered");
        QVERIFY2(registered != 0, qPrintable(r->stdout_text));
        QCOMPARE(r->classification_at(registered), QString("host"));
        QCOMPARE(
            r->rows(QStringLiteral("SELECT e.name, a.size FROM allocations a JOIN enum_names e ON e.enum = "
                                   "'api' AND e.code = a.api WHERE a.address = %1")
                        .arg(registered)),
            (QList<QStringList>{{"hsa_amd_memory_lock_to_pool", "4096"}}));
    }

    /// Agents that share memory (docs/replay-window.md, "Agents that share memory"): two simulated agents,
    /// each granted access to the other's memory (hipDeviceEnablePeerAccess). While device 0's long_update
    /// (100 ms per execution, 3 passes) is replayed, device 1's peer_fill writes all 4096 ints of a device-0
    /// buffer: it is gated behind device 0's window and runs after its release, so the final restore does
    /// not revert it (it lost 4096 of 4096 ints before). Device 0's peer_increment updates device-1 memory in
    /// place: declined peer-memory, one execution (4 before). peer_fill is declined peer-memory too (device
    /// 1's snapshot does not hold device 0's buffer).
    void peerAgentsShareMemory() {
        const auto r =
            run("hip_peer_agents", {"--passes", "3"},
                {"HSA_SIM_GPU_AGENTS=2", "HSA_SIM_KERNEL_TIME_NS=_Z11long_updatePii.kd=100000000"});
        VERIFY_PASSED(r);
        QVERIFY2(r->stdout_text.contains("peer_fill: 0 of 4096 ints lost\n"), qPrintable(r->describe()));
        QVERIFY2(r->stdout_text.contains("peer_increment: 1 execution(s)\n"), qPrintable(r->describe()));
        QCOMPARE(r->program_decisions(),
                 (QStringList{"_Z5touchPi:replayed", "_Z11long_updatePii:replayed",
                              "_Z9peer_fillPiii:peer-memory", "_Z14peer_incrementPii:peer-memory"}));
        QCOMPARE(r->passes_of("long_update"), 3);
        QCOMPARE(r->passes_of("peer_"), 0);
        // peer_fill, submitted 40 ms into the window, never overlaps long_update's passes (the private
        // queue's three runs; the program's own run, after the release, may overlap it).
        const auto updates = rs::test::dispatches_of(r->log, "_Z11long_updatePii");
        const auto fills = rs::test::dispatches_of(r->log, "_Z9peer_fillPiii");
        QCOMPARE(updates.size(), 4);
        QCOMPARE(fills.size(), 1);
        QMap<quint64, int> per_queue;
        for (const auto& d : updates) {
            ++per_queue[d.queue];
        }
        QCOMPARE(per_queue.size(), 2);
        const quint64 private_queue = per_queue.key(3);
        quint64 first_start = UINT64_MAX, last_end = 0;
        for (const auto& d : updates) {
            if (d.queue == private_queue) {
                first_start = std::min(first_start, d.start_ns);
                last_end = std::max(last_end, d.end_ns);
            }
        }
        QVERIFY2(fills[0].start_ns >= last_end || fills[0].end_ns <= first_start,
                 "device 1's kernel ran inside device 0's window");
    }

    /// Every process of a run is recorded: hip_fork_children launches its kernel once, then fork()s and
    /// exec()s itself twice ("child 1": 2 launches, "child 2": 3 launches, at the same time) and waits for
    /// both. The session holds three processes, all complete with nothing missing, each with its pid, its
    /// parent (the children's is the first program) and exactly its own launches, each replayed.
    void forkedHipChildrenRecorded() {
        const auto r = run("hip_fork_children");
        QVERIFY2(r->finished, "killed: the program hangs");
        VERIFY_PASSED(r);
        QVERIFY2(r->stdout_text.contains("parent and both children right\nPASS"), qPrintable(r->describe()));
        static const QRegularExpression started(
            QStringLiteral("^hip_fork_children: (parent|child \\d) pid (\\d+) ppid (\\d+) launches (\\d+)$"),
            QRegularExpression::MultilineOption);
        QMap<QString, QList<qint64>> roles; // role -> pid, ppid, launches
        for (auto it = started.globalMatch(r->stdout_text); it.hasNext();) {
            const auto m = it.next();
            roles.insert(m.captured(1), {m.captured(2).toLongLong(), m.captured(3).toLongLong(),
                                         m.captured(4).toLongLong()});
        }
        QCOMPARE(roles.keys(), (QStringList{"child 1", "child 2", "parent"}));
        QCOMPARE(r->value("SELECT count(*) FROM processes"), 3);
        QCOMPARE(r->value("SELECT process_count FROM session"), 3);
        QCOMPARE(r->value("SELECT count(*) FROM processes WHERE complete = 1 AND missing_events = 0 AND "
                          "events_stored = last_sequence"),
                 3);
        const qint64 parent = roles["parent"][0];
        QCOMPARE(roles["child 1"][1], parent);
        QCOMPARE(roles["child 2"][1], parent);
        QCOMPARE(roles["parent"][2], 1);
        QCOMPARE(roles["child 1"][2], 2);
        QCOMPARE(roles["child 2"][2], 3);
        for (auto it = roles.cbegin(); it != roles.cend(); ++it) {
            const qint64 pid = it.value()[0], ppid = it.value()[1], launches = it.value()[2];
            const qint64 process =
                r->value(QStringLiteral("SELECT process FROM processes WHERE pid = %1").arg(pid));
            QVERIFY2(process > 0, qPrintable(it.key()));
            QCOMPARE(
                r->value(QStringLiteral("SELECT parent_pid FROM processes WHERE process = %1").arg(process)),
                ppid);
            QCOMPARE(
                r->value(QStringLiteral("SELECT exit_status FROM processes WHERE process = %1").arg(process)),
                0);
            const QString own =
                QStringLiteral(
                    "SELECT count(*) FROM dispatches d JOIN strings s ON s.process = d.process AND "
                    "s.id = d.kernel_name_id JOIN enum_names e ON e.enum = 'decision' AND e.code "
                    "= d.decision WHERE d.process = %1 AND s.text LIKE '%add_in_place%'")
                    .arg(process);
            QCOMPARE(r->value(own), launches);
            QCOMPARE(r->value(own + " AND e.name = 'replayed'"), launches);
        }
    }

    /// The process ends while windows are open (docs/replay-window.md, "Process exit and fork"):
    /// hip_exit_during_window launches add_one (400 ms on the simulator, three passes) on both agents and
    /// ends the process 100 ms later: exit(3) or quick_exit(3) from a second thread, return 3 from main,
    /// or _exit(3). The process ends with status 3, as without the engine, well within the time of its
    /// passes (no crash, no 30 s wait); the main thread, synchronising meanwhile, sees every element
    /// incremented exactly once. Where exit handlers run (all but _exit) the session is complete: both
    /// windows were abandoned (decision and warning `abandoned`, saying that the process is exiting), and
    /// exit and return record status 3.
    void exitDuringWindow_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("handlers"); // exit handlers run
        QTest::addColumn<bool>("status");   // the session end carries the status
        QTest::newRow("exit") << "exit" << true << true;
        QTest::newRow("quick_exit") << "quick_exit" << true << false;
        QTest::newRow("return") << "return" << true << true;
        QTest::newRow("_exit") << "_exit" << false << false;
    }
    void exitDuringWindow() {
        QFETCH(QString, mode);
        QFETCH(bool, handlers);
        QFETCH(bool, status);
        QElapsedTimer timer;
        timer.start();
        const auto r = run("hip_exit_during_window", {"--passes", "3"},
                           {"HSA_SIM_KERNEL_TIME_NS=_Z7add_onePii.kd=400000000", "HSA_SIM_GPU_AGENTS=2"},
                           {mode, "100"}, 60000);
        const qint64 took_ms = timer.elapsed();
        QVERIFY2(r->finished, "killed: the program hangs");
        QVERIFY2(r->exit_code == 3, qPrintable(r->describe()));
        QVERIFY2(!r->stdout_text.contains("main: WRONG"), qPrintable(r->describe()));
        // Start-up, both warm-up windows and at most the passes of the long ones; far below 30 s even on
        // a loaded machine or under a sanitizer.
        QVERIFY2(took_ms < 20000, qPrintable(QStringLiteral("took %1 ms").arg(took_ms)));
        QCOMPARE(r->program_decisions().count("_Z7warm_upPii:replayed"), 2);
        if (!handlers) {
            return; // _exit: nothing of the process runs any more, the session ends where it was cut
        }
        QVERIFY2(r->complete(), qPrintable(r->describe()));
        QCOMPARE(r->program_decisions().count("_Z7add_onePii:abandoned"), 2);
        const QStringList abandoned = r->warnings("abandoned");
        QVERIFY2(abandoned.size() >= 2, qPrintable(abandoned.join('\n')));
        for (const QString& text : abandoned) {
            QVERIFY2(text.contains("the process is exiting"), qPrintable(text));
        }
        if (status) {
            QCOMPARE(r->value("SELECT exit_status FROM processes"), 3);
        }
    }

    /// A child made by fork() that does not exec starts with no engine state it could wait for: forked
    /// after both agents' windows (fork) or while they are open (fork-window, 50 ms into 400 ms passes),
    /// the child calls exit(0) and is reaped as fast as without the engine (well under a second plain;
    /// the bound is generous), not after 30 s per agent. The parent's own windows are unaffected: its
    /// launches replayed, every element right, the session complete with the one recorded process.
    void forkedChildExitsFast_data() {
        QTest::addColumn<QString>("mode");
        QTest::newRow("fork") << "fork";
        QTest::newRow("fork-window") << "fork-window";
    }
    void forkedChildExitsFast() {
        QFETCH(QString, mode);
        const auto r = run("hip_exit_during_window", {"--passes", "3"},
                           {"HSA_SIM_KERNEL_TIME_NS=_Z7add_onePii.kd=400000000", "HSA_SIM_GPU_AGENTS=2"},
                           {mode, "50"}, 120000);
        QVERIFY2(r->finished, "killed: the program hangs");
        VERIFY_PASSED(r);
        const auto m = QRegularExpression("child exited (\\d+) after ([0-9.]+) ms").match(r->stdout_text);
        QVERIFY2(m.hasMatch(), qPrintable(r->describe()));
        QCOMPARE(m.captured(1).toInt(), 0);
        QVERIFY2(m.captured(2).toDouble() < 5000, qPrintable(m.captured(0)));
        QCOMPARE(r->value("SELECT count(*) FROM processes"), 1);
        QCOMPARE(r->program_decisions().count("_Z7add_onePii:replayed"), 2);
    }
};

QTEST_GUILESS_MAIN(TestHipReplay)
#include "tst_hip_replay.moc"
