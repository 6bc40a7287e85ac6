// Appends frames to the emitter's spool file (opened on first use, mode 0600, O_APPEND|O_CLOEXEC).
// Used by producing threads when the queue is full and by the sender when the collector is gone.
#pragma once

#include "replayscope/ipc/records.hpp"

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace rs::ipc {

class SpoolWriter {
  public:
    /// `path` empty: every append fails (the records are lost and counted as such by the caller).
    explicit SpoolWriter(std::string path) : path_(std::move(path)) {}
    ~SpoolWriter();
    SpoolWriter(const SpoolWriter&) = delete;
    SpoolWriter& operator=(const SpoolWriter&) = delete;

    /// Appends complete frames (`size` bytes). False when there is no spool or the write failed.
    bool appendFrames(const std::uint8_t* data, std::size_t size) noexcept;
    /// Encodes `record` as a frame and appends it (overflow path of a producing thread).
    bool appendRecord(const Record& record) noexcept;

    // Fork handling: the emitter holds this lock across fork() so the child never inherits it held.
    void lockForFork() noexcept { mutex_.lock(); }
    void unlockAfterFork() noexcept { mutex_.unlock(); }
    /// In the child: forget the file descriptor (closed) so that nothing more is written.
    void closeInChild() noexcept;

  private:
    bool openLocked() noexcept;
    bool writeLocked(const std::uint8_t* data, std::size_t size) noexcept;

    std::string path_;
    std::mutex mutex_;
    int fd_ = -1;
    bool failed_ = false;
    flatbuffers::FlatBufferBuilder builder_{512};
    std::vector<std::uint8_t> frame_;
};

} // namespace rs::ipc
