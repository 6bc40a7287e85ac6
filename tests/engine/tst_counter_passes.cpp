// SPDX-License-Identifier: MIT
// Hardware counters in the passes of the engine's windows (docs/counters.md), end to end on the simulated
// runtime with its aqlprofile extension: HSA workloads of workloads/ under `replayscope-run --simulate
// --pmc/-i`. The kernels are the workloads' host stand-ins, for which the simulated agent counts waves
// from each dispatch's grid: expected values come from the workloads' grid sizes (repeated here), a wave
// being 64 work-items on gfx90a. Two agents collect at once, each on its own worker, which the tsan preset
// checks. Without the aqlprofile extension (HSA_SIM_NO_AQLPROFILE) the passes are timed only.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

#include <memory>

namespace {

constexpr qint64 kWaveSize = 64;
constexpr qint64 kAccumulateCount = 4096; // workloads/accumulate.cpp: one dispatch over kCount work-items
constexpr qint64 kTwoAgentsCount = 2048;  // workloads/two_agents.cpp: kDispatches per agent over kCount
constexpr qint64 kTwoAgentsDispatches = 8;

std::unique_ptr<rs::test::SessionRun> run(const char* workload, const QStringList& options,
                                          const QStringList& env = {}, const QStringList& arguments = {}) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("counters%1.rsdb").arg(++counter));
    auto r = std::make_unique<rs::test::SessionRun>();
    rs::test::run_and_open(*r, RS_RUNNER_PATH,
                           QStringList{"--simulate", "--no-progress", "-o", session} + options +
                               QStringList{"--", QStringLiteral(RS_WORKLOAD_DIR "/") + workload} + arguments,
                           rs::test::environment_with(env), session, 240000);
    return r;
}

} // namespace

class TstCounterPasses : public QObject {
    Q_OBJECT
  private slots:
    /// Two pmc: lines with --passes 1: two passes, SQ_WAVES in pass 0 equal to the grid's waves, GRBM_COUNT
    /// in pass 1, each once; the program sees one execution (its own check).
    void inputLinesMakePasses() {
        QTemporaryDir dir;
        const QString input = dir.filePath("input.txt");
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("pmc: SQ_WAVES\npmc: GRBM_COUNT\n");
        f.close();
        const auto r = run("accumulate", {"-i", input, "--passes", "1"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("\nPASS"), qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(), QStringList{"accumulate.kd:replayed"});
        QCOMPARE(r->passes(), 2);
        QCOMPARE(r->rows("SELECT pass_index, counter FROM pass_counter_values ORDER BY pass_index"),
                 (QList<QStringList>{{"0", "SQ_WAVES"}, {"1", "GRBM_COUNT"}}));
        QCOMPARE(r->value("SELECT value FROM pass_counter_values WHERE counter = 'SQ_WAVES'"),
                 kAccumulateCount / kWaveSize);
        QCOMPARE(r->warnings("counter-read-failed"), QStringList{});
    }

    /// Two agents, each thread with its own queue: every replayed dispatch on either agent has its
    /// SQ_WAVES, collected in pass 0 by its agent's worker, and the buffers come out right.
    void twoAgentsCollectAtOnce() {
        const auto r = run("two_agents", {"--pmc", "SQ_WAVES", "SQ_INSTS_VALU"}, {"HSA_SIM_GPU_AGENTS=2"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("\nPASS"), qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->value("SELECT count(*) FROM dispatches WHERE decision = 0"), 2 * kTwoAgentsDispatches);
        QCOMPARE(r->value("SELECT count(DISTINCT agent) FROM dispatches WHERE decision = 0"), 2);
        QCOMPARE(
            r->rows("SELECT DISTINCT pass_index, value FROM pass_counter_values WHERE counter = 'SQ_WAVES'"),
            (QList<QStringList>{{"0", QString::number(kTwoAgentsCount / kWaveSize)}}));
        QCOMPARE(r->value("SELECT count(*) FROM pass_counter_values WHERE counter = 'SQ_WAVES'"),
                 2 * kTwoAgentsDispatches);
        QCOMPARE(r->value("SELECT count(*) FROM pass_counter_values WHERE counter = 'SQ_INSTS_VALU'"),
                 2 * kTwoAgentsDispatches);
        QCOMPARE(r->warnings("counter-read-failed"), QStringList{});
    }

    /// No aqlprofile extension (HSA_SIM_NO_AQLPROFILE=1, as ROCr without AMD's library): counters asked for
    /// give exactly one counters-unavailable warning, and the passes still run, timed, without counters.
    void noExtensionPassesTimedOnly() {
        const auto r = run("accumulate", {"--pmc", "SQ_WAVES", "GRBM_COUNT", "--passes", "3"},
                           {"HSA_SIM_NO_AQLPROFILE=1"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("\nPASS"), qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(), QStringList{"accumulate.kd:replayed"});
        const QStringList unavailable = r->warnings("counters-unavailable");
        QCOMPARE(unavailable.size(), 1);
        QVERIFY2(unavailable[0].contains("HSA_EXTENSION_AMD_AQLPROFILE") &&
                     unavailable[0].contains("the passes are timed only"),
                 qPrintable(unavailable[0]));
        QCOMPARE(r->value("SELECT w.dispatch_id FROM warnings w JOIN enum_names e ON e.enum = 'warning' AND "
                          "e.code = w.code WHERE e.name = 'counters-unavailable'"),
                 0);
        // Three passes, each with its kernel's start and end ticks; no counter value.
        QCOMPARE(r->passes(), 3);
        QCOMPARE(r->value("SELECT count(*) FROM passes WHERE end_tick > start_tick AND start_tick > 0"), 3);
        QCOMPARE(r->value("SELECT count(*) FROM pass_counters"), 0);
        QCOMPARE(r->warnings("counter-read-failed"), QStringList{});
    }
};

QTEST_GUILESS_MAIN(TstCounterPasses)
#include "tst_counter_passes.moc"
