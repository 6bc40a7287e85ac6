// SPDX-License-Identifier: MIT
// Memory entry points: pools and regions, pointer info, copies, locking (HSA 1.2 §2.8, hsa_ext_amd.h).
#include "api.h"
#include "clock.h"
#include "runtime.h"
#include "sim_signal.h"
#include "virtual_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace sim::api {

namespace {

constexpr uint32_t kExecutableAllocationFlag = 1u << 2;

hsa_status_t allocate_from(MemoryPool* pool, size_t size, uint32_t flags, void** ptr) {
    if (!pool || !ptr) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!pool->allocatable) { // the GROUP (LDS) pool, as ROCr's MemoryRegion::AllocateImpl
        return HSA_STATUS_ERROR_INVALID_ALLOCATION;
    }
    if (size == 0 || size > pool->size) {
        return HSA_STATUS_ERROR_INVALID_ALLOCATION;
    }
    auto& rt = Runtime::instance();
    if (rt.config().next_allocation_fails()) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    // A device pool holds no more than its agent's device memory: ROCr's allocation fails with
    // OUT_OF_RESOURCES when KFD has no VRAM left (MemoryRegion::Allocate after trimming its caches).
    const uint64_t charged = MemoryPool::charged_size(size);
    if (!pool->charge(charged)) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    size_t capacity = 0;
    void* p = pool->take_block(size, capacity);
    if (!p) {
        pool->refund(charged);
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    Allocation a;
    a.base = reinterpret_cast<uintptr_t>(p);
    a.size = size;
    a.capacity = capacity;
    a.source = Allocation::Source::pool;
    a.type = HSA_EXT_POINTER_TYPE_HSA;
    a.owner = pool->owner;
    a.pool = pool;
    a.global_flags = pool->global_flags;
    a.executable = (flags & kExecutableAllocationFlag) != 0;
    rt.allocations().insert(a);
    *ptr = p;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t free_pool_memory(void* ptr) {
    if (!ptr) {
        return HSA_STATUS_SUCCESS; // as ROCr: freeing null is a no-op
    }
    auto& rt = Runtime::instance();
    auto found = rt.allocations().find(ptr);
    if (!found || found->source != Allocation::Source::pool ||
        found->base != reinterpret_cast<uintptr_t>(ptr)) {
        return HSA_STATUS_ERROR_INVALID_ALLOCATION;
    }
    auto a = rt.allocations().erase(found->base);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_ALLOCATION; // lost a race with another free of the same pointer
    }
    a->pool->refund(MemoryPool::charged_size(a->size));
    a->pool->give_back(ptr, a->capacity);
    return HSA_STATUS_SUCCESS;
}

/// Queues `copy` on the copy engine (one background thread, submission order): it waits for every
/// dependency to reach 0, runs `copy`, records the copy's ticks on `completion` when copy profiling is on
/// (hsa_amd_profiling_async_copy_enable), then decrements `completion`.
template <typename Copy>
void post_copy(std::vector<Signal*> deps, Signal* completion, Copy copy) {
    auto& rt = Runtime::instance();
    rt.copy_engine().post([deps = std::move(deps), completion, copy, &rt] {
        for (Signal* d : deps) {
            d->wait(HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX);
        }
        const uint64_t start = now_ns();
        copy();
        if (rt.async_copy_profiling().load(std::memory_order_acquire)) {
            completion->dispatch_start.store(start, std::memory_order_relaxed);
            completion->dispatch_end.store(now_ns(), std::memory_order_relaxed);
            completion->async_copy_timed.store(true, std::memory_order_release);
        }
        completion->modify([](auto& value) { return value.fetch_sub(1) - 1; });
    });
}

/// The dependency signals of an async copy, or false when one of them is not a signal.
bool collect_deps(uint32_t count, const hsa_signal_t* signals, std::vector<Signal*>& out) {
    for (uint32_t i = 0; i < count; ++i) {
        Signal* d = Signal::from(signals[i]);
        if (!d) {
            return false;
        }
        out.push_back(d);
    }
    return true;
}

/// True when `p` lies in memory owned by a GPU agent (device memory of either granularity).
bool is_device_memory(const void* p) {
    auto a = Runtime::instance().allocations().find(p);
    return a && a->owner && a->owner->is_gpu();
}

} // namespace

hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size, uint32_t flags,
                                          void** ptr) {
    SIM_REQUIRE_INIT();
    MemoryPool* pool = Runtime::instance().pool(memory_pool.handle);
    if (!pool) {
        return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
    }
    return allocate_from(pool, size, flags, ptr);
}

hsa_status_t hsa_amd_memory_pool_free(void* ptr) {
    SIM_REQUIRE_INIT();
    return free_pool_memory(ptr);
}

hsa_status_t hsa_memory_allocate(hsa_region_t region, size_t size, void** ptr) {
    SIM_REQUIRE_INIT();
    MemoryPool* pool = Runtime::instance().pool(region.handle);
    if (!pool) {
        return HSA_STATUS_ERROR_INVALID_REGION;
    }
    return allocate_from(pool, size, 0, ptr);
}

hsa_status_t hsa_memory_free(void* ptr) {
    SIM_REQUIRE_INIT();
    return free_pool_memory(ptr);
}

hsa_status_t hsa_memory_register(void* ptr, size_t size) {
    SIM_REQUIRE_INIT();
    return (ptr == nullptr && size != 0) ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_deregister(void*, size_t) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_assign_agent(void* ptr, hsa_agent_t agent, hsa_access_permission_t) {
    SIM_REQUIRE_INIT();
    if (!ptr || !Runtime::instance().agent(agent)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_copy(void* dst, const void* src, size_t size) {
    SIM_REQUIRE_INIT();
    if (!dst || !src) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (size == 0) {
        return HSA_STATUS_SUCCESS;
    }
    auto& cfg = Runtime::instance().config();
    const bool src_dev = is_device_memory(src), dst_dev = is_device_memory(dst);
    if (src_dev && !dst_dev && cfg.next_d2h_copy_fails()) {
        return HSA_STATUS_ERROR;
    }
    if (!src_dev && dst_dev && cfg.next_h2d_copy_fails(size)) {
        return HSA_STATUS_ERROR;
    }
    if (src_dev && dst_dev && cfg.next_d2d_copy_fails()) {
        return HSA_STATUS_ERROR;
    }
    std::memmove(dst, src, size);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_async_copy(void* dst, hsa_agent_t dst_agent, const void* src,
                                       hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
                                       const hsa_signal_t* dep_signals, hsa_signal_t completion_signal) {
    SIM_REQUIRE_INIT();
    auto& rt = Runtime::instance();
    if (!dst || !src || !rt.agent(dst_agent) || !rt.agent(src_agent) || (num_dep_signals && !dep_signals)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    Signal* completion = Signal::from(completion_signal);
    if (!completion) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    std::vector<Signal*> deps;
    if (!collect_deps(num_dep_signals, dep_signals, deps)) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    if (rt.config().next_async_copy_fails(size)) {
        return HSA_STATUS_ERROR; // HSA_SIM_FAIL_ASYNC_COPY_BYTES: refused at issue, nothing copied
    }
    // The copy engine: waits for every dependency to reach 0, copies, then decrements the completion signal.
    post_copy(std::move(deps), completion, [=] { std::memmove(dst, src, size); });
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_async_copy_rect(const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset,
                                            const hsa_pitched_ptr_t* src, const hsa_dim3_t* src_offset,
                                            const hsa_dim3_t* range, hsa_agent_t copy_agent,
                                            hsa_amd_copy_direction_t dir, uint32_t num_dep_signals,
                                            const hsa_signal_t* dep_signals, hsa_signal_t completion_signal) {
    SIM_REQUIRE_INIT();
    // Checks in ROCr 5.2.3's order (src/core/runtime/hsa_ext_amd.cpp).
    if (!dst || !src || !dst_offset || !src_offset || !range) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if ((num_dep_signals == 0) != (dep_signals == nullptr)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (dir == hsaHostToHost) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    Agent* agent = Runtime::instance().agent(copy_agent);
    if (!agent || !agent->is_gpu()) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    std::vector<Signal*> deps;
    if (!collect_deps(num_dep_signals, dep_signals, deps)) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    Signal* completion = Signal::from(completion_signal);
    if (!completion) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    if (range->x == 0 || range->y == 0 || range->z == 0) {
        return HSA_STATUS_SUCCESS; // as ROCr: nothing is copied and the completion signal is left alone
    }
    if ((range->y > 1 && (dst->pitch < range->x || src->pitch < range->x)) ||
        (range->z > 1 && (dst->slice < range->y * static_cast<size_t>(dst->pitch) ||
                          src->slice < range->y * static_cast<size_t>(src->pitch)))) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // x is in bytes, y in rows (pitch bytes apart), z in slices (slice bytes apart), on both sides.
    const hsa_pitched_ptr_t d = *dst, s = *src;
    const hsa_dim3_t doff = *dst_offset, soff = *src_offset, r = *range;
    post_copy(std::move(deps), completion, [=] {
        for (uint32_t z = 0; z < r.z; ++z) {
            for (uint32_t y = 0; y < r.y; ++y) {
                char* to = static_cast<char*>(d.base) + (doff.z + z) * static_cast<size_t>(d.slice) +
                           (doff.y + y) * static_cast<size_t>(d.pitch) + doff.x;
                const char* from = static_cast<const char*>(s.base) +
                                   (soff.z + z) * static_cast<size_t>(s.slice) +
                                   (soff.y + y) * static_cast<size_t>(s.pitch) + soff.x;
                std::memmove(to, from, r.x);
            }
        }
    });
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void* ptr, uint32_t value, size_t count) {
    SIM_REQUIRE_INIT();
    if (!ptr || (reinterpret_cast<uintptr_t>(ptr) % 4) != 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::fill_n(static_cast<uint32_t*>(ptr), count, value);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t* agents,
                                         const uint32_t* flags, const void* ptr) {
    SIM_REQUIRE_INIT();
    (void)flags;
    auto& rt = Runtime::instance();
    if (num_agents == 0 || !agents || !ptr) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::vector<Agent*> list;
    for (uint32_t i = 0; i < num_agents; ++i) {
        Agent* a = rt.agent(agents[i]);
        if (!a) {
            return HSA_STATUS_ERROR_INVALID_AGENT;
        }
        list.push_back(a);
    }
    bool known = rt.allocations().update(ptr, [&](Allocation& a) {
        for (Agent* ag : list) {
            if (std::find(a.accessible.begin(), a.accessible.end(), ag) == a.accessible.end()) {
                a.accessible.push_back(ag);
            }
        }
    });
    return known ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_memory_lock(void* host_ptr, size_t size, hsa_agent_t* agents, int num_agent,
                                 void** agent_ptr) {
    SIM_REQUIRE_INIT();
    auto& rt = Runtime::instance();
    if (!host_ptr || size == 0 || !agent_ptr || (num_agent > 0 && !agents)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    Allocation a;
    a.base = reinterpret_cast<uintptr_t>(host_ptr);
    a.size = size;
    a.capacity = size;
    a.source = Allocation::Source::locked;
    a.type = HSA_EXT_POINTER_TYPE_LOCKED;
    a.owner = rt.cpu_agent();
    a.global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
    for (int i = 0; i < num_agent; ++i) {
        if (Agent* ag = rt.agent(agents[i])) {
            a.accessible.push_back(ag);
        }
    }
    rt.allocations().insert(a);
    // Host and agents share one address space in the simulator: the agent address is the host address.
    *agent_ptr = host_ptr;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_lock_to_pool(void* host_ptr, size_t size, hsa_agent_t* agents, int num_agent,
                                         hsa_amd_memory_pool_t pool, uint32_t flags, void** agent_ptr) {
    SIM_REQUIRE_INIT();
    // Checks as ROCr 5.2.3: flags reserved, agents and their count given together, a CPU agent's pool.
    if (size == 0 || !host_ptr || !agent_ptr || flags != 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *agent_ptr = nullptr;
    if ((agents != nullptr) != (num_agent != 0)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    MemoryPool* p = Runtime::instance().pool(pool.handle);
    if (!p || p->device || p->segment != HSA_AMD_SEGMENT_GLOBAL) {
        return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
    }
    // Every CPU pool is fine-grained system memory, which is what hsa_amd_memory_lock records.
    return api::hsa_amd_memory_lock(host_ptr, size, agents, num_agent, agent_ptr);
}

hsa_status_t hsa_amd_memory_unlock(void* host_ptr) {
    SIM_REQUIRE_INIT();
    auto& rt = Runtime::instance();
    auto a = rt.allocations().find(host_ptr);
    if (!a || a->source != Allocation::Source::locked) {
        return HSA_STATUS_SUCCESS; // ROCr ignores unlocking memory that is not locked
    }
    rt.allocations().erase(a->base);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_pointer_info(const void* ptr, hsa_amd_pointer_info_t* info, void* (*alloc)(size_t),
                                  uint32_t* num_agents_accessible, hsa_agent_t** accessible) {
    SIM_REQUIRE_INIT();
    if (!info || info->size == 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    const uint32_t caller_size = info->size;
    hsa_amd_pointer_info_t out{};
    out.size = static_cast<uint32_t>(std::min<size_t>(caller_size, sizeof(hsa_amd_pointer_info_t)));
    auto a = Runtime::instance().allocations().find(ptr);
    // Fault injection (HSA_SIM_POINTER_INFO_UNKNOWN_BYTES): a GPU agent's allocation of that size is
    // answered as memory the runtime does not know, as ROCr answers an address outside its map.
    const uint64_t unknown_bytes = Runtime::instance().config().pointer_info_unknown_bytes;
    if (a && unknown_bytes != 0 && a->size == unknown_bytes && a->source == Allocation::Source::pool &&
        a->owner && a->owner->is_gpu()) {
        a.reset();
    }
    std::vector<Agent*> agents;
#if SIM_HAS_VMEM
    // ROCr 6.1.2 (core/runtime/runtime.cpp Runtime::PtrInfo) asks the thunk first. A range made by
    // hsa_amd_vmem_address_reserve is an address-only hsaKmtAllocMemory on node 0; on a dGPU the thunk
    // (libhsakmt 6.1.2 src/memory.c hsaKmtAllocMemory -> fmm.c fmm_allocate_host_gpu) backs it with one
    // non-coarse object of node 0 covering the whole reservation, which fmm_get_mem_info reports as
    // HSA_POINTER_ALLOCATED. The range is not in the runtime's allocation map, so PtrInfo turns the type
    // into UNKNOWN but leaves the block's fields: base and size of the reservation, fine-grained, owner
    // the CPU agent, no agent mapped. Mappings made into the range change nothing in that answer.
    uintptr_t reserved_base = 0;
    size_t reserved_size = 0;
    void* reserved_user_data = nullptr;
    if (VirtualMemory::instance().reservation_containing(ptr, &reserved_base, &reserved_size,
                                                         &reserved_user_data)) {
        a.reset();
        out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
        out.agentBaseAddress = reinterpret_cast<void*>(reserved_base);
        out.hostBaseAddress = reinterpret_cast<void*>(reserved_base);
        out.sizeInBytes = reserved_size;
        out.userData = reserved_user_data;
        out.agentOwner = Runtime::instance().cpu_agent()->handle();
        out.global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
    } else
#endif
        if (!a) {
        out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
    } else {
        out.type = a->type;
        out.agentBaseAddress = reinterpret_cast<void*>(a->base);
        out.hostBaseAddress = reinterpret_cast<void*>(a->base);
        out.sizeInBytes = a->size;
        out.userData = a->user_data;
        out.agentOwner = a->owner ? a->owner->handle() : hsa_agent_t{0};
        out.global_flags = a->global_flags;
        if (a->owner) {
            agents.push_back(a->owner);
        }
        for (Agent* ag : a->accessible) {
            if (std::find(agents.begin(), agents.end(), ag) == agents.end()) {
                agents.push_back(ag);
            }
        }
    }
    std::memcpy(info, &out, out.size);
    if (num_agents_accessible && accessible) {
        if (!alloc) {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        *num_agents_accessible = static_cast<uint32_t>(agents.size());
        *accessible = nullptr;
        if (!agents.empty()) {
            auto* list = static_cast<hsa_agent_t*>(alloc(agents.size() * sizeof(hsa_agent_t)));
            if (!list) {
                return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
            }
            for (size_t i = 0; i < agents.size(); ++i) {
                list[i] = agents[i]->handle();
            }
            *accessible = list;
        }
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_pointer_info_set_userdata(const void* ptr, void* userdata) {
    SIM_REQUIRE_INIT();
#if SIM_HAS_VMEM
    // Not in ROCr 6.1.2's allocation map: Runtime::SetPtrInfoData falls back to the thunk, which keeps
    // user data on the reservation's object (found at its first byte).
    uintptr_t base = 0;
    size_t size = 0;
    void* old = nullptr;
    if (VirtualMemory::instance().reservation_containing(ptr, &base, &size, &old)) {
        return VirtualMemory::instance().set_reservation_user_data(ptr, userdata)
                   ? HSA_STATUS_SUCCESS
                   : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
#endif
    bool known =
        Runtime::instance().allocations().update(ptr, [&](Allocation& a) { a.user_data = userdata; });
    return known ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

} // namespace sim::api
