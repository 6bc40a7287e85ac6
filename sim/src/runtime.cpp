// SPDX-License-Identifier: MIT
#include "runtime.h"

#include "api_table.h"
#include "dispatch_digest.h"
#include "dispatch_log.h"
#include "executable.h"
#include "hardware_queue.h"
#include "queue_controller.h"
#include "sim_signal.h"
#include "virtual_memory.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <unistd.h>

namespace sim {

Runtime& Runtime::instance() {
    static Runtime* rt = new Runtime();
    return *rt;
}

hsa_status_t Runtime::acquire() {
    std::lock_guard lock(lifecycle_mutex_);
    if (ref_count_.load() > 0) {
        ref_count_.fetch_add(1);
        return HSA_STATUS_SUCCESS;
    }
    config_.load_from_environment();
    async_copy_profiling_.store(false);
    build_agents();
    ref_count_.store(1, std::memory_order_release);
    // As ROCr: tools load once the runtime is up, with the live table; the version handed over is the
    // root table's major version.
    HsaApiTable* table = ApiTable::instance().root();
    tools_.load(table, table->version.major_id);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::release() {
    std::lock_guard lock(lifecycle_mutex_);
    if (ref_count_.load() == 0) {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    }
    if (ref_count_.load() > 1) {
        ref_count_.fetch_sub(1);
        return HSA_STATUS_SUCCESS;
    }
    tools_.unload();
    ApiTable::instance().reset();
    teardown();
    close_dispatch_log();
    close_dispatch_digest();
    ref_count_.store(0, std::memory_order_release);
    return HSA_STATUS_SUCCESS;
}

void Runtime::build_agents() {
    agents_.clear();
    pools_.clear();
    agent_list_.clear();
    auto add_pool = [&](Agent* a, uint32_t flags, size_t size, bool device, const char* name) {
        auto p = std::make_unique<MemoryPool>();
        p->owner = a;
        p->global_flags = flags;
        p->size = size;
        p->device = device;
        p->name = name;
        a->pools.push_back(p.get());
        pools_.push_back(std::move(p));
    };
    const size_t host_bytes =
        static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
    auto cpu = std::make_unique<Agent>();
    cpu->type = HSA_DEVICE_TYPE_CPU;
    cpu->node = 0;
    cpu->name = "ReplayScope simulated CPU";
    cpu->product_name = "ReplayScope simulated CPU";
    add_pool(cpu.get(),
             HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
             host_bytes, false, "kernarg");
    add_pool(cpu.get(), HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, host_bytes, false,
             "system fine-grained");
    agent_list_.push_back(cpu.get());
    agents_.push_back(std::move(cpu));
    const size_t device_bytes = config_.device_memory_bytes;
    for (uint32_t i = 0; i < config_.gpu_agent_count; ++i) {
        auto gpu = std::make_unique<Agent>();
        gpu->type = HSA_DEVICE_TYPE_GPU;
        gpu->node = i + 1;
        gpu->gpu_index = i;
        gpu->name = kGpuAgentName;
        gpu->product_name = "ReplayScope simulated GPU";
        gpu->device_memory = device_bytes;
        add_pool(gpu.get(), HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, device_bytes, true,
                 "device coarse-grained");
        add_pool(gpu.get(), HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, device_bytes, true,
                 "device fine-grained");
        // The LDS, reported as ROCr does (segment GROUP, no global flags, not allocatable, 64 KiB).
        add_pool(gpu.get(), 0, kGpuGroupSegmentBytes, true, "device group segment");
        gpu->pools.back()->segment = HSA_AMD_SEGMENT_GROUP;
        gpu->pools.back()->allocatable = false;
        agent_list_.push_back(gpu.get());
        agents_.push_back(std::move(gpu));
    }
}

void Runtime::teardown() {
    std::vector<QueueController*> queues;
    {
        std::lock_guard lock(queues_mutex_);
        queues.swap(queues_);
    }
    for (auto* q : queues) {
        delete q; // proxies over a cooperative queue release their reference
    }
    std::map<Agent*, CooperativeQueue> cooperative;
    {
        std::lock_guard lock(cooperative_mutex_);
        cooperative.swap(cooperative_queues_);
    }
    for (auto& [agent, c] : cooperative) {
        delete c.queue;
    }
    copy_engine_.stop();
    doorbell_deferral_.stop();
    SignalMonitor::instance().stop();
    ExecutableRegistry::instance().destroy_all();
#if SIM_HAS_VMEM
    VirtualMemory::instance().release_all();
#endif
    for (auto& a : allocations_.drain()) {
        if (a.source == Allocation::Source::pool) {
            MemoryPool::release_block(reinterpret_cast<void*>(a.base), a.capacity);
        }
    }
    for (auto& p : pools_) {
        p->release_cache();
    }
    svm_ranges_.clear();
    // Agents and pools stay allocated (handles held by a misbehaving application must not dangle into
    // freed memory); they are rebuilt at the next hsa_init.
    for (auto& a : agents_) {
        a->magic = 0;
    }
    for (auto& p : pools_) {
        p->magic = 0;
    }
    retired_agents_.insert(retired_agents_.end(), std::make_move_iterator(agents_.begin()),
                           std::make_move_iterator(agents_.end()));
    retired_pools_.insert(retired_pools_.end(), std::make_move_iterator(pools_.begin()),
                          std::make_move_iterator(pools_.end()));
    agents_.clear();
    pools_.clear();
    agent_list_.clear();
}

Agent* Runtime::agent(hsa_agent_t handle) const {
    auto* a = reinterpret_cast<Agent*>(handle.handle);
    if (!a) {
        return nullptr;
    }
    return std::find(agent_list_.begin(), agent_list_.end(), a) != agent_list_.end() ? a : nullptr;
}

MemoryPool* Runtime::pool(uint64_t handle) const {
    for (const auto& p : pools_) {
        if (reinterpret_cast<uint64_t>(p.get()) == handle) {
            return p.get();
        }
    }
    return nullptr;
}

HardwareQueue* Runtime::acquire_cooperative_queue(Agent* agent,
                                                  void (*callback)(hsa_status_t, hsa_queue_t*, void*),
                                                  void* data) {
    std::lock_guard lock(cooperative_mutex_);
    CooperativeQueue& c = cooperative_queues_[agent];
    if (!c.queue) {
        // ROCr makes it as an internal queue with its default error handler (GpuAgent::InitGWS ->
        // CreateInterceptibleQueue()): the requester's callback is not used, an error aborts.
        (void)callback;
        (void)data;
        auto* q = new (std::nothrow)
            HardwareQueue(agent, kCooperativeQueueSize, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr);
        if (!q || !q->header().queue.base_address) {
            delete q;
            cooperative_queues_.erase(agent);
            return nullptr;
        }
        c.queue = q;
    }
    ++c.references;
    return c.queue;
}

void Runtime::release_cooperative_queue(Agent* agent) {
    HardwareQueue* last = nullptr;
    {
        std::lock_guard lock(cooperative_mutex_);
        auto it = cooperative_queues_.find(agent);
        if (it == cooperative_queues_.end() || --it->second.references > 0) {
            return;
        }
        last = it->second.queue;
        cooperative_queues_.erase(it);
    }
    delete last; // joins its threads: outside the lock
}

bool Runtime::is_cooperative_queue(const QueueController* q) {
    std::lock_guard lock(cooperative_mutex_);
    for (const auto& [agent, c] : cooperative_queues_) {
        if (c.queue == q) {
            return true;
        }
    }
    return false;
}

void Runtime::track_queue(QueueController* q) {
    std::lock_guard lock(queues_mutex_);
    queues_.push_back(q);
}

void Runtime::untrack_queue(QueueController* q) {
    std::lock_guard lock(queues_mutex_);
    queues_.erase(std::remove(queues_.begin(), queues_.end(), q), queues_.end());
}

} // namespace sim
