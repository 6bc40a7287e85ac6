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

/// Windows that are only the end of an entry, to be checked against another inventory after the scan's
/// lock is released (never two inventory locks at once). Fixed room: more than kMaxEnds counts as a hit.
constexpr size_t kMaxEnds = 8;
struct EndWords {
    uint64_t words[kMaxEnds] = {};
    size_t count = 0;
};

/// True when a window of the segment (see kernarg_points_into) is inside an entry of `inventory` for
/// which `counts(entry)` holds, at an offset not in `read_only_offsets`. A window equal to such an
/// entry's end is a hit when `ends` is null, else it is recorded in `ends` (a hit when they are full).
template <typename Counts>
bool scan(const unsigned char* bytes, uint32_t size, const AllocationInventory& inventory,
          const std::vector<uint32_t>* read_only_offsets, Counts&& counts, EndWords* ends = nullptr) {
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
            const uint64_t into = word - it->second.address;
            if (into <= it->second.size && counts(it->second) && !read_only_at(read_only_offsets, offset)) {
                if (into < it->second.size || !ends) {
                    return true;
                }
                if (ends->count == kMaxEnds) {
                    return true;
                }
                ends->words[ends->count++] = word;
            }
        }
        return false;
    });
}

} // namespace

bool kernarg_points_into(const void* kernarg, uint32_t size, const AllocationInventory& unrestorable,
                         const std::vector<uint32_t>* read_only_offsets,
                         const AllocationInventory* restorable) noexcept {
    if (!kernarg || size < sizeof(uint64_t)) {
        return false;
    }
    const auto* bytes = static_cast<const unsigned char*>(kernarg);
    try {
        EndWords ends;
        if (scan(
                bytes, size, unrestorable, read_only_offsets, [](const TrackedAllocation&) { return true; },
                restorable ? &ends : nullptr)) {
            return true;
        }
        // An end of unrestorable memory that is also the start of (or inside) restorable memory is taken
        // as a pointer to the latter: allocations are often adjacent, and a kernel handed A's end pointer
        // alone rarely exists, while a pointer to B is any kernel's first argument.
        for (size_t i = 0; i < ends.count; ++i) {
            const uint64_t word = ends.words[i];
            const bool elsewhere = restorable->rlock([&](const AllocationInventory::Map& regions) {
                auto it = regions.upper_bound(static_cast<uintptr_t>(word));
                if (it == regions.begin()) {
                    return false;
                }
                --it;
                return word - it->second.address < it->second.size;
            });
            if (!elsewhere) {
                return true;
            }
        }
        return false;
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
