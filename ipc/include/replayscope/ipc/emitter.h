// SPDX-License-Identifier: MIT
// The event emitter: the engine's only interface to the session pipeline.
//
// Qt-free, exception-free at its interface, usable from a library injected into any process.
// Application threads call the `emit` functions; each stamps a sequence number and a CLOCK_MONOTONIC
// timestamp and copies one fixed-size record into a bounded lock-free queue (no system call, no lock,
// no allocation). One sender thread (all signals blocked) encodes the records as FlatBuffers frames and
// writes them to the collector's socket with MSG_NOSIGNAL. When the queue is full, the producing thread
// appends the record to the spool file instead (short mutex-protected write); when the collector is
// unreachable or goes away, the sender writes to the spool. Nothing is dropped while a spool path is
// configured; only without one are records counted as lost (Emitter::Stats::lost).
//
// Fork: a child created by fork() (without exec) inherits an inert emitter: every emit returns false,
// the inherited socket is closed in the child so the collector still sees the parent's end of stream,
// and stop()/the destructor in the child neither join nor flush anything. Locks are taken around fork
// (pthread_atfork) so the child never inherits a held lock. After exec the socket is gone (CLOEXEC).
#pragma once

#include "replayscope/ipc/records.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace rs::ipc {

/// Where the emitter sends to. Empty socket_path: spool only. Empty spool_path: no spool (overflow lost).
struct EmitterConfig {
    std::string socket_path;
    std::string token; ///< 64 hex characters
    /// Spool file; every "%p" in it is replaced by the emitter's pid at start (replayscope-run passes
    /// "<session>.spool.d/<run id>.%p", so that each process of a run has its own file). Created new on
    /// first use, never an existing file (spool_writer.h).
    std::string spool_path;
    std::size_t queue_capacity = 16384; ///< records; rounded up to a power of two, at least 64
    /// The sender's window rule (records.h kSequenceWindow, which the collector enforces): a record
    /// more than this past the highest sequence written to the socket goes to the spool with
    /// everything after it. Smaller values only for tests; never larger than kSequenceWindow.
    std::uint64_t sequence_window = kSequenceWindow;

    /// Reads REPLAYSCOPE_SOCKET, REPLAYSCOPE_TOKEN, REPLAYSCOPE_SPOOL and REPLAYSCOPE_QUEUE_CAPACITY
    /// (environment.h). Missing variables leave the defaults. Never throws except std::bad_alloc.
    static EmitterConfig from_environment();
    /// True when there is somewhere to send (a socket or a spool path).
    bool enabled() const noexcept { return !socket_path.empty() || !spool_path.empty(); }
};

class EmitterCore;

/// The emitter. All member functions are noexcept and thread-safe unless stated.
class Emitter {
  public:
    Emitter() noexcept;
    /// Calls stop(500 ms) when still running.
    ~Emitter();
    Emitter(const Emitter&) = delete;
    Emitter& operator=(const Emitter&) = delete;

    /// Starts the sender thread, which connects to `config.socket_path` (falling back to the spool when
    /// the connection or the Hello fails) and sends Hello with the token. Returns false, doing nothing,
    /// when already started, when the config has nowhere to send, or when memory or a thread cannot be
    /// had. Call once, before any emit; not concurrently with stop().
    bool start(const EmitterConfig& config) noexcept;

    /// Emits session_end (counts of everything accepted, `internal_errors`: the engine-internal
    /// errors the caller caught and swallowed, and `exit_status`: the value the process passed to exit(),
    /// 0..255, or -1 when unknown), then waits up to `timeout` for the sender to
    /// send or spool the queue; records still queued at the deadline go to the spool; the sender is
    /// joined (bounded: its blocking calls time out every 50 ms). Returns true when every accepted record
    /// reached the socket or the spool. Idempotent. Not concurrently with start(); emits racing with
    /// stop() return false once stop has begun.
    bool stop(std::chrono::milliseconds timeout, std::uint64_t internal_errors = 0,
              std::int32_t exit_status = -1) noexcept;

    /// Waits, at most `timeout`, until the sender has sent or spooled every record accepted before the
    /// call, without stopping anything (the process is about to die, e.g. in a SIGABRT handler, and
    /// will send no session end). Async-signal-safe: atomic loads, clock_gettime and nanosleep only
    /// (POSIX.1-2017 2.4.3). True when they all went out (or nothing was running); false at the deadline
    /// (the sender thread itself, which blocks every signal, never gets there) or in a forked child.
    bool drain(std::chrono::milliseconds timeout) const noexcept;

    /// True between a successful start() and stop() in the process that started it.
    bool running() const noexcept;

    /// The instance id sent in Hello (random, never 0, drawn at start); 0 before start.
    std::uint64_t instance() const noexcept;

    /// Returns the id of `text`, emitting a string record the first time a text is seen (the first
    /// kMaxStringBytes bytes are kept; original length recorded). Deduplicated through a small table
    /// under a short mutex; after 65536 distinct texts every call emits a new id. 0 when not running.
    StringId intern_string(std::string_view text) noexcept;

    /// Session start: interns the strings and emits session_start. `argv` is the joined argument list,
    /// `configuration` the "KEY=value" lines of the replay options.
    bool emit_session_start(std::string_view executable, std::string_view argv, std::string_view hostname,
                            std::string_view engine_version, std::string_view configuration) noexcept;

    // Typed events: emit_event copies the record (<= 100 ns, no lock unless the queue is full) and returns
    // false only when the emitter is not running (not started, stopped, or a forked child) or the
    // record was lost because the queue was full and no spool is configured.
    bool emit_event(const AgentRecord& r) noexcept;
    bool emit_event(const AllocationRecord& r) noexcept;
    bool emit_event(const FreeRecord& r) noexcept;
    bool emit_event(const ExecutableRecord& r) noexcept;
    bool emit_event(const ModuleVariableRecord& r) noexcept;
    bool emit_event(const DispatchRecord& r) noexcept;
    bool emit_event(const SnapshotRecord& r) noexcept;
    bool emit_event(const SnapshotFailureRecord& r) noexcept;
    bool emit_event(const PassRecord& r) noexcept;
    bool emit_event(const RestoreSkipRecord& r) noexcept;
    bool emit_event(const WarningRecord& r) noexcept;
    bool emit_event(const FidelityMismatchRecord& r) noexcept; ///< after the PassRecord with fidelity 0
    bool emit_event(const AsyncCopyRecord& r) noexcept;
    bool emit_event(const RestoreFailureRecord& r) noexcept;
    bool emit_event(const SnapshotPlacementRecord& r) noexcept; ///< after the SnapshotRecord (mixed only)
    bool emit_event(const RestoreRecord& r) noexcept;
    bool emit_event(const RestoreMissRecord& r) noexcept;
    bool emit_event(const CounterValueRecord& r) noexcept;
    /// Warning with text (interned).
    bool emit_warning(WarningCode code, std::uint64_t dispatch_id, std::string_view text) noexcept;

    /// Emits the agent's inventory (one inventory record + one record per region) unless `generation`
    /// is the generation last emitted for `agent` (tracked for up to 64 agents; beyond, always emitted).
    /// Call before the snapshot that references it. Returns true when records were emitted.
    bool emit_inventory(std::uint64_t agent, std::uint64_t generation,
                        std::span<const InventoryRegion> regions) noexcept;

    /// Counters since start (relaxed reads; exact after stop()).
    struct Stats {
        std::uint64_t accepted; ///< records given sequence numbers
        std::uint64_t sent;     ///< records written to the socket
        std::uint64_t spooled;  ///< records written to the spool file
        std::uint64_t lost;     ///< records neither sent nor spooled
        bool connected;         ///< the socket is (still) connected
    };
    Stats stats() const noexcept;

  private:
    bool push(EventType type, const void* payload, std::size_t bytes) noexcept;
    std::unique_ptr<EmitterCore> core_;
};

} // namespace rs::ipc
