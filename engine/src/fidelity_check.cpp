// SPDX-License-Identifier: MIT
#include "fidelity_check.h"

#include "hsa_api.h"

#include <new>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace rs::engine {

FidelityCheck::FidelityCheck(MemorySnapshotter& snapshotter, const AllocationInventory& watched,
                             const DeviceSnapshot& snapshot, hsa_agent_t agent, uint64_t dispatch_id)
    : snapshotter_(snapshotter), watched_inventory_(watched), snapshot_(snapshot), dispatch_id_(dispatch_id) {
    try {
        uint64_t generation = 0;
        watched_ = watched.owned_by(agent.handle, generation);
    } catch (const std::bad_alloc&) {
        watched_.clear(); // checked with the snapshot's regions only
    }
}

std::vector<uint64_t> FidelityCheck::hash_watched() {
    std::vector<uint64_t> hashes(watched_.size(), 0);
    std::vector<std::byte> scratch;
    for (size_t i = 0; i < watched_.size(); ++i) {
        const TrackedAllocation& w = watched_[i];
        try {
            scratch.resize(w.size);
        } catch (const std::bad_alloc&) {
            continue;
        }
        // Read (never written) under the read lock: a concurrent free waits for the copy.
        const bool read = watched_inventory_.rlock([&](const AllocationInventory::Map& m) {
            auto it = m.find(w.address);
            if (it == m.end() || it->second.id != w.id) {
                return false;
            }
            return hsa().core.hsa_memory_copy_fn(scratch.data(), reinterpret_cast<const void*>(w.address),
                                                 w.size) == HSA_STATUS_SUCCESS;
        });
        if (read) {
            hashes[i] = XXH3_64bits(scratch.data(), w.size);
        }
    }
    return hashes;
}

int8_t FidelityCheck::after_pass(uint32_t pass_index, std::vector<FidelityMismatchEvent>& mismatches,
                                 std::string& names) {
    std::vector<uint64_t> hashes = snapshotter_.hash_regions(snapshot_);
    std::vector<uint64_t> watched = hash_watched();
    if (pass_index == 0) {
        reference_ = std::move(hashes);
        reference_watched_ = std::move(watched);
        return 1;
    }
    auto differs = [&](uint64_t address, uint64_t size, uint64_t allocation_id, const std::string& label) {
        FidelityMismatchEvent m{};
        m.dispatch_id = dispatch_id_;
        m.pass_index = pass_index;
        m.address = address;
        m.size = size;
        m.allocation_id = allocation_id;
        mismatches.push_back(m);
        names += (names.empty() ? "" : ",") + label;
    };
    for (size_t r = 0; r < hashes.size() && r < reference_.size(); ++r) {
        if (hashes[r] == reference_[r] || hashes[r] == 0 || reference_[r] == 0) {
            continue;
        }
        const SnapshotRegion& region = snapshot_.regions[r];
        differs(region.address, region.size, region.allocation_id,
                region.name.empty() ? hex(region.address) : region.name);
    }
    for (size_t r = 0; r < watched.size() && r < reference_watched_.size(); ++r) {
        if (watched[r] == reference_watched_[r] || watched[r] == 0 || reference_watched_[r] == 0) {
            continue;
        }
        const TrackedAllocation& w = watched_[r];
        differs(w.address, w.size, w.reported ? w.id : 0, hex(w.address) + " (not snapshotted)");
    }
    return mismatches.empty() ? 1 : 0;
}

} // namespace rs::engine
