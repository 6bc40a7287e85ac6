// SPDX-License-Identifier: MIT
// Virtual-memory management of ROCr 6.x (hsa_amd_vmem_*) over host memory: reserved address ranges,
// physical allocation handles backed by memfds, and mappings of handles into reservations.
#pragma once

#include "api.h"

#if SIM_HAS_VMEM

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace sim {

struct MemoryPool;
struct Agent;

/// Process-wide virtual-memory state (hsa_amd_vmem_*). A reservation is a PROT_NONE anonymous mapping; a
/// handle is a memfd of the requested size; mapping a handle places the memfd at the reserved address
/// (MAP_FIXED | MAP_SHARED), still inaccessible until hsa_amd_vmem_set_access grants an agent access.
/// Every mapping is registered with the allocation registry, owned by the handle's pool's agent.
class VirtualMemory {
  public:
    static VirtualMemory& instance();

    hsa_status_t reserve(void** va, size_t size, uint64_t address);
    hsa_status_t free(void* va, size_t size);
    hsa_status_t create_handle(MemoryPool* pool, size_t size, hsa_amd_vmem_alloc_handle_t* handle);
    hsa_status_t release_handle(hsa_amd_vmem_alloc_handle_t handle);
    hsa_status_t map(void* va, size_t size, size_t offset, hsa_amd_vmem_alloc_handle_t handle);
    hsa_status_t unmap(void* va, size_t size);
    hsa_status_t set_access(void* va, size_t size, const hsa_amd_memory_access_desc_t* desc, size_t count);
    hsa_status_t get_access(void* va, hsa_access_permission_t* perms, hsa_agent_t agent);
    hsa_status_t properties(hsa_amd_vmem_alloc_handle_t handle, hsa_amd_memory_pool_t* pool,
                            hsa_amd_memory_type_t* type);
    /// The reservation containing `ptr`: its base, size and the user data set on it; false when `ptr` lies
    /// in no reservation (mapped or not).
    bool reservation_containing(const void* ptr, uintptr_t* base, size_t* size, void** user_data);
    /// hsa_amd_pointer_info_set_userdata on a reservation's first byte (the thunk keeps user data per
    /// reservation); false when `ptr` is not the start of a reservation.
    bool set_reservation_user_data(const void* ptr, void* user_data);
    /// Unmaps and frees everything (hsa_shut_down).
    void release_all();

  private:
    struct Handle {
        MemoryPool* pool;
        size_t size;
        int memfd;
    };
    struct Mapping {
        size_t size;
        uint64_t handle;
        std::map<Agent*, hsa_access_permission_t> access;
    };
    struct Reservation {
        size_t size;
        void* user_data = nullptr;
    };
    Reservation* reservation_of(uintptr_t va, size_t size);
    std::mutex mutex_;
    std::map<uintptr_t, Reservation> reservations_;
    std::map<uintptr_t, Mapping> mappings_;
    std::map<uint64_t, Handle> handles_;
    uint64_t next_handle_ = 1;
};

} // namespace sim

#endif
