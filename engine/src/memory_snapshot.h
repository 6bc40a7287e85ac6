// snap(agent) / restore(): docs/mechanism.md#what-a-snapshot-captures, #failure-handling and #restore. A
// plain full host copy per region, one hsa_memory_copy each (original, un-wrapped); the restore contract
// (retries, every region attempted, per-region failure records) is docs/replay-failures.md#failed-restore.
#pragma once

#include "allocation_inventory.h"
#include "event_sink.h"
#include "executable_registry.h"

#include <hsa.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs::engine {

/// One captured region and its host copy.
struct SnapshotRegion {
    RegionKind kind = RegionKind::allocation;
    uintptr_t address = 0;
    uint64_t size = 0;
    uint64_t allocation_id = 0; ///< allocation generation; 0 for module variables
    uint64_t executable = 0;    ///< owning executable of a module variable
    std::string name;           ///< symbol name of a module variable
    std::byte* host = nullptr;  ///< the host copy, inside the agent's HostArena
};

/// The host memory one agent's snapshots are copied into: one block, kept from one window to the next
/// so that a steady replay does no per-region heap allocation and touches no fresh pages (the
/// original design's host buffer per region, laid out contiguously; docs/mechanism.md#snapshot-model). Used
/// under the agent's replay lock only.
class HostArena {
  public:
    /// A block of at least `bytes` (contents undefined), or nullptr when the host allocation fails.
    /// Reallocates when too small, or when more than four times too large (returns memory after a
    /// large snapshot). Invalidates earlier blocks.
    std::byte* reserve(uint64_t bytes) noexcept;
    uint64_t capacity() const { return capacity_; }

  private:
    std::unique_ptr<std::byte[]> block_;
    uint64_t capacity_ = 0;
};

/// The result of snap(): `ok` false means incomplete (replay must be declined), `over_budget` means
/// nothing was copied because the footprint exceeds the host-memory budget.
struct DeviceSnapshot {
    bool ok = true;
    bool over_budget = false;
    uint64_t footprint = 0; ///< bytes of every region that was to be captured
    uint64_t bytes = 0;     ///< bytes actually copied
    uint64_t generation = 0;
    std::vector<SnapshotRegion> regions;
    std::vector<SnapshotFailureEvent> failures;
};

/// Copies per region that restore() makes before it gives the region up: the first and two retries
/// (docs/replay-failures.md#failed-restore).
inline constexpr uint32_t kRestoreAttempts = 3;

/// What one restore() did.
struct RestoreResult {
    uint32_t regions_restored = 0;
    uint64_t bytes_restored = 0;
    uint32_t skips = 0;   ///< regions skipped as freed or reallocated (not failures)
    uint32_t retried = 0; ///< regions written back only by a second or third attempt
    /// Some region could not be written back after kRestoreAttempts copies: the dispatch must stop
    /// replaying (no further pass) and the window be released.
    bool failed = false;
    /// One entry per region that could not be restored, as reported through EventSink::restore_failure
    /// (shorter than the events only when the host ran out of memory for the list; `failed` still holds).
    std::vector<RestoreFailureEvent> failures;
};

/// 1 GiB sanity cap on module variables (docs/mechanism.md#module-scope-variables).
inline constexpr uint64_t kMaxModuleVariableBytes = 1ull << 30;

class MemorySnapshotter {
  public:
    MemorySnapshotter(const AllocationInventory& inventory, const ExecutableRegistry& executables,
                      EventSink& sink)
        : inventory_(inventory), executables_(executables), sink_(sink) {}

    /// Captures every tracked allocation owned by `agent` plus the module-scope variables discovered now
    /// for `agent`, into `arena`. `budget` (0 = none) caps the host bytes. Reports failures to the sink.
    /// The generation is the inventory's plus the executable registry's: it changes whenever a region
    /// could have appeared or gone.
    DeviceSnapshot snap(hsa_agent_t agent, uint64_t dispatch_id, uint64_t budget, HostArena& arena);

    /// Writes every region of `snapshot` back to the device (hsa_memory_copy, the original entry), after
    /// pass `pass_index - 1` and before pass `pass_index`; `pass_index` equal to the number of passes run
    /// is the restore after the last pass, before the application's own dispatch. Tracked allocations are
    /// re-validated under the inventory read lock together with the copy: a freed or reallocated region
    /// is skipped and reported (EventSink::restore_skip). A failed copy is retried, up to
    /// kRestoreAttempts copies; a region still not written is reported (EventSink::restore_failure: it
    /// holds the output of pass `pass_index - 1`) and listed in the result, and the remaining regions are
    /// still restored. Never throws.
    RestoreResult restore(const DeviceSnapshot& snapshot, uint64_t dispatch_id, uint32_t pass_index);

    /// XXH3 of every allocation region's current device contents (fidelity check); 0 for a region that
    /// is no longer the same live allocation or could not be read.
    std::vector<uint64_t> hash_regions(const DeviceSnapshot& snapshot);

  private:
    const AllocationInventory& inventory_;
    const ExecutableRegistry& executables_;
    EventSink& sink_;
    Synchronized<std::vector<std::pair<uint64_t, uint64_t>>> reported_variables_; ///< (agent, address)
};

} // namespace rs::engine
