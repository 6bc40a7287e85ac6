// Engine tests on the simulated runtime: each runs a workload of tests/workloads with the engine as
// HSA_TOOLS_LIB and REPLAYSCOPE_LOG=1, then asserts on the workload's own verdict (exit status) and on
// the engine's event lines "replayscope: <kind> key=value ..." (docs/replay-failures.md).
// HSA headers first: they name parameters `signals`, which Qt defines as a keyword macro.
#include <hsa_api_trace.h>

#include <dlfcn.h>

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QtTest>

namespace {

/// One parsed event line.
struct Event {
    QString kind;
    QHash<QString, QString> fields;
    QString operator[](const QString& key) const { return fields.value(key); }
};

struct Run {
    int exit_code = -1;
    bool finished = false;
    QString stdout_text, stderr_text;
    QList<Event> events;

    QList<Event> of(const QString& kind, const QString& key = {}, const QString& value = {}) const {
        QList<Event> out;
        for (const Event& e : events)
            if (e.kind == kind && (key.isEmpty() || e[key] == value))
                out.push_back(e);
        return out;
    }
    QString describe() const {
        return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3")
            .arg(exit_code)
            .arg(stdout_text, stderr_text);
    }
};

Run run_workload(const QString& name, const QStringList& env = {}, bool preload = false) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert("HSA_TOOLS_LIB", RS_ENGINE_PATH);
    e.insert("HSA_TOOLS_REPORT_LOAD_FAILURE", "1");
    e.insert("REPLAYSCOPE_LOG", "1");
    if (preload)
        e.insert("LD_PRELOAD", RS_ENGINE_PATH);
    for (const QString& kv : env) {
        const auto eq = kv.indexOf('=');
        e.insert(kv.left(eq), kv.mid(eq + 1));
    }
    p.setProcessEnvironment(e);
    p.start(QStringLiteral(RS_WORKLOAD_DIR "/") + name, {});
    Run r;
    r.finished = p.waitForFinished(120000);
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    }
    r.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.stdout_text = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.stderr_text = QString::fromLocal8Bit(p.readAllStandardError());
    static const QRegularExpression line(QStringLiteral("^replayscope: (\\w+)(.*)$"),
                                         QRegularExpression::MultilineOption);
    static const QRegularExpression field(QStringLiteral("(\\w+)=(\"[^\"]*\"|\\S+)"));
    for (auto m = line.globalMatch(r.stderr_text); m.hasNext();) {
        const auto match = m.next();
        Event ev;
        ev.kind = match.captured(1);
        for (auto f = field.globalMatch(match.captured(2)); f.hasNext();) {
            const auto fm = f.next();
            QString v = fm.captured(2);
            if (v.startsWith('"'))
                v = v.mid(1, v.size() - 2);
            ev.fields.insert(fm.captured(1), v);
        }
        r.events.push_back(ev);
    }
    return r;
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT
  private slots:
    /// Only OnLoad, OnUnload and hipGraphLaunch are exported.
    void exportsOnlyEntryPoints() {
        QProcess nm;
        nm.start("nm", {"-D", "--defined-only", RS_ENGINE_PATH});
        QVERIFY(nm.waitForFinished(30000));
        QStringList names;
        for (const QString& l :
             QString::fromLocal8Bit(nm.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts)) {
            const QString sym = l.section(' ', 2).section('@', 0, 0);
            if (sym != "REPLAYSCOPE_ENGINE_1" && sym != "hip_4.3")
                names << sym;
        }
        names.sort();
        QCOMPARE(names, (QStringList{"OnLoad", "OnUnload", "hipGraphLaunch"}));
    }

    /// OnLoad refuses a table whose AMD extension table is not the 5.2.3 layout.
    void refusesUnknownTableLayout() {
        void* h = dlopen(RS_ENGINE_PATH, RTLD_NOW | RTLD_LOCAL);
        QVERIFY2(h, dlerror());
        using OnLoadFn = bool (*)(HsaApiTable*, uint64_t, uint64_t, const char* const*);
        auto on_load = reinterpret_cast<OnLoadFn>(dlsym(h, "OnLoad"));
        QVERIFY(on_load);
        CoreApiTable core{};
        core.version = {HSA_CORE_API_TABLE_MAJOR_VERSION, sizeof(CoreApiTable), 0, 0};
        AmdExtTable amd{};
        amd.version = {2, sizeof(AmdExtTable), 0, 0}; // ROCm 6 style
        HsaApiTable table{};
        table.version = {HSA_API_TABLE_MAJOR_VERSION, sizeof(HsaApiTable), 0, 0};
        table.core_ = &core;
        table.amd_ext_ = &amd;
        QVERIFY(!on_load(&table, 1, 0, nullptr));
        amd.version = {HSA_AMD_EXT_API_TABLE_MAJOR_VERSION, 16, 0, 0}; // too small
        QVERIFY(!on_load(&table, 1, 0, nullptr));
        QVERIFY(core.hsa_queue_create_fn == nullptr); // nothing installed
        dlclose(h);
    }

    /// In-place a[i] += 1 replayed 3 passes: the workload still sees initial + 1.
    void accumulateReplaysThreePasses() {
        const Run r = run_workload("accumulate", {"REPLAYSCOPE_PASSES=3"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        const auto replayed = r.of("dispatch", "decision", "replayed");
        QCOMPARE(replayed.size(), 1);
        QCOMPARE(replayed[0]["kernel"], QString("accumulate.kd"));
        const auto passes = r.of("pass", "dispatch", replayed[0]["id"]);
        QCOMPARE(passes.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(passes[i]["index"].toInt(), i);
            QVERIFY(passes[i]["end"].toULongLong() >= passes[i]["start"].toULongLong());
            QVERIFY(passes[i]["start"].toULongLong() > 0);
        }
        QVERIFY(passes[1]["regions_restored"].toInt() >= 1);
        QCOMPARE(passes[0]["regions_restored"].toInt(), 0);
        QCOMPARE(r.of("snapshot", "ok", "1").size(), 1);
        QVERIFY(!r.of("allocation", "class", "tracked").isEmpty());
        QVERIFY(!r.of("allocation", "class", "excluded_kernarg").isEmpty());
    }

    /// Without REPLAYSCOPE_LOG and without a collector the application runs normally and silently.
    void runsWithoutCollector() {
        const Run r = run_workload("accumulate", {"REPLAYSCOPE_LOG=0"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QVERIFY(r.events.isEmpty());
    }

    /// The __device__ counter is a module variable: restored between passes, ends at 1.
    void deviceCounterEndsAtOne() {
        const Run r = run_workload("device_counter", {"REPLAYSCOPE_PASSES=3"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("dispatch", "decision", "replayed").size(), 1);
        const auto vars = r.of("module_variable", "symbol", "dispatch_counter");
        QCOMPARE(vars.size(), 1);
        QCOMPARE(vars[0]["status"], QString("captured"));
        QCOMPARE(r.of("pass").size(), 3);
    }

    /// A buffer freed by the kernel during pass 0 is skipped (reason freed), not written.
    void freeDuringKernelSkipsFreed() {
        const Run r = run_workload("free_during_kernel");
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        const auto skips = r.of("restore_skip", "reason", "freed");
        QCOMPARE(skips.size(), 1);
        QCOMPARE(skips[0]["pass"].toInt(), 1);
    }

    /// A buffer freed and re-allocated smaller at the same address is skipped (reason reallocated).
    void reallocSmallerSkipsReallocated() {
        const Run r = run_workload("realloc_smaller");
        QVERIFY2(r.finished, qPrintable(r.describe()));
        QCOMPARE(r.of("restore_skip", "reason", "reallocated").size(), 1);
    }

    /// A failed device-to-host copy makes the snapshot incomplete: declined, exactly one execution.
    void copyFailureDeclinesAndRunsOnce() {
        const Run r = run_workload("accumulate", {"REPLAYSCOPE_PASSES=3", "HSA_SIM_FAIL_D2H_COPY=1"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe())); // a[i] == initial + 1: ran exactly once
        QCOMPARE(r.of("snapshot_failure", "reason", "copy_failed").size(), 1);
        QCOMPARE(r.of("snapshot", "ok", "0").size(), 1);
        QCOMPARE(r.of("dispatch", "decision", "declined_snapshot_incomplete").size(), 1);
        QCOMPARE(r.of("warning", "code", "snapshot_incomplete").size(), 1);
        QCOMPARE(r.of("pass").size(), 0);
    }

    /// Refused symbol enumeration is a whole-snapshot failure.
    void refusedSymbolIterationDeclines() {
        const Run r = run_workload("device_counter", {"HSA_SIM_REFUSE_SYMBOL_ITERATION=*"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QVERIFY(!r.of("snapshot_failure", "reason", "symbol_enumeration").isEmpty());
        QCOMPARE(r.of("dispatch", "decision", "declined_snapshot_incomplete").size(), 1);
    }

    /// A failed restore stops the passes; the application is not aborted.
    void restoreFailureStopsPasses() {
        // H2D copy 1 is the workload's upload; 2 is the restore before pass 1.
        const Run r = run_workload("accumulate", {"REPLAYSCOPE_PASSES=3", "HSA_SIM_FAIL_H2D_COPY=2"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("dispatch", "decision", "declined_restore_failed").size(), 1);
        QCOMPARE(r.of("restore_skip", "reason", "copy_failed").size(), 1);
        QCOMPARE(r.of("pass").size(), 1);
        QCOMPARE(r.of("warning", "code", "restore_failed").size(), 1);
    }

    /// A snapshot larger than the host-memory budget declines with footprint-budget.
    void footprintBudgetDeclines() {
        const Run r = run_workload("accumulate", {"REPLAYSCOPE_HOST_MEMORY_BUDGET=1024"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("dispatch", "decision", "declined_footprint_budget").size(), 1);
        QCOMPARE(r.of("pass").size(), 0);
    }

    /// Kernel exclude regex and dispatch skip decline with reason filtered.
    void filtersDecline() {
        Run r = run_workload("accumulate", {"REPLAYSCOPE_KERNEL_EXCLUDE_REGEX=^accum"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("dispatch", "decision", "declined_filtered").size(), 1);
        r = run_workload("accumulate", {"REPLAYSCOPE_DISPATCH_SKIP=1"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("dispatch", "decision", "declined_filtered").size(), 1);
    }

    /// The fidelity check finds identical outputs for a correctly restored kernel.
    void fidelityCheckMatches() {
        const Run r = run_workload("accumulate", {"REPLAYSCOPE_PASSES=3", "REPLAYSCOPE_FIDELITY_CHECK=1"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("pass").size(), 3);
        QCOMPARE(r.of("warning", "code", "fidelity_mismatch").size(), 0);
    }

    /// Two packets published by one doorbell are both declined multi-packet and run once.
    void multiPacketDeclined() {
        const Run r = run_workload("multi_packet");
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("dispatch", "decision", "declined_multi_packet").size(), 2);
        QCOMPARE(r.of("pass").size(), 0);
    }

    /// Dispatches submitted inside hipGraphLaunch run once; one warning for the process.
    void graphLaunchDeclinedOnceWarned() {
        const Run r = run_workload("graph_launch", {}, /*preload=*/true);
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.of("dispatch", "decision", "declined_graph_launch").size(), 3);
        QCOMPARE(r.of("warning", "code", "graph_launch").size(), 1);
        QCOMPARE(r.of("pass").size(), 0);
    }

    /// Every allocation class is reported with its classification.
    void allocationClassesReported() {
        const Run r = run_workload("alloc_classes");
        QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
        for (const char* c :
             {"tracked", "excluded_kernarg", "excluded_host", "excluded_fine_grained", "excluded_executable"})
            QVERIFY2(!r.of("allocation", "class", c).isEmpty(), c);
        QVERIFY(!r.of("allocation", "api", "memory_allocate").isEmpty());
        QCOMPARE(r.of("dispatch", "decision", "replayed").size(), 1);
    }

    /// Two agents, two threads, 8 replayed dispatches each: no deadlock, both correct.
    void twoAgentsReplayConcurrently() {
        // 3 ms kernels so that windows of the two agents have time to overlap.
        const Run r = run_workload("two_agents",
                                   {"HSA_SIM_GPU_AGENTS=2", "HSA_SIM_KERNEL_TIME_NS=accumulate.kd=3000000"});
        QVERIFY2(r.finished && r.exit_code == 0, qPrintable(r.describe()));
        const auto replayed = r.of("dispatch", "decision", "replayed");
        QCOMPARE(replayed.size(), 16);
        QSet<QString> agents;
        for (const Event& e : replayed)
            agents.insert(e["agent"]);
        QCOMPARE(agents.size(), 2);
        QCOMPARE(r.of("pass").size(), 32);
        // Concurrent, not serialised by one global lock: some pass of GPU0 overlaps some pass of GPU1.
        QHash<QString, QString> agent_of;
        for (const Event& e : replayed)
            agent_of.insert(e["id"], e["agent"]);
        const auto passes = r.of("pass");
        bool overlap = false;
        for (const Event& a : passes)
            for (const Event& b : passes)
                overlap = overlap || (agent_of[a["dispatch"]] != agent_of[b["dispatch"]] &&
                                      a["start"].toULongLong() < b["end"].toULongLong() &&
                                      b["start"].toULongLong() < a["end"].toULongLong());
        QVERIFY2(overlap, "no pass of one agent overlapped a pass of the other");
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
