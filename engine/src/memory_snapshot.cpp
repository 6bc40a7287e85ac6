#include "memory_snapshot.h"

#include "hsa_api.h"

#include <algorithm>
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
        kind != HSA_SYMBOL_KIND_VARIABLE)
        return HSA_STATUS_SUCCESS;
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
            HSA_STATUS_SUCCESS)
            name.clear();
    }
    VariableStatus status = VariableStatus::captured;
    if (address == 0)
        status = VariableStatus::skipped_zero_address;
    else if (size == 0)
        status = VariableStatus::skipped_zero_size;
    else if (size > kMaxModuleVariableBytes)
        status = VariableStatus::skipped_too_large;
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

std::byte* HostArena::reserve(uint64_t bytes) noexcept {
    if (bytes > capacity_ || (capacity_ > (64ull << 20) && bytes < capacity_ / 4)) {
        block_.reset();
        capacity_ = 0;
        // Default-initialised: no zero fill (every byte is overwritten by the device-to-host copy).
        block_.reset(new (std::nothrow) std::byte[bytes == 0 ? 1 : bytes]);
        if (!block_)
            return nullptr;
        capacity_ = bytes;
    }
    return block_.get();
}

DeviceSnapshot MemorySnapshotter::snap(hsa_agent_t agent, uint64_t dispatch_id, uint64_t budget,
                                       HostArena& arena) {
    DeviceSnapshot s;
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
    //    registry read lock is held through the copies so no executable is destroyed under them.
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
                    if (std::find(seen.begin(), seen.end(), key) != seen.end())
                        return false;
                    seen.push_back(key);
                    return true;
                });
                if (first) {
                    e.symbol = scan.names[i];
                    sink_.module_variable(e);
                }
            }
        }
        for (const SnapshotRegion& r : s.regions)
            s.footprint += r.size;
        if (!s.ok)
            return;
        if (budget != 0 && s.footprint > budget) {
            s.over_budget = true;
            return;
        }
        // 3. Copy device -> host, region by region, into the agent's arena; every failure is recorded,
        //    any failure is fatal. A failed host allocation leaves every region without a copy.
        std::byte* block = arena.reserve(s.footprint);
        uint64_t offset = 0;
        for (SnapshotRegion& r : s.regions) {
            if (!block) {
                s.ok = false;
                s.failures.push_back({dispatch_id, r.address, r.size, r.allocation_id,
                                      SnapshotFailureReason::host_allocation});
                continue;
            }
            r.host = block + offset;
            offset += r.size;
            const void* src = reinterpret_cast<const void*>(r.address);
            if (hsa().core.hsa_memory_copy_fn(r.host, src, r.size) != HSA_STATUS_SUCCESS) {
                s.ok = false;
                s.failures.push_back(
                    {dispatch_id, r.address, r.size, r.allocation_id, SnapshotFailureReason::copy_failed});
                continue;
            }
            s.bytes += r.size;
        }
    });
    for (const SnapshotFailureEvent& f : s.failures)
        sink_.snapshot_failure(f);
    return s;
}

RestoreResult MemorySnapshotter::restore(const DeviceSnapshot& snapshot, uint64_t dispatch_id,
                                         uint32_t pass_index) {
    RestoreResult result;
    auto skip = [&](const SnapshotRegion& r, RestoreSkipReason reason) {
        ++result.skips;
        sink_.restore_skip({dispatch_id, r.address, r.size, r.allocation_id, pass_index, reason});
    };
    // Up to kRestoreAttempts copies of one region; a region still not written is reported at once (the
    // event is the session's record of which state it holds) and listed in the result.
    auto copy_back = [&](const SnapshotRegion& r) {
        hsa_status_t status = HSA_STATUS_ERROR;
        for (uint32_t attempt = 1; attempt <= kRestoreAttempts; ++attempt) {
            status = hsa().core.hsa_memory_copy_fn(reinterpret_cast<void*>(r.address), r.host, r.size);
            if (status == HSA_STATUS_SUCCESS) {
                result.retried += attempt > 1 ? 1 : 0;
                ++result.regions_restored;
                result.bytes_restored += r.size;
                return;
            }
        }
        result.failed = true;
        const RestoreFailureEvent e{dispatch_id,
                                    r.address,
                                    r.size,
                                    r.allocation_id,
                                    pass_index,
                                    pass_index == 0 ? 0 : pass_index - 1,
                                    kRestoreAttempts,
                                    static_cast<uint32_t>(status),
                                    r.kind};
        sink_.restore_failure(e);
        try {
            result.failures.push_back(e);
        } catch (const std::bad_alloc&) {
            // The event is reported; only the list is short (`failed` still says so).
        }
    };
    // Every region is attempted, whatever failed before it: a region written back holds the pre-dispatch
    // contents, one that could not be holds the previous pass's output (docs/replay-failures.md).
    for (const SnapshotRegion& r : snapshot.regions) {
        if (r.kind != RegionKind::allocation)
            continue;
        // Lookup and copy under one read lock: a concurrent free waits for the copy to finish.
        const std::optional<RestoreSkipReason> reason =
            inventory_.rlock([&](const AllocationInventory::Map& m) -> std::optional<RestoreSkipReason> {
                auto it = m.find(r.address);
                if (it == m.end())
                    return RestoreSkipReason::freed;
                if (it->second.id != r.allocation_id || it->second.size < r.size)
                    return RestoreSkipReason::reallocated;
                copy_back(r);
                return std::nullopt;
            });
        if (reason)
            skip(r, *reason);
    }
    // Module-scope variables live in their executable: restored directly while it is still registered.
    executables_.rlock([&](const ExecutableRegistry::State& state) {
        for (const SnapshotRegion& r : snapshot.regions) {
            if (r.kind != RegionKind::module_variable)
                continue;
            if (!state.executables.contains(r.executable))
                skip(r, RestoreSkipReason::freed);
            else
                copy_back(r);
        }
    });
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
                if (it == m.end() || it->second.id != r.allocation_id)
                    return false;
            }
            return hsa().core.hsa_memory_copy_fn(scratch.data(), reinterpret_cast<const void*>(r.address),
                                                 r.size) == HSA_STATUS_SUCCESS;
        });
        if (read)
            hashes[i] = XXH3_64bits(scratch.data(), r.size);
    }
    return hashes;
}

} // namespace rs::engine
