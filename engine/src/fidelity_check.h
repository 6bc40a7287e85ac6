// SPDX-License-Identifier: MIT
// The fidelity check (REPLAYSCOPE_FIDELITY_CHECK=1): did every pass of a replayed dispatch see the same
// inputs as pass 0? Design in docs/replay-window.md ("Fidelity check").
#pragma once

#include "allocation_inventory.h"
#include "event_sink.h"
#include "memory_snapshot.h"
#include "unrestorable_check.h"

#include <hsa.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rs::engine {

struct Engine;

/// One dispatch's check. After each pass it hashes (XXH3, read-only) two sets of regions and compares
/// them with the hashes taken after pass 0:
///  1. the snapshot's regions (tracked allocations and module variables): restored before every pass,
///     so a difference means the pass computed from different inputs (state the snapshot missed);
///  2. the agent's WATCHED regions, listed when the check starts: memory a kernel can write but the
///     snapshot does not capture — fine-grained device memory (docs/mechanism.md#what-is-tracked) and, with
///     REPLAYSCOPE_TRACK_VMEM=0, vmem mappings. They are never restored, so a kernel that accumulates
///     into them leaves a different image after every pass: the leaked state is named by its region.
/// A region freed (or re-allocated) since the check started hashes as 0 and is skipped from then on.
/// With watch_unrestorable() it also hashes the memory no restore puts back (host, fine-grained, locked and
/// managed ranges of the whole process) before and after pass 0, so that a pass that writes it through a
/// pointer its arguments do not hold is named (UnrestorableCheck).
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

    /// Hashes now, before pass 0, every range of `e.unrestorable` but module variables (the agents'
    /// addresses of locked ranges are the same bytes as their host addresses and are left out), within
    /// `e.config.fidelity_unrestorable_budget` bytes in all; after_pass(0) hashes them again. Call once,
    /// right before pass 0 is submitted. Never throws.
    void watch_unrestorable(const Engine& e) noexcept;
    /// After after_pass(0): the text of the `unrestorable-memory-written` warning naming the ranges pass 0
    /// changed (empty: none changed, or the ranges were not watched).
    const std::string& unrestorable_written() const { return unrestorable_written_; }
    /// After after_pass(0): the text of the `unrestorable-memory-unchecked` warning naming the ranges left
    /// out (over the budget, or not readable) that no earlier window of the process named (empty: none).
    const std::string& unrestorable_unchecked() const { return unrestorable_unchecked_; }

  private:
    std::vector<uint64_t> hash_watched();

    MemorySnapshotter& snapshotter_;
    const AllocationInventory& watched_inventory_;
    const DeviceSnapshot& snapshot_;
    uint64_t dispatch_id_;
    std::vector<TrackedAllocation> watched_;
    std::vector<uint64_t> reference_, reference_watched_;
    std::optional<UnrestorableCheck> unrestorable_;
    uint64_t unrestorable_budget_ = 0;
    std::string unrestorable_written_, unrestorable_unchecked_;

    void finish_unrestorable() noexcept;
};

} // namespace rs::engine
