// The replay window (docs/rocm-behaviour.md#a-replay-window-that-fits-these-rules) for one dispatch P.
#pragma once

#include "event_sink.h"

#include <hsa.h>
#include <hsa_api_trace.h>

#include <cstdint>

namespace rs::engine {

struct Engine;
struct QueueContext;

/// Runs inside the intercept handler that received P:
///  1. ONE writer call: [B1 barrier-AND (barrier bit) -> fence, B2 barrier-AND (barrier bit) dep done ->
///     P.completion_signal]; P itself is not forwarded.
///  2. Wait for fence (prior work of the queue done), take the agent's replay lock, wait until the
///     agent's other intercepted queues have nothing in flight. All three share one deadline
///     (REPLAYSCOPE_DRAIN_TIMEOUT_MS); a miss declines with drain-timeout and P runs once, after the
///     fence, on the private queue, completing `done` itself (nothing waits on the handler's thread).
///  3. Snapshot; over budget / incomplete: P runs once on the private queue (completion = done).
///  4. N passes on the private queue (own completion signal each, profiling ticks recorded), restore
///     between passes, none after the last; a failed restore stops the passes (docs/replay-failures.md).
///  5. Store 0 to done: B2 completes and fires the application's completion signal exactly once.
class ReplayWindow {
  public:
    ReplayWindow(Engine& engine, QueueContext& queue, uint64_t dispatch_id)
        : engine_(engine), queue_(queue), dispatch_id_(dispatch_id) {}

    DispatchDecision run(const hsa_kernel_dispatch_packet_t& packet,
                         hsa_amd_queue_intercept_packet_writer writer);

  private:
    DispatchDecision after_barriers(hsa_signal_t fence);
    /// P once on the private queue behind a barrier on `fence`, completing `done` (declined paths
    /// without the replay lock held).
    void run_once_after(hsa_signal_t fence);
    /// P once on the private queue, completing `done`, waited for (bounded) under the replay lock.
    void run_once_locked();
    /// Sends the agent's inventory when the snapshot's generation is not the one last sent for it (the
    /// snapshot row references it by (agent, generation)).
    void report_inventory(const struct DeviceSnapshot& snapshot) noexcept;
    /// Runs the passes; returns the final decision.
    DispatchDecision run_passes(const struct DeviceSnapshot& snapshot);

    Engine& engine_;
    QueueContext& queue_;
    uint64_t dispatch_id_;
    hsa_kernel_dispatch_packet_t packet_{};
    hsa_signal_t done_{0};
};

} // namespace rs::engine
