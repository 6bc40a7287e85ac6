// SPDX-License-Identifier: MIT
// Requested counters into groups, one group per pass: each group fits every block's counter slots
// (docs/counters.md, "Groups and passes").
#pragma once

#include "catalogue.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rs::counters {

/// The counter --fidelity-check collects in every pass, in the SQ slot plan_groups keeps free, and whose
/// values the engine compares pass by pass (docs/replay-window.md, "The counter check"): VALU instructions
/// are counted per wave for every one issued, so a pass that takes another path or loop count through the
/// kernel's vector code counts differently.
inline constexpr std::string_view kFidelityCounter = "SQ_INSTS_VALU";

/// What the user asked for: one list of names per request line (a `pmc:` line of an input file, or the
/// names of --pmc). Lines are never merged: counters of two lines never share a pass, as rocprofv3
/// collects each line in a run of its own.
using CounterRequest = std::vector<std::vector<std::string>>;

/// One pass's counters (catalogue ids, in request order).
struct CounterGroup {
    std::vector<uint32_t> counters;
};

/// The plan, or why there is none.
struct CounterPlan {
    std::vector<CounterGroup> groups; ///< empty when nothing was requested (or on error)
    std::string error;                ///< non-empty: no plan (an unknown name, a block without slots)
};

/// Counters of a block one profile can program (the engine: get_info BLOCK_COUNTERS on the agent; the
/// runner: documented_slots).
using SlotQuery = std::function<uint32_t(CounterBlock)>;

/// Packs `request` into groups: line by line, each counter into the first group of its line whose count
/// for the counter's block is below `slots(block)` (less one for SQ when `reserve_sq_slot`: the fidelity
/// check keeps one SQ counter free), else into a new group of that line. A name requested twice is
/// collected once, where it first appears. An unknown name or a block with no slot is an error naming
/// it; the plan is then empty.
CounterPlan plan_groups(const CounterRequest& request, const SlotQuery& slots, bool reserve_sq_slot);

/// "SQ_WAVES GRBM_COUNT" (names of a group, space-separated).
std::string group_text(const CounterGroup& group);

/// "2 groups -> 2 passes: pass 0: SQ_WAVES GRBM_COUNT; pass 1: TCC_REQ" for `groups` and the configured
/// passes (the passes of a window are the larger of the two).
std::string plan_text(const std::vector<CounterGroup>& groups, uint32_t configured_passes);

/// The request as REPLAYSCOPE_PMC carries it: lines separated by ';', names by ','.
std::string encode_request(const CounterRequest& request);
/// The reverse of encode_request (empty names and lines are dropped).
CounterRequest decode_request(std::string_view text);

} // namespace rs::counters
