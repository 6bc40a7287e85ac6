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

/// Ingests a spool file into a session file (appending to an existing session, or creating one).
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
/// with SessionStore::finish (the file in journal_mode=DELETE).
class SpoolImporter {
  public:
    struct Result {
        bool ok = false;
        std::uint64_t frames_read = 0;         ///< event frames decoded (Hello frames not counted)
        std::uint64_t events_stored = 0;       ///< newly stored
        std::uint64_t rejected_frames = 0;     ///< skipped as bad (see above)
        std::uint64_t skipped_bytes = 0;       ///< bytes without a frame header skipped to resynchronise
        bool complete = false;                 ///< the session is complete after the import
        std::string message;                   ///< error, or notes about skipped frames or a truncated tail
        std::vector<ProcessSummary> processes; ///< every process of the session after the import
    };
    static Result import(const std::string& spool_path, const std::string& session_path);
    /// True while an emitter's spool writer still has `spool_path` open (it holds a shared OFD lock on
    /// byte 0 for its lifetime; F_OFD_GETLK sees it from any process and pid namespace). A spool whose
    /// writer lives may still grow: import it after that process has ended.
    static bool writer_alive(const std::string& spool_path) noexcept;
};

} // namespace rs::ipc
