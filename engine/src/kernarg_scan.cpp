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

bool scan(const unsigned char* bytes, uint32_t size, const AllocationInventory& unrestorable,
          const std::vector<uint32_t>* read_only_offsets) {
    return unrestorable.rlock([&](const AllocationInventory::Map& regions) {
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
            if (word - it->second.address <= it->second.size && !read_only_at(read_only_offsets, offset)) {
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
        return scan(bytes, size, unrestorable, read_only_offsets);
    } catch (...) {
        return true; // the lock failed: decline rather than risk a replay over unrestorable memory
    }
}

} // namespace rs::engine
