// SPDX-License-Identifier: MIT
// The hardware counters ReplayScope can collect per pass, as rocprofv3 names them, with what the AMD
// aqlprofile interface needs to program them (docs/counters.md lists them and their sources).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace rs::counters {

/// A performance-counter block. The values are aqlprofile's hsa_ven_amd_aqlprofile_block_name_t
/// (hsa_ven_amd_aqlprofile.h, ROCr 5.2.3 and 6.1.2 alike), so that the engine passes them on unchanged
/// (it checks the equality at compile time).
enum class CounterBlock : uint32_t {
    grbm = 3,
    sq = 6,
    tcc = 12,
    tcp = 13,
};

/// One counter of the catalogue.
struct CounterDef {
    std::string_view name;        ///< rocprofv3's spelling: "SQ_WAVES"
    CounterBlock block;           ///< the block whose select register takes `event`
    uint32_t event;               ///< the block-level select value (aqlprofile's counter_id), gfx90a
    uint32_t instances;           ///< block instances on a gfx90a agent (MI210); the engine sums them all
    std::string_view unit;        ///< what one count is: "waves", "instructions", "cycles", "requests"
    std::string_view description; ///< one sentence, in our words
};

/// The gfx90a catalogue. A counter's position in it is its id: on the wire and in the session file's
/// `counters` table (ids are append-only: a new counter goes at the end, none is ever removed or moved).
std::span<const CounterDef> gfx90a_counters() noexcept;

/// The id of the counter named `name` (exact, case-sensitive, as rocprofv3 spells it); nullopt when the
/// catalogue has no such counter.
std::optional<uint32_t> find_counter(std::string_view name) noexcept;

/// The counter with id `id`; nullptr when `id` is beyond the catalogue.
const CounterDef* counter(uint32_t id) noexcept;

/// "SQ", "GRBM", "TCC", "TCP".
std::string_view block_name(CounterBlock block) noexcept;

/// Counters of `block` one profile can program at once on gfx90a (aqlprofile's gfx9 block table: SQ 8,
/// GRBM 2, TCC 4, TCP 4). The engine asks the runtime instead (get_info BLOCK_COUNTERS); replayscope-run
/// plans with these to print the plan before the program starts.
uint32_t documented_slots(CounterBlock block) noexcept;

} // namespace rs::counters
