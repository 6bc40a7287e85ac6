// SPDX-License-Identifier: MIT
// The store and restore options of replayscope-run (--snapshot-store, --device-store-reserve, --restore,
// --restore-chunk-size): parsing, their errors, the REPLAYSCOPE_* variables they become and the settings
// a session records; the engine's chunk-hash stand-in under --simulate; the terminal summary of restores.
// The rocprofv3 spellings: -d/-o (directories created, ".rsdb" added), -f, --output-format and --stats
// (the files beside the session, the inspector's part through a stand-in inspector), --log-level and
// --quiet, -M/-T, --kernel-iteration-range; every unusable value stops the run before the program starts
// (exit 125, one line).
#include "byte_size.h"
#include "command_line.h"
#include "counter_options.h"
#include "kernel_stats.h"
#include "output_exports.h"
#include "progress_line.h"
#include "replay_options.h"
#include "replayscope/ipc/environment.h"
#include "replayscope/ipc/session_store.h"
#include "restore_summary.h"
#include "standins.h"
#include "target_environment.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

namespace {

using rs::runner::ReplayOptions;
using rs::runner::StoreOptionText;

/// parse_store_options on `text`: the error ("" when accepted) and the options it produced.
std::pair<std::string, ReplayOptions> parse(const StoreOptionText& text) {
    ReplayOptions options;
    std::string error;
    if (!rs::runner::parse_store_options(text, options, error)) {
        return {error.empty() ? std::string("(no message)") : error, options};
    }
    return {std::string(), options};
}

struct Run {
    int exit_code;
    QString err;
};

Run run(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(RS_REPLAYSCOPE_RUN, args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

/// Writes `text` into the executable file `path`.
bool writeScript(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() &&
           f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

/// The session's recorded configuration (the probe writes the variables named in RS_PROBE_CONFIG).
QString configuration(const QString& path) {
    sqlite3* db = nullptr;
    QString text;
    if (sqlite3_open_v2(path.toLocal8Bit().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db,
                               "SELECT s.text FROM processes p JOIN strings s ON s.process = p.process AND "
                               "s.id = p.configuration_id",
                               -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW) {
            text = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return text;
}

/// The derived_counters table of the session file `path`, names comma-separated ("" without the table).
QString derivedCounters(const QString& path) {
    sqlite3* db = nullptr;
    QStringList names;
    if (sqlite3_open_v2(path.toLocal8Bit().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT name FROM derived_counters ORDER BY name", -1, &st, nullptr) ==
            SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                names << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return names.join(',');
}

} // namespace

class RunnerOptionsTest : public QObject {
    Q_OBJECT
  private slots:
    /// The status line is drawn only on a terminal that the program's output does not share: with stdout
    /// on the terminal too, the program's lines would run into it.
    void progressLineOnlyBesideRedirectedOutput() {
        using rs::runner::ProgressLine;
        QVERIFY(ProgressLine::shown_for(true, true, false));
        QVERIFY(!ProgressLine::shown_for(true, true, true));
        QVERIFY(!ProgressLine::shown_for(true, false, false));
        QVERIFY(!ProgressLine::shown_for(false, true, false));
    }

    void sizesTakeBinarySuffixes() {
        using rs::runner::parse_bytes;
        QCOMPARE(parse_bytes("65536"), std::optional<std::uint64_t>(65536));
        QCOMPARE(parse_bytes("64K"), std::optional<std::uint64_t>(65536));
        QCOMPARE(parse_bytes("64KiB"), std::optional<std::uint64_t>(65536));
        QCOMPARE(parse_bytes("2M"), std::optional<std::uint64_t>(2u << 20));
        QCOMPARE(parse_bytes("1GiB"), std::optional<std::uint64_t>(1u << 30));
        QCOMPARE(parse_bytes("3T"), std::optional<std::uint64_t>(3ull << 40));
        QCOMPARE(parse_bytes("12B"), std::optional<std::uint64_t>(12));
        for (const char* bad : {"", "K", "-4K", "4 K", "4k", "4KB", "4X", "1.5G", "99999999999999999999",
                                "17179869184G" /* 2^64 */}) {
            QVERIFY2(!parse_bytes(bad), bad);
        }
        QCOMPARE(parse_bytes("16777215T"), std::optional<std::uint64_t>(16777215ull << 40)); // below 2^64
    }

    void defaultsAreAutoAndDirty() {
        const auto [error, o] = parse({});
        QCOMPARE(error, std::string());
        QCOMPARE(o.snapshot_store, std::string("auto"));
        QCOMPARE(o.restore, std::string("dirty"));
        QVERIFY(!o.device_store_reserve);
        QVERIFY(!o.restore_chunk_size);
    }

    void valuesAreAccepted() {
        const auto [error, o] = parse({"device", "512M", "dirty-host", "1M"});
        QCOMPARE(error, std::string());
        QCOMPARE(o.snapshot_store, std::string("device"));
        QCOMPARE(o.restore, std::string("dirty-host"));
        QCOMPARE(o.device_store_reserve, std::optional<std::uint64_t>(512u << 20));
        QCOMPARE(o.restore_chunk_size, std::optional<std::uint64_t>(1u << 20));
        QCOMPARE(parse({"host", "0", "full", "4096"}).first, std::string());
        QCOMPARE(parse({"auto", "", "dirty", "1G"}).second.restore_chunk_size,
                 std::optional<std::uint64_t>(1u << 30));
    }

    void errorsNameOptionValueAndForm_data() {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("reserve");
        QTest::addColumn<QString>("restore");
        QTest::addColumn<QString>("chunk");
        QTest::addColumn<QString>("message");
        QTest::newRow("store") << "gpu"
                               << ""
                               << "dirty"
                               << ""
                               << "--snapshot-store: 'gpu' is not one of auto, host, device";
        QTest::newRow("restore") << "auto"
                                 << ""
                                 << "partial"
                                 << ""
                                 << "--restore: 'partial' is not one of full, dirty, dirty-host";
        QTest::newRow("reserve")
            << "auto"
            << "1Q"
            << "dirty"
            << ""
            << "--device-store-reserve: '1Q' is not a size (bytes with an optional K, M, "
               "G or T suffix, or KiB, MiB, GiB, TiB: powers of 1024; e.g. 64K)";
        QTest::newRow("chunk not a size") << "auto"
                                          << ""
                                          << "dirty"
                                          << "big"
                                          << "--restore-chunk-size: 'big' is not a size";
        QTest::newRow("chunk not a power of two")
            << "auto"
            << ""
            << "dirty"
            << "5000"
            << "--restore-chunk-size: 5000 is not a power of two from 4K (4096) to 1G (1073741824)";
        QTest::newRow("chunk too small")
            << "auto"
            << ""
            << "dirty"
            << "2K"
            << "--restore-chunk-size: 2K (2048 bytes) is not a power of two from 4K (4096) to 1G";
        QTest::newRow("chunk too large")
            << "auto"
            << ""
            << "dirty"
            << "2G"
            << "--restore-chunk-size: 2G (2147483648 bytes) is not a power of two";
        QTest::newRow("chunk zero") << "auto"
                                    << ""
                                    << "dirty"
                                    << "0"
                                    << "--restore-chunk-size: 0 is not a power of two";
    }
    void errorsNameOptionValueAndForm() {
        QFETCH(QString, store);
        QFETCH(QString, reserve);
        QFETCH(QString, restore);
        QFETCH(QString, chunk);
        QFETCH(QString, message);
        ReplayOptions options;
        options.restore = "unchanged";
        std::string error;
        QVERIFY(!rs::runner::parse_store_options(
            {store.toStdString(), reserve.toStdString(), restore.toStdString(), chunk.toStdString()}, options,
            error));
        QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
        QCOMPARE(options.restore, std::string("unchanged")); // left as it was
    }

    void optionsBecomeTheEngineVariables() {
        namespace env = rs::ipc::env;
        rs::runner::TargetEnvironment e;
        ReplayOptions o = parse({"host", "256M", "full", "128K"}).second;
        e.set_replay_options(o);
        QCOMPARE(e.get(env::kSnapshotStore), std::optional<std::string>("host"));
        QCOMPARE(e.get(env::kRestore), std::optional<std::string>("full"));
        QCOMPARE(e.get(env::kDeviceStoreReserve), std::optional<std::string>("268435456"));
        QCOMPARE(e.get(env::kRestoreChunkSize), std::optional<std::string>("131072"));
        QVERIFY(QString::fromStdString(e.describe_replay_options())
                    .contains("REPLAYSCOPE_RESTORE_CHUNK_SIZE=131072"));
        // Sizes not given are left to the engine's defaults.
        rs::runner::TargetEnvironment d;
        d.set_replay_options(ReplayOptions{});
        QCOMPARE(d.get(env::kSnapshotStore), std::optional<std::string>("auto"));
        QCOMPARE(d.get(env::kRestore), std::optional<std::string>("dirty"));
        QVERIFY(!d.get(env::kDeviceStoreReserve));
        QVERIFY(!d.get(env::kRestoreChunkSize));
    }

    void chunkHashStandinIsAppendedOnce() {
        using rs::runner::with_chunk_hash_standin;
        QCOMPARE(with_chunk_hash_standin("", "/l/c.so"), std::string("/l/c.so"));
        QCOMPARE(with_chunk_hash_standin("/a/p.so", "/l/c.so"), std::string("/a/p.so:/l/c.so"));
        QCOMPARE(with_chunk_hash_standin("/a/p.so:/l/c.so", "/l/c.so"), std::string("/a/p.so:/l/c.so"));
        QCOMPARE(with_chunk_hash_standin("/l/c.so.old", "/l/c.so"), std::string("/l/c.so.old:/l/c.so"));
        QCOMPARE(with_chunk_hash_standin("/a/p.so", ""), std::string("/a/p.so"));
        QTemporaryDir dir;
        QCOMPARE(rs::runner::chunk_hash_standin((dir.path() + "/libreplayscope_engine.so").toStdString()),
                 std::string());
        QFile lib(dir.filePath("libreplayscope_chunk_hash_standins.so"));
        QVERIFY(lib.open(QIODevice::WriteOnly));
        lib.close();
        QCOMPARE(rs::runner::chunk_hash_standin((dir.path() + "/libreplayscope_engine.so").toStdString()),
                 QFileInfo(lib.fileName()).canonicalFilePath().toStdString());
    }

    void summaryTotalsMovedAgainstFootprint() {
        rs::ipc::RestoreTotals t;
        QCOMPARE(rs::runner::restore_summary(t), std::string()); // no snapshot: nothing to say
        t.format_version = 4;
        t.snapshots = 4;
        t.footprint_bytes = 256u << 20;
        t.device_snapshots = 3;
        t.mixed_snapshots = 1;
        t.restores = 8;
        t.full_restore_bytes = 8ull * (64u << 20);
        t.restored_bytes_host = 65536;
        t.restored_bytes_device = 5u << 20;
        t.dirty_chunks = 81;
        t.total_chunks = 8192;
        t.missed_chunks = 0;
        t.hash_ns = 1'500'000;
        t.restore_ns = 2'250'000;
        QCOMPARE(
            rs::runner::restore_summary(t),
            std::string("snapshots: 4, footprint 256.0 MiB; stores: 3 device, 1 mixed\n"
                        "restores: 8, footprint x restores 512.0 MiB, moved 5.1 MiB (1.0%): 64.0 KiB over "
                        "the host link, 5.0 MiB inside the device\n"
                        "chunks: 81 of 8192 dirty, 0 missed; hashing 1.500 ms of 2.250 ms restoring\n"));
        // Format 5 and later: how long the windows held their dispatches.
        t.windows = 4;
        t.window_ns = 812'500'000;
        t.longest_window_ns = 250'125'000;
        QVERIFY(rs::runner::restore_summary(t).ends_with(
            "restoring\nwindows: 4 held their dispatches 812.500 ms in all, the longest 250.125 ms (events "
            "the "
            "application records around a replayed dispatch include its window)\n"));
        // A format-3 file: every byte over the host link, from pageable memory, nothing hashed.
        rs::ipc::RestoreTotals old;
        old.format_version = 3;
        old.snapshots = old.host_snapshots = old.pageable_snapshots = 2;
        old.footprint_bytes = 2048;
        old.restores = 2;
        old.full_restore_bytes = old.restored_bytes_host = 2048;
        old.restore_ns = 4000;
        QCOMPARE(
            rs::runner::restore_summary(old),
            std::string("snapshots: 2, footprint 2.0 KiB; stores: 2 host, 2 with a pageable (not "
                        "page-locked) host store\n"
                        "restores: 2, footprint x restores 2.0 KiB, moved 2.0 KiB (100.0%): 2.0 KiB over "
                        "the host link, 0 B inside the device\n"
                        "chunks: none hashed (full restores); 0.004 ms restoring\n"));
    }

    void iterationRangesAsRocprofv3Writes() {
        using rs::runner::IterationRange;
        std::vector<IterationRange> ranges;
        std::string error;
        QVERIFY2(rs::runner::parse_iteration_ranges("[1-3],[5]", ranges, error), error.c_str());
        QCOMPARE(ranges.size(), std::size_t(2));
        QCOMPARE(ranges[0].first, std::uint64_t(1));
        QCOMPARE(ranges[0].last, std::uint64_t(3));
        QCOMPARE(ranges[1].first, std::uint64_t(5));
        QCOMPARE(ranges[1].last, std::uint64_t(5));
        QVERIFY(rs::runner::parse_iteration_ranges("[1, 3, 5, [8-12]]", ranges, error));
        QCOMPARE(ranges.size(), std::size_t(4));
        QCOMPARE(ranges[3].first, std::uint64_t(8));
        QCOMPARE(ranges[3].last, std::uint64_t(12));
        // The canonical text replayscope-run passes to the engine, which reads it back unchanged.
        QCOMPARE(rs::ipc::format_iteration_ranges(ranges), std::string("[1],[3],[5],[8-12]"));
        std::vector<IterationRange> again;
        QVERIFY(rs::runner::parse_iteration_ranges(rs::ipc::format_iteration_ranges(ranges), again, error));
        QCOMPARE(rs::ipc::format_iteration_ranges(again), std::string("[1],[3],[5],[8-12]"));
        // The union of the ranges: 1, 3, 5 and 8 to 12, nothing else.
        std::string selected;
        for (std::uint64_t i = 0; i <= 13; ++i) {
            selected += rs::ipc::in_iteration_ranges(ranges, i) ? '1' : '0';
        }
        QCOMPARE(selected, std::string("01010100111110"));
        for (const char* bad :
             {"", "[]", "[a]", "[3-1]", "[1-]", "[-2]", "[1-2-3]", "[1.5]", "[+1]", "[0]", "[0-2]"}) {
            ranges.clear();
            QVERIFY2(!rs::runner::parse_iteration_ranges(bad, ranges, error), bad);
            QVERIFY2(error.rfind("--kernel-iteration-range: ", 0) == 0, error.c_str());
            QVERIFY(ranges.empty());
        }
        QVERIFY(!rs::runner::parse_iteration_ranges("[0-2]", ranges, error));
        QCOMPARE(error,
                 std::string("--kernel-iteration-range: '0-2' names iteration 0: iterations count from "
                             "1 (a kernel's first dispatch is 1), as in rocprofv3"));
    }

    /// --kernel-iteration-range reaches the engine as REPLAYSCOPE_KERNEL_ITERATION_RANGE in its canonical
    /// text: values given together and repeated options add up, in the order given; without the option the
    /// variable is not set (every iteration).
    /// The command line replayscope-run records of itself reads back in a shell as it was given.
    void commandLineIsShellQuoted() {
        QCOMPARE(rs::runner::shell_command_line({"replayscope-run", "--kernel-include-regex", "^add\\(", "-o",
                                                 "run-%r.rsdb", "--", "./app", "it's", ""}),
                 std::string("replayscope-run --kernel-include-regex '^add\\(' -o run-%r.rsdb -- ./app "
                             "'it'\\''s' ''"));
    }

    void iterationRangesReachTheEngine() {
        QTemporaryDir dir;
        const QString session = dir.filePath("run.rsdb");
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_CONFIG", rs::ipc::env::kKernelIterationRange);
        Run r = run({"--engine", RS_PROBE, "--no-progress", "--kernel-iteration-range", "[2-4]", "7",
                     "--kernel-iteration-range", "[[10-12], 1]", "-o", session, "--", RS_PROBE, "1", "0"},
                    env);
        QCOMPARE(r.exit_code, 0);
        QCOMPARE(configuration(session),
                 QString("REPLAYSCOPE_KERNEL_ITERATION_RANGE=[2-4],[7],[10-12],[1]\n"));
        r = run({"--engine", RS_PROBE, "--no-progress", "--force", "-o", session, "--", RS_PROBE, "1", "0"},
                env);
        QCOMPARE(r.exit_code, 0);
        QCOMPARE(configuration(session), QString());
    }

    void kernelNamesAsTheInspectorShowsThem() {
        using rs::runner::kernel_display_name;
        using rs::runner::KernelNameStyle;
        const std::string symbol = "_ZN2ns6gemm_tIfLi4EEEvPKfPfi.kd";
        QCOMPARE(kernel_display_name(symbol, KernelNameStyle::demangled),
                 std::string("void ns::gemm_t<float, 4>(float const*, float*, int)"));
        QCOMPARE(kernel_display_name(symbol, KernelNameStyle::mangled),
                 std::string("_ZN2ns6gemm_tIfLi4EEEvPKfPfi"));
        QCOMPARE(kernel_display_name(symbol, KernelNameStyle::truncated), std::string("gemm_t"));
        QCOMPARE(kernel_display_name("accumulate.kd", KernelNameStyle::demangled), std::string("accumulate"));
        QCOMPARE(kernel_display_name("_Znot_valid", KernelNameStyle::truncated), std::string("_Znot_valid"));
        QCOMPARE(kernel_display_name("_ZN12_GLOBAL__N_14fillEPi", KernelNameStyle::truncated),
                 std::string("fill"));
    }

    void kernelStatsCsvInRocprofv3Columns() {
        rs::runner::KernelStats a{"accumulate", 4, 4000, 700, 1600, 0};
        a.sum_squares = 700.0 * 700 + 900.0 * 900 + 800.0 * 800 + 1600.0 * 1600;
        rs::runner::KernelStats b{"say \"hi\"", 1, 1000, 1000, 1000, 1e6};
        QCOMPARE(a.average_ns(), 1000.0);
        QVERIFY(std::abs(a.stddev_ns() - 408.248290) < 1e-5);
        QCOMPARE(b.stddev_ns(), 0.0);
        QCOMPARE(rs::runner::kernel_stats_csv({a, b}),
                 std::string("\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\","
                             "\"MaxNs\",\"StdDev\"\n"
                             "\"accumulate\",4,4000,1000.000000,80.00,700,1600,408.248290\n"
                             "\"say \"\"hi\"\"\",1,1000,1000.000000,20.00,1000,1000,0.000000\n"));
        QCOMPARE(rs::runner::kernel_stats_csv({}), std::string(rs::runner::kKernelStatsHeader) + "\n");
    }

    void exportFilesFollowRocprofv3Names() {
        using rs::runner::export_file;
        QCOMPARE(export_file("/o/run.rsdb", "csv"), std::string("/o/run_counter_collection.csv"));
        QCOMPARE(export_file("/o/run.rsdb", "json"), std::string("/o/run_results.json"));
        QCOMPARE(export_file("/o/run.rsdb", "pftrace"), std::string("/o/run_results.pftrace"));
        QCOMPARE(export_file("/o/run.rsdb", "stats"), std::string("/o/run_kernel_stats.csv"));
        QCOMPARE(export_file("/o.d/run", "stats"), std::string("/o.d/run_kernel_stats.csv"));
        QCOMPARE(export_file("/o/.run", "json"), std::string("/o/.run_results.json"));
    }

    /// Every unusable value stops replayscope-run before the program starts: exit 125, one line naming
    /// the option and the value, no session file, the program never run.
    void unusableValuesStopBeforeTheProgram_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("include regex") << QStringList{"--kernel-include-regex", "(["}
                                       << "replayscope-run: --kernel-include-regex: '([' is not a valid "
                                          "ECMAScript regular expression (";
        QTest::newRow("exclude regex") << QStringList{"--kernel-exclude-regex", "a{2,1}"}
                                       << "replayscope-run: --kernel-exclude-regex: 'a{2,1}' is not a valid";
        QTest::newRow("log level") << QStringList{"--log-level", "loud"}
                                   << "replayscope-run: --log-level: 'loud' is not one of fatal, error, "
                                      "warning, info, trace";
        QTest::newRow("output format")
            << QStringList{"--output-format", "csv,otf2"}
            << "replayscope-run: --output-format: 'otf2' is not one of rsdb, csv, "
               "json, pftrace (rocprofv3's otf2 is not written by replayscope-run)";
        QTest::newRow("-f format") << QStringList{"-f", "xml"}
                                   << "replayscope-run: --output-format: 'xml' is not one of";
        QTest::newRow("iteration range syntax")
            << QStringList{"--kernel-iteration-range", "[1-x]"}
            << "replayscope-run: --kernel-iteration-range: '1-x' is not an "
               "iteration N or a range A-B";
        QTest::newRow("iteration range empty")
            << QStringList{"--kernel-iteration-range", "[]"}
            << "replayscope-run: --kernel-iteration-range: '[]' names no iteration";
        QTest::newRow("iteration zero")
            << QStringList{"--kernel-iteration-range", "[0-3],[5]"}
            << "replayscope-run: --kernel-iteration-range: '0-3' names iteration 0: iterations count from 1";
        QTest::newRow("-M and -T") << QStringList{"-M", "-T"}
                                   << "replayscope-run: --mangled-kernels and --truncate-kernels exclude "
                                      "each other";
        QTest::newRow("output names a directory")
            << QStringList{"-o", "somewhere/"}
            << "replayscope-run: -o/--output-file: 'somewhere/' names a "
               "directory";
        QTest::newRow("passes out of range")
            << QStringList{"--passes", "0"} << "replayscope-run: --passes: Value 0 not in range 1 to 1000";
        QTest::newRow("unknown option")
            << QStringList{"--bogus"} << "replayscope-run: The following argument was not expected: --bogus";
        QTest::newRow("executor") << QStringList{"--executor", "gpu"}
                                  << "replayscope-run: --executor: gpu not in";
        QTest::newRow("unknown counter") << QStringList{"--pmc", "NOT_A_COUNTER"}
                                         << "replayscope-run: --pmc: unknown counter 'NOT_A_COUNTER'";
    }
    void unusableValuesStopBeforeTheProgram() {
        QFETCH(QStringList, options);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString marker = dir.filePath("started");
        QStringList args{"--engine", RS_PROBE, "-d", dir.filePath("out")};
        if (!options.contains("-o")) {
            args << "-o" << "run";
        }
        const Run r = run(args + options + QStringList{"--", "/bin/sh", "-c", "touch '" + marker + "'"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.startsWith(message), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1); // one line
        QVERIFY(!QFile::exists(marker));
        QVERIFY(!QFileInfo::exists(dir.filePath("out"))); // nothing created
    }

    /// -d and -o as rocprofv3 takes them: DIR/NAME, the directories created, ".rsdb" added to a name
    /// without an extension; -o with a directory part alone as before; a parent that is a file refused.
    void outputDirectoryAndName() {
        QTemporaryDir dir;
        Run r = run({"--engine", RS_PROBE, "--no-progress", "-d", dir.filePath("a/b/%q{RS_TEST_TAG}"), "-o",
                     "results", "--", RS_PROBE, "1", "0"},
                    [] {
                        auto env = QProcessEnvironment::systemEnvironment();
                        env.insert("RS_TEST_TAG", "tagged");
                        return env;
                    }());
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(QFileInfo(dir.filePath("a/b/tagged/results.rsdb")).size() > 0, qPrintable(r.err));
        r = run({"--engine", RS_PROBE, "--no-progress", "-o", dir.filePath("c/d/run.db"), "--", RS_PROBE, "1",
                 "0"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(QFileInfo(dir.filePath("c/d/run.db")).size() > 0, qPrintable(r.err));
        // -o given twice: the last, as rocprofv3's argparse keeps it.
        r = run({"--engine", RS_PROBE, "--no-progress", "-o", dir.filePath("first"), "-o",
                 dir.filePath("last"), "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(QFileInfo(dir.filePath("last.rsdb")).size() > 0, qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("first.rsdb")));
        // Relative to the working directory, the pid placeholder expanded.
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(RS_REPLAYSCOPE_RUN, {"--engine", RS_PROBE, "--no-progress", "-d", "rel", "-o", "run-%p", "--",
                                     RS_PROBE, "1", "0"});
        QVERIFY(p.waitForStarted());
        const qint64 pid = p.processId();
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QDir(dir.filePath("rel")).entryList({"run-*.rsdb"}, QDir::Files),
                 QStringList{QString("run-%1.rsdb").arg(pid)});
        // A component that is a file: refused before the program starts.
        QFile file(dir.filePath("plain"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        r = run(
            {"--engine", RS_PROBE, "-d", dir.filePath("plain/sub"), "-o", "run", "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("'" + dir.filePath("plain") + "' is not a directory"), qPrintable(r.err));
    }

    /// -f: a bare -f still forces, with one warning pointing to --force; -f FORMAT is rocprofv3's
    /// --output-format (tested with the stand-in inspector below).
    void bareFIsDeprecatedForce() {
        QTemporaryDir dir;
        const QString session = dir.filePath("run.rsdb");
        QCOMPARE(
            run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", RS_PROBE, "1", "0"}).exit_code,
            0);
        Run r = run({"--engine", RS_PROBE, "--no-progress", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125); // exists, not forced
        r = run({"--engine", RS_PROBE, "--no-progress", "-f", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains("replayscope-run: warning: -f alone is the deprecated spelling of --force "
                                "(rocprofv3's -f is --output-format): use --force"),
                 qPrintable(r.err));
        r = run({"--engine", RS_PROBE, "--no-progress", "--force", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(!r.err.contains("deprecated"), qPrintable(r.err));
    }

    /// --quiet and --log-level: errors only, or the environment given to the program as well.
    void logLevels() {
        QTemporaryDir dir;
        const QString session = dir.filePath("run.rsdb");
        Run r = run({"--engine", RS_PROBE, "--quiet", "-o", session, "--", RS_PROBE, "2", "3"});
        QCOMPARE(r.exit_code, 3); // the program's
        QCOMPARE(r.err, QString());
        QVERIFY(QFileInfo(session).size() > 0);
        // Any case, as rocprofv3 lowers the value.
        r = run(
            {"--engine", RS_PROBE, "--log-level", "WARNING", "-f", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 0);
        QCOMPARE(r.err.trimmed().count('\n'), 0); // the deprecation warning only
        QVERIFY2(r.err.contains("warning: -f alone"), qPrintable(r.err));
        r = run({"--engine", RS_PROBE, "--quiet", "--kernel-include-regex", "(", "-o", session, "--",
                 RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125); // a failure is said at every level
        QVERIFY2(r.err.contains("--kernel-include-regex"), qPrintable(r.err));
        r = run({"--engine", RS_PROBE, "--no-progress", "--log-level", "trace", "--passes", "3", "--force",
                 "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains("replayscope-run: environment: REPLAYSCOPE_PASSES=3"), qPrintable(r.err));
        QVERIFY2(r.err.contains("replayscope-run: environment: REPLAYSCOPE_TOKEN=(secret, not shown)"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("process 1: pid"), qPrintable(r.err)); // the report still there
    }

    /// --output-format csv,json,pftrace and -M/-T reach the inspector beside replayscope-run (a stand-in
    /// script here, recording its arguments): one run per file, named as rocprofv3 names them; pftrace
    /// only from an inspector whose --help names it, else one line and no file; no inspector: one line
    /// per format. The program's exit status is kept.
    void outputFormatsRunTheInspectorBeside() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("bin"));
        const QString runner = dir.filePath("bin/replayscope-run");
        QVERIFY(QFile::copy(RS_REPLAYSCOPE_RUN, runner));
        QVERIFY(QFile::setPermissions(runner, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QString calls = dir.filePath("calls");
        auto inspector = [&](const QByteArray& help) {
            return writeScript(
                dir.filePath("bin/replayscope"),
                "#!/bin/sh\necho \"$*\" >> '" + calls.toUtf8() +
                    "'\n"
                    "[ \"$1\" = --help ] && { echo '" +
                    help +
                    "'; exit 0; }\n"
                    "while [ $# -gt 0 ]; do case \"$1\" in --export-*) echo x > \"$2\";; esac; "
                    "shift; done\n");
        };
        QVERIFY(inspector("--export-trace FILE.json"));
        const QString out = dir.filePath("out");
        auto runIt = [&](const QStringList& options) {
            QProcess p;
            p.start(runner,
                    QStringList{"--engine", RS_PROBE, "--no-progress", "--force", "-d", out, "-o", "r"} +
                        options + QStringList{"--", RS_PROBE, "1", "4"});
            p.waitForFinished(60000);
            return Run{p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
        };
        Run r = runIt({"-T", "-f", "csv", "json", "--output-format", "pftrace,csv"});
        QCOMPARE(r.exit_code, 4);
        const QString session = out + "/r.rsdb";
        QFile log(calls);
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(log.readAll()),
                 "-T --export-counters " + out + "/r_counter_collection.csv " + session + "\n" +
                     "-T --export-trace " + out + "/r_results.json " + session + "\n--help\n");
        log.close();
        QVERIFY(QFile::exists(out + "/r_counter_collection.csv"));
        QVERIFY(QFile::exists(out + "/r_results.json"));
        QVERIFY(!QFile::exists(out + "/r_results.pftrace"));
        QVERIFY2(
            r.err.contains("replayscope-run: --output-format csv: " + out + "/r_counter_collection.csv\n"),
            qPrintable(r.err));
        QVERIFY2(r.err.contains("replayscope-run: error: --output-format pftrace: " + out +
                                "/r_results.pftrace not written: the inspector " +
                                dir.filePath("bin/replayscope") + " cannot write Perfetto traces yet"),
                 qPrintable(r.err));
        // An inspector that names pftrace writes it; -M reaches it.
        QFile::remove(calls);
        QVERIFY(inspector("--export-trace FILE  Write SESSION as a trace for Perfetto"));
        r = runIt({"-M", "--output-format", "pftrace"});
        QCOMPARE(r.exit_code, 4);
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(log.readAll()),
                 "--help\n-M --export-trace " + out + "/r_results.pftrace " + session + "\n");
        log.close();
        QVERIFY(QFile::exists(out + "/r_results.pftrace"));
        // No inspector: said per format; the session and the program's status stay.
        QVERIFY(QFile::remove(dir.filePath("bin/replayscope")));
        r = runIt({"--output-format", "json"});
        QCOMPARE(r.exit_code, 4);
        QVERIFY2(r.err.contains("replayscope-run: error: --output-format json: " + out +
                                "/r_results.json not written: no replayscope inspector at " +
                                dir.filePath("bin/replayscope")),
                 qPrintable(r.err));
        QVERIFY(QFileInfo(session).size() > 0);
    }

    /// End to end: a bad value stops replayscope-run before anything runs (exit 125, no session file);
    /// good values reach the target as the engine's variables, recorded in the session's settings; under
    /// --simulate with stand-ins the chunk-hash stand-in beside the engine is appended to the program's
    /// stand-ins, and the executor the run chose reaches the simulator as HSA_SIM_EXECUTOR.
    void replayscopeRunPassesThemOn() {
        QTemporaryDir dir;
        const QString session = dir.filePath("run.rsdb");
        Run r = run({"--restore-chunk-size", "3000", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("replayscope-run: --restore-chunk-size: 3000 is not a power of two"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(session));
        r = run({"--snapshot-store", "vram", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("--snapshot-store: 'vram' is not one of auto, host, device"),
                 qPrintable(r.err));

        // The probe as the engine, with a chunk-hash stand-in and a program stand-in beside it.
        const QString engine = dir.filePath("engine");
        QVERIFY(QFile::copy(RS_PROBE, engine));
        QVERIFY(QFile::setPermissions(engine, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        for (const char* name : {"libreplayscope_chunk_hash_standins.so", "program_standins.so"}) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const QString chunk =
            QFileInfo(dir.filePath("libreplayscope_chunk_hash_standins.so")).canonicalFilePath();
        const QString program = QFileInfo(dir.filePath("program_standins.so")).canonicalFilePath();
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_CONFIG", "REPLAYSCOPE_SNAPSHOT_STORE,REPLAYSCOPE_DEVICE_STORE_RESERVE,"
                                      "REPLAYSCOPE_RESTORE,REPLAYSCOPE_RESTORE_CHUNK_SIZE,HSA_SIM_STANDINS,"
                                      "HSA_SIM_EXECUTOR");
        r = run({"--engine", engine, "--simulate", "--standins", dir.filePath("program_standins.so"),
                 "--snapshot-store", "device", "--device-store-reserve", "64M", "--restore", "dirty-host",
                 "--restore-chunk-size", "16K", "-o", session, "--", engine, "3", "0"},
                env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(!r.err.contains("chunk-hash kernel cannot run"), qPrintable(r.err));
        QCOMPARE(configuration(session), "REPLAYSCOPE_SNAPSHOT_STORE=device\n"
                                         "REPLAYSCOPE_DEVICE_STORE_RESERVE=67108864\n"
                                         "REPLAYSCOPE_RESTORE=dirty-host\n"
                                         "REPLAYSCOPE_RESTORE_CHUNK_SIZE=16384\n"
                                         "HSA_SIM_STANDINS=" +
                                             program + ":" + chunk + "\nHSA_SIM_EXECUTOR=standin\n");
        // Without --standins the interpreter runs every kernel, the chunk hash's too: no stand-ins.
        r = run({"--engine", engine, "--simulate", "--force", "-o", session, "--", engine, "1", "0"}, env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(!r.err.contains("chunk_hash_standins"), qPrintable(r.err));
        QCOMPARE(
            configuration(session),
            QString("REPLAYSCOPE_SNAPSHOT_STORE=auto\nREPLAYSCOPE_RESTORE=dirty\nHSA_SIM_EXECUTOR=isa\n"));
        // --executor standin without one beside the engine: a warning, and no stand-ins at all.
        QVERIFY(QFile::remove(chunk));
        r = run({"--engine", engine, "--simulate", "--executor", "standin", "--force", "-o", session, "--",
                 engine, "1", "0"},
                env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains("warning: no libreplayscope_chunk_hash_standins.so beside"),
                 qPrintable(r.err));
        QCOMPARE(
            configuration(session),
            QString(
                "REPLAYSCOPE_SNAPSHOT_STORE=auto\nREPLAYSCOPE_RESTORE=dirty\nHSA_SIM_EXECUTOR=standin\n"));
        // --executor needs --simulate.
        r = run({"--executor", "isa", "--force", "-o", session, "--", engine, "1", "0"}, env);
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("--executor needs --simulate"), qPrintable(r.err));
    }

    /// --pmc and -i: the input file's lines, then --pmc as one more line, planned with the catalogue's
    /// slots (one SQ slot kept by --fidelity-check); an unknown name or a bad file is an error and leaves
    /// the options as they were.
    void counterOptionsArePlanned() {
        using rs::runner::CounterOptionText;
        QTemporaryDir dir;
        const QString input = dir.filePath("input.txt");
        {
            QFile f(input);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("# two groups\npmc: SQ_WAVES GRBM_COUNT\npmc: TCC_REQ\n");
        }
        ReplayOptions options;
        std::string error;
        QVERIFY2(rs::runner::parse_counter_options({{"SQ_INSTS_VALU"}, input.toStdString()}, options, error),
                 error.c_str());
        QCOMPARE(options.counters,
                 (rs::counters::CounterRequest{{"SQ_WAVES", "GRBM_COUNT"}, {"TCC_REQ"}, {"SQ_INSTS_VALU"}}));
        QCOMPARE(options.counter_plan.size(), size_t{3});
        QCOMPARE(rs::counters::plan_text(options.counter_plan, 2),
                 std::string("3 groups -> 3 passes: pass 0: SQ_WAVES GRBM_COUNT; pass 1: TCC_REQ; pass 2: "
                             "SQ_INSTS_VALU"));
        // Eight SQ counters: one group, or two with the fidelity check's slot kept.
        const std::vector<std::string> eight{"SQ_WAVES",      "SQ_INSTS_VALU",    "SQ_INSTS_SALU",
                                             "SQ_INSTS_SMEM", "SQ_INSTS_VMEM_RD", "SQ_INSTS_VMEM_WR",
                                             "SQ_INSTS_LDS",  "SQ_INSTS_BRANCH"};
        ReplayOptions plain;
        QVERIFY(rs::runner::parse_counter_options({eight, {}}, plain, error));
        QCOMPARE(plain.counter_plan.size(), size_t{1});
        // rocprofv3 takes the names comma or space separated: "--pmc A,B C" is one group of three.
        ReplayOptions commas;
        QVERIFY2(
            rs::runner::parse_counter_options({{"SQ_WAVES,SQ_INSTS_VALU,", "GRBM_COUNT"}, {}}, commas, error),
            error.c_str());
        QCOMPARE(commas.counters,
                 (rs::counters::CounterRequest{{"SQ_WAVES", "SQ_INSTS_VALU", "GRBM_COUNT"}}));
        ReplayOptions checked;
        checked.fidelity_check = true;
        QVERIFY(rs::runner::parse_counter_options({eight, {}}, checked, error));
        QCOMPARE(checked.counter_plan.size(), size_t{2});
        // Errors.
        ReplayOptions untouched;
        QVERIFY(!rs::runner::parse_counter_options({{"SQ_WAVES", "SQ_WAVEZ"}, {}}, untouched, error));
        QVERIFY2(error.starts_with("--pmc: unknown counter 'SQ_WAVEZ' (gfx90a counters: SQ_WAVES,"),
                 error.c_str());
        QVERIFY(untouched.counters.empty() && untouched.counter_plan.empty());
        QVERIFY(!rs::runner::parse_counter_options({{}, dir.filePath("input.json").toStdString()}, untouched,
                                                   error));
        QVERIFY2(error.find(".json input is not supported") != std::string::npos, error.c_str());
        QVERIFY(rs::runner::parse_counter_options({}, untouched, error));
        QVERIFY(untouched.counters.empty());
        rs::runner::TargetEnvironment e;
        e.set_replay_options(options);
        QCOMPARE(e.get(rs::ipc::env::kPmc),
                 std::optional<std::string>("SQ_WAVES,GRBM_COUNT;TCC_REQ;SQ_INSTS_VALU"));
        rs::runner::TargetEnvironment none;
        none.set_replay_options(ReplayOptions{});
        QVERIFY(!none.get(rs::ipc::env::kPmc));
    }

    /// A derived metric in --pmc or a pmc: line is collected as its inputs, in its own line, and kept by
    /// name; a name neither a counter nor a derived metric is still an error listing both.
    void derivedMetricsExpandToTheirInputs() {
        QTemporaryDir dir;
        const QString input = dir.filePath("input.txt");
        {
            QFile f(input);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("pmc: GPUBusy\npmc: SQ_WAVES SALUInsts\n");
        }
        ReplayOptions options;
        std::string error;
        QVERIFY2(rs::runner::parse_counter_options({{"VALUInsts", "TCC_REQ"}, input.toStdString()}, options,
                                                   error),
                 error.c_str());
        QCOMPARE(options.counters, (rs::counters::CounterRequest{{"GRBM_GUI_ACTIVE", "GRBM_COUNT"},
                                                                 {"SQ_WAVES", "SQ_INSTS_SALU", "SQ_WAVES"},
                                                                 {"SQ_INSTS_VALU", "SQ_WAVES", "TCC_REQ"}}));
        QCOMPARE(options.derived_counters, (std::vector<std::string>{"GPUBusy", "SALUInsts", "VALUInsts"}));
        // SQ_WAVES is collected once, in the second line's group; the third line keeps SQ_INSTS_VALU and
        // TCC_REQ in one group.
        QCOMPARE(rs::counters::plan_text(options.counter_plan, 2),
                 std::string("3 groups -> 3 passes: pass 0: GRBM_GUI_ACTIVE GRBM_COUNT; pass 1: SQ_WAVES "
                             "SQ_INSTS_SALU; pass 2: SQ_INSTS_VALU TCC_REQ"));
        ReplayOptions untouched;
        QVERIFY(!rs::runner::parse_counter_options({{"VALUInst"}, {}}, untouched, error));
        QVERIFY2(error.find("unknown counter 'VALUInst'") != std::string::npos &&
                     error.find("derived metrics: VALUInsts, SALUInsts,") != std::string::npos,
                 error.c_str());
        QVERIFY(untouched.derived_counters.empty());
    }

    /// replayscope-run --pmc: an unknown name ends it with 125 before the program starts (no session file);
    /// good names reach the target as REPLAYSCOPE_PMC and the plan is printed.
    void replayscopeRunPassesCountersOn() {
        QTemporaryDir dir;
        const QString session = dir.filePath("run.rsdb");
        Run r = run({"--pmc", "SQ_WAVES", "NOT_A_COUNTER", "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("replayscope-run: --pmc: unknown counter 'NOT_A_COUNTER'"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(session));
        r = run({"-i", dir.filePath("missing.txt"), "-o", session, "--", RS_PROBE, "1", "0"});
        QCOMPARE(r.exit_code, 125);
        QVERIFY2(r.err.contains("-i: ") && r.err.contains("missing.txt: cannot be read"), qPrintable(r.err));
        QVERIFY(!QFile::exists(session));

        const QString engine = dir.filePath("engine");
        QVERIFY(QFile::copy(RS_PROBE, engine));
        QVERIFY(QFile::setPermissions(engine, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RS_PROBE_CONFIG", "REPLAYSCOPE_PMC,REPLAYSCOPE_PASSES");
        r = run({"--engine", engine, "--pmc", "SQ_WAVES", "GRBM_COUNT", "--passes", "3", "-o", session, "--",
                 engine, "1", "0"},
                env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(
            r.err.contains("replayscope-run: counters: 1 group -> 3 passes: pass 0: SQ_WAVES GRBM_COUNT"),
            qPrintable(r.err));
        QCOMPARE(configuration(session),
                 QString("REPLAYSCOPE_PMC=SQ_WAVES,GRBM_COUNT\nREPLAYSCOPE_PASSES=3\n"));
        QCOMPARE(derivedCounters(session), QString()); // no derived metric asked for: no table

        // A derived metric: its inputs reach the engine, the plan names what is computed from which
        // counters, and the session records the metric for the inspector.
        const QString derived = dir.filePath("derived.rsdb");
        r = run(
            {"--engine", engine, "--pmc", "VALUInsts", "GRBM_COUNT", "-o", derived, "--", engine, "1", "0"},
            env);
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains("counters: 1 group -> 2 passes: pass 0: SQ_INSTS_VALU SQ_WAVES GRBM_COUNT"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("derived metrics (computed from those counters when the session is read): "
                                "VALUInsts = SQ_INSTS_VALU / SQ_WAVES"),
                 qPrintable(r.err));
        QCOMPARE(configuration(derived),
                 QString("REPLAYSCOPE_PMC=SQ_INSTS_VALU,SQ_WAVES,GRBM_COUNT\nREPLAYSCOPE_PASSES=2\n"));
        QCOMPARE(derivedCounters(derived), QString("VALUInsts"));
    }
};

QTEST_GUILESS_MAIN(RunnerOptionsTest)
#include "tst_runner_options.moc"
