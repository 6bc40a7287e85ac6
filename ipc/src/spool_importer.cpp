// SPDX-License-Identifier: MIT
// Spool import (spool_importer.h): a spool file's frames, decoded and checked like the collector's, into
// a session file through one bounded read buffer.
#include "replayscope/ipc/spool_importer.h"

#include "ingest_limits.h"
#include "regular_file.h"

#include "replayscope/ipc/frame_decoder.h"
#include "replayscope/ipc/session_store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

namespace rs::ipc {

namespace {

/// Reads a file through one bounded buffer (room for a read chunk plus the largest frame): memory does
/// not grow with the file's size.
class BoundedReader {
  public:
    explicit BoundedReader(int fd) : fd_(fd), buffer_(kReadBytes + kFrameHeaderBytes + kMaxPayloadBytes) {}
    ~BoundedReader() { ::close(fd_); }
    BoundedReader(const BoundedReader&) = delete;
    BoundedReader& operator=(const BoundedReader&) = delete;

    const std::uint8_t* data() const noexcept { return buffer_.data() + begin_; }
    std::size_t available() const noexcept { return end_ - begin_; }
    bool at_end() const noexcept { return eof_; }
    /// File offset of data()[0].
    std::uint64_t offset() const noexcept { return base_ + begin_; }
    void consume(std::size_t bytes) noexcept { begin_ += std::min(bytes, available()); }
    /// Reads until `want` bytes (at most the buffer's size) are available or the file ends; false on a
    /// read error (`error` set).
    bool fill(std::size_t want, std::string& error) {
        want = std::min(want, buffer_.size());
        if (available() >= want || eof_) {
            return true;
        }
        if (begin_ + want > buffer_.size() || begin_ > kReadBytes) {
            // Move what is left to the front (frames then start 8-aligned when they did in the file).
            std::memmove(buffer_.data(), buffer_.data() + begin_, available());
            base_ += begin_;
            end_ -= begin_;
            begin_ = 0;
        }
        while (available() < want && !eof_) {
            const ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                error = std::string("read failed: ") + std::strerror(errno);
                return false;
            }
            eof_ = n == 0;
            end_ += static_cast<std::size_t>(n);
        }
        return true;
    }

  private:
    int fd_;
    std::vector<std::uint8_t> buffer_;
    std::size_t begin_ = 0, end_ = 0;
    std::uint64_t base_ = 0;
    bool eof_ = false;
};

} // namespace

bool SpoolImporter::writer_alive(const std::string& spool_path) noexcept {
    const int fd = ::open(spool_path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        return false;
    }
    struct flock probe{};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET;
    probe.l_start = 0;
    probe.l_len = 1;
    const bool alive = ::fcntl(fd, F_OFD_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
    ::close(fd);
    return alive;
}

SpoolImporter::Result SpoolImporter::import(const std::string& spool_path, const std::string& session_path) {
    Result result;
    struct stat spool_identity{};
    const int fd =
        open_regular_file(spool_path, "not a regular file: refused", spool_identity, result.message);
    if (fd < 0) {
        return result;
    }
    std::unique_ptr<BoundedReader> reader;
    try {
        reader = std::make_unique<BoundedReader>(fd);
    } catch (const std::bad_alloc&) {
        ::close(fd);
        result.message = spool_path + ": out of memory for the read buffer";
        return result;
    }
    std::string error;
    auto store = SessionStore::open(session_path, SessionStore::Mode::append, error);
    if (!store) {
        result.message = error;
        return result;
    }
    const std::uint64_t stored_before = store->events_stored();
    // Frames before the first Hello (spools of protocol 1-3) are a process of their own, one per spool
    // file: never process 1 or another source's, whose sequence space they would share (their events
    // would be dropped as duplicates). Its instance is derived from the file's identity (device, inode),
    // so importing the same file again finds the same process; bit 63 keeps it apart from small test ids.
    std::int64_t process = 0;
    auto default_process = [&]() -> std::int64_t {
        std::uint64_t instance = 0xcbf29ce484222325ull; // FNV-1a over device and inode
        for (const std::uint64_t word : {static_cast<std::uint64_t>(spool_identity.st_dev),
                                         static_cast<std::uint64_t>(spool_identity.st_ino)}) {
            for (int i = 0; i < 8; ++i) {
                instance = (instance ^ ((word >> (8 * i)) & 0xff)) * 0x100000001b3ull;
            }
        }
        return store->process(ProcessIdentity{instance | (1ull << 63), 0, 0});
    };
    Record record;
    FrameHeader header{};
    std::uint64_t rows_since_commit = 0;
    std::string first_rejection, first_resync;
    std::uint64_t skipped_bytes = 0;
    for (;;) {
        if (!reader->fill(kFrameHeaderBytes, error)) {
            result.message = spool_path + ": " + error;
            break;
        }
        if (reader->available() == 0) {
            break;
        }
        std::size_t frame_bytes = 0;
        FrameError err =
            decode_frame(reader->data(), reader->available(), kMaxPayloadBytes, record, header, frame_bytes);
        if (err == FrameError::incomplete && !reader->at_end() && reader->available() >= kFrameHeaderBytes) {
            // The header tells how much the frame needs (bounded: an oversized length is refused below).
            const std::size_t want =
                kFrameHeaderBytes + std::min<std::size_t>(header.length, kMaxPayloadBytes);
            if (!reader->fill(want, error)) {
                result.message = spool_path + ": " + error;
                break;
            }
            err = decode_frame(reader->data(), reader->available(), kMaxPayloadBytes, record, header,
                               frame_bytes);
        } else if (err == FrameError::incomplete && !reader->at_end()) {
            if (!reader->fill(kFrameHeaderBytes, error)) {
                result.message = spool_path + ": " + error;
                break;
            }
            continue;
        }
        const std::uint64_t at = reader->offset();
        const bool skippable = err == FrameError::invalid_payload || err == FrameError::unknown_type ||
                               err == FrameError::bad_header;
        if (err != FrameError::none && skippable && !reader->at_end() &&
            reader->available() < kFrameHeaderBytes + static_cast<std::size_t>(header.length) &&
            !reader->fill(kFrameHeaderBytes + std::min<std::size_t>(header.length, kMaxPayloadBytes),
                          error)) {
            result.message = spool_path + ": " + error;
            break;
        }
        if (err != FrameError::none && skippable &&
            reader->available() >= kFrameHeaderBytes + static_cast<std::size_t>(header.length)) {
            // The header frames it: skip this frame, count it, go on with the next.
            store->note_rejected_frame(process);
            ++result.rejected_frames;
            if (first_rejection.empty()) {
                first_rejection = describe(err, header) + " at offset " + std::to_string(at);
            }
            reader->consume(kFrameHeaderBytes + header.length);
            continue;
        }
        if (err == FrameError::incomplete) {
            // At the end of the file: a torn last frame (the writer died or its disk filled mid-write).
            result.message = spool_path + ": " + describe(err, header) + " at offset " + std::to_string(at) +
                             " (the file ends inside a frame); " + std::to_string(result.frames_read) +
                             " frames before it imported";
            break;
        }
        if (err != FrameError::none) {
            // No usable header here (a torn frame a later write continued after, or damage): resynchronise
            // at the next frame magic and count the bytes skipped.
            if (first_resync.empty()) {
                first_resync = describe(err, header) + " at offset " + std::to_string(at);
            }
            reader->consume(1);
            ++skipped_bytes;
            for (;;) {
                if (!reader->fill(sizeof kFrameMagic, error)) {
                    break;
                }
                if (reader->available() < sizeof kFrameMagic) {
                    skipped_bytes += reader->available();
                    reader->consume(reader->available());
                    break;
                }
                std::uint32_t magic = 0;
                std::memcpy(&magic, reader->data(), sizeof magic);
                if (magic == kFrameMagic) {
                    break;
                }
                reader->consume(1);
                ++skipped_bytes;
            }
            continue;
        }
        reader->consume(frame_bytes);
        if (record.type == EventType::hello) {
            process = store->process({record.hello.instance, record.hello.pid, record.hello.ppid});
            if (process <= 0) {
                result.message = session_path + ": " + store->last_error();
                return result;
            }
            continue;
        }
        ++result.frames_read;
        if (process == 0) {
            process = default_process();
            if (process <= 0) {
                result.message = session_path + ": " + store->last_error();
                return result;
            }
        }
        const SequenceVerdict verdict = store->check_sequence(process, record.sequence);
        if (verdict == SequenceVerdict::out_of_window) {
            store->note_rejected_frame(process);
            ++result.rejected_frames;
            if (first_rejection.empty()) {
                first_rejection = std::string(event_type_name(record.type)) + " frame with sequence " +
                                  std::to_string(record.sequence) +
                                  " outside its process's window at offset " + std::to_string(at);
            }
            continue;
        }
        if (verdict == SequenceVerdict::duplicate) {
            continue;
        }
        if (!store->insert(process, record)) {
            result.message = session_path + ": " + store->last_error();
            return result;
        }
        if (++rows_since_commit >= kCommitRows) {
            if (!store->commit()) {
                result.message = session_path + ": " + store->last_error();
                return result;
            }
            rows_since_commit = 0;
        }
    }
    result.skipped_bytes = skipped_bytes;
    if (skipped_bytes > 0) {
        const std::string note = spool_path + ": " + std::to_string(skipped_bytes) +
                                 " byte(s) without a frame skipped (first: " + first_resync +
                                 "), reading went on at the next frame";
        result.message = result.message.empty() ? note : note + "; " + result.message;
    }
    if (result.rejected_frames > 0) {
        const std::string note = spool_path + ": " + std::to_string(result.rejected_frames) +
                                 " bad frame(s) skipped (first: " + first_rejection + ")";
        result.message = result.message.empty() ? note : note + "; " + result.message;
    }
    if (!store->finish(store->all_processes_ended() ? "session end received"
                                                    : "connection closed without session end")) {
        result.message = session_path + ": " + store->last_error();
        return result;
    }
    result.events_stored = store->committed_events() - std::min(store->committed_events(), stored_before);
    result.processes = store->processes();
    result.complete = !result.processes.empty();
    for (const auto& p : result.processes) {
        result.complete = result.complete && p.complete;
    }
    result.ok = true;
    return result;
}

} // namespace rs::ipc
