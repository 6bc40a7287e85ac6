// SPDX-License-Identifier: MIT
#include "vmem_tracker.h"

#include "engine.h"
#include "hsa_api.h"
#include "memory_tracker.h"

namespace rs::engine {

namespace {

/// The classification of memory from a pool with `pool_flags` owned by `agent` (the allocation
/// classifier's rules, applied to the handle's pool instead of a pointer query).
Classification classify_pool(uint64_t agent, uint32_t pool_flags, uint64_t size) {
    Classification c;
    c.size = size;
    c.agent = agent;
    c.pool_flags = pool_flags;
    if (agent == 0) {
        c.classification = AllocationClass::excluded_unknown_pointer;
        return c;
    }
    c.pointer_type = PointerType::hsa;
    if (pool_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
        c.classification = AllocationClass::excluded_kernarg;
    } else if (device_type(hsa_agent_t{agent}) != HSA_DEVICE_TYPE_GPU) {
        c.classification = AllocationClass::excluded_host;
    } else if (pool_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) {
        c.classification = AllocationClass::excluded_fine_grained;
    } else if (pool_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
        c.classification = AllocationClass::tracked;
    } else {
        c.classification = AllocationClass::excluded_fine_grained;
    }
    return c;
}

} // namespace

VmemTracker::HandleInfo VmemTracker::describe_pool(uint64_t pool) {
    HandleInfo info;
    info.pool = pool;
    if (pool == 0) {
        return info;
    }
    const bool cached = pools_.rlock([&](const auto& map) {
        auto it = map.find(pool);
        if (it == map.end()) {
            return false;
        }
        info = it->second;
        return true;
    });
    if (cached) {
        return info;
    }
    struct Search {
        uint64_t pool;
        uint64_t agent = 0;
    } search{pool};
    (void)hsa().core.hsa_iterate_agents_fn(
        [](hsa_agent_t agent, void* data) {
            auto* s = static_cast<Search*>(data);
            struct PoolSearch {
                uint64_t pool;
                bool found = false;
            } ps{s->pool};
            (void)hsa().amd.hsa_amd_agent_iterate_memory_pools_fn(
                agent,
                [](hsa_amd_memory_pool_t p, void* d) {
                    auto* q = static_cast<PoolSearch*>(d);
                    if (p.handle != q->pool) {
                        return HSA_STATUS_SUCCESS;
                    }
                    q->found = true;
                    return HSA_STATUS_INFO_BREAK;
                },
                &ps);
            if (!ps.found) {
                return HSA_STATUS_SUCCESS;
            }
            s->agent = agent.handle;
            return HSA_STATUS_INFO_BREAK;
        },
        &search);
    info.agent = search.agent;
    if (info.agent != 0) {
        uint32_t flags = 0;
        if (hsa().amd.hsa_amd_memory_pool_get_info_fn(hsa_amd_memory_pool_t{pool},
                                                      HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                                                      &flags) == HSA_STATUS_SUCCESS) {
            info.pool_flags = flags;
        }
        pools_.wlock([&](auto& map) { map.insert_or_assign(pool, info); });
    }
    return info;
}

void VmemTracker::handle_created(Engine& e, uint64_t handle, uint64_t pool) noexcept {
    try {
#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
        if (pool == 0) {
            hsa_amd_memory_pool_t p{0};
            hsa_amd_memory_type_t type{};
            if (hsa().amd.hsa_amd_vmem_get_alloc_properties_from_handle_fn &&
                hsa().amd.hsa_amd_vmem_get_alloc_properties_from_handle_fn(
                    hsa_amd_vmem_alloc_handle_t{handle}, &p, &type) == HSA_STATUS_SUCCESS) {
                pool = p.handle;
            }
        }
#endif
        const bool known = handles_.wlock([&](auto& map) {
            auto it = map.find(handle);
            if (it == map.end()) {
                return false;
            }
            ++it->second.references;
            return true;
        });
        if (known) {
            return;
        }
        HandleInfo info = describe_pool(pool);
        info.references = 1;
        handles_.wlock([&](auto& map) {
            auto [it, inserted] = map.try_emplace(handle, info);
            if (!inserted) {
                ++it->second.references;
            }
        });
    } catch (...) {
        // An unknown handle only makes its mappings unknown-pointer (never harm the application).
        note_internal_error(e, "vmem handle tracking (its mappings are classified unknown-pointer)");
    }
}

void VmemTracker::handle_released(uint64_t handle) noexcept {
    try {
        handles_.wlock([&](auto& map) {
            auto it = map.find(handle);
            if (it != map.end() && --it->second.references == 0) {
                map.erase(it);
            }
        });
    } catch (...) {
    }
}

void VmemTracker::mapped(Engine& e, void* va, uint64_t size, uint64_t handle) noexcept {
    try {
        HandleInfo info;
        const bool known = handles_.rlock([&](const auto& map) {
            auto it = map.find(handle);
            if (it == map.end()) {
                return false;
            }
            info = it->second;
            return true;
        });
        if (!known) {
            // Made before the engine saw it (not expected: the engine loads at the first hsa_init).
            handle_created(e, handle, 0);
            info = handles_.rlock([&](const auto& map) {
                auto it = map.find(handle);
                return it == map.end() ? HandleInfo{} : it->second;
            });
        }
        const Classification c = classify_pool(info.agent, info.pool_flags, size);
        Mapping m;
        m.id = e.inventory.next_id();
        m.size = size;
        m.agent = c.agent;
        m.pool_flags = c.pool_flags;
        m.reported = e.config.track_vmem;
        m.tracked = e.config.track_vmem && c.classification == AllocationClass::tracked;
        // Kernel-visible but not restored: fine-grained device memory always, and the coarse-grained
        // mapping itself when vmem tracking is off.
        m.watched = !m.tracked && c.agent != 0 &&
                    (c.classification == AllocationClass::excluded_fine_grained ||
                     c.classification == AllocationClass::tracked);
        m.unrestorable = c.classification == AllocationClass::excluded_fine_grained ||
                         c.classification == AllocationClass::excluded_host;
        const auto base = reinterpret_cast<uintptr_t>(va);
        mappings_.wlock([&](auto& map) { map.insert_or_assign(base, m); });
        if (m.unrestorable) {
            e.unrestorable.add({m.id, base, size, c.agent});
        }
        if (m.reported) {
            e.sink->allocation({m.id, base, size, c.agent, c.pool_flags, AllocationApi::vmem_map,
                                c.pointer_type, c.classification});
        }
    } catch (...) {
        // An unrecorded mapping is only not snapshotted (never harm the application).
        note_internal_error(e, "vmem mapping tracking (the mapping is not snapshotted)");
    }
}

uint64_t VmemTracker::owner_of(const void* ptr, uint32_t* pool_flags) const noexcept {
    try {
        const auto p = reinterpret_cast<uintptr_t>(ptr);
        return mappings_.rlock([&](const auto& map) -> uint64_t {
            auto it = map.upper_bound(p);
            if (it == map.begin()) {
                return 0;
            }
            --it;
            if (p >= it->first + it->second.size) {
                return 0;
            }
            if (pool_flags) {
                *pool_flags = it->second.pool_flags;
            }
            return it->second.agent;
        });
    } catch (...) {
        return 0;
    }
}

void VmemTracker::access_set(Engine& e, void* va) noexcept {
    const auto base = reinterpret_cast<uintptr_t>(va);
    try {
        mappings_.wlock([&](auto& map) {
            auto it = map.find(base);
            if (it == map.end() || it->second.active) {
                return;
            }
            Mapping& m = it->second;
            m.active = true;
            if (m.tracked) {
                e.inventory.add({m.id, base, m.size, m.agent, true});
            } else if (m.watched) {
                e.watched.add({m.id, base, m.size, m.agent, m.reported});
            }
        });
    } catch (...) {
    }
}

void VmemTracker::unmapping(Engine& e, void* va) noexcept {
    const auto base = reinterpret_cast<uintptr_t>(va);
    try {
        mappings_.wlock([&](auto& map) {
            auto it = map.find(base);
            if (it == map.end()) {
                return;
            }
            const Mapping m = it->second;
            map.erase(it);
            if (m.unrestorable) {
                (void)e.unrestorable.remove(base);
            }
            if (m.active && m.tracked) {
                (void)e.inventory.remove(base);
            } else if (m.active && m.watched) {
                (void)e.watched.remove(base);
            }
            if (m.reported) {
                e.sink->free({m.id, base});
            }
        });
    } catch (...) {
    }
}

void VmemTracker::clear() {
    mappings_.wlock([](auto& map) { map.clear(); });
    handles_.wlock([](auto& map) { map.clear(); });
    pools_.wlock([](auto& map) { map.clear(); });
}

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2

namespace {

Engine* recording_engine() {
    if (!g_recording.load(std::memory_order_relaxed) || g_finalized.load(std::memory_order_acquire)) {
        return nullptr;
    }
    return engine();
}

hsa_status_t vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size, hsa_amd_memory_type_t type,
                                uint64_t flags, hsa_amd_vmem_alloc_handle_t* handle) {
    hsa_status_t st = hsa().amd.hsa_amd_vmem_handle_create_fn(pool, size, type, flags, handle);
    // A handle's physical memory comes out of the pool like an allocation's (ROCr 6.1.2
    // core/runtime/amd_memory_region.cpp, MemoryRegion::AllocateImpl through KFD), so a refusal caused by
    // the device snapshot store gets that memory back and one retry, as the allocation wrappers do.
    if (reclaimed_after(st, pool.handle, false, size)) {
        st = hsa().amd.hsa_amd_vmem_handle_create_fn(pool, size, type, flags, handle);
    }
    if (st == HSA_STATUS_SUCCESS && handle) {
        if (Engine* e = recording_engine()) {
            e->vmem.handle_created(*e, handle->handle, pool.handle);
        }
    }
    return st;
}

hsa_status_t vmem_handle_release(hsa_amd_vmem_alloc_handle_t handle) {
    const hsa_status_t st = hsa().amd.hsa_amd_vmem_handle_release_fn(handle);
    if (st == HSA_STATUS_SUCCESS) {
        if (Engine* e = recording_engine()) {
            e->vmem.handle_released(handle.handle);
        }
    }
    return st;
}

hsa_status_t vmem_import_shareable_handle(int dmabuf_fd, hsa_amd_vmem_alloc_handle_t* handle) {
    const hsa_status_t st = hsa().amd.hsa_amd_vmem_import_shareable_handle_fn(dmabuf_fd, handle);
    if (st == HSA_STATUS_SUCCESS && handle) {
        if (Engine* e = recording_engine()) {
            e->vmem.handle_created(*e, handle->handle, 0);
        }
    }
    return st;
}

hsa_status_t vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t* handle, void* addr) {
    const hsa_status_t st = hsa().amd.hsa_amd_vmem_retain_alloc_handle_fn(handle, addr);
    if (st == HSA_STATUS_SUCCESS && handle) {
        if (Engine* e = recording_engine()) {
            e->vmem.handle_created(*e, handle->handle, 0);
        }
    }
    return st;
}

hsa_status_t vmem_map(void* va, size_t size, size_t in_offset, hsa_amd_vmem_alloc_handle_t handle,
                      uint64_t flags) {
    const hsa_status_t st = hsa().amd.hsa_amd_vmem_map_fn(va, size, in_offset, handle, flags);
    if (st == HSA_STATUS_SUCCESS) {
        if (Engine* e = recording_engine()) {
            e->vmem.mapped(*e, va, size, handle.handle);
        }
    }
    return st;
}

hsa_status_t vmem_set_access(void* va, size_t size, const hsa_amd_memory_access_desc_t* desc,
                             size_t desc_cnt) {
    const hsa_status_t st = hsa().amd.hsa_amd_vmem_set_access_fn(va, size, desc, desc_cnt);
    if (st == HSA_STATUS_SUCCESS) {
        if (Engine* e = recording_engine()) {
            e->vmem.access_set(*e, va);
        }
    }
    return st;
}

hsa_status_t vmem_unmap(void* va, size_t size) {
    if (Engine* e = recording_engine()) {
        e->vmem.unmapping(*e, va);
    }
    return hsa().amd.hsa_amd_vmem_unmap_fn(va, size);
}

} // namespace

void install_vmem_tracker(AmdExtTable& amd) {
    // Only entries the runtime provides are wrapped (a null entry stays null).
    if (amd.hsa_amd_vmem_map_fn == vmem_map || !amd.hsa_amd_vmem_map_fn || !amd.hsa_amd_vmem_unmap_fn ||
        !amd.hsa_amd_vmem_set_access_fn) {
        return;
    }
    amd.hsa_amd_vmem_map_fn = vmem_map;
    amd.hsa_amd_vmem_unmap_fn = vmem_unmap;
    amd.hsa_amd_vmem_set_access_fn = vmem_set_access;
    if (amd.hsa_amd_vmem_handle_create_fn) {
        amd.hsa_amd_vmem_handle_create_fn = vmem_handle_create;
    }
    if (amd.hsa_amd_vmem_handle_release_fn) {
        amd.hsa_amd_vmem_handle_release_fn = vmem_handle_release;
    }
    if (amd.hsa_amd_vmem_import_shareable_handle_fn) {
        amd.hsa_amd_vmem_import_shareable_handle_fn = vmem_import_shareable_handle;
    }
    if (amd.hsa_amd_vmem_retain_alloc_handle_fn) {
        amd.hsa_amd_vmem_retain_alloc_handle_fn = vmem_retain_alloc_handle;
    }
}

#else

void install_vmem_tracker(AmdExtTable&) {}

#endif

} // namespace rs::engine
