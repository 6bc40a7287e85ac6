// SPDX-License-Identifier: MIT
// Intercept queues with ROCr 5.2.3 semantics (src/core/runtime/intercept_queue.cpp, as summarised in
// docs/rocm-behaviour.md#intercept-queues-in-rocr-523), or ROCr 6.x ones with HSA_SIM_INTERCEPT_SEMANTICS=6.
#pragma once

#include "hardware_queue.h"

#include <hsa_api_trace.h>

#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace sim {

/// A proxy queue the application writes to, in front of a hardware queue of the same agent.
///
/// When the application stores the proxy's doorbell, the storing thread, holding the proxy's lock, walks
/// the newly published packets and calls the most recently registered handler once per packet
/// (pkt_count 1). The handler forwards with `writer(pkts, n)`: through the next handler down, and from
/// the last one straight into the hardware ring with its doorbell rung, so the packets run while the
/// handler is still executing. ROCr 5.2.3 allows one writer call per handler invocation (a second one
/// walks past the handler list); the simulator aborts with a message instead. A full hardware ring sends
/// packets to an overflow stash, submitted as slots free up. A doorbell store made from inside a handler
/// on the same thread is deferred to another thread. A COOPERATIVE proxy wraps the agent's one shared
/// cooperative queue (ROCr 5.2.3 hsa_amd_queue_intercept_create takes its lower queue from hsa_queue_create,
/// which hands out that queue for this type) and drops its reference to it when destroyed; every other
/// proxy owns a lower queue of its own.
class InterceptQueue final : public QueueController {
  public:
    InterceptQueue(Agent* agent, uint32_t size, hsa_queue_type32_t type,
                   void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data);
    ~InterceptQueue() override;

    void on_doorbell(int64_t value) override;
    void inactivate() override;
    QueueHeader& header() override { return header_; }
    QueueHeader& settings() override { return hardware_->header(); }
    void set_profiling(bool on) override {
        header_.profiling.store(on);
        hardware_->set_profiling(on);
    }
    /// False when the lower queue could not be created (the caller reports OUT_OF_RESOURCES).
    bool valid() const { return hardware_ != nullptr; }

    /// hsa_amd_queue_intercept_register.
    void add_handler(hsa_amd_queue_intercept_handler handler, void* data);

  private:
    struct Handler {
        hsa_amd_queue_intercept_handler fn;
        void* data;
    };
    /// What the writer of the current invocation needs (the writer has no context argument).
    struct Invocation {
        InterceptQueue* queue;
        uint64_t user_packet_index;
        int level; ///< index of the handler whose writer is being called
        std::vector<bool> writer_used;
    };
    static void writer(const void* packets, uint64_t count);
    void process_published(int64_t announced);
    void forward_to_hardware(const void* packets, uint64_t count);
    void drain_overflow();

    QueueHeader header_;
    Signal* doorbell_ = nullptr;
    HardwareQueue* hardware_ = nullptr;    ///< the lower queue
    std::unique_ptr<HardwareQueue> owned_; ///< the lower queue when it is not the shared cooperative one
    uint64_t space_listener_ = 0;
    std::mutex lock_; ///< the proxy lock, held while handlers run
    std::vector<Handler> handlers_;
    std::mutex overflow_mutex_;
    std::deque<std::vector<unsigned char>> overflow_;
    bool multiple_writer_calls_ = false;
    /// Shared with deferred doorbell tasks: a task for a queue destroyed meanwhile does nothing, and
    /// destruction waits for a task that is running.
    struct Liveness {
        std::mutex mutex;
        bool alive = true;
    };
    std::shared_ptr<Liveness> liveness_ = std::make_shared<Liveness>();
    static thread_local Invocation* current;
};

} // namespace sim
