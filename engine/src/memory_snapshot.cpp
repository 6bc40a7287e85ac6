// SPDX-License-Identifier: MIT
#include "memory_snapshot.h"

#include "hsa_api.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <optional>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace rs::engine {

namespace {

struct VariableScan {
    hsa_agent_t agent;
    uint64_t executable;
    std::vector<SnapshotRegion>* regions;
    std::vector<ModuleVariableEvent> reports;
    std::vector<std::string> names; ///< storage for the reports' string_views
};

hsa_status_t collect_variable(hsa_executable_t exe, hsa_agent_t, hsa_executable_symbol_t symbol, void* data) {
    auto* scan = static_cast<VariableScan*>(data);
    const auto& core = hsa().core;
    hsa_symbol_kind_t kind{};
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) !=
            HSA_STATUS_SUCCESS ||
        kind != HSA_SYMBOL_KIND_VARIABLE) {
        return HSA_STATUS_SUCCESS;
    }
    uint64_t address = 0;
    uint32_t size = 0;
    uint32_t length = 0;
    (void)core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                                 &address);
    (void)core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &size);
    std::string name;
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &length) ==
            HSA_STATUS_SUCCESS &&
        length > 0) {
        name.assign(length, '\0');
        if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name.data()) !=
            HSA_STATUS_SUCCESS) {
            name.clear();
        }
    }
    VariableStatus status = VariableStatus::captured;
    if (address == 0) {
        status = VariableStatus::skipped_zero_address;
    } else if (size == 0) {
        status = VariableStatus::skipped_zero_size;
    } else if (size > kMaxModuleVariableBytes) {
        status = VariableStatus::skipped_too_large;
    }
    if (status == VariableStatus::captured) {
        SnapshotRegion r;
        r.kind = RegionKind::module_variable;
        r.address = address;
        r.size = size;
        r.executable = exe.handle;
        r.name = name;
        scan->regions->push_back(std::move(r));
    }
    scan->names.push_back(std::move(name));
    scan->reports.push_back({exe.handle, scan->agent.handle, address, size, {}, status});
    return HSA_STATUS_SUCCESS;
}

} // namespace

namespace {

/// Offsets of region copies inside a store are multiples of this (bytes).
constexpr uint64_t kStoreAlignment = 256;

uint64_t align_up(uint64_t v) {
    return (v + kStoreAlignment - 1) & ~(kStoreAlignment - 1);
}

/// How many missed chunks one restore-missed-chunk warning names before "and N more".
constexpr size_t kMissesNamed = 8;

/// The fidelity verification compares a region in slices of at most this many bytes (8 MiB), so its host
/// scratch is bounded whatever the region's size.
constexpr uint64_t kVerifySlice = 8ull << 20;

} // namespace

bool MemorySnapshotter::first_for_agent(WarningCode code, uint64_t agent) {
    return warned_agents_.wlock([&](auto& seen) {
        const std::pair<uint16_t, uint64_t> key{static_cast<uint16_t>(code), agent};
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
            return false;
        }
        seen.push_back(key);
        return true;
    });
}

void MemorySnapshotter::place_and_copy(DeviceSnapshot& s, hsa_agent_t agent, uint64_t dispatch_id,
                                       const SnapshotOptions& o, AgentStores& stores) {
    // 1. Placement: the device store first (modes auto and device), in region order while the running
    //    total fits what the store may hold; every other region in the host store.
    std::vector<uint64_t> offsets(s.regions.size(), 0);
    uint64_t device_total = 0;
    if (o.store != SnapshotStoreMode::host) {
        uint64_t tracked = o.watched_bytes;
        for (const SnapshotRegion& r : s.regions) {
            if (r.kind == RegionKind::allocation) {
                tracked += r.size;
            }
        }
        const uint64_t room = stores.device().available(o.device_reserve, tracked);
        for (size_t i = 0; i < s.regions.size(); ++i) {
            SnapshotRegion& r = s.regions[i];
            const uint64_t at = align_up(device_total);
            if (at + r.size <= room) {
                r.store = StoreKind::device;
                offsets[i] = at;
                device_total = at + r.size;
            }
        }
    }
    std::byte* device = nullptr;
    if (device_total > 0) {
        device = stores.device().reserve(device_total);
        if (!device) { // the device store could not be had: every region goes to the host store
            for (SnapshotRegion& r : s.regions) {
                r.store = StoreKind::host;
            }
        }
    }
    uint64_t host_total = 0, host_planned = 0;
    for (size_t i = 0; i < s.regions.size(); ++i) {
        SnapshotRegion& r = s.regions[i];
        if (r.store != StoreKind::host) {
            continue;
        }
        offsets[i] = align_up(host_total);
        host_total = offsets[i] + r.size;
        host_planned += r.size;
    }
    s.host_planned = host_planned;
    s.device_short = o.store == SnapshotStoreMode::device && host_planned > 0;
    if (s.device_short && first_for_agent(WarningCode::device_store_short, agent.handle)) {
        size_t host_regions = 0;
        for (const SnapshotRegion& r : s.regions) {
            host_regions += r.store == StoreKind::host ? 1 : 0;
        }
        sink_.warning(WarningCode::device_store_short, dispatch_id,
                      "device-store-short: --snapshot-store device, yet " + std::to_string(host_planned) +
                          " of " + std::to_string(s.footprint) + " snapshot bytes (" +
                          std::to_string(host_regions) + " of " + std::to_string(s.regions.size()) +
                          " regions) went to the host store: the device store could hold " +
                          std::to_string(device ? device_total : 0) + " bytes beyond the reserve of " +
                          std::to_string(o.device_reserve) + " bytes (--device-store-reserve)");
    }
    if (o.host_budget != 0 && host_planned > o.host_budget) {
        s.over_budget = true;
        return;
    }
    std::byte* host = nullptr;
    if (host_total > 0) {
        host = stores.host().reserve(host_total);
        if (host && !stores.host().pinned()) {
            s.host_pinned = false;
            if (first_for_agent(WarningCode::pinned_host_store_unavailable, agent.handle)) {
                sink_.warning(WarningCode::pinned_host_store_unavailable, dispatch_id,
                              "pinned-host-store-unavailable: " + std::string(stores.host().pin_failure()) +
                                  "; this agent's host store is pageable memory, which the runtime pins "
                                  "and unpins on every copy");
            }
        }
    }
    // 2. One copy per region into its store; every failure is recorded, any failure is fatal. A failed
    //    host allocation leaves every host-placed region without a copy.
    for (size_t i = 0; i < s.regions.size(); ++i) {
        SnapshotRegion& r = s.regions[i];
        std::byte* block = r.store == StoreKind::device ? device : host;
        if (!block) {
            s.ok = false;
            s.failures.push_back(
                {dispatch_id, r.address, r.size, r.allocation_id, SnapshotFailureReason::host_allocation});
            continue;
        }
        // The host store's copy is addressed through the block's agent address (the locked fallback's may
        // differ from the CPU's pointer); the CPU reads it through host_view.
        if (r.store == StoreKind::device) {
            r.copy = block + offsets[i];
        } else {
            r.copy = stores.host().agent_block() + offsets[i];
            r.host_view = block + offsets[i];
        }
        const void* src = reinterpret_cast<const void*>(r.address);
        if (hsa().core.hsa_memory_copy_fn(r.copy, src, r.size) != HSA_STATUS_SUCCESS) {
            s.ok = false;
            s.failures.push_back(
                {dispatch_id, r.address, r.size, r.allocation_id, SnapshotFailureReason::copy_failed});
            continue;
        }
        s.bytes += r.size;
        (r.store == StoreKind::device ? s.device_bytes : s.host_bytes) += r.size;
    }
}

void MemorySnapshotter::hash_snapshot(DeviceSnapshot& s, hsa_agent_t agent, uint64_t dispatch_id,
                                      RestoreMode mode, uint64_t chunk_size, DeviceHasher& hasher) {
    auto full = [&](const std::string& why) {
        s.chunks.clear();
        s.hashes.clear();
        for (SnapshotRegion& r : s.regions) {
            r.first_chunk = r.chunks = 0;
        }
        s.restore = RestoreMode::full;
        s.hash_path = ChunkHashPath::none;
        if (!why.empty() && first_for_agent(WarningCode::device_hash_unavailable, agent.handle)) {
            sink_.warning(WarningCode::device_hash_unavailable, dispatch_id,
                          "device-hash-unavailable: " + why +
                              "; restores of this agent write every region back: a full restore moves no "
                              "more bytes over the host link than hashing on the host would read");
        }
    };
    try {
        for (SnapshotRegion& r : s.regions) {
            r.first_chunk = static_cast<uint32_t>(s.chunks.size());
            split_into_chunks(r.address, r.size, chunk_size, s.chunks);
            r.chunks = static_cast<uint32_t>(s.chunks.size() - r.first_chunk);
            if (s.chunks.size() > UINT32_MAX / 2) {
                full("");
                return;
            }
        }
        s.hashes.assign(s.chunks.size(), 0);
    } catch (const std::bad_alloc&) {
        full("");
        return;
    }
    if (mode == RestoreMode::dirty) {
        std::string why;
        if (!hasher.available(why)) {
            full(why.empty() ? std::string("the chunk-hash kernel cannot run on this agent") : why);
            return;
        }
        uint64_t ns = 0;
        if (!hasher.hash(s.chunks.data(), s.chunks.size(), s.hashes.data(), ns)) {
            full("the chunk-hash kernel failed");
            return;
        }
        s.hash_ns = ns;
        s.hash_path = ChunkHashPath::device;
        s.restore = RestoreMode::dirty;
        return;
    }
    // dirty-host: the same math on the host, over the host copy or a read of the device copy.
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<ChunkSpan> copies;
    for (const SnapshotRegion& r : s.regions) {
        for (uint32_t k = 0; k < r.chunks; ++k) {
            const ChunkSpan& c = s.chunks[r.first_chunk + k];
            if (r.store == StoreKind::host) {
                s.hashes[r.first_chunk + k] = hash_host_chunk(r.host_view + (c.address - r.address), c.bytes);
            }
        }
        if (r.store != StoreKind::device || r.chunks == 0) {
            continue;
        }
        copies.clear();
        try {
            for (uint32_t k = 0; k < r.chunks; ++k) {
                const ChunkSpan& c = s.chunks[r.first_chunk + k];
                copies.push_back({reinterpret_cast<uint64_t>(r.copy) + (c.address - r.address), c.bytes});
            }
        } catch (const std::bad_alloc&) {
            full("");
            return;
        }
        uint64_t ns = 0;
        if (!hash_chunks_on_host(copies.data(), copies.size(), s.hashes.data() + r.first_chunk, ns)) {
            full("");
            return;
        }
    }
    s.hash_ns = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    s.hash_path = ChunkHashPath::host;
    s.restore = RestoreMode::dirty_host;
}

DeviceSnapshot MemorySnapshotter::snap(hsa_agent_t agent, uint64_t dispatch_id,
                                       const SnapshotOptions& options, AgentStores& stores,
                                       DeviceHasher& hasher) {
    DeviceSnapshot s;
    s.agent = agent.handle;
    // 1. Tracked allocations owned by the agent (metadata reservation may fail: whole-snapshot condition).
    try {
        for (const TrackedAllocation& a : inventory_.owned_by(agent.handle, s.generation)) {
            SnapshotRegion r;
            r.kind = RegionKind::allocation;
            r.address = a.address;
            r.size = a.size;
            r.allocation_id = a.id;
            s.regions.push_back(std::move(r));
        }
    } catch (const std::bad_alloc&) {
        s.ok = false;
        s.failures.push_back({dispatch_id, 0, 0, 0, SnapshotFailureReason::inventory_reserve});
    }
    // 2. Module-scope variables, discovered now (constant memory may be populated after load). The
    //    registry read lock is held through the copies and the hashing so no executable is destroyed
    //    under them.
    executables_.rlock([&](const ExecutableRegistry::State& state) {
        s.generation += state.generation;
        for (uint64_t exe : state.executables) {
            VariableScan scan{agent, exe, &s.regions, {}, {}};
            hsa_status_t st = HSA_STATUS_SUCCESS;
            try {
                st = hsa().core.hsa_executable_iterate_agent_symbols_fn(hsa_executable_t{exe}, agent,
                                                                        collect_variable, &scan);
            } catch (const std::bad_alloc&) {
                st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
            }
            if (st != HSA_STATUS_SUCCESS) {
                // A variable never discovered is never restored: the snapshot is incomplete.
                s.ok = false;
                s.failures.push_back({dispatch_id, 0, 0, exe, SnapshotFailureReason::symbol_enumeration});
            }
            for (size_t i = 0; i < scan.reports.size(); ++i) {
                ModuleVariableEvent e = scan.reports[i];
                const bool first = reported_variables_.wlock([&](auto& seen) {
                    const std::pair<uint64_t, uint64_t> key{e.agent, e.address};
                    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
                        return false;
                    }
                    seen.push_back(key);
                    return true;
                });
                if (first) {
                    e.symbol = scan.names[i];
                    sink_.module_variable(e);
                }
            }
        }
        for (const SnapshotRegion& r : s.regions) {
            s.footprint += r.size;
        }
        if (!s.ok) {
            return;
        }
        // 3. Placement and copies; 4. the chunk hashes (dirty restores only). Also under the inventory's
        //    read lock, as restore() copies (lock order: the agent's store lock, the registry, the
        //    inventory; docs/replay-window.md, "Snapshot stores"): a concurrent free of a tracked
        //    allocation waits until the copies and the hashing have read it, and one freed or re-used
        //    since the listing above is left out (it is no longer the application's memory).
        inventory_.rlock([&](const AllocationInventory::Map& m) {
            const size_t listed = s.regions.size();
            std::erase_if(s.regions, [&](const SnapshotRegion& r) {
                if (r.kind != RegionKind::allocation) {
                    return false;
                }
                const auto it = m.find(r.address);
                return it == m.end() || it->second.id != r.allocation_id || it->second.size < r.size;
            });
            if (s.regions.size() != listed) {
                s.footprint = 0;
                for (const SnapshotRegion& r : s.regions) {
                    s.footprint += r.size;
                }
            }
            place_and_copy(s, agent, dispatch_id, options, stores);
            if (s.ok && !s.over_budget && options.restore != RestoreMode::full) {
                hash_snapshot(s, agent, dispatch_id, options.restore, options.chunk_size, hasher);
            }
        });
    });
    for (const SnapshotFailureEvent& f : s.failures) {
        sink_.snapshot_failure(f);
    }
    return s;
}

namespace {

/// The other path for [address, address + bytes) of `r` (RestoreOtherPath): one asynchronous copy from
/// the store copy, on the runtime's copy engine rather than hsa_memory_copy's. Returns its issue status,
/// or HSA_STATUS_ERROR when it did not complete within the waits (`still_running` then says that it may
/// still write the range later: its signal is left alive).
hsa_status_t copy_by_other_path(const SnapshotRegion& r, uint64_t address, uint64_t bytes, hsa_agent_t agent,
                                const RestoreOtherPath& other, bool& still_running) {
    const auto& amd = hsa().amd;
    if (!amd.hsa_amd_memory_async_copy_fn) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    const hsa_agent_t src_agent = r.store == StoreKind::device ? agent : other.cpu;
    if (src_agent.handle == 0) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    bool ok = false;
    const hsa_signal_t done = create_signal(1, ok);
    if (!ok) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    const std::byte* src = r.copy + (address - r.address);
    const hsa_status_t st = amd.hsa_amd_memory_async_copy_fn(reinterpret_cast<void*>(address), agent, src,
                                                             src_agent, bytes, 0, nullptr, done);
    if (st != HSA_STATUS_SUCCESS) {
        destroy_signal(done);
        return st;
    }
    if (wait_signal_eq(done, 0, Clock::now() + other.wait) ||
        wait_signal_eq(done, 0, Clock::now() + other.late_wait)) {
        destroy_signal(done);
        return HSA_STATUS_SUCCESS;
    }
    still_running = true; // `done` stays: the copy engine may still decrement it
    return HSA_STATUS_ERROR;
}

} // namespace

RestoreResult MemorySnapshotter::restore(const DeviceSnapshot& snapshot, uint64_t dispatch_id,
                                         uint32_t pass_index, DeviceHasher& hasher, bool verify,
                                         const RestoreOtherPath* other) {
    RestoreResult result;
    const bool dirty = snapshot.restore != RestoreMode::full && !snapshot.chunks.empty();
    auto skip = [&](const SnapshotRegion& r, RestoreSkipReason reason) {
        ++result.skips;
        sink_.restore_skip({dispatch_id, r.address, r.size, r.allocation_id, pass_index, reason});
    };
    // Up to kRestoreAttempts copies of [address, address + bytes) of region `r` from its store; a range
    // still not written is reported at once (the event is the session's record of which state it holds)
    // and listed in the result.
    auto copy_back = [&](const SnapshotRegion& r, uint64_t address, uint64_t bytes) -> bool {
        hsa_status_t status = HSA_STATUS_ERROR;
        const std::byte* src = r.copy + (address - r.address);
        auto restored = [&](uint32_t attempt) {
            result.retried += attempt > 1 ? 1 : 0;
            result.bytes_restored += bytes;
            (r.store == StoreKind::device ? result.bytes_device : result.bytes_host) += bytes;
            return true;
        };
        for (uint32_t attempt = 1; attempt <= kRestoreAttempts; ++attempt) {
            status = hsa().core.hsa_memory_copy_fn(reinterpret_cast<void*>(address), src, bytes);
            if (status == HSA_STATUS_SUCCESS) {
                return restored(attempt);
            }
        }
        uint32_t attempts = kRestoreAttempts;
        // A pageable host store has no agent address an asynchronous copy may read.
        if (other && other->allowed && (r.store == StoreKind::device || snapshot.host_pinned)) {
            ++attempts;
            const hsa_status_t last_copy = status;
            status = copy_by_other_path(r, address, bytes, hsa_agent_t{snapshot.agent}, *other,
                                        result.copy_still_running);
            if (status == HSA_STATUS_SUCCESS) {
                try {
                    result.recovered.push_back(
                        {address, bytes, r.allocation_id, static_cast<uint32_t>(last_copy)});
                } catch (const std::bad_alloc&) {
                    // Restored all the same; only the warning's list is short.
                }
                return restored(attempts);
            }
        }
        result.failed = true;
        const RestoreFailureEvent e{dispatch_id, address,
                                    bytes,       r.allocation_id,
                                    pass_index,  pass_index == 0 ? 0 : pass_index - 1,
                                    attempts,    static_cast<uint32_t>(status),
                                    r.kind};
        sink_.restore_failure(e);
        try {
            result.failures.push_back(e);
        } catch (const std::bad_alloc&) {
            // The event is reported; only the list is short (`failed` still says so).
        }
        return false;
    };
    std::string missed; // the warning's list of missed chunks
    size_t missed_named = 0;
    const SnapshotRegion* last_unverified = nullptr;
    // A chunk the verification found different: reported, named in the warning, copied back; true when
    // the copy-back wrote it.
    auto miss = [&](const SnapshotRegion& r, uint32_t k) -> bool {
        const ChunkSpan& c = snapshot.chunks[r.first_chunk + k];
        ++result.missed_chunks;
        sink_.restore_miss({dispatch_id, c.address, c.bytes, r.allocation_id, pass_index});
        if (missed_named < kMissesNamed) {
            missed += (missed.empty() ? "" : ", ") + (r.name.empty() ? hex(r.address) : r.name) + " chunk " +
                      std::to_string(k) + " (" + hex(c.address) + ", " + std::to_string(c.bytes) + " bytes)";
            ++missed_named;
        }
        return copy_back(r, c.address, c.bytes);
    };
    // Chunks the verification could not read back (or found no host memory to compare in): counted and
    // their regions named in one restore-not-verified warning; the restore itself is complete.
    std::string unverified;
    size_t unverified_named = 0, unverified_regions = 0;
    auto not_verified = [&](const SnapshotRegion& r, uint32_t chunks) {
        if (chunks == 0) {
            return;
        }
        const bool same_region = result.unverified_chunks > 0 && last_unverified == &r;
        result.unverified_chunks += chunks;
        last_unverified = &r;
        unverified_regions += same_region ? 0 : 1;
        if (!same_region && unverified_named < kMissesNamed) {
            unverified += (unverified.empty() ? "" : ", ") + (r.name.empty() ? hex(r.address) : r.name);
            ++unverified_named;
        }
    };
    // Scratch of the verification: kVerifySlice bytes of the live contents and of a device-store copy,
    // allocated once per restore, so a region of any size is compared in bounded slices.
    std::unique_ptr<std::byte[]> live, copy;
    // The fidelity verification of a dirty restore: each chunk of `r` whose contents differ from the
    // store copy is reported and copied back. Compares whole chunks in slices of at most kVerifySlice
    // bytes (a larger chunk piece by piece). True when some chunk was copied back.
    auto verify_region = [&](const SnapshotRegion& r) -> bool {
        if (!live) {
            live.reset(new (std::nothrow) std::byte[kVerifySlice]);
            copy.reset(new (std::nothrow) std::byte[kVerifySlice]);
            if (!live || !copy) {
                live.reset();
                not_verified(r, r.chunks);
                return false;
            }
        }
        // Reads [offset, offset + bytes) of the region (bytes <= kVerifySlice) into `live`, and of a
        // device-store copy into `copy`; `reference` is then the copy's bytes. False when a read failed.
        auto read = [&](uint64_t offset, uint64_t bytes, const std::byte*& reference) {
            if (hsa().core.hsa_memory_copy_fn(live.get(), reinterpret_cast<const void*>(r.address + offset),
                                              bytes) != HSA_STATUS_SUCCESS) {
                return false;
            }
            if (r.store == StoreKind::host) {
                reference = r.host_view + offset;
                return true;
            }
            reference = copy.get();
            return hsa().core.hsa_memory_copy_fn(copy.get(), r.copy + offset, bytes) == HSA_STATUS_SUCCESS;
        };
        bool copied = false;
        for (uint32_t k = 0; k < r.chunks;) {
            const ChunkSpan& first = snapshot.chunks[r.first_chunk + k];
            const uint64_t start = first.address - r.address;
            const std::byte* reference = nullptr;
            if (first.bytes > kVerifySlice) { // one chunk, piece by piece
                bool differs = false, read_failed = false;
                for (uint64_t piece = 0; piece < first.bytes && !differs && !read_failed;
                     piece += kVerifySlice) {
                    const uint64_t n = std::min(kVerifySlice, first.bytes - piece);
                    read_failed = !read(start + piece, n, reference);
                    differs = !read_failed && std::memcmp(live.get(), reference, n) != 0;
                }
                if (read_failed) {
                    not_verified(r, 1);
                } else if (differs) {
                    copied = miss(r, k) || copied;
                }
                ++k;
                continue;
            }
            // The chunks k .. end-1 that fit one slice together.
            uint32_t end = k;
            uint64_t bytes = 0;
            while (end < r.chunks && bytes + snapshot.chunks[r.first_chunk + end].bytes <= kVerifySlice) {
                bytes += snapshot.chunks[r.first_chunk + end++].bytes;
            }
            if (!read(start, bytes, reference)) {
                not_verified(r, end - k);
            } else {
                for (uint32_t j = k; j < end; ++j) {
                    const ChunkSpan& c = snapshot.chunks[r.first_chunk + j];
                    const uint64_t at = c.address - first.address;
                    if (std::memcmp(live.get() + at, reference + at, c.bytes) != 0) {
                        copied = miss(r, j) || copied;
                    }
                }
            }
            k = end;
        }
        return copied;
    };
    // Restores the validated regions of one lock scope: every region (full), or the dirty runs after
    // hashing the current contents of all their chunks in one batch. Every region is attempted, whatever
    // failed before it: a range written back holds the pre-dispatch contents, one that could not be holds
    // the previous pass's output (docs/replay-failures.md).
    std::vector<ChunkSpan> spans;
    std::vector<uint64_t> now;
    std::vector<DirtyRun> runs;
    auto restore_set = [&](const std::vector<const SnapshotRegion*>& set) {
        if (!dirty) {
            for (const SnapshotRegion* r : set) {
                result.total_chunks += r->chunks;
                result.dirty_chunks += r->chunks;
                if (copy_back(*r, r->address, r->size)) {
                    ++result.regions_restored;
                }
            }
            return;
        }
        spans.clear();
        for (const SnapshotRegion* r : set) {
            spans.insert(spans.end(), snapshot.chunks.begin() + r->first_chunk,
                         snapshot.chunks.begin() + r->first_chunk + r->chunks);
        }
        now.assign(spans.size(), 0); // 0: not hashed, so dirty
        uint64_t ns = 0;
        bool hashed = spans.empty();
        if (!spans.empty()) {
            hashed = snapshot.restore == RestoreMode::dirty
                         ? hasher.hash(spans.data(), spans.size(), now.data(), ns)
                         : hash_chunks_on_host(spans.data(), spans.size(), now.data(), ns);
            result.hash_ns += ns;
        }
        if (!hashed) {
            std::fill(now.begin(), now.end(), 0);
            if (first_for_agent(WarningCode::device_hash_unavailable, snapshot.agent)) {
                sink_.warning(WarningCode::device_hash_unavailable, dispatch_id,
                              "device-hash-unavailable: hashing the current contents failed before pass " +
                                  std::to_string(pass_index) +
                                  "; that restore and the following ones write every chunk back");
            }
        }
        size_t offset = 0;
        for (const SnapshotRegion* r : set) {
            runs.clear();
            dirty_runs(snapshot.chunks.data() + r->first_chunk, snapshot.hashes.data() + r->first_chunk,
                       now.data() + offset, r->chunks, runs);
            offset += r->chunks;
            result.total_chunks += r->chunks;
            bool copied = false;
            for (const DirtyRun& run : runs) {
                result.dirty_chunks += run.count;
                copied = copy_back(*r, run.address, run.bytes) || copied;
            }
            // The verification's copy-backs count in the restored bytes and regions (they crossed), and
            // their chunks in missed_chunks, not in dirty_chunks.
            if (verify) {
                copied = verify_region(*r) || copied;
            }
            result.regions_restored += copied ? 1 : 0;
        }
    };
    std::vector<const SnapshotRegion*> set;
    try {
        set.reserve(snapshot.regions.size());
        spans.reserve(snapshot.chunks.size());
        now.reserve(snapshot.chunks.size());
    } catch (const std::bad_alloc&) {
        // push_back below may still throw; caught there.
    }
    auto run_set = [&] {
        try {
            restore_set(set);
        } catch (const std::bad_alloc&) {
            // The host could not hold the chunk lists: restore those regions whole.
            for (const SnapshotRegion* r : set) {
                if (copy_back(*r, r->address, r->size)) {
                    ++result.regions_restored;
                }
            }
        }
    };
    // Adds `r` to the set; a region the host has no memory to list is restored whole at once.
    auto add_to_set = [&](const SnapshotRegion& r) {
        try {
            set.push_back(&r);
        } catch (const std::bad_alloc&) {
            if (copy_back(r, r.address, r.size)) {
                ++result.regions_restored;
            }
        }
    };
    // Tracked allocations: lookup, hashing and copies under one read lock, so a concurrent free waits
    // for the restore to finish and a freed or re-used address is never written.
    inventory_.rlock([&](const AllocationInventory::Map& m) {
        set.clear();
        for (const SnapshotRegion& r : snapshot.regions) {
            if (r.kind != RegionKind::allocation) {
                continue;
            }
            auto it = m.find(r.address);
            if (it == m.end()) {
                skip(r, RestoreSkipReason::freed);
            } else if (it->second.id != r.allocation_id || it->second.size < r.size) {
                skip(r, RestoreSkipReason::reallocated);
            } else {
                add_to_set(r);
            }
        }
        run_set();
    });
    // Module-scope variables live in their executable: restored directly while it is still registered.
    executables_.rlock([&](const ExecutableRegistry::State& state) {
        set.clear();
        for (const SnapshotRegion& r : snapshot.regions) {
            if (r.kind != RegionKind::module_variable) {
                continue;
            }
            if (!state.executables.contains(r.executable)) {
                skip(r, RestoreSkipReason::freed);
            } else {
                add_to_set(r);
            }
        }
        run_set();
    });
    if (result.missed_chunks > 0) {
        sink_.warning(WarningCode::restore_missed_chunk, dispatch_id,
                      "restore-missed-chunk: the dirty restore before pass " + std::to_string(pass_index) +
                          " left " + std::to_string(result.missed_chunks) +
                          " chunk(s) different from the snapshot, copied back afterwards: " + missed +
                          (result.missed_chunks > missed_named
                               ? " and " + std::to_string(result.missed_chunks - missed_named) + " more"
                               : std::string()));
    }
    if (result.unverified_chunks > 0) {
        sink_.warning(
            WarningCode::restore_not_verified, dispatch_id,
            "restore-not-verified: the fidelity check of the dirty restore before pass " +
                std::to_string(pass_index) + " could not read back " +
                std::to_string(result.unverified_chunks) + " chunk(s) of " + unverified +
                (unverified_regions > unverified_named
                     ? " and " + std::to_string(unverified_regions - unverified_named) + " more region(s)"
                     : std::string()) +
                ": those chunks are not verified (the restore itself is complete)");
    }
    return result;
}

std::vector<uint64_t> MemorySnapshotter::hash_regions(const DeviceSnapshot& snapshot) {
    std::vector<uint64_t> hashes(snapshot.regions.size(), 0);
    std::vector<std::byte> scratch;
    for (size_t i = 0; i < snapshot.regions.size(); ++i) {
        const SnapshotRegion& r = snapshot.regions[i];
        try {
            scratch.resize(r.size);
        } catch (const std::bad_alloc&) {
            continue;
        }
        const bool read = inventory_.rlock([&](const AllocationInventory::Map& m) {
            if (r.kind == RegionKind::allocation) {
                auto it = m.find(r.address);
                if (it == m.end() || it->second.id != r.allocation_id) {
                    return false;
                }
            }
            return hsa().core.hsa_memory_copy_fn(scratch.data(), reinterpret_cast<const void*>(r.address),
                                                 r.size) == HSA_STATUS_SUCCESS;
        });
        if (read) {
            hashes[i] = XXH3_64bits(scratch.data(), r.size);
        }
    }
    return hashes;
}

} // namespace rs::engine
