// SPDX-License-Identifier: MIT
// The -o placeholders of replayscope-run (%r rank, %p pid, %%): one session file per rank of an MPI or
// Slurm job. The expansion itself, then end to end with the emitter probe standing in for the engine.
#include "output_pattern.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <string>

namespace {

/// An environment holding only `vars`.
rs::runner::EnvironmentLookup environment(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

} // namespace

class OutputPatternTest : public QObject {
    Q_OBJECT
  private slots:
    void expandsRankFromTheLauncher_data() {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("rank");
        QTest::newRow("Open MPI") << "OMPI_COMM_WORLD_RANK"
                                  << "3";
        QTest::newRow("PMIx") << "PMIX_RANK"
                              << "4";
        QTest::newRow("MPICH/Hydra") << "PMI_RANK"
                                     << "5";
        QTest::newRow("Slurm srun") << "SLURM_PROCID"
                                    << "6";
    }
    void expandsRankFromTheLauncher() {
        QFETCH(QString, variable);
        QFETCH(QString, rank);
        const auto lookup = environment({{variable.toStdString(), rank.toStdString()}});
        QCOMPARE(rs::runner::expand_output_pattern("run-%r.rsdb", 4242, lookup),
                 "run-" + rank.toStdString() + ".rsdb");
    }
    void openMpiRankComesFirst() {
        const auto lookup = environment({{"SLURM_PROCID", "0"}, {"OMPI_COMM_WORLD_RANK", "7"}});
        QCOMPARE(rs::runner::expand_output_pattern("r%r", 1, lookup), std::string("r7"));
    }
    void rankFallsBackToThePid() {
        const auto lookup = environment({{"PMI_RANK", ""}});
        QCOMPARE(rs::runner::expand_output_pattern("run-%r.rsdb", 4242, lookup),
                 std::string("run-4242.rsdb"));
    }
    void pidPercentAndUnknownSequences() {
        const auto lookup = environment({{"PMI_RANK", "2"}});
        QCOMPARE(rs::runner::expand_output_pattern("/d/%r/%p-%%r-%x-50%", 99, lookup),
                 std::string("/d/2/99-%r-%x-50%"));
        QCOMPARE(rs::runner::expand_output_pattern("plain.rsdb", 99, lookup), std::string("plain.rsdb"));
    }
    /// The rank recorded in the session file: the first launcher variable set, only when it is a number.
    void jobRankOfTheLauncher_data() {
        QTest::addColumn<QString>("open_mpi");
        QTest::addColumn<QString>("slurm");
        QTest::addColumn<int>("expected"); // -1: none
        QTest::newRow("Open MPI wins") << "7"
                                       << "0" << 7;
        QTest::newRow("Slurm only") << ""
                                    << "12" << 12;
        QTest::newRow("none") << ""
                              << "" << -1;
        QTest::newRow("not a number") << "3a"
                                      << "1" << -1;
        QTest::newRow("negative") << "-2"
                                  << "" << -1;
        QTest::newRow("too large") << "99999999999"
                                   << "" << -1;
    }
    void jobRankOfTheLauncher() {
        QFETCH(QString, open_mpi);
        QFETCH(QString, slurm);
        QFETCH(int, expected);
        const auto lookup = environment(
            {{"OMPI_COMM_WORLD_RANK", open_mpi.toStdString()}, {"SLURM_PROCID", slurm.toStdString()}});
        const std::optional<int> rank = rs::runner::job_rank(lookup);
        QCOMPARE(rank.value_or(-1), expected);
    }
    void replayscopeRunWritesOneFilePerRank() {
        QTemporaryDir dir;
        for (const char* rank : {"0", "1"}) {
            QProcess p;
            auto env = QProcessEnvironment::systemEnvironment();
            env.remove("PMIX_RANK");
            env.remove("PMI_RANK");
            env.remove("SLURM_PROCID");
            env.insert("OMPI_COMM_WORLD_RANK", rank);
            p.setProcessEnvironment(env);
            p.start(RS_REPLAYSCOPE_RUN, {"--engine", RS_PROBE, "--no-progress", "-o",
                                         dir.path() + "/run-%r.rsdb", "--", RS_PROBE, "1", "0"});
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 0);
            const QFileInfo session(dir.path() + "/run-" + rank + ".rsdb");
            QVERIFY2(session.exists() && session.size() > 0, qPrintable(p.readAllStandardError()));
        }
    }
};

QTEST_GUILESS_MAIN(OutputPatternTest)
#include "tst_output_pattern.moc"
