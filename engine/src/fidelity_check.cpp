// SPDX-License-Identifier: MIT
#include "fidelity_check.h"

#include "engine.h"
#include "hsa_api.h"

#include <new>
#include <set>
#include <utility>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace rs::engine {

namespace {

/// Ranges at most this many of which a warning names (the rest are counted).
constexpr size_t kNamedRanges = 4;

bool owned_by_gpu(uint64_t agent) {
    return agent != 0 && device_type({agent}) == HSA_DEVICE_TYPE_GPU;
}

/// Ranges (address, allocation id or size of a managed range) an `unrestorable-memory-unchecked` warning
/// already named in this process: each is named once. Never destroyed (workers may still run while the
/// engine's statics are torn down).
Synchronized<std::set<std::pair<uintptr_t, uint64_t>>>& told_unchecked() {
    static auto* told = new Synchronized<std::set<std::pair<uintptr_t, uint64_t>>>;
    return *told;
}

/// "a, b, c and N more" of the first kNamedRanges.
template <typename T, typename Describe>
std::string list(const std::vector<T>& items, Describe&& describe_item) {
    std::string text;
    for (size_t k = 0; k < items.size() && k < kNamedRanges; ++k) {
        text += (k ? ", " : "") + describe_item(items[k]);
    }
    if (items.size() > kNamedRanges) {
        text += " and " + std::to_string(items.size() - kNamedRanges) + " more";
    }
    return text;
}

} // namespace

void FidelityCheck::watch_unrestorable(const Engine& e) noexcept {
    try {
        std::vector<uintptr_t> aliases, locked;
        e.locked.rlock([&](const std::map<uintptr_t, Engine::LockedRange>& m) {
            for (const auto& [address, range] : m) {
                locked.push_back(address);
                if (range.agent_address != 0 && range.agent_address != address) {
                    aliases.push_back(range.agent_address);
                }
            }
        });
        unrestorable_budget_ = e.config.fidelity_unrestorable_budget;
        unrestorable_.emplace(e.unrestorable, aliases, locked, unrestorable_budget_, owned_by_gpu);
    } catch (...) {
        unrestorable_.reset(); // not watched (no host memory for the listing, or a lock failed)
    }
}

void FidelityCheck::finish_unrestorable() noexcept {
    if (!unrestorable_) {
        return;
    }
    try {
        const std::vector<UnrestorableRange> changed = unrestorable_->changed();
        if (!changed.empty()) {
            // Ranges first: a warning's text is cut at 400 bytes.
            unrestorable_written_ =
                "unrestorable-memory-written: pass 0 changed " + std::to_string(changed.size()) +
                " range(s) no restore puts back: " +
                list(changed, [](const UnrestorableRange& r) { return describe(r); }) +
                "; the kernel may write them through a pointer not in its arguments (then every pass and "
                "the dispatch's own run write them again), or a host thread or another agent did meanwhile";
        }
        std::vector<UnrestorableRange> over_budget, unreadable;
        told_unchecked().wlock([&](std::set<std::pair<uintptr_t, uint64_t>>& told) {
            for (const UnrestorableCheck::Unchecked& u : unrestorable_->unchecked()) {
                const uint64_t key = u.range.kind == UnrestorableKind::managed ? u.range.size : u.range.id;
                if (told.insert({u.range.address, key}).second) {
                    (u.over_budget ? over_budget : unreadable).push_back(u.range);
                }
            }
        });
        if (!over_budget.empty() || !unreadable.empty()) {
            const auto describe_range = [](const UnrestorableRange& r) { return describe(r); };
            unrestorable_unchecked_ = "unrestorable-memory-unchecked: not hashed by the fidelity check, so a "
                                      "pass writing them goes unnoticed (each named once per process): ";
            if (!over_budget.empty()) {
                unrestorable_unchecked_ +=
                    "over REPLAYSCOPE_FIDELITY_UNRESTORABLE_BUDGET=" + std::to_string(unrestorable_budget_) +
                    " bytes per window: " + list(over_budget, describe_range);
            }
            if (!unreadable.empty()) {
                unrestorable_unchecked_ += std::string(over_budget.empty() ? "" : "; ") +
                                           "not readable: " + list(unreadable, describe_range);
            }
        }
    } catch (...) {
        // no host memory for the texts, or a lock failed: nothing more is said about these ranges
    }
    unrestorable_.reset();
}

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
    if (pass_index == 0) {
        finish_unrestorable(); // first: the memory as pass 0 left it, before the device copies below
    }
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
