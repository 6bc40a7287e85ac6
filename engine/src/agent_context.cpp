// SPDX-License-Identifier: MIT
#include "agent_context.h"

#include "configuration.h"
#include "device_hasher.h"
#include "engine.h"
#include "queue_interceptor.h"
#include "replay_window.h"
#include "window_worker.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace rs::engine {

uint16_t packet_header(uint8_t type, bool barrier) {
    return static_cast<uint16_t>((type << HSA_PACKET_HEADER_TYPE) |
                                 ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

hsa_barrier_and_packet_t make_barrier_and(hsa_signal_t dependency, hsa_signal_t completion) {
    hsa_barrier_and_packet_t b{};
    b.header = packet_header(HSA_PACKET_TYPE_BARRIER_AND, true);
    b.dep_signal[0] = dependency;
    b.completion_signal = completion;
    return b;
}

AgentContext::AgentContext(hsa_agent_t agent, std::string name, bool selected)
    : agent_(agent), name_(std::move(name)), selected_(selected), stores_(agent) {
    hasher_ = std::make_unique<DeviceHasher>(agent);
}

AgentContext::~AgentContext() {
    // Runtime objects are released by release_runtime_objects() (OnUnload); a context destroyed without
    // it (process exit) leaves them to the runtime, which may already be gone. The worker is stopped
    // either there or by the worker registry at exit (window_worker.cpp).
}

bool AgentContext::start_worker() {
    std::lock_guard lock(worker_mutex_);
    if (worker_started_.load(std::memory_order_relaxed)) {
        return true;
    }
    {
        std::lock_guard state_lock(mutex_);
        // Once the exit began no worker starts: the exit's stop may already have taken the registry.
        if (state_.stopping || g_exiting.load(std::memory_order_acquire)) {
            return false;
        }
    }
    try {
        auto worker = std::make_unique<WindowWorker>(*this);
        if (!worker->start()) {
            return false;
        }
        worker_ = std::move(worker);
    } catch (...) {
        return false;
    }
    worker_started_.store(true, std::memory_order_release);
    return true;
}

void AgentContext::request_stop() {
    {
        std::lock_guard state_lock(mutex_);
        state_.stopping = true;
    }
    wake_.notify_all();
}

bool AgentContext::stop_worker() {
    std::lock_guard lock(worker_mutex_);
    {
        std::lock_guard state_lock(mutex_);
        state_.stopping = true;
    }
    wake_.notify_all();
    const bool stopped = !worker_ || worker_->stop();
    worker_started_.store(false, std::memory_order_release);
    // Whatever the worker left pending is released (the application's packets behind the gates run)
    // and reported as abandoned: no pass ran for it.
    std::vector<std::shared_ptr<Window>> pending;
    std::shared_ptr<Window> detached_window;
    {
        std::lock_guard state_lock(mutex_);
        pending.swap(state_.pending);
        // A peer gate is another agent's window's: its worker releases it (docs/replay-window.md).
        if (state_.gating && !state_.gating->peer_gate) {
            // Only a detached worker can still be gating: release it so the queues are not held.
            state_.gating->released = true;
            hsa().core.hsa_signal_store_screlease_fn(state_.gating->release, 0);
            detached_window = std::move(state_.gating);
            state_.gating.reset();
        }
    }
    if (detached_window) {
        // Its peers, set before it gated and never changed since, each under its own mutex.
        for (const PeerGate& g : detached_window->peers) {
            release_peer_gate(*g.agent, g.window);
        }
    }
    Engine* e = engine();
    for (const std::shared_ptr<Window>& w : pending) {
        if (e) {
            ReplayWindow(*e, *this, w).decline_abandoned();
        } else {
            std::lock_guard state_lock(mutex_);
            w->released = true;
            hsa().core.hsa_signal_store_screlease_fn(w->release, 0);
        }
    }
    return stopped;
}

bool AgentContext::release_runtime_objects() {
    if (!stop_worker()) {
        return false; // the detached worker may still use the queues and signals
    }
    for (auto& [type, pq] : private_queues_) {
        if (pq.queue) {
            (void)hsa().core.hsa_queue_destroy_fn(pq.queue);
        }
        pq.queue = nullptr;
        pq.failed = true;
    }
    counters_.release(); // no queue is left to run a profile's packets
    std::vector<hsa_signal_t> unreferenced;
    {
        std::lock_guard lock(mutex_);
        for (QueueContext* q : state_.queues) {
            q->gates.prune(unreferenced);
        }
        for (hsa_signal_t s : state_.unfired_fences) {
            if (hsa().core.hsa_signal_load_scacquire_fn(s) == 0) {
                unreferenced.push_back(s);
            }
        }
        state_.unfired_fences.clear();
        // Release signals still referenced (by a gate not yet proven complete, a held copy) are left to
        // the runtime, which frees its signals as it shuts down.
    }
    for (hsa_signal_t s : unreferenced) {
        destroy_signal(s);
    }
    // The hasher's objects and both stores go under the store lock (docs/replay-window.md, "Snapshot
    // stores"): a reclaim by an allocation wrapper on another thread then finds them either whole or gone.
    {
        std::lock_guard lock(stores_.lock());
        hasher_->release();
        stores_.release_locked();
    }
    return true;
}

namespace {

/// hsa_queue_create's error callback of a private queue. ROCr calls it on its asynchronous-event thread
/// once it has suspended the queue (AqlQueue::DynamicQueueEventsHandler / ExceptionHandler,
/// core/runtime/amd_aql_queue.cpp); with a callback the runtime does not end the process. Only stores:
/// the worker, waiting for its pass, sees them (docs/replay-window.md, "A pass that fails").
void on_private_queue_error(hsa_status_t status, hsa_queue_t*, void* data) {
    auto* error = static_cast<PrivateQueueError*>(data);
    error->status.store(static_cast<uint32_t>(status), std::memory_order_relaxed);
    error->failed.store(true, std::memory_order_release);
}

} // namespace

hsa_queue_t* AgentContext::private_queue(hsa_queue_type32_t type, const std::vector<uint32_t>& cu_mask,
                                         hsa_amd_queue_priority_t priority) {
    PrivateQueue& pq = private_queues_[type];
    if (!pq.queue && !pq.failed) {
        hsa_queue_t* q = nullptr;
        PrivateQueueError* error = nullptr;
        try {
            queue_errors_.push_back(std::make_unique<PrivateQueueError>());
            error = queue_errors_.back().get();
        } catch (const std::bad_alloc&) {
            return nullptr; // no queue without its error state (a queue error would then abort)
        }
        if (hsa().core.hsa_queue_create_fn(agent_, 64, type, on_private_queue_error, error, UINT32_MAX,
                                           UINT32_MAX, &q) == HSA_STATUS_SUCCESS &&
            q) {
            (void)hsa().amd.hsa_amd_profiling_set_profiler_enabled_fn(q, 1);
            pq.queue = q;
            pq.error = error;
            pq.cu_mask.clear(); // a new queue starts with every CU and normal priority
            pq.priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
        } else {
            pq.failed = true;
        }
    }
    if (!pq.queue) {
        return nullptr;
    }
    if (pq.cu_mask != cu_mask) {
        std::vector<uint32_t> mask = cu_mask;
        if (mask.empty()) {
            // Back to every CU: a mask with one bit per compute unit of the agent.
            uint32_t cus = 0;
            (void)hsa().core.hsa_agent_get_info_fn(
                agent_, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), &cus);
            mask.assign((std::max<uint32_t>(cus, 1) + 31) / 32, 0xffffffffu);
        }
        if (hsa().amd.hsa_amd_queue_cu_set_mask_fn(pq.queue, static_cast<uint32_t>(mask.size() * 32),
                                                   mask.data()) == HSA_STATUS_SUCCESS ||
            cu_mask.empty()) {
            pq.cu_mask = cu_mask;
        }
    }
    if (pq.priority != priority &&
        hsa().amd.hsa_amd_queue_set_priority_fn(pq.queue, priority) == HSA_STATUS_SUCCESS) {
        pq.priority = priority;
    }
    return pq.queue;
}

hsa_agent_t AgentContext::cpu_agent() {
    if (cpu_agent_.handle == 0) {
        (void)hsa().core.hsa_iterate_agents_fn(
            [](hsa_agent_t a, void* data) {
                if (device_type(a) == HSA_DEVICE_TYPE_CPU) {
                    *static_cast<hsa_agent_t*>(data) = a;
                    return HSA_STATUS_INFO_BREAK;
                }
                return HSA_STATUS_SUCCESS;
            },
            &cpu_agent_);
    }
    return cpu_agent_;
}

const PrivateQueueError* AgentContext::private_queue_error(hsa_queue_type32_t type) {
    auto it = private_queues_.find(type);
    return it == private_queues_.end() || !it->second.queue ? nullptr : it->second.error;
}

bool AgentContext::discard_private_queue(hsa_queue_type32_t type) {
    PrivateQueue& pq = private_queues_[type];
    if (pq.queue) {
        (void)hsa().core.hsa_queue_destroy_fn(pq.queue);
    }
    pq.queue = nullptr;
    pq.error = nullptr;
    pq.failed = ++pq.errors >= kMaxPrivateQueueErrors;
    return !pq.failed;
}

bool AgentContext::submit_private(hsa_queue_t* q, const void* packets, uint32_t count,
                                  Clock::time_point deadline) {
    const auto& core = hsa().core;
    // The worker is the queue's only producer: room seen now stays available until it reserves it, so
    // a slot is never reserved without being written.
    const uint64_t first = core.hsa_queue_load_write_index_relaxed_fn(q);
    while (first + count - core.hsa_queue_load_read_index_scacquire_fn(q) > q->size) {
        if (Clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    core.hsa_queue_store_write_index_screlease_fn(q, first + count);
    auto* base = static_cast<unsigned char*>(q->base_address);
    const auto* src = static_cast<const unsigned char*>(packets);
    for (uint32_t i = 0; i < count; ++i) {
        unsigned char* slot = base + ((first + i) % q->size) * 64;
        std::memcpy(slot + 4, src + i * 64 + 4, 60);
        uint32_t word = 0;
        std::memcpy(&word, src + i * 64, 4);
        __atomic_store_n(reinterpret_cast<uint32_t*>(slot), word, __ATOMIC_RELEASE);
    }
    core.hsa_signal_store_screlease_fn(q->doorbell_signal,
                                       static_cast<hsa_signal_value_t>(first + count - 1));
    return true;
}

namespace {

hsa_status_t collect_gpu(hsa_agent_t agent, void* data) {
    if (device_type(agent) == HSA_DEVICE_TYPE_GPU) {
        static_cast<std::vector<hsa_agent_t>*>(data)->push_back(agent);
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace

void AgentDirectory::clear() {
    agents_.wlock([](auto& m) {
        for (auto& [handle, context] : m) {
            if (!context->release_runtime_objects()) {
                (void)context.release(); // its detached worker may still read it
            }
        }
        m.clear();
    });
}

bool AgentContext::owns_memory(uint64_t handle, bool region) {
    std::call_once(memory_listed_, [this] {
        try {
            (void)hsa().amd.hsa_amd_agent_iterate_memory_pools_fn(
                agent_,
                [](hsa_amd_memory_pool_t pool, void* data) {
                    static_cast<std::vector<uint64_t>*>(data)->push_back(pool.handle);
                    return HSA_STATUS_SUCCESS;
                },
                &pools_);
            (void)hsa().core.hsa_agent_iterate_regions_fn(
                agent_,
                [](hsa_region_t r, void* data) {
                    static_cast<std::vector<uint64_t>*>(data)->push_back(r.handle);
                    return HSA_STATUS_SUCCESS;
                },
                &regions_);
        } catch (...) {
            // Unlisted: no reclaim for this agent's pools (the refusal is returned unchanged).
        }
    });
    const std::vector<uint64_t>& list = region ? regions_ : pools_;
    return std::find(list.begin(), list.end(), handle) != list.end();
}

namespace {

/// HSA_AMD_AGENT_INFO_MEMORY_AVAIL (ROCr 6.x only; snapshot_store.cpp).
constexpr auto kAgentInfoMemoryAvail = static_cast<hsa_agent_info_t>(0xA015);

/// Whether `bytes` could be served from pool/region `handle` of `agent` once `store_bytes` are freed.
bool could_fit(hsa_agent_t agent, uint64_t handle, bool region, uint64_t bytes, uint64_t store_bytes) {
    size_t size = 0;
    const hsa_status_t st =
        region ? hsa().core.hsa_region_get_info_fn(hsa_region_t{handle}, HSA_REGION_INFO_SIZE, &size)
               : hsa().amd.hsa_amd_memory_pool_get_info_fn(hsa_amd_memory_pool_t{handle},
                                                           HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
    if (st == HSA_STATUS_SUCCESS && bytes > size) {
        return false;
    }
    uint64_t free_bytes = 0;
    if (hsa().core.hsa_agent_get_info_fn(agent, kAgentInfoMemoryAvail, &free_bytes) == HSA_STATUS_SUCCESS &&
        bytes > free_bytes + store_bytes) {
        return false;
    }
    return true;
}

} // namespace

bool AgentDirectory::reclaim_device_store(uint64_t handle, bool region, uint64_t bytes,
                                          std::chrono::milliseconds wait) noexcept {
    // Under the directory's read lock, so clear() (OnUnload) cannot free a context under the reclaim; it
    // waits at most `wait`, as does a queue creation on a new agent. Only the agent owning the pool: a
    // refusal of another agent's or of system memory is not caused by this agent's store.
    return agents_.rlock([&](const auto& m) {
        for (const auto& [agent, context] : m) {
            if (!context->owns_memory(handle, region)) {
                continue;
            }
            AgentStores& stores = context->stores();
            const uint64_t held = stores.device().capacity();
            if (held == 0 || !could_fit(context->agent(), handle, region, bytes, held)) {
                return false;
            }
            return stores.reclaim_device(wait);
        }
        return false;
    });
}

AgentContext* AgentDirectory::find(uint64_t agent) const {
    return agents_.rlock([&](const auto& m) -> AgentContext* {
        auto it = m.find(agent);
        return it == m.end() ? nullptr : it->second.get();
    });
}

std::vector<std::string> AgentDirectory::unmatched_filters(const Configuration& config) {
    std::vector<std::string> out;
    if (config.agent_filter.empty()) {
        return out;
    }
    std::vector<hsa_agent_t> gpus;
    (void)hsa().core.hsa_iterate_agents_fn(collect_gpu, &gpus);
    std::vector<std::string> names;
    std::string listed;
    for (uint32_t i = 0; i < gpus.size(); ++i) {
        names.push_back(agent_name(gpus[i]));
        listed += (i ? ", " : "") + std::to_string(i) + " " + names.back();
    }
    for (const std::string& entry : config.agent_filter) {
        bool matched = false;
        for (uint32_t i = 0; i < gpus.size() && !matched; ++i) {
            Configuration one;
            one.agent_filter = {entry};
            matched = one.agent_selected(i, names[i]);
        }
        if (!matched) {
            out.push_back(
                entry + ": " +
                (gpus.empty() ? std::string("the runtime has no GPU agent") : "GPUs are " + listed));
        }
    }
    return out;
}

AgentContext* AgentDirectory::get(hsa_agent_t agent, const Configuration& config) {
    AgentContext* found = agents_.rlock([&](const auto& m) -> AgentContext* {
        auto it = m.find(agent.handle);
        return it == m.end() ? nullptr : it->second.get();
    });
    if (found || device_type(agent) != HSA_DEVICE_TYPE_GPU) {
        return found;
    }
    std::vector<hsa_agent_t> gpus;
    (void)hsa().core.hsa_iterate_agents_fn(collect_gpu, &gpus);
    uint32_t index = 0;
    for (uint32_t i = 0; i < gpus.size(); ++i) {
        if (gpus[i].handle == agent.handle) {
            index = i;
        }
    }
    std::string name = agent_name(agent);
    const bool selected = config.agent_selected(index, name);
    return agents_.wlock([&](auto& m) {
        auto& slot = m[agent.handle];
        if (!slot) {
            slot = std::make_unique<AgentContext>(agent, name, selected);
        }
        return slot.get();
    });
}

} // namespace rs::engine
