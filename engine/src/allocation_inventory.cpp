// SPDX-License-Identifier: MIT
#include "allocation_inventory.h"

#include <algorithm>

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

void AllocationInventory::add_managed(TrackedAllocation a) {
    a.managed = true;
    map_.wlock([&](Map& m) {
        uintptr_t begin = a.address;
        uintptr_t end = a.address + a.size;
        // The first entry that may overlap or touch [begin, end): the last one starting at or before it.
        auto it = m.upper_bound(begin);
        if (it != m.begin()) {
            --it;
        }
        while (it != m.end() && it->first <= end) {
            const TrackedAllocation& o = it->second;
            if (!o.managed || o.address + o.size < begin) {
                ++it;
                continue;
            }
            begin = std::min(begin, o.address);
            end = std::max<uintptr_t>(end, o.address + o.size);
            a.id = std::min(a.id, o.id);
            it = m.erase(it);
        }
        a.address = begin;
        a.size = end - begin;
        m.insert_or_assign(a.address, a);
        generation_.fetch_add(1, std::memory_order_acq_rel);
    });
}

size_t AllocationInventory::drop_managed(uintptr_t address, uint64_t size) {
    return map_.wlock([&](Map& m) {
        size_t dropped = 0;
        auto it = m.upper_bound(address);
        if (it != m.begin()) {
            --it;
        }
        while (it != m.end() && it->first < address + size) {
            const TrackedAllocation& o = it->second;
            if (o.managed && o.address + o.size > address) {
                it = m.erase(it);
                ++dropped;
            } else {
                ++it;
            }
        }
        if (dropped > 0) {
            generation_.fetch_add(1, std::memory_order_acq_rel);
        }
        return dropped;
    });
}

bool AllocationInventory::allow(uintptr_t address, const std::vector<uint64_t>& agents) {
    return map_.wlock([&](Map& m) {
        auto it = m.upper_bound(address);
        if (it == m.begin()) {
            return false;
        }
        --it;
        TrackedAllocation& a = it->second;
        if (address - a.address >= a.size) {
            return false;
        }
        bool any = false;
        for (uint64_t agent : agents) {
            if (agent == 0 || agent == a.agent) {
                continue;
            }
            any = true;
            auto at = std::lower_bound(a.peers.begin(), a.peers.end(), agent);
            if (at == a.peers.end() || *at != agent) {
                a.peers.insert(at, agent);
            }
        }
        return any;
    });
}

std::vector<uint64_t> AllocationInventory::peers_of(uint64_t agent) const {
    return map_.rlock([&](const Map& m) {
        std::vector<uint64_t> out;
        for (const auto& [address, a] : m) {
            if (a.agent == agent && !a.peers.empty()) {
                out.insert(out.end(), a.peers.begin(), a.peers.end());
            }
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
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
