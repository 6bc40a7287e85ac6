#include "vmem_tracker.h"

#include "engine.h"
#include "hsa_api.h"

namespace rs::engine {

void VmemTracker::mapped(Engine& e, void* va, uint64_t size, uint64_t handle) noexcept {
    try {
        uint32_t pool_flags = 0;
#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
        hsa_amd_memory_pool_t pool{0};
        hsa_amd_memory_type_t type{};
        if (hsa().amd.hsa_amd_vmem_get_alloc_properties_from_handle_fn &&
            hsa().amd.hsa_amd_vmem_get_alloc_properties_from_handle_fn(hsa_amd_vmem_alloc_handle_t{handle},
                                                                       &pool, &type) == HSA_STATUS_SUCCESS)
            (void)hsa().amd.hsa_amd_memory_pool_get_info_fn(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                                                            &pool_flags);
#else
        (void)handle;
#endif
        const Classification c = e.classifier.classify(va, size, 0, pool_flags);
        Mapping m;
        m.id = e.inventory.next_id();
        m.size = size;
        m.agent = c.agent;
        m.reported = e.config.track_vmem;
        m.tracked = e.config.track_vmem && c.classification == AllocationClass::tracked;
        // Kernel-visible but not restored: fine-grained device memory always, and the coarse-grained
        // mapping itself when vmem tracking is off.
        m.watched = !m.tracked && c.agent != 0 &&
                    (c.classification == AllocationClass::excluded_fine_grained ||
                     c.classification == AllocationClass::tracked);
        const auto base = reinterpret_cast<uintptr_t>(va);
        mappings_.wlock([&](auto& map) { map.insert_or_assign(base, m); });
        if (m.reported)
            e.sink->allocation({m.id, base, size, c.agent, c.pool_flags, AllocationApi::vmem_map,
                                c.pointer_type, c.classification});
    } catch (...) {
        // An unrecorded mapping is only not snapshotted (never harm the application).
    }
}

void VmemTracker::access_set(Engine& e, void* va) noexcept {
    const auto base = reinterpret_cast<uintptr_t>(va);
    try {
        mappings_.wlock([&](auto& map) {
            auto it = map.find(base);
            if (it == map.end() || it->second.active)
                return;
            Mapping& m = it->second;
            m.active = true;
            if (m.tracked)
                e.inventory.add({m.id, base, m.size, m.agent, true});
            else if (m.watched)
                e.watched.add({m.id, base, m.size, m.agent, m.reported});
        });
    } catch (...) {
    }
}

void VmemTracker::unmapping(Engine& e, void* va) noexcept {
    const auto base = reinterpret_cast<uintptr_t>(va);
    try {
        mappings_.wlock([&](auto& map) {
            auto it = map.find(base);
            if (it == map.end())
                return;
            const Mapping m = it->second;
            map.erase(it);
            if (m.active && m.tracked)
                (void)e.inventory.remove(base);
            else if (m.active && m.watched)
                (void)e.watched.remove(base);
            if (m.reported)
                e.sink->free({m.id, base});
        });
    } catch (...) {
    }
}

void VmemTracker::clear() {
    mappings_.wlock([](auto& map) { map.clear(); });
}

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2

namespace {

Engine* recording_engine() {
    if (!g_recording.load(std::memory_order_relaxed) || g_finalized.load(std::memory_order_acquire))
        return nullptr;
    return engine();
}

hsa_status_t vmem_map(void* va, size_t size, size_t in_offset, hsa_amd_vmem_alloc_handle_t handle,
                      uint64_t flags) {
    const hsa_status_t st = hsa().amd.hsa_amd_vmem_map_fn(va, size, in_offset, handle, flags);
    if (st == HSA_STATUS_SUCCESS)
        if (Engine* e = recording_engine())
            e->vmem.mapped(*e, va, size, handle.handle);
    return st;
}

hsa_status_t vmem_set_access(void* va, size_t size, const hsa_amd_memory_access_desc_t* desc,
                             size_t desc_cnt) {
    const hsa_status_t st = hsa().amd.hsa_amd_vmem_set_access_fn(va, size, desc, desc_cnt);
    if (st == HSA_STATUS_SUCCESS)
        if (Engine* e = recording_engine())
            e->vmem.access_set(*e, va);
    return st;
}

hsa_status_t vmem_unmap(void* va, size_t size) {
    if (Engine* e = recording_engine())
        e->vmem.unmapping(*e, va);
    return hsa().amd.hsa_amd_vmem_unmap_fn(va, size);
}

} // namespace

void install_vmem_tracker(AmdExtTable& amd) {
    // Only entries the runtime provides are wrapped (a null entry stays null).
    if (amd.hsa_amd_vmem_map_fn == vmem_map || !amd.hsa_amd_vmem_map_fn || !amd.hsa_amd_vmem_unmap_fn ||
        !amd.hsa_amd_vmem_set_access_fn)
        return;
    amd.hsa_amd_vmem_map_fn = vmem_map;
    amd.hsa_amd_vmem_unmap_fn = vmem_unmap;
    amd.hsa_amd_vmem_set_access_fn = vmem_set_access;
}

#else

void install_vmem_tracker(AmdExtTable&) {}

#endif

} // namespace rs::engine
