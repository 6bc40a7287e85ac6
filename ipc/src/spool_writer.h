// SPDX-License-Identifier: MIT
// Appends frames to the emitter's spool file, created on first use (mode 0600, O_APPEND|O_CLOEXEC) as a
// new file: O_CREAT|O_EXCL|O_NOFOLLOW in its directory (opened without following a link, and of this
// user or root), so an existing file or a symbolic link under the name is never opened; a name taken
// (another process image of the same pid, after exec) makes it try `path.1`, `path.2`, ... (up to
// `.99`). No spool can be created: the records are lost and counted, the program goes on.
// Used by producing threads when the queue is full and by the sender when the collector is gone.
// Protocol 4: the first write after opening starts with the emitter's Hello frame, and so does every
// write that finds the file grown by another writer since this one's last write (a file shared by
// hand), so that the importer attributes every frame to its process. A write cut short
// (ENOSPC, EFBIG) is undone by truncating the file back to where it began: no torn frame is left.
// While the writer lives it holds a shared OFD lock on byte 0 of the file (SpoolImporter::writer_alive).
#pragma once

#include "replayscope/ipc/records.h"

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rs::ipc {

class SpoolWriter {
  public:
    /// `path` empty: every append fails (the records are lost and counted as such by the caller).
    explicit SpoolWriter(std::string path) : path_(std::move(path)) {}
    ~SpoolWriter();
    SpoolWriter(const SpoolWriter&) = delete;
    SpoolWriter& operator=(const SpoolWriter&) = delete;

    /// Appends complete frames (`size` bytes) under an exclusive flock. False when there is no spool or
    /// the write failed; then the file is truncated back to its size before the write (no torn frame).
    bool append_frames(const std::uint8_t* data, std::size_t size) noexcept;
    /// Encodes `record` as a frame and appends it (overflow path of a producing thread).
    bool append_record(const Record& record) noexcept;
    /// The Hello record written before this writer's frames (see above); call before any append.
    /// Without one, frames are written bare (older spools).
    void set_hello(const Record& hello) noexcept;

    // Fork handling: the emitter holds this lock across fork() so the child never inherits it held.
    void lock_for_fork() noexcept { mutex_.lock(); }
    void unlock_after_fork() noexcept { mutex_.unlock(); }
    /// In the child: forget the file descriptor (closed) so that nothing more is written.
    void close_in_child() noexcept;

  private:
    bool open_locked() noexcept;
    bool write_locked(const std::uint8_t* data, std::size_t size) noexcept;
    bool write_all_locked(const std::uint8_t* data, std::size_t size) noexcept;

    std::string path_;
    std::mutex mutex_;
    int fd_ = -1;
    bool failed_ = false;
    flatbuffers::FlatBufferBuilder builder_{512};
    std::vector<std::uint8_t> frame_;
    std::vector<std::uint8_t> hello_frame_; ///< empty: no Hello
    off_t end_after_last_write_ = -1;       ///< file size after this writer's last write; -1: none yet
};

} // namespace rs::ipc
