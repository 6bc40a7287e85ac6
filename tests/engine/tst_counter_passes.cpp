// SPDX-License-Identifier: MIT
// Hardware counters in the passes of the engine's windows (docs/counters.md), end to end on the simulated
// runtime with its aqlprofile extension: HSA workloads of workloads/ under `replayscope-run --simulate
// --pmc/-i`. The kernels are the workloads' host stand-ins, for which the simulated agent counts waves
// from each dispatch's grid: expected values come from the workloads' grid sizes (repeated here), a wave
// being 64 work-items on gfx90a. Two agents collect at once, each on its own worker, which the tsan preset
// checks. Without the aqlprofile extension (HSA_SIM_NO_AQLPROFILE) the passes are timed only. The counter
// check of --fidelity-check runs on valu_trips, whose kernel (workloads/kernels/valu_trips.s) the
// interpreter executes: its SQ_INSTS_VALU counts are derived here from that source text.
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
constexpr qint64 kValuTripsInitial = 5;         // workloads/valu_trips.cpp: *trips before the dispatch
constexpr qint64 kValuTripsBufferBytes = 20484; // workloads/valu_trips.cpp: the trips buffer's size

#ifdef RS_VALU_TRIPS_S
/// VALU instructions of one wave of valu_trips whose loop makes `trips` trips, read from the kernel's
/// source: every v_ instruction from the label to s_endpgm once, those of the loop body once per trip.
qint64 valu_of_wave(qint64 trips) {
    QFile file(QStringLiteral(RS_VALU_TRIPS_S));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        qFatal("cannot read %s", RS_VALU_TRIPS_S);
    }
    qint64 valu = 0;
    bool inside = false, loop = false;
    for (QString line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        line = line.section(QStringLiteral("//"), 0, 0).trimmed();
        if (!inside) {
            inside = line == QStringLiteral("valu_trips:");
            continue;
        }
        if (line == QStringLiteral(".Lvalu_trips_body:")) {
            loop = true;
            continue;
        }
        if (line.startsWith(QStringLiteral("v_"))) {
            valu += loop ? trips : 1;
        } else if (line.startsWith(QStringLiteral("s_cbranch"))) {
            loop = false;
        } else if (line == QStringLiteral("s_endpgm")) {
            return valu;
        }
    }
    qFatal("valu_trips not found in %s", RS_VALU_TRIPS_S);
    return 0;
}
#endif

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

    /// --fidelity-check on a kernel made non-deterministic on purpose: the trips buffer is hidden from the
    /// snapshot (HSA_SIM_POINTER_INFO_UNKNOWN_BYTES: the engine classifies it unknown-pointer), so pass k
    /// reads the trips pass k - 1 stored, kValuTripsInitial + k, and executes more VALU instructions than
    /// pass 0. The memory the snapshot holds matched in every pass; the counter check alone flags the
    /// dispatch: one counter-mismatch warning with the counts per pass, the passes after 0 with fidelity 0.
    /// Nothing was requested, so no counter value is reported.
    void counterCheckFlagsHiddenState() {
#ifndef RS_VALU_TRIPS_S
        QSKIP("valu_trips not built (no clang-19 to assemble its gfx90a kernel)");
#else
        constexpr qint64 kPasses = 3;
        const auto r = run("valu_trips", {"--fidelity-check", "--passes", QString::number(kPasses)},
                           {"HSA_SIM_POINTER_INFO_UNKNOWN_BYTES=" + QString::number(kValuTripsBufferBytes)},
                           {QString::number(kPasses + 1)}); // the passes and the dispatch's own execution
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("\nPASS"), qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(), QStringList{"valu_trips.kd:replayed"});
        QCOMPARE(r->value(QStringLiteral("SELECT count(*) FROM allocations a JOIN enum_names e ON e.enum = "
                                         "'classification' AND e.code = a.classification WHERE "
                                         "e.name = 'unknown-pointer' AND a.size = %1")
                              .arg(kValuTripsBufferBytes)),
                 1);
        const qint64 id = r->value("SELECT id FROM dispatches");
        QStringList counts;
        for (qint64 k = 0; k < kPasses; ++k) {
            counts << QString::number(valu_of_wave(kValuTripsInitial + k)); // one wave
        }
        QCOMPARE(counts, (QStringList{"13", "15", "17"})); // 3 + 2 * trips: the source as written today
        QCOMPARE(
            r->warnings("counter-mismatch"),
            QStringList{QStringLiteral("counter-mismatch: dispatch %1 (valu_trips.kd): SQ_INSTS_VALU per "
                                       "pass: %2; passes differing from pass 0: 1, 2; those passes did "
                                       "not execute the kernel as pass 0 did: they read other inputs "
                                       "(state the snapshot does not hold) or the kernel is not "
                                       "deterministic")
                            .arg(id)
                            .arg(counts.join(", "))});
        QCOMPARE(r->rows("SELECT idx, fidelity FROM passes ORDER BY idx"),
                 (QList<QStringList>{{"0", "1"}, {"1", "0"}, {"2", "0"}}));
        QCOMPARE(r->warnings("fidelity-mismatch"), QStringList{});
        QCOMPARE(r->value("SELECT count(*) FROM pass_counters"), 0);
        QCOMPARE(r->warnings("counters-unavailable"), QStringList{});
        QCOMPARE(r->warnings("counter-read-failed"), QStringList{});
#endif
    }

    /// The same kernel with its buffer snapshotted is deterministic: every pass starts from the same trips,
    /// so --fidelity-check counts the same SQ_INSTS_VALU in every pass and says nothing. SQ_INSTS_VALU asked
    /// for too is reported once, in pass 0, with the count of one plain execution; every pass matches.
    void counterCheckQuietWhenDeterministic() {
#ifndef RS_VALU_TRIPS_S
        QSKIP("valu_trips not built (no clang-19 to assemble its gfx90a kernel)");
#else
        const auto r =
            run("valu_trips", {"--fidelity-check", "--passes", "3", "--pmc", "SQ_INSTS_VALU", "SQ_WAVES"}, {},
                {"1"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("\nPASS"), qPrintable(r->describe()));
        QVERIFY(r->complete());
        QCOMPARE(r->decisions(), QStringList{"valu_trips.kd:replayed"});
        QCOMPARE(r->rows("SELECT pass_index, counter, value FROM pass_counter_values ORDER BY counter"),
                 (QList<QStringList>{{"0", "SQ_INSTS_VALU", QString::number(valu_of_wave(kValuTripsInitial))},
                                     {"0", "SQ_WAVES", "1"}}));
        QCOMPARE(r->rows("SELECT idx, fidelity FROM passes ORDER BY idx"),
                 (QList<QStringList>{{"0", "1"}, {"1", "1"}, {"2", "1"}}));
        QCOMPARE(r->warnings("counter-mismatch"), QStringList{});
        QCOMPARE(r->warnings("fidelity-mismatch"), QStringList{});
        QCOMPARE(r->warnings("counters-unavailable"), QStringList{});
        QCOMPARE(r->warnings("counter-read-failed"), QStringList{});
#endif
    }
};

QTEST_GUILESS_MAIN(TstCounterPasses)
#include "tst_counter_passes.moc"
