// SPDX-License-Identifier: MIT
// The per-agent worker thread that runs replay windows (docs/replay-window.md). Application threads only
// append windows and return; every wait of a window happens here, bounded.
#pragma once

#include <chrono>
#include <memory>
#include <thread>

namespace rs::engine {

class AgentContext;
struct Engine;

/// One thread per agent with intercepted queues. It takes the first pending window whose fence has fired
/// (not FIFO: a later window may be ready first) and runs it (ReplayWindow); a window whose fence has not
/// fired within REPLAYSCOPE_DRAIN_TIMEOUT_MS of its handler is declined drain-timeout. Between windows it
/// destroys the signals proven unreferenced (queue_gate.h).
class WindowWorker {
  public:
    explicit WindowWorker(AgentContext& agent);
    /// Detaches a thread stop() could not join (never destroys a joinable std::thread).
    ~WindowWorker();
    WindowWorker(const WindowWorker&) = delete;
    WindowWorker& operator=(const WindowWorker&) = delete;

    /// Starts the thread; false when it could not be created.
    bool start() noexcept;
    /// Joins the thread once the agent's state says stopping (the caller sets it and wakes the worker);
    /// the worker then abandons its window (docs/replay-window.md, "Process exit and fork"). Returns as
    /// soon as the thread has ended; bounded by stop_bound(), after which the thread is detached and
    /// false returned (its agent context must then stay allocated). In a forked child it returns false at
    /// once: the thread exists only in the parent.
    bool stop() noexcept;
    /// The most a worker that saw `stopping` can still need for its window: the pass timeout
    /// (REPLAYSCOPE_PASS_TIMEOUT_MS) plus one wait slice of 100 ms for a pass in flight, and 120 s for a
    /// final restore whose chunk-hash batches time out (device_hasher.h). A window that ends sooner
    /// ends the wait sooner.
    static std::chrono::milliseconds stop_bound(const Engine& e);

    struct Done; ///< completion flag shared with the thread (outlives a detached worker)

  private:
    void loop() noexcept;
    /// The loop proper; returns when the agent is stopping; throws only std::bad_alloc from its lists.
    void run(Engine& e);

    AgentContext& agent_;
    std::thread thread_;
    std::shared_ptr<Done> done_;
    /// Set when stop() gave up waiting and detached the thread: every later stop() says "not stopped",
    /// so nobody frees what the still-running worker uses.
    bool detached_ = false;
};

/// Stops every running worker (process exit without hsa_shut_down; called by a static destructor of the
/// engine before the runtime's statics go).
void stop_all_workers() noexcept;

/// True on a window worker's thread. Its copies (snapshot, restores, hashing) call the saved originals;
/// should one still reach a copy wrapper (a runtime that calls its own exported entry), the wrapper must
/// not wait for the window that very thread runs (docs/replay-window.md, "Synchronous copies").
bool on_window_worker() noexcept;

} // namespace rs::engine
