// SPDX-License-Identifier: MIT
// Spool import: the frames an emitter spooled to a file (its spool writer, ipc/src/spool_writer.cpp)
// into a session file, after the run or by `replayscope-run --import-spool`. Qt-free; part of
// rs_ipc_collector. docs/session-pipeline.md.
#pragma once

#include "replayscope/ipc/session_store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs::ipc {

/// Ingests spool files into a session file (appending to an existing session, or creating one).
/// A spool that is not a regular file (FIFO, device, directory, socket) is refused before it is opened
/// for reading. The file is streamed through one bounded buffer (a 1 MiB read chunk plus the largest
/// frame), whatever its size. Frames after a Hello frame belong to the process that Hello names
/// (protocol 4); frames before any Hello (older spools) form a process of their own, one per spool
/// file (keyed by the file's device and inode). A frame whose header is readable but whose payload is
/// invalid, whose header fields break the rules, or whose sequence is outside its process's window is
/// skipped and counted (rejected_frames); at a framing error (bad magic, version or length: a torn frame
/// that later writes continued after) the import resynchronises at the next frame magic and counts the
/// bytes skipped (skipped_bytes); a torn last frame ends it with a message, keeping everything before.
/// Events already stored (same process and sequence) are skipped, so importing twice is harmless. Ends
/// with SessionStore::finish (the file in journal_mode=DELETE, also when a killed collector left it in
/// WAL mode). The importer does not judge where a spool comes from: its callers check that first
/// (find_run_spools, read_spool_run_id).
class SpoolImporter {
  public:
    /// What one spool of an import gave.
    struct SpoolResult {
        std::string path;
        bool ok = false;               ///< read (to its end or to a torn last frame); false: refused
        std::uint64_t frames_read = 0; ///< event frames decoded (Hello frames not counted)
        std::uint64_t events_stored = 0;
        std::uint64_t rejected_frames = 0;
        std::uint64_t skipped_bytes = 0;
        std::string message; ///< why it was refused, or notes about skipped frames or a truncated tail
    };
    struct Result {
        bool ok = false;                       ///< the session was opened and finished
        std::uint64_t frames_read = 0;         ///< event frames decoded (Hello frames not counted)
        std::uint64_t events_stored = 0;       ///< newly stored (committed)
        std::uint64_t rejected_frames = 0;     ///< skipped as bad (see above)
        std::uint64_t skipped_bytes = 0;       ///< bytes without a frame header skipped to resynchronise
        bool complete = false;                 ///< the session is complete after the import
        std::string message;                   ///< error, or notes about skipped frames or a truncated tail
        std::vector<ProcessSummary> processes; ///< every process of the session after the import
        std::vector<SpoolResult> spools;       ///< one per spool given, in the order given
    };
    /// One spool: import_all({spool_path}); `ok` also requires that spool to have been read.
    static Result import(const std::string& spool_path, const std::string& session_path);
    /// Every spool of `spool_paths` into `session_path` with one open of the session and one finish (a
    /// run's 30 spools cost one finish, not 30). A spool refused (not a regular file, unreadable) is
    /// reported in its SpoolResult and the others go on; the session is not opened at all when none of
    /// the spools is a regular file. `ok` false: the session could not be opened, written or finished.
    static Result import_all(const std::vector<std::string>& spool_paths, const std::string& session_path);
    /// True while an emitter's spool writer still has `spool_path` open (it holds a shared OFD lock on
    /// byte 0 for its lifetime; F_OFD_GETLK sees it from any process and pid namespace). A spool whose
    /// writer lives may still grow: import it after that process has ended.
    static bool writer_alive(const std::string& spool_path) noexcept;
};

/// The private directory of a session's spools, `<session>.spool.d`, which replayscope-run creates
/// (mode 0700) before it starts the program.
std::string spool_directory(const std::string& session_path);

/// Whether `directory` is a private spool directory: a directory itself (lstat: not a symbolic link to
/// one), owned by the effective user, mode 0700. False with `error` saying what it is instead.
bool spool_directory_is_private(const std::string& directory, std::string& error);

/// The run a spool names: `run_id` is the 16 hex characters of its first frame, a Hello whose token
/// is the run id followed by '0's; "" for a spool naming no run (older builds wrote an all-'0' token;
/// an empty file). False with `error` when the spool is not a regular file of this user (lstat: a
/// symbolic link is refused) or cannot be read.
bool read_spool_run_id(const std::string& spool_path, std::string& run_id, std::string& error);

/// A directory's spools, sorted by pid (then suffix) or name.
struct RunSpools {
    std::vector<std::string> own;     ///< of the run: regular files of this user naming it, writer ended
    std::vector<std::string> writing; ///< of the run, but a process still has the file open
    std::vector<std::string> foreign; ///< every other entry (another run's, an older build's, a link, ...)
};
/// The spools of run `run_id` in `directory` (a private spool directory; not checked here). The
/// follow-children claims (`*.%p.first`) are none of the three.
RunSpools find_run_spools(const std::string& directory, const std::string& run_id);

/// The run id recorded in the session file (the `session` row's `run_id`): "" for a session without one
/// (written by an older build or created by --import-spool of a spool naming no run). False with `error`
/// when the file is not a regular file or not readable as a session.
bool read_session_run_id(const std::string& session_path, std::string& run_id, std::string& error);
/// Records `run_id` as the session's run (adds the `run_id` column to a file made before it existed).
/// replayscope-run calls it once the collector created the file, before the program starts.
bool record_session_run_id(const std::string& session_path, const std::string& run_id, std::string& error);
/// Appends `entry` (a line naming a spool of another run merged by force, and its run) to the session's
/// `foreign_spools` (added when missing), which the inspector can show.
bool record_foreign_spool(const std::string& session_path, const std::string& entry, std::string& error);

/// The spools a session's run left behind, unimported: in the session's private spool directory, regular
/// files of this user whose Hello names the session's run id and whose writer has ended (typically a
/// run whose replayscope-run was killed while its program kept spooling). Sorted by pid. Empty when
/// there are none, the session records no run id, or its spool directory is missing or not private.
/// Qt-free, for the inspector's offer to import them (`replayscope-run --import-spool DIR -o SESSION`).
std::vector<std::string> leftover_spools(const std::string& session_path);

} // namespace rs::ipc
