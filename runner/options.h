// SPDX-License-Identifier: MIT
// Step 1 of replayscope-run: the command line into options.
#pragma once

#include "replay_options.h"

#include <optional>
#include <string>
#include <vector>

namespace rs::runner {

/// Everything replayscope-run was asked to do.
struct RunOptions {
    std::string output;           ///< -o: the session file, %r/%p already expanded (expand_output_pattern)
    bool force = false;           ///< -f: overwrite an existing session file
    std::string engine;           ///< --engine; empty: the install layout's default
    std::string preload = "auto"; ///< --preload-engine: auto, on or off
    bool simulate = false;        ///< --simulate
    std::string standins;         ///< --standins LIB[,LIB...] as given
    std::string executor;         ///< --executor isa|standin; empty: standin with --standins, else isa
    std::string import_spool;     ///< --import-spool FILE|DIR; empty: run a program
    bool force_import = false;    ///< --force-import: --import-spool merges spools of another run too
    unsigned drain_ms = 5000;     ///< --drain-timeout (ms)
    bool no_progress = false;     ///< --no-progress
    std::string follow_children = "yes";   ///< --follow-children: yes or no
    ReplayOptions replay;                  ///< what the engine gets as REPLAYSCOPE_* variables
    std::vector<std::string> program_args; ///< PROGRAM [ARGS...] after "--" (empty when none)
};

/// What parse_options found: the options to act on, or the status to exit with at once.
struct ParsedOptions {
    std::optional<RunOptions> options; ///< empty: exit with exit_status
    int exit_status = 0;               ///< 0 after --help/--version, kToolFailure on a bad option
};

/// Parses `argv` (CLI11; the options before the first "--", the program and its arguments after it),
/// expands the -o placeholders and validates the byte counts and store/restore options. Help, the
/// version and errors (naming the option and the value) are printed here; their exit status is returned
/// in ParsedOptions::exit_status.
ParsedOptions parse_options(int argc, char** argv);

} // namespace rs::runner
