// SPDX-License-Identifier: MIT
// Shared helpers of the ipc test suites: session-file queries and a thread-safe log capture.
#pragma once

#include "records_equal.h"
#include "replayscope/ipc/collector.h"
#include "replayscope/ipc/emitter.h"
#include "replayscope/ipc/frame_decoder.h"
#include "replayscope/ipc/frame_encoder.h"
#include "replayscope/ipc/spool_importer.h"

#include <QString>
#include <QStringList>
#include <QTest>

#include <flatbuffers/flatbuffers.h>
#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace rs::test {

/// A child process started with posix_spawn, stdout and stderr piped together. The crash tests use it instead
/// of QProcess: Qt 6.4 starts children with clone(CLONE_VM) (vfork semantics), and ThreadSanitizer's clone
/// interceptor then runs its fork-child bookkeeping in the parent's memory, marking the *parent* as
/// "after a multi-threaded fork" (it dies at its next pthread_create, or with die_after_fork=0 reports
/// bogus races, e.g. between a producer filling an emitter queue slot and the sender reading it).
/// glibc's posix_spawn clones internally, unseen by the interceptor.
class ChildProcess {
  public:
    /// Starts `program` with `args` and the current environment plus `env` ("NAME=value").
    bool start(const std::string& program, const std::vector<std::string>& args,
               const std::vector<std::string>& env = {}) {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) {
            return false;
        }
        std::vector<std::string> strings{program};
        strings.insert(strings.end(), args.begin(), args.end());
        std::vector<char*> argv, envp;
        for (auto& a : strings) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        std::vector<std::string> environment(env);
        for (char** e = environ; *e != nullptr; ++e) {
            environment.emplace_back(*e); // duplicates: the first (ours) wins with getenv
        }
        for (auto& e : environment) {
            envp.push_back(e.data());
        }
        envp.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
        const int rc = ::posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(fds[1]);
        out_ = fds[0];
        return rc == 0;
    }
    ~ChildProcess() {
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            wait();
        }
        if (out_ >= 0) {
            ::close(out_);
        }
    }
    pid_t pid() const { return pid_; }
    /// Next stdout line (without newline); empty after `timeout_ms` or at end of output.
    std::string readLine(int timeout_ms) {
        for (;;) {
            if (const auto nl = buffered_.find('\n'); nl != std::string::npos) {
                std::string line = buffered_.substr(0, nl);
                buffered_.erase(0, nl + 1);
                return line;
            }
            pollfd p{out_, POLLIN, 0};
            char chunk[4096];
            const ssize_t n = ::poll(&p, 1, timeout_ms) > 0 ? ::read(out_, chunk, sizeof chunk) : 0;
            if (n <= 0) {
                return {};
            }
            buffered_.append(chunk, static_cast<std::size_t>(n));
        }
    }
    /// All remaining output, until end of output or `timeout_ms` without any.
    std::string readAll(int timeout_ms) {
        std::string all;
        for (std::string line = readLine(timeout_ms); !line.empty() || !buffered_.empty();
             line = readLine(timeout_ms)) {
            all += line + '\n';
        }
        return all + buffered_;
    }
    /// Waits for the child; its wait status.
    int wait() {
        if (!exited_) {
            while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
            }
            exited_ = true;
        }
        return status_;
    }

  private:
    pid_t pid_ = -1;
    int out_ = -1;
    int status_ = 0;
    bool exited_ = false;
    std::string buffered_;
};

/// Read-only connection to a session file; query helpers return NULL as -1 / "".
class SessionDb {
  public:
    explicit SessionDb(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
        }
    }
    ~SessionDb() { sqlite3_close(db_); }
    bool ok() const { return error_.empty(); }
    /// First column of the first row as an integer (-1 for NULL or no row).
    long long integer(const std::string& sql) const {
        const auto rows = query(sql);
        return rows.empty() || rows[0].empty() || rows[0][0].isNull() ? -1 : rows[0][0].toLongLong();
    }
    QString text(const std::string& sql) const {
        const auto rows = query(sql);
        return rows.empty() || rows[0].empty() ? QString() : rows[0][0];
    }
    /// All rows, every column as text (NULL -> null QString).
    std::vector<QStringList> query(const std::string& sql) const {
        std::vector<QStringList> rows;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
            qWarning("SQL error in %s: %s", sql.c_str(), sqlite3_errmsg(db_));
            return rows;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            QStringList row;
            for (int i = 0; i < sqlite3_column_count(st); ++i) {
                const auto* t = sqlite3_column_text(st, i);
                row << (t ? QString::fromUtf8(reinterpret_cast<const char*>(t)) : QString());
            }
            rows.push_back(row);
        }
        sqlite3_finalize(st);
        return rows;
    }

  private:
    sqlite3* db_ = nullptr;
    std::string error_;
};

/// Collects collector log lines (the collector thread writes, the test reads).
class LogCapture {
  public:
    rs::ipc::LogFunction function() {
        return [this](const std::string& line) {
            std::lock_guard lock(mutex_);
            lines_ << QString::fromStdString(line);
        };
    }
    QStringList lines() const {
        std::lock_guard lock(mutex_);
        return lines_;
    }
    bool contains(const QString& text) const {
        for (const auto& l : lines()) {
            if (l.contains(text)) {
                return true;
            }
        }
        return false;
    }

  private:
    mutable std::mutex mutex_;
    QStringList lines_;
};

/// Encodes records as frames (sequence and timestamp as given).
inline std::vector<std::uint8_t> frames(const std::vector<rs::ipc::Record>& records) {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<std::uint8_t> out;
    for (const auto& r : records) {
        rs::ipc::append_frame(r, builder, out);
    }
    return out;
}

/// Byte offsets of every frame in `bytes` (an undamaged stream, walked by the frames' lengths).
inline std::vector<std::size_t> frameOffsets(const std::vector<std::uint8_t>& bytes) {
    std::vector<std::size_t> offsets;
    for (std::size_t at = 0; at + rs::ipc::kFrameHeaderBytes <= bytes.size();) {
        rs::ipc::FrameHeader h{};
        std::memcpy(&h, bytes.data() + at, rs::ipc::kFrameHeaderBytes);
        offsets.push_back(at);
        at += rs::ipc::kFrameHeaderBytes + h.length;
    }
    return offsets;
}

/// A spool path as the emitter of this process opens it: "%p" replaced by getpid().
inline std::string expandSpool(std::string path) {
    const std::string pid = std::to_string(::getpid());
    for (auto at = path.find("%p"); at != std::string::npos; at = path.find("%p", at + pid.size())) {
        path.replace(at, 2, pid);
    }
    return path;
}

/// Rewrites the header of the frame at offset `at` of `bytes` to protocol `version`, as a sender of that
/// version wrote it: checksum word 0 before protocol 6, else the checksum recomputed.
inline void setFrameVersion(std::vector<std::uint8_t>& bytes, std::uint16_t version, std::size_t at = 0) {
    rs::ipc::FrameHeader h{};
    std::memcpy(&h, bytes.data() + at, rs::ipc::kFrameHeaderBytes);
    h.version = version;
    h.checksum = 0;
    std::memcpy(bytes.data() + at, &h, rs::ipc::kFrameHeaderBytes);
    if (version >= rs::ipc::kFirstChecksumVersion) {
        rs::ipc::seal_frame(bytes.data() + at, rs::ipc::kFrameHeaderBytes + h.length);
    }
}

/// Recomputes the checksum of the (protocol 6) frame at offset `at` of `bytes` after a test changed it on
/// purpose, so that the decoder judges the change itself and not the damage.
inline void resealFrame(std::vector<std::uint8_t>& bytes, std::size_t at = 0) {
    setFrameVersion(bytes, rs::ipc::kProtocolVersion, at);
}

/// Pid placeholder of a Hello built before a fork: the child writes its own pid over it (setHelloPid).
inline constexpr std::uint32_t kChildPidPlaceholder = 0x7ffffffeu;

/// In the Hello frame at the start of `stream`, encoded with pid kChildPidPlaceholder, writes `pid` over
/// the placeholder and recomputes the frame's checksum, in place and without allocating (a forked child of
/// a multi-threaded test). False when the stream holds no such Hello.
inline bool setHelloPid(std::vector<std::uint8_t>& stream, std::uint32_t pid) noexcept {
    rs::ipc::FrameHeader h{};
    if (stream.size() < rs::ipc::kFrameHeaderBytes) {
        return false;
    }
    std::memcpy(&h, stream.data(), rs::ipc::kFrameHeaderBytes);
    if (h.type != static_cast<std::uint16_t>(rs::ipc::EventType::hello) ||
        stream.size() < rs::ipc::kFrameHeaderBytes + h.length) {
        return false;
    }
    for (std::size_t at = rs::ipc::kFrameHeaderBytes; at + 4 <= rs::ipc::kFrameHeaderBytes + h.length; ++at) {
        std::uint32_t value = 0;
        std::memcpy(&value, stream.data() + at, 4);
        if (value == kChildPidPlaceholder) {
            std::memcpy(stream.data() + at, &pid, 4);
            std::memset(stream.data() + rs::ipc::kFrameChecksumOffset, 0, 4);
            rs::ipc::seal_frame(stream.data(), rs::ipc::kFrameHeaderBytes + h.length);
            return true;
        }
    }
    return false;
}

/// A Hello of this process (its pid: the collector compares it with the peer's credentials).
inline rs::ipc::Record hello_record(const std::string& token) {
    rs::ipc::Record r{};
    r.type = rs::ipc::EventType::hello;
    std::memcpy(r.hello.token, token.data(), std::min<std::size_t>(token.size(), 64));
    r.hello.pid = static_cast<std::uint32_t>(::getpid());
    r.hello.instance = 0x4242; // the collector refuses a Hello without an instance
    r.hello.protocol_version = rs::ipc::kProtocolVersion;
    return r;
}

/// A SessionEnd record at `sequence` that claims `last_sequence` as the last one sent (exit status -1).
inline rs::ipc::Record sessionEndRecord(std::uint64_t sequence, std::uint64_t last_sequence) {
    rs::ipc::Record r{};
    r.type = rs::ipc::EventType::session_end;
    r.sequence = sequence;
    r.timestamp_ns = 1000 + sequence;
    r.session_end.last_sequence = last_sequence;
    r.session_end.exit_status = -1;
    return r;
}

inline rs::ipc::Record dispatchRecord(std::uint64_t sequence, std::uint64_t id) {
    rs::ipc::Record r{};
    r.type = rs::ipc::EventType::dispatch;
    r.sequence = sequence;
    r.timestamp_ns = 1000 + sequence;
    r.dispatch = {id, 0x1000,      0x2000,     0x3000 + id,
                  0,  {256, 1, 1}, {64, 1, 1}, rs::ipc::DispatchDecision::replayed};
    return r;
}

/// A raw client socket (blocking, close-on-exec) connected to the Unix socket at `path`, or -1 when the
/// socket cannot be made or the connect fails. The caller closes it.
inline int connectTo(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), std::min(path.size() + 1, sizeof addr.sun_path));
    if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        if (fd >= 0) {
            ::close(fd);
        }
        return -1;
    }
    return fd;
}

/// Sends all of `bytes` on `fd` (MSG_NOSIGNAL, partial sends continued). False when the peer is gone.
inline bool sendBytes(int fd, const std::vector<std::uint8_t>& bytes) {
    std::size_t at = 0;
    while (at < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
        if (n <= 0) {
            return false;
        }
        at += static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace rs::test
