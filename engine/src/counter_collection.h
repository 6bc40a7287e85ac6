// SPDX-License-Identifier: MIT
// Hardware counters per pass through ROCm's aqlprofile interface (docs/counters.md): one agent's
// profiles, one per counter group, and the vendor-specific AQL packets that start, stop and read them
// around a pass's dispatch on the private queue.
#pragma once

#include "event_sink.h"
#include "hsa_api.h"

#include <replayscope/counters/counter_plan.h>

#include <hsa.h>
#include <hsa_ven_amd_aqlprofile.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rs::engine {

struct Configuration;

/// OnLoad, after the originals are saved: fills hsa().aqlprofile through the saved
/// hsa_system_get_major_extension_table (HSA_EXTENSION_AMD_AQLPROFILE, version 1, the 1.00 table), the one
/// way ROCr offers a tool; hsa().has_aqlprofile false when the runtime refuses it.
void load_aqlprofile_extension();

/// OnLoad, after session_start: when counters were requested (REPLAYSCOPE_PMC) and the runtime has no
/// aqlprofile extension, one `counters-unavailable` warning (dispatch 0): the passes are timed only.
void report_counter_extension(const Configuration& config, EventSink& sink);

/// One agent's counter collection. Owned by its AgentContext and used by the agent's worker thread only
/// (prepare, the packets, read): its profiles' command and output buffers are read and written by that
/// thread and by the packets it submits, never by another thread (docs/replay-window.md).
class CounterCollection {
  public:
    CounterCollection() = default;
    ~CounterCollection() = default;
    CounterCollection(const CounterCollection&) = delete;
    CounterCollection& operator=(const CounterCollection&) = delete;

    /// First window of the agent (later calls return at once): an agent whose name is not gfx90a's
    /// collects nothing (the catalogue's select values are gfx90a's; a warning says so). Validates every
    /// requested counter's events on `gpu` (validate_event, one event per block instance the runtime
    /// lists with get_info BLOCK_ID), plans the groups with the registers get_info BLOCK_COUNTERS reports
    /// per block (one SQ register kept with --fidelity-check), and allocates each group's command and
    /// output buffers (sizes from get_info COMMAND_BUFFER_SIZE / PMC_DATA_SIZE) in a kernarg, else
    /// fine-grained, pool of `cpu`, made accessible to `gpu`. With --fidelity-check every group also counts
    /// counters::kFidelityCounter in that register, and one more group counts it alone for the passes after
    /// the last requested group, so that every pass counts it (requested counters or not). Problems are
    /// `counters-unavailable` warnings naming `dispatch_id`: a counter the agent refuses is left out, an
    /// agent that cannot profile collects nothing. Nothing requested nor checked, or no extension: nothing
    /// happens (OnLoad said so).
    void prepare(const Configuration& config, EventSink& sink, hsa_agent_t gpu, hsa_agent_t cpu,
                 uint64_t dispatch_id) noexcept;
    /// Requested groups planned (0: no requested counter on this agent). A window runs
    /// max(passes, groups()) passes.
    uint32_t groups() const { return usable() ? requested_groups_ : 0; }
    /// Pass `pass` counts something: its requested group, or the fidelity counter alone.
    bool collects(uint32_t pass) const { return group_of(pass).has_value(); }
    /// The catalogue id of the counter compared between passes (--fidelity-check), while it is collected.
    std::optional<uint32_t> fidelity_counter() const {
        return usable() ? fidelity_counter_ : std::optional<uint32_t>();
    }
    /// "SQ_WAVES GRBM_COUNT + SQ_INSTS_VALU (fidelity check)": what pass `pass` counts.
    std::string group_text(uint32_t pass) const;

    /// The START, STOP and READ packets of pass `pass` (collects(pass)), made by aqlprofile into their
    /// pm4_command; headers vendor-specific with the barrier bit and system-scope fences; the READ's
    /// completion signal is `read_signal`. The group's output buffer is zeroed first. False (a
    /// `counter-read-failed` warning is the caller's) when aqlprofile refuses one.
    bool make_packets(uint32_t pass, hsa_signal_t read_signal, hsa_ext_amd_aql_pm4_packet_t& start,
                      hsa_ext_amd_aql_pm4_packet_t& stop, hsa_ext_amd_aql_pm4_packet_t& read) noexcept;
    /// After the READ packet of pass `pass` completed: the value of every requested counter of its group
    /// (catalogue id, sum over its block instances and samples as iterate_data lists them), in group
    /// order, and `fidelity_value` the fidelity counter's (unset when it is not collected). False when
    /// iterate_data fails.
    bool read(uint32_t pass, std::vector<std::pair<uint32_t, uint64_t>>& values,
              std::optional<uint64_t>& fidelity_value) noexcept;
    /// A START/STOP/READ may still run on the GPU (a pass that timed out or failed): the buffers are
    /// never reused nor freed, no counter is collected any more on this agent.
    void abandon() noexcept { abandoned_ = true; }
    /// OnUnload (worker stopped): frees the buffers through the saved pool free, unless abandoned.
    void release() noexcept;

  private:
    struct Group {
        std::vector<uint32_t> counters;                     ///< catalogue ids requested (reported)
        std::vector<hsa_ven_amd_aqlprofile_event_t> events; ///< every instance of every counter
        hsa_ven_amd_aqlprofile_profile_t profile{};
        void* command = nullptr;
        void* output = nullptr;
    };
    bool usable() const { return prepared_ && !abandoned_; }
    /// Index into groups_ of what pass `pass` counts.
    std::optional<size_t> group_of(uint32_t pass) const;
    bool allocate(hsa_agent_t gpu, hsa_agent_t cpu, Group& group, std::string& problem) noexcept;

    bool prepared_ = false;
    bool abandoned_ = false;
    std::vector<Group> groups_; ///< the requested groups, then the fidelity counter's own group
    uint32_t requested_groups_ = 0;
    std::optional<uint32_t> fidelity_counter_;
};

} // namespace rs::engine
