// SPDX-License-Identifier: MIT
#include "allocation_inventory.h"

namespace rs::engine {

void AllocationInventory::add(const TrackedAllocation& a) {
    map_.wlock([&](Map& m) {
        m.insert_or_assign(a.address, a);
        generation_.fetch_add(1, std::memory_order_acq_rel);
    });
}

std::optional<TrackedAllocation> AllocationInventory::remove(uintptr_t address) {
    return map_.wlock([&](Map& m) -> std::optional<TrackedAllocation> {
        auto it = m.find(address);
        if (it == m.end()) {
            return std::nullopt;
        }
        TrackedAllocation a = it->second;
        m.erase(it);
        generation_.fetch_add(1, std::memory_order_acq_rel);
        return a;
    });
}

void AllocationInventory::clear() {
    map_.wlock([&](Map& m) {
        m.clear();
        generation_.fetch_add(1, std::memory_order_acq_rel);
    });
}

std::vector<TrackedAllocation> AllocationInventory::owned_by(uint64_t agent, uint64_t& generation) const {
    return map_.rlock([&](const Map& m) {
        generation = generation_.load(std::memory_order_acquire);
        std::vector<TrackedAllocation> out;
        out.reserve(m.size()); // may throw std::bad_alloc: the caller reports inventory_reserve
        for (const auto& [address, a] : m) {
            if (a.agent == agent) {
                out.push_back(a);
            }
        }
        return out;
    });
}

} // namespace rs::engine
