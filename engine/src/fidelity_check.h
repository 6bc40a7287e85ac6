// SPDX-License-Identifier: MIT
// The fidelity check (REPLAYSCOPE_FIDELITY_CHECK=1): did every pass of a replayed dispatch see the same
// inputs as pass 0? Design in docs/replay-window.md ("Fidelity check").
#pragma once

#include "allocation_inventory.h"
#include "event_sink.h"
#include "memory_snapshot.h"

#include <hsa.h>

#include <cstdint>
#include <string>
#include <vector>

namespace rs::engine {

/// One dispatch's check. After each pass it hashes (XXH3, read-only) two sets of regions and compares
/// them with the hashes taken after pass 0:
///  1. the snapshot's regions (tracked allocations and module variables): restored before every pass,
///     so a difference means the pass computed from different inputs (state the snapshot missed);
///  2. the agent's WATCHED regions, listed when the check starts: memory a kernel can write but the
///     snapshot does not capture — fine-grained device memory (docs/mechanism.md#what-is-tracked) and, with
///     REPLAYSCOPE_TRACK_VMEM=0, vmem mappings. They are never restored, so a kernel that accumulates
///     into them leaves a different image after every pass: the leaked state is named by its region.
/// A region freed (or re-allocated) since the check started hashes as 0 and is skipped from then on.
/// The other half of the check, that a dirty restore wrote back every chunk that differed from the
/// snapshot, runs inside MemorySnapshotter::restore (its `verify` argument; docs/replay-window.md).
class FidelityCheck {
  public:
    FidelityCheck(MemorySnapshotter& snapshotter, const AllocationInventory& watched,
                  const DeviceSnapshot& snapshot, hsa_agent_t agent, uint64_t dispatch_id);

    /// Hashes after pass `pass_index`. Returns the pass's fidelity: 1 when it matched pass 0 (pass 0
    /// itself is the reference: 1), 0 when some region differs. `mismatches` receives one event per
    /// differing region; `names` lists them for the warning text.
    int8_t after_pass(uint32_t pass_index, std::vector<FidelityMismatchEvent>& mismatches,
                      std::string& names);

  private:
    std::vector<uint64_t> hash_watched();

    MemorySnapshotter& snapshotter_;
    const AllocationInventory& watched_inventory_;
    const DeviceSnapshot& snapshot_;
    uint64_t dispatch_id_;
    std::vector<TrackedAllocation> watched_;
    std::vector<uint64_t> reference_, reference_watched_;
};

} // namespace rs::engine
