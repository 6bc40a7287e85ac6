// SPDX-License-Identifier: MIT
// The per-agent worker thread that runs replay windows (docs/replay-window.md). Application threads only
// append windows and return; every wait of a window happens here, bounded.
#pragma once

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
    /// Joins the thread once the agent's state says stopping (the caller sets it and wakes the worker).
    /// Bounded: after 30 s the thread is detached and false returned (its agent context must then stay
    /// allocated).
    bool stop() noexcept;

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

} // namespace rs::engine
