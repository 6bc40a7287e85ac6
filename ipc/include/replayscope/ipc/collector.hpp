// The collector: receives one target's event stream over a private Unix-domain socket and writes it to
// a session file. Qt-free. One thread does everything after start(): it polls the listening socket and
// the connection, authenticates (SO_PEERCRED same uid + session token in the first frame), verifies
// every frame and writes the rows (SessionStore), committing every ~10k rows or ~200 ms.
#pragma once

#include "replayscope/ipc/frame.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace rs::ipc {

/// Receives one line per refusal, error or state change (no trailing newline). Called from the
/// collector thread.
using LogFunction = std::function<void(const std::string&)>;

/// 64 lowercase hex characters from getrandom(2) (falls back to /dev/urandom). Throws
/// std::runtime_error when no randomness can be had.
std::string makeSessionToken();

/// The listening socket `session.sock` in a fresh private directory (mkdtemp, mode 0700) under
/// $XDG_RUNTIME_DIR, or under /tmp when that is unset or unusable. No abstract namespace. The socket
/// and the directory are removed by the destructor.
class SessionSocket {
  public:
    /// Returns null with `error` set when the directory or the socket cannot be created.
    static std::unique_ptr<SessionSocket> create(std::string& error);
    ~SessionSocket();
    SessionSocket(const SessionSocket&) = delete;
    SessionSocket& operator=(const SessionSocket&) = delete;
    const std::string& path() const noexcept { return path_; }
    const std::string& directory() const noexcept { return directory_; }
    int fd() const noexcept { return fd_; }

  private:
    SessionSocket() = default;
    std::string directory_, path_;
    int fd_ = -1;
};

class SessionStore;

struct CollectorOptions {
    std::string session_path;
    bool overwrite = false;                       ///< replace an existing session file instead of refusing
    LogFunction log;                              ///< default: "replayscope: <line>" on stderr
    std::uint32_t max_payload = kMaxPayloadBytes; ///< frames announcing more are refused
};

/// What the collector saw; returned by finish().
struct CollectorSummary {
    std::uint64_t events_stored = 0;
    std::uint64_t dispatches = 0;
    std::uint64_t last_sequence = 0;
    std::uint64_t gaps = 0; ///< missing sequence ranges
    bool connected = false; ///< a target authenticated
    bool complete = false;  ///< session_end received and no gap
    std::string end_reason; ///< e.g. "session end received", "connection closed without session end"
    std::string error;      ///< set when the session file could not be written
};

class Collector {
  public:
    /// Creates the socket, the token and the session file (schema written). Null with `error` set on
    /// failure (unwritable path, existing file without overwrite, ...).
    static std::unique_ptr<Collector> create(CollectorOptions options, std::string& error);
    ~Collector();
    Collector(const Collector&) = delete;
    Collector& operator=(const Collector&) = delete;

    const std::string& socketPath() const noexcept;
    const std::string& token() const noexcept { return token_; }
    /// Suggested spool path for the target: the session path + ".spool".
    std::string spoolPath() const { return options_.session_path + ".spool"; }

    /// Starts the collector thread. False when it could not be started.
    bool start();
    /// Waits up to `drain` for the connection to end (the target gone), then stops: closes any
    /// connection, marks the session complete or incomplete, records gaps and counts, builds indexes.
    /// Idempotent (later calls return the same summary).
    CollectorSummary finish(std::chrono::milliseconds drain);

    /// Events stored so far (relaxed; for progress lines).
    std::uint64_t eventsStored() const noexcept { return progress_events_.load(std::memory_order_relaxed); }
    std::uint64_t dispatchesStored() const noexcept {
        return progress_dispatches_.load(std::memory_order_relaxed);
    }

  private:
    Collector() = default;
    void run();
    void log(const std::string& line) const;
    void acceptConnection();
    bool readConnection(); // false when the connection ended
    void closeConnection(const std::string& reason);
    bool consumeFrames();

    CollectorOptions options_;
    std::unique_ptr<SessionSocket> socket_;
    std::unique_ptr<SessionStore> store_;
    std::string token_;
    int connection_ = -1;
    bool authenticated_ = false;
    bool had_connection_ = false;
    std::string end_reason_;
    std::vector<std::uint8_t> buffer_;
    std::size_t buffered_ = 0;
    std::uint64_t rows_since_commit_ = 0;
    std::chrono::steady_clock::time_point last_commit_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> connection_done_{false};
    std::atomic<bool> accepted_{false};
    std::atomic<std::uint64_t> progress_events_{0}, progress_dispatches_{0};
    std::unique_ptr<std::thread> thread_;
    bool finished_ = false;
    CollectorSummary summary_;
};

/// Ingests a spool file into a session file (appending to an existing session, or creating one).
/// Frames are verified as on the socket; a truncated last frame (writer killed) or an invalid frame
/// stops the import there with a message, keeping everything before. Events already stored (same
/// sequence) are skipped, so importing twice is harmless.
class SpoolImporter {
  public:
    struct Result {
        bool ok = false;
        std::uint64_t frames_read = 0;
        std::uint64_t events_stored = 0; ///< newly stored
        bool complete = false;           ///< the session is complete after the import
        std::string message;             ///< error, or a note about a truncated tail
    };
    static Result import(const std::string& spool_path, const std::string& session_path);
};

} // namespace rs::ipc
