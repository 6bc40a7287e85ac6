// SPDX-License-Identifier: MIT
#include "options.h"

#include "byte_size.h"
#include "counter_options.h"
#include "diagnostics.h"
#include "output_pattern.h"

#include <replayscope/version.h>

#include <CLI/CLI.hpp>
#include <replayscope/cli_help_formatter.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <regex>
#include <string_view>
#include <unistd.h>

namespace rs::runner {

namespace {

/// The formats --output-format writes (rsdb, the session, always), as rocprofv3 spells them.
constexpr const char* kOutputFormats[] = {"rsdb", "csv", "json", "pftrace"};

} // namespace

ParsedOptions parse_options(int argc, char** argv) {
    RunOptions o;
    // Split at the first "--": options before, program and its arguments after.
    int option_argc = argc;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--") {
            option_argc = i;
            for (int j = i + 1; j < argc; ++j) {
                o.program_args.emplace_back(argv[j]);
            }
            break;
        }
    }
    // -f is rocprofv3's --output-format (source/bin/rocprofv3.py in rocprofiler-sdk), and was
    // replayscope-run's --force: followed by a value it is the former; bare, the latter, deprecated.
    std::vector<std::string> arguments(argv, argv + option_argc);
    bool bare_f = false;
    for (std::size_t i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == "-f") {
            const bool value_follows =
                i + 1 < arguments.size() && !arguments[i + 1].empty() && arguments[i + 1].front() != '-';
            arguments[i] = value_follows ? "--output-format" : "--force";
            bare_f = bare_f || !value_follows;
        }
    }
    // CLI11 unpacks a value in brackets into its comma-separated parts, and for one with none ("[]") takes
    // the argument after it instead: such a value of --kernel-iteration-range is refused here, by its text.
    constexpr std::string_view kIterationOption = "--kernel-iteration-range";
    for (std::size_t i = 1, values = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        std::string_view value;
        if (a == kIterationOption) {
            values = i + 1;
            continue;
        }
        if (a.size() > kIterationOption.size() && a.starts_with(kIterationOption) &&
            a[kIterationOption.size()] == '=') {
            value = std::string_view(a).substr(kIterationOption.size() + 1);
        } else if (i == values && (a.empty() || a.front() != '-')) {
            value = a;
            values = i + 1;
        } else {
            continue;
        }
        std::vector<IterationRange> ranges;
        std::string range_error;
        if (value.find_first_not_of("[],") == std::string_view::npos &&
            !parse_iteration_ranges(std::string(value), ranges, range_error)) {
            return {std::nullopt, fail(range_error)};
        }
    }
    std::vector<char*> option_argv;
    for (auto& a : arguments) {
        option_argv.push_back(a.data());
    }

    CLI::App app{
        "Runs PROGRAM under the ReplayScope kernel-replay engine and records every decision in a "
        "session file.\n  replayscope-run [options] [-d DIR] -o SESSION[.rsdb] -- PROGRAM [ARGS...]\n"
        "  replayscope-run --import-spool FILE|DIR [--force-import] -o SESSION.rsdb",
        "replayscope-run"};
    rs::cli::use_help_formatter(app, 32); // option and description two spaces apart (help2man)
    // A value CLI11 refuses is one line too, as replayscope-run's own checks print it.
    app.failure_message([](const CLI::App*, const CLI::Error& e) {
        return "replayscope-run: " + std::string(e.what()) + " (replayscope-run --help lists the options)\n";
    });
    app.set_version_flag("--version", std::string("replayscope-run ") + RS_VERSION_STRING);
    std::string host_budget_text;
    std::string& output = o.output;
    ReplayOptions& replay = o.replay;
    std::string output_name, output_directory;
    app.add_option("-o,--output-file,--output", output_name,
                   "Session file name, as rocprofv3's -o (default %hostname%/%pid%); a name without an "
                   "extension gets .rsdb; a path with a directory part works alone. Placeholders: %h "
                   "%hostname%, %r %rank% (MPI/Slurm rank, else the pid), %p %pid%, %j %job% (batch job "
                   "id), %q{VAR} %env{VAR}% (environment variable), %% (a %)")
        ->multi_option_policy(
            CLI::MultiOptionPolicy::TakeLast); // given twice: the last, as rocprofv3's argparse
    app.add_option("-d,--output-directory", output_directory,
                   "Directory of the session file and its exports (created, with every missing parent); "
                   "the same placeholders as -o");
    app.add_flag("--force", o.force,
                 "Overwrite an existing session file (never one another live run is writing); -f alone is "
                 "its deprecated spelling, -f FORMAT is --output-format as in rocprofv3");
    std::vector<std::string> format_text;
    app.add_option("--output-format", format_text,
                   "Files written besides the session (rsdb, always): csv (<name>_counter_collection.csv), "
                   "json (<name>_results.json), pftrace (<name>_results.pftrace), written by the replayscope "
                   "inspector beside replayscope-run after the run; comma-separated or repeated")
        ->expected(1, -1)
        ->delimiter(',');
    app.add_flag("--stats", o.stats,
                 "Write <name>_kernel_stats.csv beside the session: per kernel, rocprofv3's kernel_stats "
                 "columns over the timed passes of its replayed dispatches");
    std::string log_level_text;
    app.add_option("--log-level", log_level_text,
                   "What replayscope-run prints on stderr: fatal, error, warning, info (default) or trace "
                   "(also the environment given to the program; rocprofv3's env and config mean trace)");
    app.add_flag("--quiet", o.quiet, "No progress line, and only errors on stderr");
    app.add_flag("-M,--mangled-kernels", o.mangled_kernels,
                 "Kernel names as the code object's symbols in --stats and --output-format files");
    app.add_flag("-T,--truncate-kernels", o.truncate_kernels,
                 "Demangled kernel names cut to the function's own name in --stats and --output-format "
                 "files");
    std::vector<std::string> iteration_text;
    app.add_option("--kernel-iteration-range", iteration_text,
                   "Replay only these iterations of each kernel, as rocprofv3: \"[1-3],[5]\" is the 1st to "
                   "3rd and the 5th dispatch of every kernel (counted from 1 per loaded kernel symbol, "
                   "every dispatch of it counting); the others are declined iteration-range. Values given "
                   "together or repeated add up; an iteration 0, a range ending before its start or no "
                   "iteration at all stops the run before the program starts (exit 125)")
        ->expected(1, -1)
        ->type_name("RANGES");
    app.add_option("--passes", replay.passes, "Passes per replayed dispatch")
        ->check(CLI::Range(1u, 1000u))
        ->capture_default_str();
    app.add_option(
        "--kernel-include-regex", replay.kernel_include_regex,
        "Replay only kernels whose name matches, demangled as rocprofv3 matches it or as the "
        "symbol (ECMAScript regex; an invalid one stops the run before the program starts, exit 125)");
    app.add_option("--kernel-exclude-regex", replay.kernel_exclude_regex,
                   "Never replay kernels whose name matches (ECMAScript regex, checked as the include one)");
    app.add_option("--dispatch-skip,--launch-skip", replay.dispatch_skip,
                   "Let this many matching dispatches through before replaying");
    app.add_option("--dispatch-count,--launch-count", replay.dispatch_count,
                   "Replay at most this many dispatches (0: no limit)");
    app.add_option("--agent", replay.agent_filter,
                   "Replay only on these agents (comma-separated indices or names)");
    app.add_option("--host-memory-budget", host_budget_text,
                   "Decline a replay whose snapshot would exceed this many host bytes (suffix K/M/G/T)");
    app.add_flag("--fidelity-check", replay.fidelity_check,
                 "Hash tracked regions after each pass and record whether the output matched pass 1; also "
                 "hash host, fine-grained, locked and managed memory before and after pass 1 and name what "
                 "changed; count SQ_INSTS_VALU in every pass and name a dispatch whose passes counted "
                 "differently (counter-mismatch)");
    std::string unrestorable_budget_text;
    app.add_option("--fidelity-unrestorable-budget", unrestorable_budget_text,
                   "With --fidelity-check: bytes of host, fine-grained, locked and managed memory hashed per "
                   "replayed dispatch; larger ranges are named and left out (SIZE, suffix K/M/G/T; default: "
                   "the engine's, 256M)");
    bool no_track_vmem = false;
    app.add_flag("--no-track-vmem", no_track_vmem,
                 "Leave hsa_amd_vmem_map mappings (ROCr 6.x) out of the snapshot, as the original mechanism "
                 "did; with --fidelity-check the leak is then flagged");
    unsigned replay_drain_ms = 0, replay_pass_ms = 0;
    auto* replay_drain_option =
        app.add_option("--replay-drain-timeout-ms", replay_drain_ms,
                       "Milliseconds a replay waits for the queue to drain before declining the dispatch "
                       "(REPLAYSCOPE_DRAIN_TIMEOUT_MS; default: the engine's)");
    auto* replay_pass_option =
        app.add_option("--replay-pass-timeout-ms", replay_pass_ms,
                       "Milliseconds a replay waits for one pass to complete (REPLAYSCOPE_PASS_TIMEOUT_MS; "
                       "default: the engine's)");
    StoreOptionText store_text;
    app.add_option("--snapshot-store", store_text.snapshot_store,
                   "Where snapshots are kept: auto (device memory of the agent while it fits beyond the "
                   "reserve, else the pinned host store), host, or device (regions that do not fit go to the "
                   "host store, reported)")
        ->capture_default_str();
    app.add_option("--device-store-reserve", store_text.device_store_reserve,
                   "Device memory left free for the program when the device store is sized (SIZE: bytes with "
                   "an optional K/M/G/T or KiB/MiB/GiB/TiB suffix; default: the engine's, 1G)");
    app.add_option("--restore", store_text.restore,
                   "How a snapshot is restored before each pass: dirty (only the chunks whose hash changed, "
                   "hashed on the device), dirty-host (the same, hashed on the host) or full")
        ->capture_default_str();
    app.add_option("--restore-chunk-size", store_text.restore_chunk_size,
                   "Chunk size of the dirty restore (SIZE, a power of two from 4K to 1G; default: the "
                   "engine's, 64K)");
    CounterOptionText counter_text;
    app.add_option("--pmc", counter_text.pmc,
                   "Hardware counters to collect in the passes of every replayed dispatch, as rocprofv3 "
                   "names them (gfx90a); packed into groups, one group per pass")
        ->expected(1, -1);
    app.add_option("-i,--input", counter_text.input,
                   "rocprofv3 text input file: 'pmc: NAME ...' lines, each collected in passes of its own");
    app.add_flag("--simulate", o.simulate, "Run the program on ReplayScope's simulated HSA runtime");
    app.add_option("--standins", o.standins,
                   "With --simulate: host stand-in libraries of the program's HIP kernels (made by "
                   "replayscope-standins), comma-separated; passed as HSA_SIM_STANDINS");
    app.add_option("--executor", o.executor,
                   "With --simulate: what runs the program's kernels: isa (the gfx90a interpreter runs "
                   "their machine code; the default without --standins) or standin (their host stand-ins, "
                   "the interpreter for code objects without any such as ROCclr's blits; the default with "
                   "--standins); passed as "
                   "HSA_SIM_EXECUTOR")
        ->check(CLI::IsMember({"isa", "standin"}));
    app.add_option("--engine", o.engine, "Engine library to inject (default: next to this binary)");
    app.add_option(
           "--preload-engine", o.preload,
           "Also LD_PRELOAD the engine (needed only for the hipGraphLaunch interposer): auto (when the "
           "program, or an executable among its arguments as with `timeout 60 ./app`, links "
           "libamdhip64), on, off")
        ->check(CLI::IsMember({"auto", "on", "off"}))
        ->capture_default_str();
    app.add_option("--import-spool", o.import_spool,
                   "Ingest a spool file, or the spools of SESSION's run in a spool directory "
                   "(SESSION.spool.d), into SESSION instead of running a program");
    app.add_flag("--force-import", o.force_import,
                 "With --import-spool: also merge spools of another run than SESSION's (refused without it, "
                 "exit 125); the session records each one merged");
    app.add_option("--drain-timeout", o.drain_ms,
                   "Milliseconds to wait for the event stream after the program ends")
        ->capture_default_str();
    app.add_flag("--no-progress", o.no_progress, "No progress line on the terminal");
    app.add_option("--follow-children", o.follow_children,
                   "Record every instrumented process of the run (yes: children and programs they start, "
                   "e.g. from a shell script), or only the first one (no)")
        ->check(CLI::IsMember({"yes", "no"}))
        ->capture_default_str();
    try {
        app.parse(static_cast<int>(option_argv.size()), option_argv.data());
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return {std::nullopt, rc == 0 ? 0 : kToolFailure};
    }
    if (!log_level_text.empty()) {
        const auto level = parse_log_level(log_level_text);
        if (!level) {
            return {std::nullopt, fail("--log-level: '" + log_level_text +
                                       "' is not one of fatal, error, warning, info, trace (env, config)")};
        }
        o.log_level = *level;
    }
    if (o.quiet && o.log_level > LogLevel::error) {
        o.log_level = LogLevel::error;
    }
    set_log_level(o.log_level);
    if (bare_f) {
        warn("-f alone is the deprecated spelling of --force (rocprofv3's -f is --output-format): use "
             "--force");
    }
    if (!o.import_spool.empty() && output_name.empty()) {
        return {std::nullopt, fail("--import-spool needs -o SESSION.rsdb (the session to import into)")};
    }
    {
        std::string path_error;
        const auto path = output_path(output_directory, output_name, ::getpid(), path_error);
        if (!path) {
            return {std::nullopt, fail(path_error)};
        }
        output = *path;
    }
    for (const std::string& format : format_text) {
        std::string name = format;
        for (char& c : name) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (std::find(std::begin(kOutputFormats), std::end(kOutputFormats), name) ==
            std::end(kOutputFormats)) {
            return {std::nullopt,
                    fail("--output-format: '" + format + "' is not one of rsdb, csv, json, pftrace" +
                         (name == "otf2" || name == "rocpd"
                              ? " (rocprofv3's " + name + " is not written by replayscope-run)"
                              : ""))};
        }
        if (name != "rsdb" &&
            std::find(o.output_formats.begin(), o.output_formats.end(), name) == o.output_formats.end()) {
            o.output_formats.push_back(name);
        }
    }
    if (o.mangled_kernels && o.truncate_kernels) {
        return {std::nullopt, fail("--mangled-kernels and --truncate-kernels exclude each other")};
    }
    for (const auto& [option, text] :
         {std::pair<const char*, const std::string*>{"--kernel-include-regex", &replay.kernel_include_regex},
          {"--kernel-exclude-regex", &replay.kernel_exclude_regex}}) {
        if (text->empty()) {
            continue;
        }
        try {
            static_cast<void>(std::regex(*text, std::regex::ECMAScript)); // as the engine compiles it
        } catch (const std::regex_error& e) {
            return {std::nullopt, fail(std::string(option) + ": '" + *text +
                                       "' is not a valid ECMAScript regular expression (" + e.what() + ")")};
        }
    }
    if (!iteration_text.empty()) {
        std::string joined; // as rocprofv3 joins its values: ", "
        for (const auto& part : iteration_text) {
            joined += (joined.empty() ? "" : ", ") + part;
        }
        if (std::string range_error; !parse_iteration_ranges(joined, replay.iteration_ranges, range_error)) {
            return {std::nullopt, fail(range_error)};
        }
    }
    if (o.force_import && o.import_spool.empty()) {
        return {std::nullopt, fail("--force-import needs --import-spool")};
    }
    if (replay_drain_option->count() > 0) {
        replay.drain_timeout_ms = replay_drain_ms;
    }
    if (replay_pass_option->count() > 0) {
        replay.pass_timeout_ms = replay_pass_ms;
    }
    replay.track_vmem = !no_track_vmem;
    if (std::string store_error; !parse_store_options(store_text, replay, store_error)) {
        return {std::nullopt, fail(store_error)};
    }
    if (std::string counter_error; !parse_counter_options(counter_text, replay, counter_error)) {
        return {std::nullopt, fail(counter_error)};
    }
    if (!host_budget_text.empty()) {
        const auto bytes = parse_bytes(host_budget_text);
        if (!bytes) {
            return {std::nullopt, fail("--host-memory-budget: not a byte count: " + host_budget_text)};
        }
        replay.host_memory_budget = *bytes;
    }
    if (!unrestorable_budget_text.empty()) {
        const auto bytes = parse_bytes(unrestorable_budget_text);
        if (!bytes) {
            return {std::nullopt,
                    fail("--fidelity-unrestorable-budget: not a byte count: " + unrestorable_budget_text)};
        }
        replay.fidelity_unrestorable_budget = *bytes;
    }

    return {std::move(o), 0};
}

} // namespace rs::runner
