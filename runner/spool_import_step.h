// SPDX-License-Identifier: MIT
// Step 3 of replayscope-run: the spool files into the session (after a run, or --import-spool alone).
#pragma once

#include "options.h"

#include "replayscope/ipc/collector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs::runner {

/// The files beside a session named like its spools (spool_files).
struct SpoolFiles {
    /// This run's spools: `<session>.spool.<run_id>.<pid>`, regular files of this user (lstat), one per
    /// emitter process, sorted by pid.
    std::vector<std::string> own;
    /// Every other `<session>.spool` or `<session>.spool.*` (another run's, an older build's, a file
    /// another user put there), sorted by name; this run's follow-children claim is neither.
    std::vector<std::string> foreign;
};

/// The spool files of the run `run_id` of `session`, and the files only named like spools of it.
SpoolFiles spool_files(const std::string& session, const std::string& run_id);

/// --import-spool FILE -o SESSION: claims the session (OutputClaim), imports the spool into it and prints
/// what it read (frames, new events, bad frames, every process). Returns the exit status: 0, or kToolFailure
/// with the reason printed when a program was given too or the import failed.
int import_spool_option(const RunOptions& options);

/// The session after a run's spools were imported.
struct SpoolImport {
    std::vector<rs::ipc::ProcessSummary> processes; ///< every process, from the last import (or the run)
    bool complete = false;                          ///< the session is complete
    std::uint64_t rejected_frames = 0;              ///< the collector's bad frames plus the spools'
    /// ", N events imported from M spool files" and a note per spool left in place or not imported;
    /// empty when there was none.
    std::string note;
};

/// Imports every spool of the run `run_id` (spool_files' `own`) whose writer has ended, each frame
/// attributed to its process through the spool's hello frames, and removes each spool imported; a spool
/// still open by a process of the run is left for a later --import-spool. Files only named like spools
/// (`foreign`) are neither imported nor removed, and named on one line. Removes the follow-children claim
/// `spool_claim`. Starts from what the collector saw (`summary`).
SpoolImport import_run_spools(const std::string& session, const std::string& run_id,
                              const std::string& spool_claim, const rs::ipc::CollectorSummary& summary);

} // namespace rs::runner
