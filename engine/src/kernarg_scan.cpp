// SPDX-License-Identifier: MIT
#include "kernarg_scan.h"

#include <algorithm>
#include <cstring>

namespace rs::engine {

namespace {

/// Step between the windows' offsets (bytes): the smallest alignment of a 64-bit field hipcc places in
/// a kernarg segment (a pointer after an int in a packed struct).
constexpr uint32_t kWindowStep = 4;

bool read_only_at(const std::vector<uint32_t>* offsets, uint32_t offset) {
    return offsets && std::binary_search(offsets->begin(), offsets->end(), offset);
}

/// True when a window of the segment (see kernarg_points_into) is inside or at the end of an entry of
/// `inventory` for which `counts(entry)` holds, at an offset not in `read_only_offsets`.
template <typename Counts>
bool scan(const unsigned char* bytes, uint32_t size, const AllocationInventory& inventory,
          const std::vector<uint32_t>* read_only_offsets, Counts&& counts) {
    return inventory.rlock([&](const AllocationInventory::Map& regions) {
        if (regions.empty()) {
            return false;
        }
        // Entries never overlap, so every address they hold or end at lies in [lowest, highest]: most
        // words (sizes, counts, floats, device pointers far away) leave after two compares.
        const uint64_t lowest = regions.begin()->first;
        const TrackedAllocation& last = regions.rbegin()->second;
        const uint64_t highest = last.address + last.size;
        for (uint32_t offset = 0; offset + sizeof(uint64_t) <= size; offset += kWindowStep) {
            uint64_t word = 0;
            std::memcpy(&word, bytes + offset, sizeof word);
            if (word < lowest || word > highest) {
                continue;
            }
            auto it = regions.upper_bound(static_cast<uintptr_t>(word));
            --it; // not begin(): word >= lowest
            // Inside, or one past the end.
            if (word - it->second.address <= it->second.size && counts(it->second) &&
                !read_only_at(read_only_offsets, offset)) {
                return true;
            }
        }
        return false;
    });
}

} // namespace

bool kernarg_points_into(const void* kernarg, uint32_t size, const AllocationInventory& unrestorable,
                         const std::vector<uint32_t>* read_only_offsets) noexcept {
    if (!kernarg || size < sizeof(uint64_t)) {
        return false;
    }
    const auto* bytes = static_cast<const unsigned char*>(kernarg);
    try {
        return scan(bytes, size, unrestorable, read_only_offsets,
                    [](const TrackedAllocation&) { return true; });
    } catch (...) {
        return true; // the lock failed: decline rather than risk a replay over unrestorable memory
    }
}

bool kernarg_points_into_peer(const void* kernarg, uint32_t size, const AllocationInventory& tracked,
                              uint64_t agent, const std::vector<uint32_t>* read_only_offsets) noexcept {
    if (!kernarg || size < sizeof(uint64_t)) {
        return false;
    }
    const auto* bytes = static_cast<const unsigned char*>(kernarg);
    try {
        return scan(bytes, size, tracked, read_only_offsets,
                    [agent](const TrackedAllocation& a) { return a.agent != agent; });
    } catch (...) {
        return true; // the lock failed: decline rather than risk a replay over another agent's memory
    }
}

} // namespace rs::engine
