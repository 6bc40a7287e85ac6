// SPDX-License-Identifier: MIT
// Per-agent replay state: the windows waiting for the agent's worker, the window it is gating for, the
// agent's intercepted queues and the private queues passes run on (docs/replay-window.md).
#pragma once

#include "counter_collection.h"
#include "hsa_api.h"
#include "memory_snapshot.h"
#include "queue_gate.h"
#include "snapshot_store.h"
#include "synchronized.h"

#include <hsa.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rs::engine {

struct Configuration;

/// AQL packet helpers (HSA 1.2 §2.9): 64-byte packets, header word stored last.
hsa_barrier_and_packet_t make_barrier_and(hsa_signal_t dependency, hsa_signal_t completion);
uint16_t packet_header(uint8_t type, bool barrier);

struct QueueContext;
class WindowWorker;
class DeviceHasher;

/// What the runtime reported about one private queue through its error callback (hsa_queue_create's
/// `callback`, called by ROCr on its asynchronous-event thread after it suspended the queue; on the
/// simulator by the queue's packet processor). Written by that callback only, read by the worker.
struct PrivateQueueError {
    std::atomic<bool> failed{false};
    std::atomic<uint32_t> status{0}; ///< hsa_status_t the callback was given
};

/// The engine's private queue of one queue type on an agent, and the CU mask and priority last applied
/// to it. Used by the agent's worker thread only (`error` also by the runtime's callback).
struct PrivateQueue {
    hsa_queue_t* queue = nullptr;
    bool failed = false;           ///< creation failed, or too many queue errors: not retried
    std::vector<uint32_t> cu_mask; ///< last applied; empty: the queue's default (all CUs)
    hsa_amd_queue_priority_t priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
    /// The error state of `queue` (the callback's data); owned by AgentContext::queue_errors_.
    PrivateQueueError* error = nullptr;
    uint32_t errors = 0; ///< queue errors so far (each one destroyed the queue)
};

/// Queue errors after which a private queue of that type is not made again on the agent.
inline constexpr uint32_t kMaxPrivateQueueErrors = 4;

/// Per-agent replay state. Handlers, the async-copy wrapper and the agent's worker share the fields of
/// `State` under `mutex()`, which is held only for short bookkeeping, never across a wait.
class AgentContext {
  public:
    AgentContext(hsa_agent_t agent, std::string name, bool selected);
    ~AgentContext();
    AgentContext(const AgentContext&) = delete;
    AgentContext& operator=(const AgentContext&) = delete;

    hsa_agent_t agent() const { return agent_; }
    const std::string& name() const { return name_; }
    /// Passes the agent filter (queues of an unselected agent are not intercepted).
    bool selected() const { return selected_; }

    /// What the agent's handlers and its worker share (under mutex()).
    struct State {
        /// The agent's intercepted queues (added by queue_create, removed by queue_destroy).
        std::vector<QueueContext*> queues;
        /// Windows whose packets were written and that the worker has not taken yet, oldest first.
        std::vector<std::shared_ptr<Window>> pending;
        /// The window the agent is gating for (between its drain and its release), or null.
        std::shared_ptr<Window> gating;
        /// Synchronous copies into or out of the agent's memory that are running, counted when no window
        /// gated the agent or after their wait timed out (SyncCopyWait, async_copy_fence.h): the drain
        /// waits for them before the snapshot.
        uint32_t sync_copies = 0;
        /// Fences of windows declined before their fence fired (destroyed once fired).
        std::vector<hsa_signal_t> unfired_fences;
        bool stopping = false;
    };
    std::mutex& mutex() { return mutex_; }
    State& state() { return state_; }
    /// Wakes the worker (call after appending to `pending`, without the mutex held).
    void wake() { wake_.notify_one(); }
    std::condition_variable& wake_condition() { return wake_; }

    /// Starts the agent's worker thread unless it runs (queue_create, application thread). False when
    /// the thread could not be started: the agent's dispatches are then not replayed.
    bool start_worker();
    /// True once start_worker succeeded and until stop_worker.
    bool worker_running() const { return worker_started_.load(std::memory_order_acquire); }
    /// Stops the worker (bounded: a worker that does not stop within a few seconds is detached),
    /// releasing every pending window so the application's packets behind their gates run. False when
    /// the thread had to be detached (the context must then never be freed).
    bool stop_worker();
    /// Sets the state's `stopping` and wakes the worker without waiting for it (stop_worker waits): at
    /// process exit every agent's window is told first, so that they are abandoned at the same time.
    void request_stop();

    /// The private queue of `type` with `cu_mask` (empty: all CUs) and `priority` applied, created on
    /// first use with the original hsa_queue_create (profiling enabled); nullptr when it cannot be
    /// created. Worker thread only.
    hsa_queue_t* private_queue(hsa_queue_type32_t type, const std::vector<uint32_t>& cu_mask,
                               hsa_amd_queue_priority_t priority);
    /// The first CPU agent of the runtime (source agent of a copy from the host store), found on first
    /// use; handle 0 when there is none. Worker thread only.
    hsa_agent_t cpu_agent();
    /// The error state of the private queue `type` made last (nullptr when none exists). Worker thread.
    const PrivateQueueError* private_queue_error(hsa_queue_type32_t type);
    /// After a queue error on the private queue of `type`: destroys it (saved hsa_queue_destroy; ROCr
    /// leaves an errored queue suspended, so nothing of it runs any more), so that the next
    /// private_queue() makes a new one, unless this was its kMaxPrivateQueueErrors-th error: then that type
    /// is not made again (no-private-queue). True when a new queue will be made. Worker thread.
    bool discard_private_queue(hsa_queue_type32_t type);
    /// Writes `count` packets to `queue` (a private queue: the worker is its only producer) once the ring
    /// has room, and rings its doorbell. False, with nothing written, when no room appeared before
    /// `deadline`.
    static bool submit_private(hsa_queue_t* queue, const void* packets, uint32_t count,
                               Clock::time_point deadline);

    /// The agent's snapshot stores and their lock (docs/replay-window.md#snapshot-stores).
    AgentStores& stores() { return stores_; }
    /// True when `handle` is one of the agent's memory pools (`region` false) or regions (`region` true),
    /// as hsa_amd_agent_iterate_memory_pools / hsa_agent_iterate_regions list them (saved originals,
    /// listed once on first use). Any thread.
    bool owns_memory(uint64_t handle, bool region);
    /// The agent's chunk-hash kernel runner (worker thread only).
    DeviceHasher& hasher() { return *hasher_; }
    /// Inventory generation last reported for this agent (worker thread only); an inventory is sent
    /// only when a snapshot's generation differs from it.
    uint64_t& reported_generation() { return reported_generation_; }
    /// The agent's hardware-counter profiles (worker thread only; docs/counters.md).
    CounterCollection& counters() { return counters_; }

    /// Stops the worker, then destroys the private queues, the signals proven unreferenced, the
    /// device hasher's objects and both snapshot stores through the saved originals (OnUnload, while the
    /// runtime is still up). The context is unusable afterwards. False when the worker had to be detached
    /// (see stop_worker).
    bool release_runtime_objects();

  private:
    hsa_agent_t agent_;
    std::string name_;
    bool selected_;
    std::mutex mutex_;
    std::condition_variable wake_;
    State state_;
    std::mutex worker_mutex_; ///< start/stop of the worker thread
    std::unique_ptr<WindowWorker> worker_;
    std::atomic<bool> worker_started_{false};
    std::map<hsa_queue_type32_t, PrivateQueue> private_queues_;
    /// Every private queue's error state, kept until the context goes: a callback that the runtime runs
    /// late (after the queue it reports was destroyed) still finds its data.
    std::vector<std::unique_ptr<PrivateQueueError>> queue_errors_;
    AgentStores stores_;
    std::once_flag memory_listed_;
    std::vector<uint64_t> pools_;   ///< the agent's memory pools (handles)
    std::vector<uint64_t> regions_; ///< the agent's regions (handles)
    std::unique_ptr<DeviceHasher> hasher_;
    uint64_t reported_generation_ = UINT64_MAX;
    hsa_agent_t cpu_agent_{0};
    CounterCollection counters_;
};

/// GPU agents by handle, created on first use (index = position among GPU agents of hsa_iterate_agents).
class AgentDirectory {
  public:
    /// The context of `agent`, or nullptr for a non-GPU agent.
    AgentContext* get(hsa_agent_t agent, const Configuration& config);
    /// The --agent entries (Configuration::agent_filter) that name none of the runtime's GPU agents, by
    /// index in hsa_iterate_agents order or by name, as get() selects them; each with the GPUs there are
    /// ("7: GPUs are 0 gfx90a, 1 gfx90a"). Empty without a filter. OnLoad, once the runtime is up.
    static std::vector<std::string> unmatched_filters(const Configuration& config);
    /// The context of `agent` if one exists (never creates one: an agent without intercepted queues
    /// has no replay window).
    AgentContext* find(uint64_t agent) const;
    /// Releases every context's runtime objects and forgets them (OnUnload: a later hsa_init has new
    /// agents, signals and queues).
    void clear();
    /// After the runtime refused `bytes` from memory pool (or, `region` true, region) `handle`: frees the
    /// device snapshot store of the GPU agent that owns that pool, waiting at most `wait` for a window
    /// holding it to stop after its current pass (AgentStores::reclaim_device). Nothing for a pool no
    /// GPU context owns (system and kernarg pools), an empty store, or a request that could not fit even
    /// with the store freed (more than the pool's size, or, where the runtime answers
    /// HSA_AMD_AGENT_INFO_MEMORY_AVAIL, more than the free memory plus the store). True when memory was
    /// given back (the wrapper retries once). Allocation wrappers, any thread.
    bool reclaim_device_store(uint64_t handle, bool region, uint64_t bytes,
                              std::chrono::milliseconds wait) noexcept;

  private:
    Synchronized<std::map<uint64_t, std::unique_ptr<AgentContext>>> agents_;
};

} // namespace rs::engine
