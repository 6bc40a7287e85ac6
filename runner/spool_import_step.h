// SPDX-License-Identifier: MIT
// Step 3 of replayscope-run: the spool files into the session (after a run, or --import-spool alone),
// and the run's private spool directory they are written into.
#pragma once

#include "options.h"

#include "replayscope/ipc/collector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs::runner {

/// The spool files of a run, and the files only named like spools of its session.
struct SpoolFiles {
    /// This run's spools in the session's private spool directory: regular files of this user whose
    /// hello names the run (rs::ipc::find_run_spools), writer ended, sorted by pid.
    std::vector<std::string> own;
    /// This run's spools a process still has open.
    std::vector<std::string> writing;
    /// Every other entry of the spool directory, and every `<session>.spool` or `<session>.spool.*`
    /// beside the session (an older build's, a file another user put there), sorted by name.
    std::vector<std::string> foreign;
};

/// The spool files of the run `run_id` of `session`, and the files only named like spools of it.
SpoolFiles spool_files(const std::string& session, const std::string& run_id);

/// Makes the private spool directory `directory` (mode 0700; `created` true), or checks the one there:
/// a directory itself (not a symbolic link), of this user, mode 0700. False with `error` (one line
/// naming what was found) otherwise: the run must not start.
bool prepare_spool_directory(const std::string& directory, bool& created, std::string& error);

/// When `session` exists and its run left spools that were never imported (rs::ipc::leftover_spools),
/// prints one line naming them and the command that imports them (`replaced`: -f is about to replace
/// the session they belong to).
void note_leftover_spools(const std::string& session, bool replaced);

/// --import-spool FILE|DIR -o SESSION: claims the session (OutputClaim), imports the spool (a file), or
/// the spools of SESSION's run in a spool directory (removing each one imported, and the directory when
/// it is left empty), with one finish, and prints what it read (frames, new events, bad frames, every
/// process). A spool of another run than the session's is refused (exit 125, naming both run ids) unless
/// `force_import`; then it is merged, and the session and the terminal say so. Into a new session, the
/// first spool's run becomes the session's. Returns the exit status: 0, or kToolFailure with the reason
/// printed.
int import_spool_option(const RunOptions& options);

/// The session after a run's spools were imported.
struct SpoolImport {
    std::vector<rs::ipc::ProcessSummary> processes; ///< every process, from the import (or the run)
    bool complete = false;                          ///< the session is complete
    std::uint64_t rejected_frames = 0;              ///< the collector's bad frames plus the spools'
    /// ", N events imported from M spool files" and a note per spool left in place or not imported;
    /// empty when there was none.
    std::string note;
};

/// Imports every spool of the run `run_id` (spool_files' `own`), each frame attributed to its process
/// through the spool's hello frames, in one import with one finish, and removes each spool imported and
/// then the spool directory when it is empty; a spool still open by a process of the run is left for a
/// later --import-spool. Files only named like spools (`foreign`) are neither imported nor removed, and
/// named on one line. Removes the follow-children claim `spool_claim`. Starts from what the collector
/// saw (`summary`).
SpoolImport import_run_spools(const std::string& session, const std::string& run_id,
                              const std::string& spool_claim, const rs::ipc::CollectorSummary& summary);

} // namespace rs::runner
