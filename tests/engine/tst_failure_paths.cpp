// SPDX-License-Identifier: MIT
// Engine failure paths on the simulated runtime that no other suite reaches: the snapshot's host
// allocations failing (the allocation-failure shim, tests/support/alloc_fail_shim.cpp, preloaded into
// the program), a module variable over the 1 GiB cap, a rectangular asynchronous copy meeting a replay
// window, and a dispatch whose queue does not drain before the drain timeout. Each runs a workload of
// workloads/ under `replayscope-run --simulate`, checks that the application's results are right (the
// workload's own verdict) and asserts the decision and failure rows of the session file.
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

namespace {

/// A finished run and whether replayscope-run ended within the test's time limit.
class Run : public rs::test::SessionRun {
  public:
    bool finished = false;
};

/// Runs `command` (program and arguments) under replayscope-run --simulate with `options`; `env` is added
/// to replayscope-run's environment (HSA_SIM_*; REPLAYSCOPE_* would be removed by the launcher).
std::unique_ptr<Run> run(const QStringList& command, const QStringList& options = {},
                         const QStringList& env = {}) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("failure%1.rsdb").arg(++counter));
    auto r = std::make_unique<Run>();
    r->finished = rs::test::run_and_open(*r, RS_RUNNER_PATH,
                                         QStringList{"--simulate", "--no-progress", "-o", session} + options +
                                             QStringList{"--"} + command,
                                         rs::test::environment_with(env), session, 240000);
    return r;
}

QString workload(const char* name) {
    return QStringLiteral(RS_WORKLOAD_DIR "/") + name;
}

/// `program args...` with the allocation-failure shim preloaded (through env(1), so only the program
/// gets it): engine requests of at least `min_bytes` fail, the first `limit` of them, once armed.
QStringList with_alloc_failures(qint64 min_bytes, int limit, const QStringList& program) {
    return QStringList{"/usr/bin/env", "LD_PRELOAD=" RS_ALLOC_FAIL_SHIM,
                       "RS_ALLOC_FAIL_CALLER=libreplayscope_engine",
                       "RS_ALLOC_FAIL_MIN_BYTES=" + QString::number(min_bytes),
                       "RS_ALLOC_FAIL_LIMIT=" + QString::number(limit)} +
           program;
}

/// Snapshot failure rows as "dispatch_id:address:size:reason", in sequence order.
QStringList snapshot_failures(const rs::test::SessionRun& r) {
    QStringList out;
    for (const auto& row : r.rows(
             "SELECT f.dispatch_id, f.address, f.size, e.name FROM snapshot_failures f JOIN enum_names e ON "
             "e.enum = 'snapshot_failure' AND e.code = f.reason ORDER BY f.seq")) {
        out << row.join(':');
    }
    return out;
}

} // namespace

class TestFailurePaths : public QObject {
    Q_OBJECT
  private slots:
    /// Reserving the list of the agent's tracked allocations throws std::bad_alloc (4096 tracked buffers:
    /// the list is far above the shim's 64 KiB threshold; only the first such request fails): the first
    /// dispatch is declined snapshot-incomplete with one whole-snapshot inventory-reserve row (address
    /// 0), a snapshot row with ok = 0, no pass, and a warning; the second dispatch replays normally. The
    /// application sees each dispatch once (first buffer == initial + 2, last buffer untouched).
    void inventoryReserveFailureDeclines() {
        const auto r =
            run(with_alloc_failures(64 * 1024, 1, {workload("snapshot_alloc_failure"), "4096", "4096"}));
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("first == initial + 2, last unchanged"),
                 qPrintable(r->describe()));
        QVERIFY2(r->stdout_text.contains("the shim failed 1 host allocation(s)"), qPrintable(r->describe()));
        QVERIFY2(r->stderr_text.contains("alloc-fail shim: failed operator new of"),
                 qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(),
                 (QStringList{"accumulate.kd:snapshot-incomplete", "accumulate.kd:replayed"}));
        const auto ids = r->rows("SELECT id FROM dispatches ORDER BY id");
        QCOMPARE(ids.size(), 2);
        QCOMPARE(snapshot_failures(*r), QStringList{ids[0][0] + ":0:0:inventory-reserve"});
        QCOMPARE(r->rows("SELECT dispatch_id, ok, failures FROM snapshots ORDER BY dispatch_id"),
                 (QList<QStringList>{{ids[0][0], "0", "1"}, {ids[1][0], "1", "0"}}));
        QCOMPARE(r->value("SELECT count(*) FROM passes WHERE dispatch_id = " + ids[0][0]), 0);
        QCOMPARE(r->value("SELECT count(*) FROM passes WHERE dispatch_id = " + ids[1][0]), 2);
        // The replayed dispatch's snapshot holds every tracked buffer: 4096 of 4096 bytes.
        QCOMPARE(r->value("SELECT bytes FROM snapshots WHERE dispatch_id = " + ids[1][0]), 4096ll * 4096);
        const QStringList warnings = r->warnings("snapshot-incomplete");
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings[0].contains("inventory"), qPrintable(warnings[0]));
    }

    /// The host copy of the snapshot cannot be allocated (two tracked buffers of 48 MiB): the CPU agent's
    /// system pool refuses the host store's block (HSA_SIM_FAIL_ALLOC=6: the program's five allocations
    /// come first) and the heap its fallback (the shim fails the engine's requests of 32 MiB and more,
    /// once): every region of that snapshot gets a host-allocation row with its address and size, the
    /// dispatch is declined snapshot-incomplete and runs once; the next one replays.
    void hostAllocationFailureDeclines() {
        constexpr qint64 kBuffer = 48ll << 20;
        // The host store: a device-store snapshot needs no host memory.
        const auto r =
            run(with_alloc_failures(32ll << 20, 1,
                                    {workload("snapshot_alloc_failure"), "2", QString::number(kBuffer)}),
                {"--snapshot-store", "host"}, {"HSA_SIM_FAIL_ALLOC=6"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("first == initial + 2, last unchanged"),
                 qPrintable(r->describe()));
        QVERIFY2(r->stdout_text.contains("the shim failed 1 host allocation(s)"), qPrintable(r->describe()));
        // The request the shim failed is the host store's fallback block: both regions, whole pages.
        QVERIFY2(r->stderr_text.contains(
                     QStringLiteral("alloc-fail shim: failed aligned operator new(nothrow) of %1 "
                                    "bytes")
                         .arg(2 * kBuffer)),
                 qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(),
                 (QStringList{"accumulate.kd:snapshot-incomplete", "accumulate.kd:replayed"}));
        const auto ids = r->rows("SELECT id FROM dispatches ORDER BY id");
        QCOMPARE(ids.size(), 2);
        QStringList expected;
        for (const auto& a :
             r->rows("SELECT a.address, a.size FROM allocations a JOIN enum_names e ON e.enum = "
                     "'classification' AND e.code = a.classification WHERE e.name = 'tracked' "
                     "ORDER BY a.address")) {
            expected << ids[0][0] + ":" + a[0] + ":" + a[1] + ":host-allocation";
        }
        QCOMPARE(expected.size(), 2);
        QStringList failures = snapshot_failures(*r);
        failures.sort();
        expected.sort();
        QCOMPARE(failures, expected);
        QCOMPARE(r->rows("SELECT dispatch_id, ok, failures FROM snapshots ORDER BY dispatch_id"),
                 (QList<QStringList>{{ids[0][0], "0", "2"}, {ids[1][0], "1", "0"}}));
        QCOMPARE(r->value("SELECT count(*) FROM passes WHERE dispatch_id = " + ids[0][0]), 0);
        QCOMPARE(r->value("SELECT count(*) FROM passes WHERE dispatch_id = " + ids[1][0]), 2);
        QCOMPARE(r->value("SELECT bytes FROM snapshots WHERE dispatch_id = " + ids[1][0]), 2 * kBuffer);
        QCOMPARE(r->warnings("snapshot-incomplete").size(), 1);
    }

    /// A `__device__` variable of 1 GiB + 4 KiB is over the snapshot's cap, so it is never snapshotted
    /// and whatever a kernel of its executable writes there would stay written by every pass: the
    /// dispatch of large_table_read (which also updates a small counter and a tracked buffer) is declined
    /// (unrestorable-memory) without a snapshot and runs once (out == initial + 1, dispatch_total == 1).
    void moduleVariableOverCapDeclines() {
#if defined(__SANITIZE_THREAD__)
        // No thread runs here that the other cases do not run, and the simulator's instrumented loading
        // of the 1 GiB variable alone takes about 50 s under ThreadSanitizer: the other presets check it.
        QSKIP("the 1 GiB module variable is checked without ThreadSanitizer");
#endif
        const auto r = run({workload("large_module_variable")}, {"--passes", "3"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("out == initial + 1, dispatch_total == 1"),
                 qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(), QStringList{"large_table_read.kd:unrestorable-memory"});
        QCOMPARE(r->value("SELECT count(*) FROM snapshots"), 0);
        QCOMPARE(r->passes(), 0);
        QCOMPARE(r->value("SELECT count(*) FROM snapshot_failures"), 0);
    }

    /// hsa_amd_memory_async_copy_rect from another thread while the dispatch replays (3 passes of a 50 ms
    /// kernel): the rectangle lands in the second buffer and stays there (not restored over), the dispatch
    /// runs once for the application, and an async_copies row names the rectangle's destination and
    /// source bases, its byte count (96 x 24), the agent and the replayed dispatch, with an outcome that
    /// says the copy was held: made to depend on the window's release, the copying thread not blocked.
    void asyncCopyRectMeetsWindow() {
        const auto r = run({workload("async_copy_rect_during_dispatch")}, {"--passes", "3"},
                           {"HSA_SIM_KERNEL_TIME_NS=accumulate.kd=50000000"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("b holds the 2304 copied bytes"),
                 qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(), QStringList{"accumulate.kd:replayed"});
        QCOMPARE(r->passes(), 3);
        const auto copies =
            r->rows("SELECT e.name, c.dispatch_id, c.size, c.agent, c.dst, c.src FROM async_copies c "
                    "JOIN enum_names e ON e.enum = 'async_copy_outcome' AND e.code = c.outcome");
        QCOMPARE(copies.size(), 1);
        QCOMPARE(copies[0][0], QStringLiteral("held"));
        const auto dispatch = r->rows("SELECT id, agent FROM dispatches");
        QCOMPARE(copies[0][1], dispatch.value(0).value(0));
        QCOMPARE(copies[0][2], QStringLiteral("2304"));
        QCOMPARE(copies[0][3], dispatch.value(0).value(1));
        // dst: the 48 KiB tracked buffer b; src: the 8 KiB host staging buffer.
        QCOMPARE(copies[0][4],
                 r->rows("SELECT address FROM allocations WHERE size = 49152").value(0).value(0));
        QCOMPARE(copies[0][5],
                 r->rows("SELECT a.address FROM allocations a JOIN enum_names e ON e.enum = "
                         "'classification' AND e.code = a.classification WHERE e.name = 'host' AND "
                         "a.size = 8192")
                     .value(0)
                     .value(0));
        QCOMPARE(r->value("SELECT count(*) FROM restore_skips"), 0);
    }

    /// The dispatch sits behind the application's own barrier on a signal the host sets 1.5 s later; the
    /// drain timeout is 300 ms: the doorbell store returns at once (the engine's worker waits, not the
    /// application's thread), the replay is declined drain-timeout (one warning with that code naming the
    /// dispatch), no snapshot and no pass is recorded, and the dispatch runs exactly once after the
    /// application released it (a[i] == initial + 1; the workload also checks that it had not completed
    /// before).
    void drainTimeoutDeclines() {
        const auto r =
            run({workload("wait_behind_host_signal"), "1500"}, {"--replay-drain-timeout-ms", "300"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("a[i] == initial + 1"),
                 qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(), QStringList{"accumulate.kd:drain-timeout"});
        // The handler made its writer call and returned: the doorbell store did not wait for the drain.
        const QRegularExpression submit("submit took (\\d+) ms");
        const auto m = submit.match(r->stdout_text);
        QVERIFY2(m.hasMatch() && m.captured(1).toInt() < 300, qPrintable(r->describe()));
        QCOMPARE(r->passes(), 0);
        QCOMPARE(r->value("SELECT count(*) FROM snapshots"), 0);
        const auto warnings = r->rows("SELECT w.dispatch_id FROM warnings w JOIN enum_names e ON e.enum = "
                                      "'warning' AND e.code = w.code WHERE e.name = 'drain-timeout'");
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings[0][0], r->rows("SELECT id FROM dispatches").value(0).value(0));
    }
};

QTEST_GUILESS_MAIN(TestFailurePaths)
#include "tst_failure_paths.moc"
