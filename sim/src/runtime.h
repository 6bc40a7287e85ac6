// SPDX-License-Identifier: MIT
// The simulated runtime's process-wide state between hsa_init and hsa_shut_down.
#pragma once

#include "agent.h"
#include "allocation_registry.h"
#include "background_worker.h"
#include "sim_config.h"
#include "svm_ranges.h"
#include "tool_loader.h"

#include <hsa.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace sim {

class QueueController;
class HardwareQueue;

/// Agents, pools, allocations and tools of one initialised runtime (ROCr's core::Runtime).
/// Reference counted by hsa_init / hsa_shut_down; the first hsa_init builds the agents and loads tools,
/// the last hsa_shut_down unloads tools (reverse order), destroys queues and frees device memory.
class Runtime {
  public:
    /// The process-wide runtime (never destroyed, so late calls during exit stay safe).
    static Runtime& instance();

    hsa_status_t acquire();
    hsa_status_t release();
    bool initialized() const { return ref_count_.load(std::memory_order_acquire) > 0; }

    SimConfig& config() { return config_; }
    AllocationRegistry& allocations() { return allocations_; }
    BackgroundWorker& copy_engine() { return copy_engine_; }
    BackgroundWorker& doorbell_deferral() { return doorbell_deferral_; }
    /// SVM attributes recorded by hsa_amd_svm_attributes_set / hsa_amd_svm_prefetch_async.
    SvmRanges& svm_ranges() { return svm_ranges_; }
    /// hsa_amd_profiling_async_copy_enable: async copies record start/end ticks on their completion signal.
    std::atomic<bool>& async_copy_profiling() { return async_copy_profiling_; }

    const std::vector<Agent*>& agents() const { return agent_list_; }
    Agent* cpu_agent() const { return agent_list_.empty() ? nullptr : agent_list_.front(); }
    /// The agent behind a handle, or nullptr when it is not one of ours.
    Agent* agent(hsa_agent_t handle) const;
    /// The pool (or region) behind a handle, or nullptr.
    MemoryPool* pool(uint64_t handle) const;

    /// Registers / forgets a queue so that hsa_shut_down can destroy what the application left.
    void track_queue(QueueController* q);
    void untrack_queue(QueueController* q);

    /// Size in packets of a GPU agent's cooperative queue (ROCr 5.2.3 makes it with the agent's minimum
    /// AQL size, one 4 KiB page: GpuAgent::InitGWS -> CreateInterceptibleQueue, minAqlSize_ 0x40).
    static constexpr uint32_t kCooperativeQueueSize = 64;
    /// hsa_queue_create(HSA_QUEUE_TYPE_COOPERATIVE), also for an intercept proxy's lower queue: the agent's
    /// one cooperative queue, made at the first request and reference counted, as ROCr 5.2.3
    /// GpuAgent::QueueCreate hands out its GWS queue. `callback`/`data` are ignored, as in ROCr (the queue
    /// has the runtime's default error handler: a queue error aborts). Null when it cannot be made.
    HardwareQueue* acquire_cooperative_queue(Agent* agent,
                                             void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data);
    /// Drops one reference (hsa_queue_destroy of it, or of a proxy over it); the last one destroys it
    /// (ROCr: AqlQueue::Destroy -> GpuAgent::GWSRelease).
    void release_cooperative_queue(Agent* agent);
    /// True when `q` is some agent's cooperative queue (hsa_queue_destroy releases instead of deleting).
    bool is_cooperative_queue(const QueueController* q);

  private:
    Runtime() = default;
    void build_agents();
    void teardown();

    std::mutex lifecycle_mutex_;
    struct CooperativeQueue {
        HardwareQueue* queue = nullptr;
        uint32_t references = 0;
    };
    std::mutex cooperative_mutex_;
    std::map<Agent*, CooperativeQueue> cooperative_queues_;
    std::atomic<bool> async_copy_profiling_{false};
    std::atomic<int> ref_count_{0};
    SimConfig config_;
    AllocationRegistry allocations_;
    BackgroundWorker copy_engine_;
    BackgroundWorker doorbell_deferral_;
    SvmRanges svm_ranges_;
    ToolLoader tools_;
    std::vector<std::unique_ptr<Agent>> agents_;
    std::vector<std::unique_ptr<MemoryPool>> pools_;
    std::vector<Agent*> agent_list_;
    std::vector<std::unique_ptr<Agent>> retired_agents_;
    std::vector<std::unique_ptr<MemoryPool>> retired_pools_;
    std::mutex queues_mutex_;
    std::vector<QueueController*> queues_;
};

/// Shorthand used by every entry point: the runtime when initialised.
#define SIM_REQUIRE_INIT()                                                                                   \
    do {                                                                                                     \
        if (!::sim::Runtime::instance().initialized())                                                       \
            return HSA_STATUS_ERROR_NOT_INITIALIZED;                                                         \
    } while (0)

} // namespace sim
