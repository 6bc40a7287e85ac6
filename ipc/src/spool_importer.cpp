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
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <new>
#include <sqlite3.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

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

/// Reads one spool into `store` (frames attributed as described in spool_importer.h), filling `result`.
/// False when the store failed (its last_error says why): the import as a whole ends.
bool read_spool(BoundedReader& reader, const struct stat& spool_identity, const std::string& spool_path,
                SessionStore& store, std::uint64_t& rows_since_commit, SpoolImporter::SpoolResult& result) {
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
        return store.process(ProcessIdentity{instance | (1ull << 63), 0, 0});
    };
    Record record;
    FrameHeader header{};
    std::string first_rejection, first_resync, error;
    std::uint64_t skipped_bytes = 0;
    for (;;) {
        if (!reader.fill(kFrameHeaderBytes, error)) {
            result.message = spool_path + ": " + error;
            break;
        }
        if (reader.available() == 0) {
            break;
        }
        std::size_t frame_bytes = 0;
        FrameError err =
            decode_frame(reader.data(), reader.available(), kMaxPayloadBytes, record, header, frame_bytes);
        if (err == FrameError::incomplete && !reader.at_end() && reader.available() >= kFrameHeaderBytes) {
            // The header tells how much the frame needs (bounded: an oversized length is refused below).
            const std::size_t want =
                kFrameHeaderBytes + std::min<std::size_t>(header.length, kMaxPayloadBytes);
            if (!reader.fill(want, error)) {
                result.message = spool_path + ": " + error;
                break;
            }
            err = decode_frame(reader.data(), reader.available(), kMaxPayloadBytes, record, header,
                               frame_bytes);
        } else if (err == FrameError::incomplete && !reader.at_end()) {
            if (!reader.fill(kFrameHeaderBytes, error)) {
                result.message = spool_path + ": " + error;
                break;
            }
            continue;
        }
        const std::uint64_t at = reader.offset();
        if (err != FrameError::none && frame_bounds_trusted(err, header)) {
            // Its checksum matched, so its length is its writer's: skip this one frame, count it, go on.
            store.note_rejected_frame(process);
            ++result.rejected_frames;
            if (first_rejection.empty()) {
                first_rejection = describe(err, header) + " at offset " + std::to_string(at);
            }
            reader.consume(kFrameHeaderBytes + header.length);
            continue;
        }
        if (err != FrameError::none) {
            // Damage (bad magic, version, length, type, header rule or checksum; a torn frame, also one
            // running past the end of the file): its length is not to be trusted. Scan from its second
            // byte for the next offset where a whole, valid frame starts (find_frame), count the bytes
            // passed over, and the region as one rejected frame. Nothing found before the end: the file
            // ends inside a frame, and everything before it is kept.
            const bool torn_tail = err == FrameError::incomplete;
            std::uint64_t passed = 0;
            std::size_t from = 1;
            bool found = false;
            for (;;) {
                const FrameScan scan =
                    find_frame(reader.data(), reader.available(), from, reader.at_end(), kMaxPayloadBytes);
                passed += scan.offset;
                reader.consume(scan.offset);
                if (scan.found || !scan.need_more) {
                    found = scan.found;
                    break;
                }
                // The candidate at the front needs more bytes to be judged (at most one whole frame).
                if (!reader.fill(
                        std::min(reader.available() + kReadBytes, kFrameHeaderBytes + kMaxPayloadBytes),
                        error)) {
                    result.message = spool_path + ": " + error;
                    break;
                }
                from = 0;
            }
            if (!result.message.empty()) {
                break;
            }
            if (!found && torn_tail) {
                // At the end of the file: a torn last frame (the writer died or its disk filled mid-write).
                result.message = spool_path + ": " + describe(err, header) + " at offset " +
                                 std::to_string(at) + " (the file ends inside a frame); " +
                                 std::to_string(result.frames_read) + " frames before it imported";
                break;
            }
            store.note_rejected_frame(process);
            ++result.rejected_frames;
            skipped_bytes += passed;
            if (first_resync.empty()) {
                first_resync = describe(err, header) + " at offset " + std::to_string(at);
            }
            continue;
        }
        reader.consume(frame_bytes);
        if (record.type == EventType::hello) {
            process = store.process({record.hello.instance, record.hello.pid, record.hello.ppid});
            if (process <= 0) {
                return false;
            }
            continue;
        }
        ++result.frames_read;
        if (process == 0) {
            process = default_process();
            if (process <= 0) {
                return false;
            }
        }
        const SequenceVerdict verdict = store.check_sequence(process, record.sequence);
        if (verdict == SequenceVerdict::out_of_window) {
            store.note_rejected_frame(process);
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
        if (!store.insert(process, record)) {
            return false;
        }
        if (++rows_since_commit >= kCommitRows) {
            if (!store.commit()) {
                return false;
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
    result.ok = true;
    return true;
}

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
    Result result = import_all({spool_path}, session_path);
    if (result.ok && !result.spools.empty() && !result.spools.front().ok) {
        result.ok = false;
        result.message = result.spools.front().message;
    }
    return result;
}

SpoolImporter::Result SpoolImporter::import_all(const std::vector<std::string>& spool_paths,
                                                const std::string& session_path) {
    Result result;
    for (const auto& path : spool_paths) {
        result.spools.push_back(SpoolResult{path, false, 0, 0, 0, 0, {}});
    }
    // Nothing to read (no regular file among them): the session is not opened, let alone created.
    const bool any_regular = std::any_of(spool_paths.begin(), spool_paths.end(), [](const std::string& path) {
        struct stat st{};
        return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
    });
    if (!any_regular) {
        for (auto& spool : result.spools) {
            struct stat identity{};
            const int fd =
                open_regular_file(spool.path, "not a regular file: refused", identity, spool.message);
            if (fd >= 0) {
                ::close(fd); // became a regular file meanwhile: still not imported by this call
                spool.message = spool.path + ": changed while being imported, not imported";
            }
        }
        result.message = result.spools.empty() ? "no spool given" : result.spools.front().message;
        return result;
    }
    std::string error;
    auto store = SessionStore::open(session_path, SessionStore::Mode::append, error);
    if (!store) {
        result.message = error;
        return result;
    }
    const std::uint64_t stored_before = store->committed_events();
    std::uint64_t rows_since_commit = 0;
    for (auto& spool : result.spools) {
        struct stat spool_identity{};
        const int fd =
            open_regular_file(spool.path, "not a regular file: refused", spool_identity, spool.message);
        if (fd < 0) {
            continue;
        }
        std::unique_ptr<BoundedReader> reader;
        try {
            reader = std::make_unique<BoundedReader>(fd);
        } catch (const std::bad_alloc&) {
            ::close(fd);
            spool.message = spool.path + ": out of memory for the read buffer";
            continue;
        }
        const std::uint64_t events_before = store->events_stored();
        if (!read_spool(*reader, spool_identity, spool.path, *store, rows_since_commit, spool)) {
            result.message = session_path + ": " + store->last_error();
            return result;
        }
        spool.events_stored = store->events_stored() - std::min(store->events_stored(), events_before);
        result.frames_read += spool.frames_read;
        result.rejected_frames += spool.rejected_frames;
        result.skipped_bytes += spool.skipped_bytes;
        if (!spool.message.empty()) {
            result.message += (result.message.empty() ? "" : "; ") + spool.message;
        }
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

namespace {

constexpr std::size_t kRunIdChars = 16;

bool is_run_id(std::string_view text) {
    return text.size() == kRunIdChars && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

/// An open session file connection (closed on destruction), with a busy timeout: the collector of a
/// live run may be writing the file.
struct SessionConnection {
    sqlite3* db = nullptr;
    ~SessionConnection() { sqlite3_close(db); }
    /// Opens `path` (never creating it) when it is a regular file; false with `error`.
    bool open(const std::string& path, bool write, std::string& error) {
        struct stat st{};
        if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
            error = path + ": not a session file (not a regular file)";
            return false;
        }
        if (sqlite3_open_v2(path.c_str(), &db, write ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY,
                            nullptr) != SQLITE_OK) {
            error = path + ": " + sqlite3_errmsg(db);
            return false;
        }
        sqlite3_busy_timeout(db, 5000);
        return true;
    }
    /// Whether the `session` table has `column`; false with `error` when it cannot be asked.
    bool has_column(const char* column, bool& has, std::string& error) {
        sqlite3_stmt* st = nullptr;
        bool ok = sqlite3_prepare_v2(db, "SELECT count(*) FROM pragma_table_info('session') WHERE name = ?1",
                                     -1, &st, nullptr) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_text(st, 1, column, -1, SQLITE_STATIC);
            ok = sqlite3_step(st) == SQLITE_ROW;
            has = ok && sqlite3_column_int(st, 0) > 0;
        }
        if (!ok) {
            error = std::string("cannot read the session row: ") + sqlite3_errmsg(db);
        }
        sqlite3_finalize(st);
        return ok;
    }
    /// Runs `sql` with `text` bound to ?1, adding `column` (TEXT) to the session row first when missing.
    bool update(const char* column, const char* sql, const std::string& text, std::string& error) {
        bool has = false;
        if (!has_column(column, has, error)) {
            return false;
        }
        if (!has) {
            const std::string add = std::string("ALTER TABLE session ADD COLUMN ") + column + " TEXT";
            if (sqlite3_exec(db, add.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
                error = std::string("cannot add the session's ") + column + ": " + sqlite3_errmsg(db);
                return false;
            }
        }
        sqlite3_stmt* st = nullptr;
        bool ok = sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_text(st, 1, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
            ok = sqlite3_step(st) == SQLITE_DONE;
        }
        if (!ok) {
            error = std::string("cannot record the session's ") + column + ": " + sqlite3_errmsg(db);
        }
        sqlite3_finalize(st);
        return ok;
    }
};

/// Sort key of a spool name `<run id>.<pid>[.<suffix>]`: pid, then suffix; names not of that form last.
std::pair<unsigned long long, unsigned long long> spool_order(const std::string& name) {
    const auto dot = name.find('.');
    unsigned long long pid = ~0ull, suffix = 0;
    if (dot != std::string::npos) {
        const std::string rest = name.substr(dot + 1);
        const auto second = rest.find('.');
        const std::string pid_text = rest.substr(0, second);
        const std::string suffix_text = second == std::string::npos ? std::string() : rest.substr(second + 1);
        if (!pid_text.empty() && pid_text.size() <= 10 &&
            pid_text.find_first_not_of("0123456789") == std::string::npos) {
            pid = std::stoull(pid_text);
        }
        if (!suffix_text.empty() && suffix_text.size() <= 4 &&
            suffix_text.find_first_not_of("0123456789") == std::string::npos) {
            suffix = std::stoull(suffix_text);
        }
    }
    return {pid, suffix};
}

} // namespace

std::string spool_directory(const std::string& session_path) {
    return session_path + ".spool.d";
}

bool spool_directory_is_private(const std::string& directory, std::string& error) {
    struct stat st{};
    if (::lstat(directory.c_str(), &st) != 0) {
        error = directory + ": " + std::strerror(errno);
        return false;
    }
    if (S_ISLNK(st.st_mode)) {
        error = directory + ": a symbolic link, not a directory";
    } else if (!S_ISDIR(st.st_mode)) {
        error = directory + ": " + file_kind(st.st_mode) + ", not a directory";
    } else if (st.st_uid != ::geteuid()) {
        error = directory + ": owned by uid " + std::to_string(st.st_uid) + ", not by this user (uid " +
                std::to_string(::geteuid()) + ")";
    } else if ((st.st_mode & 07777) != 0700) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        error = directory + ": mode " + mode + ", not 0700";
    } else {
        return true;
    }
    return false;
}

bool read_spool_run_id(const std::string& spool_path, std::string& run_id, std::string& error) {
    run_id.clear();
    struct stat st{};
    if (::lstat(spool_path.c_str(), &st) != 0) {
        error = spool_path + ": " + std::strerror(errno);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        error = spool_path + ": " + (S_ISLNK(st.st_mode) ? "a symbolic link" : file_kind(st.st_mode)) +
                ", not a regular file: not a spool";
        return false;
    }
    if (st.st_uid != ::geteuid()) {
        error = spool_path + ": owned by uid " + std::to_string(st.st_uid) + ", not by this user";
        return false;
    }
    const int fd = ::open(spool_path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
    if (fd < 0) {
        error = spool_path + ": cannot be opened: " + std::strerror(errno);
        return false;
    }
    struct stat opened{};
    if (::fstat(fd, &opened) != 0 || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino) {
        ::close(fd);
        error = spool_path + ": changed while being checked";
        return false;
    }
    // The first frame: a Hello is small (its token and four numbers), far below one read of this size.
    std::vector<std::uint8_t> head(4096);
    std::size_t have = 0;
    while (have < head.size()) {
        const ssize_t n = ::read(fd, head.data() + have, head.size() - have);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        have += static_cast<std::size_t>(n);
    }
    ::close(fd);
    Record record;
    FrameHeader header{};
    std::size_t frame_bytes = 0;
    if (have > 0 &&
        decode_frame(head.data(), have, kMaxPayloadBytes, record, header, frame_bytes) == FrameError::none &&
        record.type == EventType::hello) {
        const std::string_view token(record.hello.token, HelloRecord::kTokenBytes);
        const std::string_view id = token.substr(0, kRunIdChars);
        if (is_run_id(id) && token.find_first_not_of('0', kRunIdChars) == std::string_view::npos &&
            id.find_first_not_of('0') != std::string_view::npos) {
            run_id = std::string(id);
        }
    }
    return true;
}

RunSpools find_run_spools(const std::string& directory, const std::string& run_id) {
    RunSpools spools;
    std::vector<std::pair<std::pair<unsigned long long, unsigned long long>, std::string>> own, writing;
    DIR* dir = ::opendir(directory.c_str());
    if (dir == nullptr) {
        return spools;
    }
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name == "." || name == "..") {
            continue;
        }
        const std::string path = directory + "/" + name;
        constexpr std::string_view kClaim = ".%p.first";
        if (name.size() > kClaim.size() &&
            name.compare(name.size() - kClaim.size(), kClaim.size(), kClaim) == 0) {
            continue; // a follow-children claim (engine/src/session_claim.cpp), not a spool
        }
        std::string spool_run, error;
        struct stat st{};
        const bool named_for_run = !run_id.empty() && name.compare(0, run_id.size() + 1, run_id + ".") == 0;
        bool of_run = is_run_id(run_id) && read_spool_run_id(path, spool_run, error) && spool_run == run_id;
        // An empty file named for the run (its first write was undone, e.g. by a full disk) holds nothing
        // of anyone: the run's, to be removed with its spools.
        of_run = of_run || (named_for_run && error.empty() && ::lstat(path.c_str(), &st) == 0 &&
                            S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && st.st_size == 0);
        if (!of_run) {
            spools.foreign.push_back(path);
        } else if (SpoolImporter::writer_alive(path)) {
            writing.emplace_back(spool_order(name), path);
        } else {
            own.emplace_back(spool_order(name), path);
        }
    }
    ::closedir(dir);
    std::sort(own.begin(), own.end());
    std::sort(writing.begin(), writing.end());
    for (auto& spool : own) {
        spools.own.push_back(std::move(spool.second));
    }
    for (auto& spool : writing) {
        spools.writing.push_back(std::move(spool.second));
    }
    std::sort(spools.foreign.begin(), spools.foreign.end());
    return spools;
}

bool read_session_run_id(const std::string& session_path, std::string& run_id, std::string& error) {
    run_id.clear();
    SessionConnection session;
    if (!session.open(session_path, false, error)) {
        return false;
    }
    bool has = false;
    if (!session.has_column("run_id", has, error)) {
        error = session_path + ": " + error;
        return false;
    }
    if (!has) {
        return true; // a file of an older build
    }
    sqlite3_stmt* st = nullptr;
    bool ok = sqlite3_prepare_v2(session.db, "SELECT run_id FROM session WHERE id = 1", -1, &st, nullptr) ==
              SQLITE_OK;
    if (ok) {
        const int rc = sqlite3_step(st);
        ok = rc == SQLITE_ROW || rc == SQLITE_DONE;
        if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
            if (text != nullptr && is_run_id(text)) {
                run_id = text;
            }
        }
    }
    if (!ok) {
        error = session_path + ": cannot read the session's run id: " + sqlite3_errmsg(session.db);
    }
    sqlite3_finalize(st);
    return ok;
}

bool record_session_run_id(const std::string& session_path, const std::string& run_id, std::string& error) {
    SessionConnection session;
    if (!session.open(session_path, true, error)) {
        return false;
    }
    if (!session.update("run_id", "UPDATE session SET run_id = ?1 WHERE id = 1", run_id, error)) {
        error = session_path + ": " + error;
        return false;
    }
    return true;
}

bool record_foreign_spool(const std::string& session_path, const std::string& entry, std::string& error) {
    SessionConnection session;
    if (!session.open(session_path, true, error)) {
        return false;
    }
    if (!session.update("foreign_spools",
                        "UPDATE session SET foreign_spools = coalesce(foreign_spools || char(10), '') || ?1 "
                        "WHERE id = 1",
                        entry, error)) {
        error = session_path + ": " + error;
        return false;
    }
    return true;
}

std::vector<std::string> leftover_spools(const std::string& session_path) {
    std::string run_id, error;
    const std::string directory = spool_directory(session_path);
    if (!read_session_run_id(session_path, run_id, error) || run_id.empty() ||
        !spool_directory_is_private(directory, error)) {
        return {};
    }
    return find_run_spools(directory, run_id).own;
}

} // namespace rs::ipc
