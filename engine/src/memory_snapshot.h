// SPDX-License-Identifier: MIT
// snap(agent) / restore(): docs/mechanism.md#what-a-snapshot-captures, #failure-handling and #restore.
// One copy per region into the agent's device or host store (hsa_memory_copy, original, un-wrapped), a
// 64-bit hash per chunk, and restores that copy back only the dirty runs; the restore contract (retries,
// every region attempted, failure records) is docs/replay-failures.md#failed-restore, applied per run.
#pragma once

#include "allocation_inventory.h"
#include "chunk_plan.h"
#include "configuration.h"
#include "device_hasher.h"
#include "event_sink.h"
#include "executable_registry.h"
#include "snapshot_store.h"

#include <hsa.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs::engine {

/// One captured region and its copy.
struct SnapshotRegion {
    RegionKind kind = RegionKind::allocation;
    uintptr_t address = 0;
    uint64_t size = 0;
    uint64_t allocation_id = 0; ///< allocation generation; 0 for module variables
    uint64_t executable = 0;    ///< owning executable of a module variable
    std::string name;           ///< symbol name of a module variable
    StoreKind store = StoreKind::host;
    /// The copy as hsa_memory_copy is given it: a device address in the agent's DeviceStore, or the
    /// agent's address of the HostStore block (HostStore::agent_block() + offset, which is what lets the
    /// runtime find the locked range).
    std::byte* copy = nullptr;
    /// The CPU's pointer to a HostStore copy (HostStore::reserve()'s block + offset), which the CPU reads
    /// to hash or compare; nullptr for a DeviceStore copy.
    std::byte* host_view = nullptr;
    /// The region's chunks: DeviceSnapshot::chunks[first_chunk, first_chunk + chunks) (0 chunks when the
    /// snapshot is not hashed: its restores are full).
    uint32_t first_chunk = 0;
    uint32_t chunks = 0;
};

/// What snap() is asked to do (from the Configuration, plus what the caller knows of the agent).
struct SnapshotOptions {
    uint64_t host_budget = 0; ///< bytes the host store may hold for one snapshot; 0 = unlimited
    SnapshotStoreMode store = SnapshotStoreMode::auto_;
    uint64_t device_reserve = 1ull << 30; ///< device bytes left to the application
    RestoreMode restore = RestoreMode::dirty;
    uint64_t chunk_size = kDefaultChunkSize;
    /// Bytes of the agent's watched allocations (DeviceStore::available's estimate on runtimes without
    /// a free-memory query adds them to the tracked bytes the snapshot lists).
    uint64_t watched_bytes = 0;
};

/// The result of snap(): `ok` false means incomplete (replay must be declined), `over_budget` means
/// nothing was copied because the host-placed bytes exceed the host-memory budget.
struct DeviceSnapshot {
    bool ok = true;
    bool over_budget = false;
    uint64_t footprint = 0;    ///< bytes of every region that was to be captured
    uint64_t bytes = 0;        ///< bytes actually copied (host_bytes + device_bytes)
    uint64_t host_bytes = 0;   ///< copied into the host store
    uint64_t device_bytes = 0; ///< copied into the device store
    uint64_t host_planned = 0; ///< bytes placed in the host store (what the host budget is checked against)
    uint64_t hash_ns = 0;      ///< wall time of the snapshot's chunk hashes
    uint64_t generation = 0;
    uint64_t agent = 0; ///< the agent handle
    /// How restores of this snapshot run: `full` when asked, or when the chunk hashes could not be had.
    RestoreMode restore = RestoreMode::full;
    ChunkHashPath hash_path = ChunkHashPath::none;
    bool host_pinned = true;   ///< the host store's block is page-locked (when host_bytes > 0)
    bool device_short = false; ///< store mode `device`, yet some region went to the host store
    std::vector<SnapshotRegion> regions;
    std::vector<SnapshotFailureEvent> failures;
    /// Every region's chunks in region order, and their hashes at snapshot time (dirty restores only).
    std::vector<ChunkSpan> chunks;
    std::vector<uint64_t> hashes;

    /// host, device or mixed (host when nothing was placed).
    SnapshotStore store() const {
        if (device_bytes == 0) {
            return SnapshotStore::host;
        }
        return host_bytes == 0 ? SnapshotStore::device : SnapshotStore::mixed;
    }
};

/// Copies per region that restore() makes before it gives the region up: the first and two retries
/// (docs/replay-failures.md#failed-restore).
inline constexpr uint32_t kRestoreAttempts = 3;

/// The other copy path restore() takes for a range that kRestoreAttempts hsa_memory_copy calls could not
/// write (docs/replay-failures.md#failed-restore): one hsa_amd_memory_async_copy (saved original) from the
/// same store copy, waited for at most `wait`, then, when it has not completed, `late_wait` more.
struct RestoreOtherPath {
    /// A CPU agent: the source agent of a copy from the host store (hsa_amd_memory_async_copy names one).
    hsa_agent_t cpu{0};
    /// False when an application copy is held behind the window (it would sit in front of ours in the
    /// copy engine's queue until the release, which waits for this restore): the other path is not tried.
    bool allowed = true;
    std::chrono::milliseconds wait{10000};
    std::chrono::milliseconds late_wait{100000};
};

/// A range the other path wrote after hsa_memory_copy failed kRestoreAttempts times.
struct RecoveredRange {
    uint64_t address = 0;
    uint64_t bytes = 0;
    uint64_t allocation_id = 0; ///< 0 for a module variable
    uint32_t status = 0;        ///< hsa_status_t of the last failed hsa_memory_copy
};

/// What one restore() did.
struct RestoreResult {
    uint32_t regions_restored = 0; ///< regions of which at least one byte was copied back
    uint64_t bytes_restored = 0;   ///< bytes_host + bytes_device
    uint64_t bytes_host = 0;       ///< copied back from the host store (over the host link)
    uint64_t bytes_device = 0;     ///< copied back from the device store (inside the device)
    uint32_t dirty_chunks = 0; ///< chunks found dirty (every chunk of a full restore of a hashed snapshot)
    uint32_t total_chunks = 0; ///< chunks compared (0 when the snapshot is not hashed)
    /// Chunks the fidelity verification found different afterwards and copied back: not in dirty_chunks;
    /// their bytes are in bytes_restored and their regions in regions_restored.
    uint32_t missed_chunks = 0;
    /// Chunks the fidelity verification could not read back (or had no host memory to compare in): not
    /// verified, reported in one restore-not-verified warning.
    uint32_t unverified_chunks = 0;
    uint64_t hash_ns = 0; ///< hashing the current contents
    uint32_t skips = 0;   ///< regions skipped as freed or reallocated (not failures)
    uint32_t retried = 0; ///< regions written back only by a second or third attempt
    /// Some region could not be written back after kRestoreAttempts copies: the dispatch must stop
    /// replaying (no further pass) and the window be released.
    bool failed = false;
    /// One entry per region that could not be restored, as reported through EventSink::restore_failure
    /// (shorter than the events only when the host ran out of memory for the list; `failed` still holds).
    std::vector<RestoreFailureEvent> failures;
    /// Ranges written by the other path (restored: not failures). Reported by the caller in one
    /// restore-recovered warning.
    std::vector<RecoveredRange> recovered;
    /// An asynchronous copy of the other path had not completed after its late wait: it may still write
    /// its range (snapshot bytes) later; its signal is left to the runtime.
    bool copy_still_running = false;
};

/// 1 GiB sanity cap on module variables (docs/mechanism.md#module-scope-variables).
inline constexpr uint64_t kMaxModuleVariableBytes = 1ull << 30;

class MemorySnapshotter {
  public:
    MemorySnapshotter(const AllocationInventory& inventory, const ExecutableRegistry& executables,
                      EventSink& sink)
        : inventory_(inventory), executables_(executables), sink_(sink) {}

    /// Captures every tracked allocation owned by `agent` plus the module-scope variables discovered now
    /// for `agent`. Places each region (docs/mechanism.md#restore): store mode device/auto puts regions in
    /// the device store while their running total fits DeviceStore::available(reserve, tracked +
    /// watched bytes), the rest (all of them with mode host) in the host store; `options.host_budget`
    /// caps the host-placed bytes (over: nothing copied, `over_budget`). One hsa_memory_copy per region.
    /// With restore dirty / dirty-host, splits the regions into chunks and hashes them (device kernel
    /// over the live regions / host math over the copies); when device hashing is unavailable or fails
    /// the snapshot's restores are full, with one device-hash-unavailable warning per agent. A pageable
    /// host store is reported once per agent (pinned-host-store-unavailable). Caller holds
    /// `stores.lock()`. Reports failures to the sink. The generation is the inventory's plus the
    /// executable registry's: it changes whenever a region could have appeared or gone.
    DeviceSnapshot snap(hsa_agent_t agent, uint64_t dispatch_id, const SnapshotOptions& options,
                        AgentStores& stores, DeviceHasher& hasher);

    /// Writes `snapshot` back to the device after pass `pass_index - 1` and before pass `pass_index`;
    /// `pass_index` equal to the number of passes run is the restore after the last pass, before the
    /// application's own dispatch. A full restore (snapshot.restore full) copies every region; a dirty
    /// one hashes the current contents of every chunk (`hasher` / on the host) and copies back the dirty
    /// runs only, from the region's store (hsa_memory_copy, the original entry). Tracked allocations are
    /// re-validated under the inventory read lock together with the hashing and the copies: a freed or
    /// reallocated region is skipped and reported (EventSink::restore_skip). A failed copy (of a region
    /// or a dirty run) is retried, up to kRestoreAttempts copies; one still not written is reported
    /// (EventSink::restore_failure with the run's address and size: it holds the output of pass
    /// `pass_index - 1`) and listed in the result, and the rest is still restored. A failed hash makes
    /// that restore full. With `verify` (REPLAYSCOPE_FIDELITY_CHECK=1) a dirty restore is then checked
    /// against the store copies: each chunk that still differs is reported (EventSink::restore_miss, a
    /// restore-missed-chunk warning) and copied back. With `other` (docs/replay-failures.md#failed-restore),
    /// a range still not written after kRestoreAttempts copies is copied once more by `other`'s path
    /// (hsa_amd_memory_async_copy, HSA 1.2 / ROCr hsa_ext_amd.h; kRestoreAttempts + 1 attempts): written,
    /// it is listed in `recovered` instead of being a failure. The caller holds the stores' lock. Never
    /// throws.
    RestoreResult restore(const DeviceSnapshot& snapshot, uint64_t dispatch_id, uint32_t pass_index,
                          DeviceHasher& hasher, bool verify, const RestoreOtherPath* other = nullptr);

    /// XXH3 of every allocation region's current device contents (fidelity check); 0 for a region that
    /// is no longer the same live allocation or could not be read.
    std::vector<uint64_t> hash_regions(const DeviceSnapshot& snapshot);

  private:
    /// Places the regions and copies them; false when nothing could be placed (failures recorded).
    void place_and_copy(DeviceSnapshot& s, hsa_agent_t agent, uint64_t dispatch_id, const SnapshotOptions& o,
                        AgentStores& stores);
    /// Splits and hashes (snapshot time); leaves s.restore full when hashing cannot be done.
    void hash_snapshot(DeviceSnapshot& s, hsa_agent_t agent, uint64_t dispatch_id, RestoreMode mode,
                       uint64_t chunk_size, DeviceHasher& hasher);
    /// True the first time for (`code`, `agent`): warnings reported once per agent.
    bool first_for_agent(WarningCode code, uint64_t agent);

    const AllocationInventory& inventory_;
    const ExecutableRegistry& executables_;
    EventSink& sink_;
    Synchronized<std::vector<std::pair<uint64_t, uint64_t>>> reported_variables_; ///< (agent, address)
    Synchronized<std::vector<std::pair<uint16_t, uint64_t>>> warned_agents_;      ///< (warning, agent)
};

} // namespace rs::engine
