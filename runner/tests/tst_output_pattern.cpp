// SPDX-License-Identifier: MIT
// The placeholders of replayscope-run's -d and -o (rocprofv3's keys in both spellings: %h %hostname%,
// %r %rank%, %p %pid%, %j %job%, %q{VAR} %env{VAR}%, and %%), the session path -d and -o make (".rsdb"
// added to a name without an extension): one session file per rank of an MPI or Slurm job. The
// expansion itself, then end to end with the emitter probe standing in for the engine.
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
    void rocprofv3KeysInBothSpellings() {
        const auto lookup = environment({{"PMI_RANK", "2"}, {"SLURM_JOB_ID", "811"}, {"USER", "ada"}});
        QCOMPARE(rs::runner::expand_output_pattern("%h-%hostname%-%r-%rank%-%p-%pid%-%j-%job%", 99, lookup,
                                                   "node7"),
                 std::string("node7-node7-2-2-99-99-811-811"));
        // A long key is not its one-letter form followed by text.
        QCOMPARE(rs::runner::expand_output_pattern("%hostname%", 1, lookup, "n"), std::string("n"));
        QCOMPARE(rs::runner::expand_output_pattern("%hostnames", 1, lookup, "n"), std::string("nostnames"));
    }
    void jobIdFromTheBatchSystem_data() {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("Slurm") << "SLURM_JOB_ID"
                               << "811"
                               << "811";
        QTest::newRow("PBS") << "PBS_JOBID"
                             << "4242.pbs01"
                             << "4242.pbs01";
        QTest::newRow("LSF") << "LSB_JOBID"
                             << "77"
                             << "77";
        QTest::newRow("none: 0, as rocprofv3") << "UNRELATED"
                                               << "1"
                                               << "0";
    }
    void jobIdFromTheBatchSystem() {
        QFETCH(QString, variable);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const auto lookup = environment({{variable.toStdString(), value.toStdString()}});
        QCOMPARE(rs::runner::expand_output_pattern("job-%j", 1, lookup, "h"),
                 "job-" + expected.toStdString());
    }
    void slurmJobIdComesFirst() {
        const auto lookup = environment({{"LSB_JOBID", "3"}, {"PBS_JOBID", "2"}, {"SLURM_JOB_ID", "1"}});
        QCOMPARE(rs::runner::expand_output_pattern("%job%", 1, lookup, "h"), std::string("1"));
    }
    void environmentVariables() {
        const auto lookup = environment({{"RUN_TAG", "nightly"}, {"ODD", " /a b/c\td"}, {"lower_1", "x"}});
        QCOMPARE(rs::runner::expand_output_pattern("%q{RUN_TAG}-%env{RUN_TAG}%", 1, lookup, "h"),
                 std::string("nightly-nightly"));
        // Leading spaces, tabs and '/' dropped, the others become '_': a value names no directory.
        QCOMPARE(rs::runner::expand_output_pattern("%q{ODD}", 1, lookup, "h"), std::string("a_b_c_d"));
        QCOMPARE(rs::runner::expand_output_pattern("[%q{UNSET}]", 1, lookup, "h"), std::string("[]"));
        QCOMPARE(rs::runner::expand_output_pattern("%q{lower_1}", 1, lookup, "h"), std::string("x"));
        // Not a complete key: left as written.
        QCOMPARE(rs::runner::expand_output_pattern("%q{RUN_TAG-%env{RUN_TAG}-%q{}", 1, lookup, "h"),
                 std::string("%q{RUN_TAG-%env{RUN_TAG}-%q{}"));
    }
    void unknownKeysStayAsWritten() {
        const auto lookup = environment({});
        QCOMPARE(rs::runner::expand_output_pattern("%x-%ppid%-%argv%-%psize%-%", 5, lookup, "h"),
                 std::string("%x-%ppid%-%argv%-%psize%-%"));
        QCOMPARE(rs::runner::expand_output_pattern("%%h %%%h", 5, lookup, "node"), std::string("%h %node"));
    }
    void hostNameIsThisMachines() {
        const std::string host = rs::runner::host_name();
        QVERIFY(!host.empty());
        QCOMPARE(rs::runner::expand_output_pattern("%h", 1, environment({})), host);
    }
    void outputPath_data() {
        QTest::addColumn<QString>("directory");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("name without extension") << ""
                                                << "results"
                                                << "results.rsdb";
        QTest::newRow("name with extension") << ""
                                             << "results.db"
                                             << "results.db";
        QTest::newRow("path with a directory part") << ""
                                                    << "out/run-%r.rsdb"
                                                    << "out/run-3.rsdb";
        QTest::newRow("directory and name") << "out/%h"
                                            << "run"
                                            << "out/node/run.rsdb";
        QTest::newRow("directory with trailing slash") << "out//"
                                                       << "run.rsdb"
                                                       << "out/run.rsdb";
        QTest::newRow("root directory") << "/"
                                        << "run"
                                        << "/run.rsdb";
        QTest::newRow("name with a subdirectory") << "out"
                                                  << "%p/run"
                                                  << "out/42/run.rsdb";
        QTest::newRow("absolute name ignores the directory") << "out"
                                                             << "/tmp/x/run"
                                                             << "/tmp/x/run.rsdb";
        QTest::newRow("default name, as rocprofv3") << "out"
                                                    << ""
                                                    << "out/node/42.rsdb";
        QTest::newRow("no default directory") << ""
                                              << ""
                                              << "node/42.rsdb";
        QTest::newRow("dot in a directory only") << "v1.2"
                                                 << "run"
                                                 << "v1.2/run.rsdb";
        QTest::newRow("hidden file name") << ""
                                          << ".run"
                                          << ".run.rsdb";
    }
    void outputPath() {
        QFETCH(QString, directory);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        std::string error;
        const auto path = rs::runner::output_path(directory.toStdString(), name.toStdString(), 42, error,
                                                  environment({{"PMI_RANK", "3"}}), "node");
        QVERIFY2(path.has_value(), error.c_str());
        QCOMPARE(*path, expected.toStdString());
    }
    void outputPathNamingADirectoryIsAnError() {
        for (const char* name : {"out/", ".", "out/..", "%q{UNSET}"}) {
            std::string error;
            QVERIFY2(!rs::runner::output_path("d", name, 1, error, environment({}), "h"), name);
            QVERIFY2(error.find("names a directory") != std::string::npos, error.c_str());
        }
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
