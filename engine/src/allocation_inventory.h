// SPDX-License-Identifier: MIT
// The inventory of live tracked device allocations (docs/mechanism.md#allocation-tracking),
// behind Synchronized.
#pragma once

#include "synchronized.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace rs::engine {

/// One tracked allocation. `id` is its allocation generation: unique for the process, so an address
/// that is freed and handed out again gets a new id and a snapshot region never matches it.
struct TrackedAllocation {
    uint64_t id = 0;
    uintptr_t address = 0;
    uint64_t size = 0;
    uint64_t agent = 0; ///< owner agent handle (hsa_amd_pointer_info::agentOwner)
    /// False for a region that has no allocation row in the session (a vmem mapping while
    /// REPLAYSCOPE_TRACK_VMEM=0): reports about it carry allocation id 0.
    bool reported = true;
    /// A managed (SVM) range recorded from hsa_amd_svm_attributes_set, not an allocation of the runtime:
    /// merged with the managed ranges it overlaps, dropped when an allocation covers its addresses
    /// (AllocationInventory::add_managed, drop_managed).
    bool managed = false;
    /// Agents other than the owner that the runtime was told may access the allocation
    /// (hsa_amd_agents_allow_access, AllocationInventory::allow), ascending handles; empty for most.
    std::vector<uint64_t> peers{};
};

/// Live tracked allocations keyed by base address. Reads (snapshot listing, restore validation) take
/// the read lock; allocate/free wrappers take the write lock.
class AllocationInventory {
  public:
    using Map = std::map<uintptr_t, TrackedAllocation>;

    /// A fresh allocation id (also used for excluded allocations, so every reported one has an id).
    uint64_t next_id() { return next_id_.fetch_add(1, std::memory_order_relaxed); }
    void add(const TrackedAllocation& a);
    /// Removes the allocation starting at `address`; returns it when it was tracked.
    std::optional<TrackedAllocation> remove(uintptr_t address);
    /// The tracked allocations owned by `agent` and the generation they were listed at (one read lock).
    /// Throws std::bad_alloc (metadata reservation failure).
    std::vector<TrackedAllocation> owned_by(uint64_t agent, uint64_t& generation) const;
    /// Adds the managed range `a` (`a.managed` set by the call), merged with every managed range it
    /// overlaps or touches into one entry (the earliest id is kept), so that entries never overlap and a
    /// lookup by the greatest base at or below an address finds the range holding it. Entries that are
    /// not managed are left alone. Throws std::bad_alloc.
    void add_managed(TrackedAllocation a);
    /// Removes every managed range overlapping `[address, address + size)` (a range ROCclr unmapped
    /// without telling the runtime, now handed out again). Returns how many were removed.
    size_t drop_managed(uintptr_t address, uint64_t size);
    /// Records that `agents` (handles, any order) may access the allocation holding `address`, as
    /// hsa_amd_agents_allow_access granted it (ROCr: the owner always may, another agent only once
    /// granted; HIP 5.2.3 grants every peer device that enabled peer access, for each allocation).
    /// The owner is not recorded. True when `address` is inside an allocation of this inventory and at
    /// least one agent other than its owner is among `agents`. The generation does not change (the
    /// regions are the same). Throws std::bad_alloc.
    bool allow(uintptr_t address, const std::vector<uint64_t>& agents);
    /// The agents other than `agent` recorded as allowed to access any allocation `agent` owns
    /// (ascending, unique; one read lock). Throws std::bad_alloc.
    std::vector<uint64_t> peers_of(uint64_t agent) const;
    /// Forgets every allocation (OnUnload: hsa_shut_down frees them without free calls). Ids go on.
    void clear();
    /// Changes whenever an allocation is added or removed (the inventory generation of a snapshot).
    uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

    /// Runs `fn(const Map&)` under the read lock (restore validates and copies inside it).
    template <typename Fn>
    decltype(auto) rlock(Fn&& fn) const {
        return map_.rlock(std::forward<Fn>(fn));
    }

  private:
    Synchronized<Map> map_;
    std::atomic<uint64_t> next_id_{1};
    std::atomic<uint64_t> generation_{0};
};

} // namespace rs::engine
