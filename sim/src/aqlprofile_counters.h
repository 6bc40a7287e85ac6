// SPDX-License-Identifier: MIT
// The simulated gfx90a agent's hardware counter blocks and events as the aqlprofile extension presents
// them: block ids of hsa_ven_amd_aqlprofile.h, counter registers and instances per block as ROCm's
// aqlprofile gfx9 tables give them (instances of the per-compute-unit blocks: one per compute unit),
// and the events the simulator counts, by the select values (counter ids) of ROCm's gfx90a counter
// definitions (rocprofiler-sdk counter_defs.yaml). Sources and meanings: docs/sim-fidelity.md,
// "Hardware counters (aqlprofile)".
#pragma once

#include <hsa.h>
#include <hsa_ven_amd_aqlprofile.h>

#include <cstdint>
#include <string_view>

namespace sim {

namespace isa {
class PerfCounters;
}

/// One counter block.
struct CounterBlock {
    hsa_ven_amd_aqlprofile_block_name_t id;
    const char* name;   ///< as HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID looks it up
    uint32_t counters;  ///< counter registers per instance: events of one instance in one profile
    uint32_t instances; ///< block instances (block_index < instances)
};

/// The block of that id, or nullptr when the simulated agent has none.
const CounterBlock* find_counter_block(uint32_t id);
/// The block of that name ("SQ", "TCC", ...), or nullptr.
const CounterBlock* find_counter_block(std::string_view name);

/// True when `event` names a block the agent has, an instance of it, and a counter the simulator counts.
bool counter_event_valid(const hsa_ven_amd_aqlprofile_event_t& event);

/// The value of a valid `event` in `counters` (0 for an invalid one).
uint64_t read_counter_event(const isa::PerfCounters& counters, const hsa_ven_amd_aqlprofile_event_t& event);

} // namespace sim
