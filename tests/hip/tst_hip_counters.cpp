// SPDX-License-Identifier: MIT
// Hardware counters per pass (docs/counters.md) with a real HIP program, workloads/hip/hip_memory.hip, under
// `replayscope-run --simulate --executor isa`: the simulated agent's aqlprofile extension counts exactly
// what the interpreter executes. Expected values come from the program's own launch (its constants,
// repeated here), never from a run's output.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

#include <memory>

namespace {

// hip_memory's `bump` launch: kCount floats, blocks of 256 work-items; gfx90a runs 64 work-items per wave.
constexpr qint64 kCount = 263168, kBlock = 256, kWaveSize = 64;
constexpr qint64 kBumpWaves = (kCount + kBlock - 1) / kBlock * (kBlock / kWaveSize); // every block 4 waves

/// Runs hip_memory under replayscope-run --simulate --executor isa with `options` and opens the session.
std::unique_ptr<rs::test::SessionRun> replayed(const QStringList& options) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("counters-%1.rsdb").arg(++counter));
    QProcessEnvironment env = rs::test::environment_with({});
    env.remove("HSA_SIM_STANDINS");
    env.insert("HSA_SIM_EXECUTOR", "isa");
    auto r = std::make_unique<rs::test::SessionRun>();
    rs::test::run_and_open(*r, RS_RUNNER_PATH,
                           QStringList{"--simulate", "--no-progress", "--executor", "isa", "-o", session} +
                               options + QStringList{"--", RS_HIP_PROGRAM_DIR "/hip_memory"},
                           env, session, 300000);
    return r;
}

/// "pass counter value" rows of the dispatch of `kernel` (its mangled name as the session stores it).
QList<QStringList> counters_of(const rs::test::SessionRun& r, const QString& kernel) {
    return r.rows(
        "SELECT v.pass_index, v.counter, v.value FROM pass_counter_values v JOIN dispatches d ON "
        "d.process = v.process AND d.id = v.dispatch JOIN strings s ON s.process = d.process AND s.id = "
        "d.kernel_name_id WHERE s.text = '" +
        kernel + "' ORDER BY v.pass_index, v.counter");
}

QString passes_of(const rs::test::SessionRun& r, const QString& kernel) {
    const auto rows =
        r.rows("SELECT group_concat(p.idx, ',') FROM (SELECT p.idx FROM passes p JOIN dispatches d "
               "ON d.process = p.process AND d.id = p.dispatch_id JOIN strings s ON s.process = "
               "d.process AND s.id = d.kernel_name_id WHERE s.text = '" +
               kernel + "' ORDER BY p.idx) p");
    return rows.isEmpty() ? QString() : rows.first().first();
}

constexpr const char* kBump = "_Z4bumpPfi.kd";
constexpr const char* kMirror = "_Z6mirrorPKfPfS1_ii.kd";

} // namespace

class TstHipCounters : public QObject {
    Q_OBJECT
  private slots:
    /// --pmc SQ_WAVES GRBM_COUNT with the default 2 passes: one group, collected in pass 0 only; SQ_WAVES
    /// is the wavefronts of bump's grid; the program's results are as without the engine (its PASS).
    void oneGroupInPassZero() {
        const auto r = replayed({"--pmc", "SQ_WAVES", "GRBM_COUNT"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("data incremented once") &&
                     r->stdout_text.contains("\nPASS"),
                 qPrintable(r->describe()));
        QVERIFY(r->complete());
        QVERIFY2(r->stderr_text.contains("counters: 1 group -> 2 passes: pass 0: SQ_WAVES GRBM_COUNT"),
                 qPrintable(r->stderr_text));
        QCOMPARE(passes_of(*r, kBump), QString("0,1"));
        const auto rows = counters_of(*r, kBump);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0], (QStringList{"0", "GRBM_COUNT", rows[0][2]}));
        QVERIFY2(rows[0][2].toLongLong() > 0, qPrintable(rows[0][2]));
        QCOMPARE(rows[1], (QStringList{"0", "SQ_WAVES", QString::number(kBumpWaves)}));
        // mirror writes host and fine-grained memory: declined, so neither passes nor counters.
        QVERIFY(counters_of(*r, kMirror).isEmpty());
        QCOMPARE(r->warnings("counters-unavailable"), QStringList{});
        QCOMPARE(r->warnings("counter-read-failed"), QStringList{});
    }

    /// Three groups (an input file's two pmc: lines, then --pmc) with --passes 2: three passes, each
    /// counter reported once, in the pass of its group. Every wave of bump runs the same instructions (the
    /// grid is a whole number of full waves), so each instruction count is a multiple of the waves.
    void severalGroupsSeveralPasses() {
        QTemporaryDir dir;
        const QString input = dir.filePath("input.txt");
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# rocprofv3 text input\npmc: SQ_WAVES GRBM_COUNT\npmc: SQ_INSTS_VALU TCC_REQ\n");
        f.close();
        const auto r = replayed({"-i", input, "--pmc", "SQ_INSTS_SALU", "SQ_WAVES", "--passes", "2"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("\nPASS"), qPrintable(r->describe()));
        QVERIFY2(
            r->stderr_text.contains("counters: 3 groups -> 3 passes: pass 0: SQ_WAVES GRBM_COUNT; pass 1: "
                                    "SQ_INSTS_VALU TCC_REQ; pass 2: SQ_INSTS_SALU"),
            qPrintable(r->stderr_text));
        QCOMPARE(passes_of(*r, kBump), QString("0,1,2"));
        const auto rows = counters_of(*r, kBump);
        QStringList named;
        for (const QStringList& row : rows) {
            named << row[0] + ":" + row[1];
            const qint64 value = row[2].toLongLong();
            QVERIFY2(value > 0, qPrintable(row.join(' ')));
            if (row[1].startsWith("SQ_INSTS_")) {
                QCOMPARE(value % kBumpWaves, 0);
            }
        }
        // Once per dispatch each, in its group's pass (SQ_WAVES of the --pmc line was collected in pass 0).
        QCOMPARE(named, (QStringList{"0:GRBM_COUNT", "0:SQ_WAVES", "1:SQ_INSTS_VALU", "1:TCC_REQ",
                                     "2:SQ_INSTS_SALU"}));
        QCOMPARE(rows[1][2], QString::number(kBumpWaves));
        QCOMPARE(r->value("SELECT count(*) FROM pass_counters"), 5);
    }

    /// An unknown counter ends replayscope-run before the program starts, with the usage-error status.
    void unknownCounterIsAUsageError() {
        const auto r = replayed({"--pmc", "SQ_WAVES", "SQ_NOT_A_COUNTER"});
        QCOMPARE(r->exit_code, 125);
        QVERIFY2(r->stderr_text.contains("--pmc: unknown counter 'SQ_NOT_A_COUNTER'"),
                 qPrintable(r->stderr_text));
        QVERIFY(!r->stdout_text.contains("alloc device"));
    }
};

QTEST_GUILESS_MAIN(TstHipCounters)
#include "tst_hip_counters.moc"
