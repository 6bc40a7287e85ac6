// SPDX-License-Identifier: MIT
// A simulated hardware AQL queue with its packet processor (HSA 1.2 §2.6 queues, §2.9 AQL packets).
#pragma once

#include "queue_controller.h"

#include <hsa.h>
#include <hsa_ext_amd.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sim {

namespace isa {
class GwsState;
}

struct Signal;
struct KernelObject;

/// A user-mode queue of a GPU agent. One packet-processor thread consumes packets in order, from the
/// read index up to the last index announced on the doorbell: kernel-dispatch packets are launched on a
/// small pool of kernel threads (up to kMaxInFlight at once, so packets without the barrier bit overlap);
/// a packet with the barrier bit waits until every earlier packet of the queue completed; barrier-AND/OR
/// packets block the queue until their dependency signals are satisfied, and so do AMD BARRIER_VALUE
/// vendor packets until their signal's masked value meets their condition. A consumed slot's header is
/// set to INVALID and the read index advanced; a packet's completion signal is decremented when it
/// completes, with its start/end ticks recorded there when profiling is enabled.
class HardwareQueue final : public QueueController {
  public:
    static constexpr unsigned kMaxInFlight = 4;

    /// Creates the ring and starts the processor. `callback` (may be null) receives queue errors.
    HardwareQueue(Agent* agent, uint32_t size, hsa_queue_type32_t type,
                  void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data);
    /// Global wave sync resources of a COOPERATIVE queue: one, as ROCr allocates to its cooperative queue
    /// (GpuAgent::InitGWS -> AqlQueue::EnableGWS(1)); other queues have none.
    static constexpr uint32_t kCooperativeGwsResources = 1;

    /// Lets in-flight packets finish, stops the threads, releases the ring and doorbell.
    ~HardwareQueue() override;

    void on_doorbell(int64_t value) override;
    void inactivate() override;
    QueueHeader& header() override { return header_; }

    /// Writes `count` packets at the write index and rings the doorbell (the intercept writer's path).
    /// Reserves the slots with a compare-and-swap on the write index, so other producers writing the
    /// same ring directly (a shared cooperative queue) keep their slots. Returns false, writing nothing,
    /// when the ring lacks room for all of them.
    bool submit(const void* packets, uint64_t count);

    /// Adds a function called (on the processor thread) whenever slots were freed; an intercept queue
    /// drains its stash there. Several proxies may share one queue (the cooperative queue). Returns an id
    /// for remove_space_listener.
    uint64_t add_space_listener(std::function<void()> listener);
    /// Removes a listener; when this returns the listener is not running and will not run again.
    void remove_space_listener(uint64_t id);

  private:
    void process();
    void launch_kernel(const hsa_kernel_dispatch_packet_t& packet);
    /// Blocks (processor thread, queue lock not held) until `(watched value & mask) cond value` holds for
    /// an AMD BARRIER_VALUE vendor packet (hsa_ext_amd.h): true; or until the queue is being destroyed:
    /// false.
    bool wait_barrier_value(Signal& watched, const hsa_amd_barrier_value_packet_t& barrier);
    void run_kernel(const hsa_kernel_dispatch_packet_t& packet);
    /// HSA_SIM_DISPATCH_LOG line of a dispatch that completed (before its completion signal is decremented).
    void log_dispatch(const KernelObject& kernel, const hsa_kernel_dispatch_packet_t& packet, uint64_t start,
                      uint64_t end);
    void complete(hsa_signal_t completion, uint64_t start, uint64_t end);
    void fail(hsa_status_t status);
    void worker();
    uint16_t slot_header(uint64_t index) const;

    QueueHeader header_;
    /// The GWS resources the interpreter's ds_gws_* instructions act on (COOPERATIVE queues only); they
    /// keep their state from dispatch to dispatch, as the hardware's do.
    std::unique_ptr<isa::GwsState> gws_;
    Signal* doorbell_ = nullptr;
    void (*error_callback_)(hsa_status_t, hsa_queue_t*, void*) = nullptr;
    void* error_data_ = nullptr;
    void notify_space();
    std::mutex listeners_mutex_; ///< held while listeners run
    std::vector<std::pair<uint64_t, std::function<void()>>> space_listeners_;
    uint64_t next_listener_id_ = 1;

    std::mutex mutex_;
    std::condition_variable cv_; ///< doorbell, completions, stop
    int64_t announced_ = -1;     ///< highest index stored to the doorbell
    unsigned in_flight_ = 0;
    bool stopping_ = false;
    bool inactive_ = false;
    std::deque<hsa_kernel_dispatch_packet_t> launches_;
    std::vector<std::thread> workers_;
    unsigned idle_workers_ = 0;
    std::mutex submit_mutex_; ///< serialises submit() writers
    std::thread processor_;
};

} // namespace sim
