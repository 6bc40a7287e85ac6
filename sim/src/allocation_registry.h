// SPDX-License-Identifier: MIT
// Every address range the simulated runtime hands out, for hsa_amd_pointer_info and copy classification.
#pragma once

#include <hsa_ext_amd.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace sim {

struct Agent;
struct MemoryPool;

/// One allocation as ROCr's pointer-info map would know it.
struct Allocation {
    enum class Source { pool, locked, code_object, vmem_mapping };
    uintptr_t base = 0;
    size_t size = 0;     ///< bytes requested
    size_t capacity = 0; ///< bytes of the underlying block
    Source source = Source::pool;
    hsa_amd_pointer_type_t type = HSA_EXT_POINTER_TYPE_HSA;
    Agent* owner = nullptr;
    MemoryPool* pool = nullptr; ///< null for locked and code-object memory
    uint32_t global_flags = 0;
    void* user_data = nullptr;
    bool executable = false; ///< allocated with flag 1 << 2
    std::vector<Agent*> accessible;
    /// Insertion order in the registry, from 1 (set by AllocationRegistry::insert): an order of the live
    /// allocations that does not depend on their addresses (HSA_SIM_DISPATCH_DIGEST).
    uint64_t serial = 0;
};

/// Thread-safe map of live allocations keyed by base address.
class AllocationRegistry {
  public:
    void insert(const Allocation& a);
    /// Removes the allocation starting exactly at `base`; returns it, or nullopt when none starts there.
    std::optional<Allocation> erase(uintptr_t base);
    /// The allocation containing `ptr` (interior pointers included), if any.
    std::optional<Allocation> find(const void* ptr) const;
    /// Applies `fn` to the allocation starting at or containing `ptr`; false when there is none.
    template <typename Fn>
    bool update(const void* ptr, Fn&& fn) {
        std::unique_lock lock(mutex_);
        auto* a = locate(reinterpret_cast<uintptr_t>(ptr));
        if (!a) {
            return false;
        }
        fn(*a);
        return true;
    }
    /// Calls `fn` with the live allocations (a const std::map keyed by base address) while holding the
    /// registry's shared lock: no allocation is inserted or erased, so none is freed, until `fn` returns.
    template <typename Fn>
    void inspect(Fn&& fn) const {
        std::shared_lock lock(mutex_);
        fn(std::as_const(by_base_));
    }
    /// Removes and returns everything (hsa_shut_down).
    std::vector<Allocation> drain();

  private:
    Allocation* locate(uintptr_t p);
    const Allocation* locate(uintptr_t p) const;
    mutable std::shared_mutex mutex_;
    std::map<uintptr_t, Allocation> by_base_;
    uint64_t next_serial_ = 1; ///< under mutex_
};

} // namespace sim
