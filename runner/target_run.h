// SPDX-License-Identifier: MIT
// Step 2 of replayscope-run: run the program under the engine while the collector records its session.
#pragma once

#include "options.h"

#include "replayscope/ipc/collector.h"

#include <optional>
#include <string>
#include <sys/types.h>

namespace rs::runner {

/// A finished run of the program, for the import and report steps.
struct TargetRun {
    std::string session_path;          ///< the session file, absolute
    std::string spool_claim;           ///< the engine's follow-children claim beside the spool (to remove)
    pid_t pid = -1;                    ///< the program's process
    int exit_status = 0;               ///< its exit code, 128+signal when killed, 127 when lost
    int term_signal = 0;               ///< the signal that ended it, 0 when it exited
    rs::ipc::CollectorSummary summary; ///< what the collector stored, after draining for drain_ms
};

/// Finds the engine (and with --simulate the simulated runtime and the chunk-hash stand-in), builds the
/// target's environment, creates the session file through the collector, starts the program with it,
/// forwards SIGTERM/SIGHUP to it (SIGINT/SIGQUIT are ignored here, as by system()), shows the progress
/// line until it ends and drains the collector for options.drain_ms. Stale spools of an earlier run of
/// the same session path are removed first. Nullopt when replayscope-run cannot run the program (no
/// program, engine or runtime missing, session file refused, the program cannot be started): the reason
/// is printed and a session file this call created is removed again; the caller exits with kToolFailure.
std::optional<TargetRun> run_target(const RunOptions& options);

} // namespace rs::runner
