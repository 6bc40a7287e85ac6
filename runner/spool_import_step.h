// SPDX-License-Identifier: MIT
// Step 3 of replayscope-run: the spool files into the session (after a run, or --import-spool alone).
#pragma once

#include "options.h"

#include "replayscope/ipc/collector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs::runner {

/// The spool files of `session`: `<session>.spool.<pid>` (one per emitter process, sorted by pid),
/// then the legacy `<session>.spool` when it exists.
std::vector<std::string> spool_files(const std::string& session);

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

/// Imports every spool of the run's session (spool_files) whose writer has ended, each frame attributed
/// to its process through the spool's hello frames, and removes each spool imported; a spool still open
/// by a process of the run is left for a later --import-spool. Removes the follow-children claim
/// `spool_claim`. Starts from what the collector saw (`summary`).
SpoolImport import_run_spools(const std::string& session, const std::string& spool_claim,
                              const rs::ipc::CollectorSummary& summary);

} // namespace rs::runner
