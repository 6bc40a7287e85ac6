// SPDX-License-Identifier: MIT
// Step 1 of replayscope-run: the command line into options.
#pragma once

#include "diagnostics.h"
#include "replay_options.h"

#include <optional>
#include <string>
#include <vector>

namespace rs::runner {

/// Everything replayscope-run was asked to do.
struct RunOptions {
    std::string output; ///< the session file: -d DIR / -o NAME, placeholders expanded (output_path)
    bool force = false; ///< --force (and a bare -f, deprecated): overwrite an existing session file
    /// --output-format besides rsdb (always written), each once in the order given: csv, json, pftrace.
    std::vector<std::string> output_formats;
    bool stats = false;                  ///< --stats: <name>_kernel_stats.csv beside the session
    LogLevel log_level = LogLevel::info; ///< --log-level, at most error with --quiet
    bool quiet = false;                  ///< --quiet: no progress line, only errors
    bool mangled_kernels = false;        ///< -M: kernel names as the code object's symbols
    bool truncate_kernels = false;       ///< -T: demangled kernel names cut to the function's name
    std::string engine;                  ///< --engine; empty: the install layout's default
    std::string preload = "auto";        ///< --preload-engine: auto, on or off
    bool simulate = false;               ///< --simulate
    std::string standins;                ///< --standins LIB[,LIB...] as given
    std::string executor;                ///< --executor isa|standin; empty: standin with --standins, else isa
    std::string import_spool;            ///< --import-spool FILE|DIR; empty: run a program
    bool force_import = false;           ///< --force-import: --import-spool merges spools of another run too
    unsigned drain_ms = 5000;            ///< --drain-timeout (ms)
    bool no_progress = false;            ///< --no-progress
    std::string follow_children = "yes"; ///< --follow-children: yes or no
    ReplayOptions replay;                ///< what the engine gets as REPLAYSCOPE_* variables
    std::vector<std::string> program_args; ///< PROGRAM [ARGS...] after "--" (empty when none)
};

/// What parse_options found: the options to act on, or the status to exit with at once.
struct ParsedOptions {
    std::optional<RunOptions> options; ///< empty: exit with exit_status
    int exit_status = 0;               ///< 0 after --help/--version, kToolFailure on a bad option
};

/// Parses `argv` (CLI11; the options before the first "--", the program and its arguments after it),
/// resolves -d/-o into the session path (output_path; placeholders, ".rsdb"), sets the log level, and
/// validates every value that can be checked before the program starts: the byte counts, the store and
/// restore options, the counters, the kernel regexes (compiled as the engine compiles them, ECMAScript),
/// --output-format, --log-level and --kernel-iteration-range (rs::ipc::parse_iteration_ranges: an
/// iteration 0, a range ending before its start or a value without any iteration is refused). `-f` is
/// rocprofv3's --output-format when a value follows it; a bare `-f` is the deprecated spelling of --force
/// (a warning says so). Help, the version and errors (one line naming the option and the value) are
/// printed here; their exit status (kToolFailure for an error) is returned in
/// ParsedOptions::exit_status. Nothing is created here.
ParsedOptions parse_options(int argc, char** argv);

} // namespace rs::runner
