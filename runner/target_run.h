// SPDX-License-Identifier: MIT
// Step 2 of replayscope-run: run the program under the engine while the collector records its session.
#pragma once

#include "options.h"
#include "output_claim.h"

#include "replayscope/ipc/collector.h"

#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace rs::runner {

/// A finished run of the program, for the import and report steps.
struct TargetRun {
    std::string session_path;           ///< the session file, absolute
    std::string spool_claim;            ///< the engine's follow-children claim beside the spool (to remove)
    std::string run_id;                 ///< named by every spool of this run and by the session
    pid_t pid = -1;                     ///< the program's process
    int exit_status = 0;                ///< its exit code, 128+signal when killed, 127 when lost
    int term_signal = 0;                ///< the signal that ended it, 0 when it exited
    rs::ipc::CollectorSummary summary;  ///< what the collector stored, after draining for drain_ms
    std::unique_ptr<OutputClaim> claim; ///< the run's claim on session_path, held until this is destroyed
    dev_t session_device = 0;           ///< the session file this run created (stat after creating it)
    ino_t session_inode = 0;
};

/// True when `run.session_path` still names the file the run created (not removed or replaced since):
/// only then do the spool import and the exit status go into it.
bool session_file_is_the_runs(const TargetRun& run);

/// Finds the engine (and with --simulate the simulated runtime and the chunk-hash stand-in), builds the
/// target's environment, creates the session file through the collector, starts the program with it,
/// forwards SIGTERM/SIGHUP to it (SIGINT/SIGQUIT are ignored here, as by system()), shows the progress
/// line until it ends and drains the collector for options.drain_ms. The session path is claimed first
/// (OutputClaim, held by the returned run): when another live run holds it, nothing is created or removed
/// and the program is not started. The run draws a fresh run id, records it in the session and hands it
/// to the program, whose spools go into the session's private spool directory (made 0700 here; one that
/// is not a directory of this user with mode 0700 refuses the run before anything is created). Spools a
/// killed earlier run of the session left are named on one line with how to import them. Nullopt when
/// replayscope-run cannot run the program (no program, engine or runtime missing, session file refused, the
/// program cannot be started): the reason is printed and a session file this call created is removed again;
/// the caller exits with kToolFailure.
std::optional<TargetRun> run_target(const RunOptions& options);

} // namespace rs::runner
