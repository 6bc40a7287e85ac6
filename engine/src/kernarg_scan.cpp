// SPDX-License-Identifier: MIT
#include "kernarg_scan.h"

#include <cstring>

namespace rs::engine {

namespace {
bool scan(const unsigned char* bytes, uint32_t size, const AllocationInventory& unrestorable);
} // namespace

bool kernarg_points_into(const void* kernarg, uint32_t size,
                         const AllocationInventory& unrestorable) noexcept {
    if (!kernarg || size < sizeof(uint64_t)) {
        return false;
    }
    const auto* bytes = static_cast<const unsigned char*>(kernarg);
    try {
        return scan(bytes, size, unrestorable);
    } catch (...) {
        return true; // the lock failed: decline rather than risk a replay over unrestorable memory
    }
}

namespace {

bool scan(const unsigned char* bytes, uint32_t size, const AllocationInventory& unrestorable) {
    return unrestorable.rlock([&](const AllocationInventory::Map& regions) {
        if (regions.empty()) {
            return false;
        }
        for (uint32_t offset = 0; offset + sizeof(uint64_t) <= size; offset += sizeof(uint64_t)) {
            uint64_t word = 0;
            std::memcpy(&word, bytes + offset, sizeof word);
            auto it = regions.upper_bound(static_cast<uintptr_t>(word));
            if (it == regions.begin()) {
                continue;
            }
            --it;
            if (word - it->second.address < it->second.size) {
                return true;
            }
        }
        return false;
    });
}

} // namespace

} // namespace rs::engine
