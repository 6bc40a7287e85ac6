// SPDX-License-Identifier: MIT
#include "memory_tracker.h"

#include "engine.h"
#include "hsa_api.h"

#include <chrono>
#include <optional>
#include <vector>

namespace rs::engine {

namespace {

void record_alloc(void* ptr, size_t size, uint32_t allocate_flags, uint32_t pool_flags,
                  AllocationApi api) noexcept {
    if (g_finalized.load(std::memory_order_acquire)) {
        return;
    }
    Engine* e = engine();
    if (!e || !ptr) {
        return;
    }
    try {
        // The runtime handed these addresses out: a managed range recorded over them was unmapped.
        (void)e->unrestorable.drop_managed(reinterpret_cast<uintptr_t>(ptr), size);
        const Classification c = e->classifier.classify(ptr, size, allocate_flags, pool_flags);
        const uint64_t id = e->inventory.next_id();
        if (c.classification == AllocationClass::tracked) {
            e->inventory.add({id, reinterpret_cast<uintptr_t>(ptr), size, c.agent});
        } else if (c.classification == AllocationClass::excluded_fine_grained && c.agent != 0) {
            e->watched.add({id, reinterpret_cast<uintptr_t>(ptr), size, c.agent});
        }
        if (c.classification == AllocationClass::excluded_fine_grained ||
            c.classification == AllocationClass::excluded_host) {
            e->unrestorable.add({id, reinterpret_cast<uintptr_t>(ptr), size, c.agent});
        }
        e->sink->allocation({id, reinterpret_cast<uint64_t>(ptr), size, c.agent, c.pool_flags, api,
                             c.pointer_type, c.classification});
    } catch (...) {
        // Never let tracking harm the application: an untracked allocation is only not snapshotted.
        note_internal_error(*e, "allocation tracking (the allocation is not snapshotted)");
    }
}

void record_free(void* ptr) noexcept {
    if (!ptr || g_finalized.load(std::memory_order_acquire)) {
        return;
    }
    Engine* e = engine();
    if (!e) {
        return;
    }
    try {
        (void)e->unrestorable.remove(reinterpret_cast<uintptr_t>(ptr));
        if (auto a = e->inventory.remove(reinterpret_cast<uintptr_t>(ptr))) {
            e->sink->free({a->id, a->address});
        } else if (auto w = e->watched.remove(reinterpret_cast<uintptr_t>(ptr))) {
            e->sink->free({w->id, w->address});
        }
    } catch (...) {
        note_internal_error(*e, "free tracking");
    }
}

} // namespace

bool reclaimed_after(hsa_status_t st, uint64_t handle, bool region, uint64_t bytes) noexcept {
    if (st != HSA_STATUS_ERROR_OUT_OF_RESOURCES || g_finalized.load(std::memory_order_acquire)) {
        return false;
    }
    Engine* e = engine();
    if (!e) {
        return false;
    }
    return e->agents.reclaim_device_store(handle, region, bytes, e->config.pass_timeout + kReclaimSlack);
}

namespace {

hsa_status_t pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t flags, void** ptr) {
    hsa_status_t st = hsa().amd.hsa_amd_memory_pool_allocate_fn(pool, size, flags, ptr);
    if (reclaimed_after(st, pool.handle, false, size)) {
        st = hsa().amd.hsa_amd_memory_pool_allocate_fn(pool, size, flags, ptr);
    }
    if (st == HSA_STATUS_SUCCESS && ptr && g_recording.load(std::memory_order_relaxed)) {
        uint32_t pool_flags = 0;
        (void)hsa().amd.hsa_amd_memory_pool_get_info_fn(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                                                        &pool_flags);
        record_alloc(*ptr, size, flags, pool_flags, AllocationApi::memory_pool_allocate);
    }
    return st;
}

hsa_status_t pool_free(void* ptr) {
    // Forget first: once freed, another thread may be handed the same address.
    if (g_recording.load(std::memory_order_relaxed)) {
        record_free(ptr);
    }
    return hsa().amd.hsa_amd_memory_pool_free_fn(ptr);
}

hsa_status_t memory_allocate(hsa_region_t region, size_t size, void** ptr) {
    hsa_status_t st = hsa().core.hsa_memory_allocate_fn(region, size, ptr);
    if (reclaimed_after(st, region.handle, true, size)) {
        st = hsa().core.hsa_memory_allocate_fn(region, size, ptr);
    }
    if (st == HSA_STATUS_SUCCESS && ptr && g_recording.load(std::memory_order_relaxed)) {
        uint32_t region_flags = 0; // HSA_REGION_GLOBAL_FLAG_* share the pool flags' bit values
        (void)hsa().core.hsa_region_get_info_fn(region, HSA_REGION_INFO_GLOBAL_FLAGS, &region_flags);
        record_alloc(*ptr, size, 0, region_flags, AllocationApi::memory_allocate);
    }
    return st;
}

hsa_status_t memory_free(void* ptr) {
    if (g_recording.load(std::memory_order_relaxed)) {
        record_free(ptr);
    }
    return hsa().core.hsa_memory_free_fn(ptr);
}

/// Records host memory the runtime locked for the agents (`host` at `agent_address` for them): an
/// allocation row (class host, pointer type locked) and both addresses as unrestorable.
void record_lock(void* host, size_t size, void* agent_address, uint32_t pool_flags,
                 AllocationApi api) noexcept {
    if (!host || size == 0 || g_finalized.load(std::memory_order_acquire)) {
        return;
    }
    Engine* e = engine();
    if (!e) {
        return;
    }
    try {
        const auto address = reinterpret_cast<uintptr_t>(host);
        const auto mapped = reinterpret_cast<uintptr_t>(agent_address);
        (void)e->unrestorable.drop_managed(address, size);
        const uint64_t id = e->inventory.next_id();
        e->unrestorable.add({id, address, size, 0});
        if (mapped != 0 && mapped != address) {
            e->unrestorable.add({id, mapped, size, 0});
        }
        e->locked.wlock([&](auto& m) { m.insert_or_assign(address, Engine::LockedRange{id, mapped}); });
        e->sink->allocation(
            {id, address, size, 0, pool_flags, api, PointerType::locked, AllocationClass::excluded_host});
    } catch (...) {
        note_internal_error(*e, "lock tracking (a kernel given this memory may be replayed)");
    }
}

void record_unlock(void* host) noexcept {
    if (!host || g_finalized.load(std::memory_order_acquire)) {
        return;
    }
    Engine* e = engine();
    if (!e) {
        return;
    }
    try {
        const auto address = reinterpret_cast<uintptr_t>(host);
        const auto range = e->locked.wlock([&](auto& m) -> std::optional<Engine::LockedRange> {
            auto it = m.find(address);
            if (it == m.end()) {
                return std::nullopt;
            }
            const Engine::LockedRange r = it->second;
            m.erase(it);
            return r;
        });
        if (!range) {
            return; // not locked through a wrapper the engine saw
        }
        (void)e->unrestorable.remove(address);
        if (range->agent_address != 0 && range->agent_address != address) {
            (void)e->unrestorable.remove(range->agent_address);
        }
        e->sink->free({range->id, address});
    } catch (...) {
        note_internal_error(*e, "unlock tracking");
    }
}

hsa_status_t memory_lock(void* host_ptr, size_t size, hsa_agent_t* agents, int num_agent, void** agent_ptr) {
    const hsa_status_t st = hsa().amd.hsa_amd_memory_lock_fn(host_ptr, size, agents, num_agent, agent_ptr);
    if (st == HSA_STATUS_SUCCESS && agent_ptr && g_recording.load(std::memory_order_relaxed)) {
        record_lock(host_ptr, size, *agent_ptr, 0, AllocationApi::memory_lock);
    }
    return st;
}

hsa_status_t memory_lock_to_pool(void* host_ptr, size_t size, hsa_agent_t* agents, int num_agent,
                                 hsa_amd_memory_pool_t pool, uint32_t flags, void** agent_ptr) {
    const hsa_status_t st =
        hsa().amd.hsa_amd_memory_lock_to_pool_fn(host_ptr, size, agents, num_agent, pool, flags, agent_ptr);
    if (st == HSA_STATUS_SUCCESS && agent_ptr && g_recording.load(std::memory_order_relaxed)) {
        uint32_t pool_flags = 0;
        (void)hsa().amd.hsa_amd_memory_pool_get_info_fn(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                                                        &pool_flags);
        record_lock(host_ptr, size, *agent_ptr, pool_flags, AllocationApi::memory_lock_to_pool);
    }
    return st;
}

hsa_status_t memory_unlock(void* host_ptr) {
    // Forget first, as for a free: once unlocked the memory is no longer the agents'.
    if (g_recording.load(std::memory_order_relaxed)) {
        record_unlock(host_ptr);
    }
    return hsa().amd.hsa_amd_memory_unlock_fn(host_ptr);
}

hsa_status_t svm_attributes_set(void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* attributes,
                                size_t count) {
    const hsa_status_t st = hsa().amd.hsa_amd_svm_attributes_set_fn(ptr, size, attributes, count);
    if (st == HSA_STATUS_SUCCESS && ptr && size > 0 && g_recording.load(std::memory_order_relaxed) &&
        !g_finalized.load(std::memory_order_acquire)) {
        if (Engine* e = engine()) {
            try {
                // Managed memory (hipMallocManaged): host pages every agent reaches, never snapshotted.
                e->unrestorable.add_managed({0, reinterpret_cast<uintptr_t>(ptr), size, 0, false});
            } catch (...) {
                note_internal_error(*e,
                                    "managed memory tracking (a kernel given this memory may be replayed)");
            }
        }
    }
    return st;
}

/// Records the agents `hsa_amd_agents_allow_access` granted access to the tracked allocation holding
/// `ptr`, and makes sure each GPU agent among them has a context, so that a window of the owner can gate
/// its queues (docs/replay-window.md, "Agents that share memory").
void record_access(uint32_t num_agents, const hsa_agent_t* agents, const void* ptr) noexcept {
    if (g_finalized.load(std::memory_order_acquire)) {
        return;
    }
    Engine* e = engine();
    if (!e) {
        return;
    }
    try {
        std::vector<uint64_t> handles;
        handles.reserve(num_agents);
        for (uint32_t i = 0; i < num_agents; ++i) {
            handles.push_back(agents[i].handle);
        }
        if (!e->inventory.allow(reinterpret_cast<uintptr_t>(ptr), handles)) {
            return; // host memory, kernarg, fine-grained, or only the owner itself: nothing to gate
        }
        for (uint32_t i = 0; i < num_agents; ++i) {
            (void)e->agents.get(agents[i], e->config);
        }
        e->peer_access.store(true, std::memory_order_release);
    } catch (...) {
        note_internal_error(*e, "peer access tracking (a window of the owner may not gate that agent)");
    }
}

hsa_status_t agents_allow_access(uint32_t num_agents, const hsa_agent_t* agents, const uint32_t* flags,
                                 const void* ptr) {
    const hsa_status_t st = hsa().amd.hsa_amd_agents_allow_access_fn(num_agents, agents, flags, ptr);
    if (st == HSA_STATUS_SUCCESS && agents && num_agents > 0 && ptr &&
        g_recording.load(std::memory_order_relaxed)) {
        record_access(num_agents, agents, ptr);
    }
    return st;
}

} // namespace

void install_memory_tracker(CoreApiTable& core, AmdExtTable& amd) {
    if (amd.hsa_amd_memory_pool_allocate_fn == pool_allocate) {
        return; // already ours
    }
    amd.hsa_amd_memory_pool_allocate_fn = pool_allocate;
    amd.hsa_amd_memory_pool_free_fn = pool_free;
    core.hsa_memory_allocate_fn = memory_allocate;
    core.hsa_memory_free_fn = memory_free;
    amd.hsa_amd_memory_lock_fn = memory_lock;
    amd.hsa_amd_memory_lock_to_pool_fn = memory_lock_to_pool;
    amd.hsa_amd_memory_unlock_fn = memory_unlock;
    amd.hsa_amd_svm_attributes_set_fn = svm_attributes_set;
    amd.hsa_amd_agents_allow_access_fn = agents_allow_access;
}

} // namespace rs::engine
