// SPDX-License-Identifier: MIT
#include "virtual_memory.h"

#if SIM_HAS_VMEM

#include "runtime.h"

#include <sys/mman.h>
#include <unistd.h>

namespace sim {

namespace {
constexpr size_t kGranule = 4096;
bool aligned(uintptr_t v) {
    return v % kGranule == 0;
}
} // namespace

VirtualMemory& VirtualMemory::instance() {
    static VirtualMemory* vm = new VirtualMemory();
    return *vm;
}

VirtualMemory::Reservation* VirtualMemory::reservation_of(uintptr_t va, size_t size) {
    auto it = reservations_.upper_bound(va);
    if (it == reservations_.begin()) {
        return nullptr;
    }
    --it;
    if (va < it->first || va + size > it->first + it->second.size) {
        return nullptr;
    }
    return &it->second;
}

hsa_status_t VirtualMemory::reserve(void** va, size_t size, uint64_t address) {
    if (!va || size == 0 || !aligned(size)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // `address` is a hint, as in ROCr: the range may be placed elsewhere.
    void* p = mmap(reinterpret_cast<void*>(address), size, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    std::lock_guard lock(mutex_);
    reservations_[reinterpret_cast<uintptr_t>(p)] = {size, nullptr};
    *va = p;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::free(void* va, size_t size) {
    std::lock_guard lock(mutex_);
    auto it = reservations_.find(reinterpret_cast<uintptr_t>(va));
    if (it == reservations_.end() || it->second.size != size) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    const uintptr_t base = it->first;
    auto m = mappings_.lower_bound(base);
    if (m != mappings_.end() && m->first < base + size) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT; // still mapped: unmap first
    }
    munmap(va, size);
    reservations_.erase(it);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::create_handle(MemoryPool* pool, size_t size,
                                          hsa_amd_vmem_alloc_handle_t* handle) {
    if (!pool || !handle || size == 0 || !aligned(size)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (Runtime::instance().config().next_allocation_fails()) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    // The handle's physical memory counts against the pool's agent until the handle is released.
    if (!pool->charge(MemoryPool::charged_size(size))) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    int fd = memfd_create("hsa_sim_vmem", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
        if (fd >= 0) {
            close(fd);
        }
        pool->refund(MemoryPool::charged_size(size));
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    std::lock_guard lock(mutex_);
    const uint64_t id = next_handle_++;
    handles_[id] = {pool, size, fd};
    handle->handle = id;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::release_handle(hsa_amd_vmem_alloc_handle_t handle) {
    std::lock_guard lock(mutex_);
    auto it = handles_.find(handle.handle);
    if (it == handles_.end()) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // Existing mappings keep their pages (the mapping holds the memfd); the handle itself goes away.
    close(it->second.memfd);
    it->second.pool->refund(MemoryPool::charged_size(it->second.size));
    handles_.erase(it);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::map(void* va, size_t size, size_t offset, hsa_amd_vmem_alloc_handle_t handle) {
    const auto base = reinterpret_cast<uintptr_t>(va);
    if (!va || size == 0 || !aligned(base) || !aligned(size) || !aligned(offset)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::lock_guard lock(mutex_);
    auto h = handles_.find(handle.handle);
    if (h == handles_.end() || offset + size > h->second.size || !reservation_of(base, size)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto next = mappings_.lower_bound(base);
    if (next != mappings_.end() && next->first < base + size) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (next != mappings_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second.size > base) {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
    }
    if (mmap(va, size, PROT_NONE, MAP_SHARED | MAP_FIXED, h->second.memfd, static_cast<off_t>(offset)) ==
        MAP_FAILED) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    mappings_[base] = {size, handle.handle, {}};
    MemoryPool* pool = h->second.pool;
    Allocation a;
    a.base = base;
    a.size = size;
    a.capacity = size;
    a.source = Allocation::Source::vmem_mapping;
    a.type = HSA_EXT_POINTER_TYPE_HSA;
    a.owner = pool->owner;
    a.pool = pool;
    a.global_flags = pool->global_flags;
    Runtime::instance().allocations().insert(a);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::unmap(void* va, size_t size) {
    const auto base = reinterpret_cast<uintptr_t>(va);
    std::lock_guard lock(mutex_);
    auto it = mappings_.find(base);
    if (it == mappings_.end() || it->second.size != size) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    Runtime::instance().allocations().erase(base);
    // Back to a reserved, inaccessible range.
    mmap(va, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    mappings_.erase(it);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::set_access(void* va, size_t size, const hsa_amd_memory_access_desc_t* desc,
                                       size_t count) {
    if (!desc || count == 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto& rt = Runtime::instance();
    std::lock_guard lock(mutex_);
    auto it = mappings_.find(reinterpret_cast<uintptr_t>(va));
    if (it == mappings_.end() || it->second.size != size) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < count; ++i) {
        Agent* a = rt.agent(desc[i].agent_handle);
        if (!a) {
            return HSA_STATUS_ERROR_INVALID_AGENT;
        }
        it->second.access[a] = desc[i].permissions;
    }
    // Agents and host share one address space here: the widest permission any agent holds applies.
    int prot = PROT_NONE;
    for (auto& [agent, perm] : it->second.access) {
        if (perm == HSA_ACCESS_PERMISSION_RW || perm == HSA_ACCESS_PERMISSION_WO) {
            prot = PROT_READ | PROT_WRITE;
        } else if (perm == HSA_ACCESS_PERMISSION_RO && prot == PROT_NONE) {
            prot = PROT_READ;
        }
    }
    mprotect(va, size, prot);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::get_access(void* va, hsa_access_permission_t* perms, hsa_agent_t agent) {
    if (!perms) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    Agent* a = Runtime::instance().agent(agent);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    std::lock_guard lock(mutex_);
    auto it = mappings_.find(reinterpret_cast<uintptr_t>(va));
    if (it == mappings_.end()) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto p = it->second.access.find(a);
    *perms = p == it->second.access.end() ? HSA_ACCESS_PERMISSION_NONE : p->second;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualMemory::properties(hsa_amd_vmem_alloc_handle_t handle, hsa_amd_memory_pool_t* pool,
                                       hsa_amd_memory_type_t* type) {
    if (!pool || !type) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::lock_guard lock(mutex_);
    auto it = handles_.find(handle.handle);
    if (it == handles_.end()) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *pool = it->second.pool->pool_handle();
    *type = MEMORY_TYPE_NONE;
    return HSA_STATUS_SUCCESS;
}

bool VirtualMemory::reservation_containing(const void* ptr, uintptr_t* base, size_t* size, void** user_data) {
    std::lock_guard lock(mutex_);
    const auto p = reinterpret_cast<uintptr_t>(ptr);
    auto it = reservations_.upper_bound(p);
    if (it == reservations_.begin()) {
        return false;
    }
    --it;
    if (p >= it->first + it->second.size) {
        return false;
    }
    *base = it->first;
    *size = it->second.size;
    *user_data = it->second.user_data;
    return true;
}

bool VirtualMemory::set_reservation_user_data(const void* ptr, void* user_data) {
    std::lock_guard lock(mutex_);
    auto it = reservations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == reservations_.end()) {
        return false;
    }
    it->second.user_data = user_data;
    return true;
}

void VirtualMemory::release_all() {
    std::lock_guard lock(mutex_);
    for (auto& [base, r] : reservations_) {
        munmap(reinterpret_cast<void*>(base), r.size);
    }
    for (auto& [id, h] : handles_) {
        close(h.memfd);
    }
    reservations_.clear();
    mappings_.clear();
    handles_.clear();
}

} // namespace sim

namespace sim::api {

hsa_status_t hsa_amd_vmem_address_reserve(void** va, size_t size, uint64_t address, uint64_t) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().reserve(va, size, address);
}
hsa_status_t hsa_amd_vmem_address_free(void* va, size_t size) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().free(va, size);
}
hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size, hsa_amd_memory_type_t,
                                        uint64_t, hsa_amd_vmem_alloc_handle_t* memory_handle) {
    SIM_REQUIRE_INIT();
    MemoryPool* p = Runtime::instance().pool(pool.handle);
    if (!p) {
        return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
    }
    return VirtualMemory::instance().create_handle(p, size, memory_handle);
}
hsa_status_t hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t memory_handle) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().release_handle(memory_handle);
}
hsa_status_t hsa_amd_vmem_map(void* va, size_t size, size_t in_offset,
                              hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().map(va, size, in_offset, memory_handle);
}
hsa_status_t hsa_amd_vmem_unmap(void* va, size_t size) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().unmap(va, size);
}
hsa_status_t hsa_amd_vmem_set_access(void* va, size_t size, const hsa_amd_memory_access_desc_t* desc,
                                     size_t desc_cnt) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().set_access(va, size, desc, desc_cnt);
}
hsa_status_t hsa_amd_vmem_get_access(void* va, hsa_access_permission_t* perms, hsa_agent_t agent_handle) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().get_access(va, perms, agent_handle);
}
hsa_status_t hsa_amd_vmem_get_alloc_properties_from_handle(hsa_amd_vmem_alloc_handle_t memory_handle,
                                                           hsa_amd_memory_pool_t* pool,
                                                           hsa_amd_memory_type_t* type) {
    SIM_REQUIRE_INIT();
    return VirtualMemory::instance().properties(memory_handle, pool, type);
}

} // namespace sim::api

#endif
