// SPDX-License-Identifier: MIT
// The collector: receives the event streams of every instrumented process of a run over a private
// Unix-domain socket and writes them into one session file. Qt-free. One thread does everything after
// start(): it polls the listening socket and every connection, authenticates each (SO_PEERCRED same uid
// at accept, then the session token in its first frame: until then a connection is *pending* and counts
// for nothing), verifies every frame and its sequence number against its process's sequence space, and
// writes the rows (SessionStore), committing every ~10k rows or ~200 ms. docs/session-pipeline.md.
#pragma once

#include "replayscope/ipc/frame.h"
#include "replayscope/ipc/session_store.h"
// SpoolImporter moved to its own header; included here for the callers that still find it through this one.
#include "replayscope/ipc/spool_importer.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <sys/types.h>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rs::ipc {

/// Receives one line per refusal, error or state change (no trailing newline). Called from the
/// collector thread.
using LogFunction = std::function<void(const std::string&)>;

/// 64 lowercase hex characters from getrandom(2) (falls back to /dev/urandom). Throws
/// std::runtime_error when no randomness can be had.
std::string make_session_token();

/// The listening socket `session.sock` in a fresh private directory `replayscope-XXXXXX` (mkdtemp, mode
/// 0700) under $XDG_RUNTIME_DIR, or under /tmp when that is unset or unusable. No abstract namespace.
/// The directory also holds `collector.pid` (the pid of the process that created it) and whatever the
/// engines put there (the follow-children claim). The destructor removes the directory and its files.
class SessionSocket {
  public:
    /// First removes stale directories (remove_stale_socket_directories), then creates the directory, the
    /// pid file and the socket. Returns null with `error` set when they cannot be created.
    static std::unique_ptr<SessionSocket> create(std::string& error);
    /// Removes every `replayscope-*` directory directly under `base` that belongs to this uid and whose
    /// `collector.pid` is not flock'ed (a live collector holds that lock for its lifetime, visible from
    /// any pid namespace) and names a pid that does not exist here (a killed collector's leftovers),
    /// with its files. Directories without a pid file, of another uid, or of a live collector are left.
    /// Returns how many were removed.
    static std::size_t remove_stale_socket_directories(const std::string& base);
    /// The base directory create() uses ($XDG_RUNTIME_DIR when usable, else /tmp).
    static std::string base_directory();
    ~SessionSocket();
    SessionSocket(const SessionSocket&) = delete;
    SessionSocket& operator=(const SessionSocket&) = delete;
    const std::string& path() const noexcept { return path_; }
    int fd() const noexcept { return fd_; }

  private:
    SessionSocket() = default;
    std::string directory_, path_;
    int fd_ = -1;
    int pid_fd_ = -1; ///< collector.pid, flock'ed exclusively while this socket lives
};

struct CollectorOptions {
    std::string session_path;
    bool overwrite = false;                       ///< replace an existing session file instead of refusing
    LogFunction log;                              ///< default: "replayscope: <line>" on stderr
    std::uint32_t max_payload = kMaxPayloadBytes; ///< frames announcing more are refused
};

/// What the collector saw; returned by finish(). Counts are of committed rows (what the file holds).
struct CollectorSummary {
    std::uint64_t events_stored = 0;
    std::uint64_t dispatches = 0;
    std::uint64_t last_sequence = 0;       ///< highest sequence of any process
    std::uint64_t gaps = 0;                ///< missing sequence ranges, every process
    std::uint64_t rejected_frames = 0;     ///< bad frames (connection closed), every process and pending ones
    std::uint64_t refused_connections = 0; ///< pending connections closed: wrong token, silent, bad uid...
    bool connected = false;                ///< at least one target process authenticated
    bool complete = false;                 ///< at least one process, and every process complete
    std::string end_reason; ///< e.g. "session end received", "connection closed without session end"
    std::string error;      ///< set when the session file could not be written
    std::vector<ProcessSummary> processes; ///< every process of the session, in process order
    /// Lines of each rate-limited kind (refusal reasons such as "wrong token", "hello timeout", and
    /// "accept failed"), in name order: the first kLoggedPerReason of a kind are logged, the rest only
    /// counted here.
    std::vector<std::pair<std::string, std::uint64_t>> log_counts;
};

/// Lines of one kind of refusal or accept failure the collector logs before it only counts them (a flood
/// of connects cannot grow the log without bound).
inline constexpr std::uint64_t kLoggedPerReason = 5;

/// Connection limits of the collector.
inline constexpr std::size_t kMaxAuthenticatedConnections = 1024;
/// Pending (not yet authenticated) connections at once; beyond it the collector stops accepting (new
/// connections wait in the kernel's listen backlog, and an emitter whose connect times out spools).
inline constexpr std::size_t kMaxPendingConnections = 64;
/// A pending connection that has not sent a valid Hello within this time is closed.
inline constexpr std::chrono::milliseconds kHelloTimeout{2000};

class Collector {
  public:
    /// Creates the socket, the token and the session file (schema written). Null with `error` set on
    /// failure (unwritable path, existing file without overwrite, ...).
    static std::unique_ptr<Collector> create(CollectorOptions options, std::string& error);
    ~Collector();
    Collector(const Collector&) = delete;
    Collector& operator=(const Collector&) = delete;

    const std::string& socket_path() const noexcept;
    const std::string& token() const noexcept { return token_; }
    /// Spool path for the targets: the session path + ".spool.%p" (each emitter replaces %p by its pid).
    std::string spool_path() const { return options_.session_path + ".spool.%p"; }

    /// Starts the collector thread. False when it could not be started.
    bool start();
    /// Waits up to `drain` for every authenticated connection to end (what is already queued on the
    /// listening socket or in a pending connection is still read), then stops: closes pending ones and
    /// any connection left, marks every process and the session complete or incomplete, records gaps and
    /// counts, builds indexes. Idempotent (later calls return the same summary).
    CollectorSummary finish(std::chrono::milliseconds drain);

    /// Events stored so far (relaxed; for progress lines).
    std::uint64_t events_stored() const noexcept { return progress_events_.load(std::memory_order_relaxed); }
    std::uint64_t dispatches_stored() const noexcept {
        return progress_dispatches_.load(std::memory_order_relaxed);
    }

  private:
    struct Connection;
    Collector() = default;
    void run();
    void log(const std::string& line) const;
    /// Logs `line` when fewer than kLoggedPerReason lines of `reason` were logged (then one line saying
    /// the rest are only counted); returns whether it was logged.
    bool log_limited(const std::string& reason, const std::string& line);
    /// A pending connection refused for `reason`: counted (refused_ and per reason), logged limited.
    void refuse(const std::string& reason, const std::string& line);
    /// Accepts one queued connection; nullptr when none was queued, accept failed or the peer was refused
    /// at once (`more` tells whether to try again this round).
    Connection* accept_connection(bool& more);
    /// True while one more pending connection fits (pending and authenticated limits); otherwise new
    /// connections wait in the kernel's backlog.
    bool can_accept() const noexcept;
    /// Reads what `c` has; false when the connection ended (then closed).
    bool read_connection(Connection& c);
    void close_connection(Connection& c, const std::string& reason);
    /// Decodes and stores the complete frames in `data`; returns the bytes consumed, or false (through
    /// `open`) when the connection must close.
    std::size_t consume_frames(Connection& c, const std::uint8_t* data, std::size_t size, bool& open);
    bool authenticate(Connection& c, const Record& hello);
    void close_expired_pending();
    void commit_if_due(bool force);

    CollectorOptions options_;
    std::unique_ptr<SessionSocket> socket_;
    std::unique_ptr<SessionStore> store_;
    std::string token_;
    std::vector<std::unique_ptr<Connection>> connections_; ///< pending and authenticated, oldest first
    std::size_t authenticated_open_ = 0;
    std::size_t pending_open_ = 0;                            ///< accepted, open, not authenticated
    std::unordered_map<std::uint64_t, pid_t> instance_peers_; ///< process instance -> SO_PEERCRED pid
    std::map<std::string, std::uint64_t> log_counts_;         ///< rate-limited lines per reason
    std::string end_reason_; ///< first abnormal end of a connection, or empty
    std::vector<std::uint8_t> buffer_;
    std::uint64_t rows_since_commit_ = 0;
    std::uint64_t refused_ = 0;
    std::chrono::steady_clock::time_point last_commit_;
    std::chrono::steady_clock::time_point accept_backoff_until_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> draining_{false}; ///< finish() has begun: read what is queued, then idle
    std::atomic<bool> idle_{false};     ///< nothing queued or pending, no authenticated connection open
    std::atomic<bool> ever_authenticated_{false};
    std::atomic<std::uint64_t> progress_events_{0}, progress_dispatches_{0};
    std::unique_ptr<std::thread> thread_;
    bool finished_ = false;
    bool drain_started_ = false; ///< collector thread: the pending connections were closed for finish()
    CollectorSummary summary_;
};

} // namespace rs::ipc
