// SPDX-License-Identifier: MIT
// Runs one kernel dispatch on the interpreter: sets up each wave's initial state from the kernel
// descriptor and the AQL packet as the hardware and ROCr do (AMDGPUUsage, "Initial Kernel Execution
// State"), runs the work-groups on a pool of host threads, and the waves of a work-group interleaved at
// s_barrier. A kernel that waits at a global wave sync instruction (ds_gws_barrier: a grid barrier) runs
// with every work-group resident at once, its waves interleaved at s_barrier and at the GWS waits.
#pragma once

#include "instruction.h"
#include "program.h"

#include <hsa.h>

#include <functional>
#include <string>

namespace sim::isa {

class GwsState;
class PerfCounters;

/// What a dispatch executed: instructions by unit, VALU lane-operations, waves and work-groups.
struct DispatchStats {
    uint64_t unit_counts[kUnitCount] = {};
    uint64_t valu_lanes = 0;
    uint64_t waves = 0;
    uint64_t work_groups = 0;

    uint64_t instructions() const {
        uint64_t n = 0;
        for (uint64_t c : unit_counts) {
            n += c;
        }
        return n;
    }
};

/// What a dispatch needs besides its kernel.
struct DispatchRequest {
    const hsa_kernel_dispatch_packet_t* packet = nullptr; ///< the packet as the queue read it
    uint64_t queue_address = 0;                           ///< the hsa_queue_t the kernel may read
    uint64_t dispatch_id = 0;
    /// Polled between work-groups and every 65,536 instructions of a wave: true abandons the dispatch.
    std::function<bool()> cancelled;
    /// Host threads for work-groups; 0: as many as the machine has cores (HSA_SIM_ISA_THREADS overrides).
    unsigned threads = 0;
    /// Filled with what the dispatch executed when not null.
    DispatchStats* stats = nullptr;
    /// The queue's global wave sync resources (gws.h), null when it has none: its ds_gws_* instructions
    /// then fail the dispatch.
    GwsState* gws = nullptr;
    /// Compute units of the agent: with 4 SIMDs of 8 waves and 512 VGPRs each and 64 KiB of LDS per
    /// compute unit (gfx90a), they bound how many work-groups of a cooperative dispatch can be resident.
    uint32_t compute_units = 104;
    /// The agent's hardware counters (perf_counters.h), null when it has none: when a profile is running
    /// on them as the dispatch starts, its waves count into them.
    PerfCounters* counters = nullptr;
};

enum class DispatchResult { completed, faulted, cancelled };

/// Runs every work-group of the dispatch. On a fault `error` names the kernel, the program counter,
/// the instruction and the reason; the dispatch stops at the first faulting wave. A kernel whose code
/// reaches ds_gws_barrier or ds_gws_sema_p (Kernel::grid_sync), dispatched with GWS resources, runs with
/// all its work-groups resident: it fails without running when the device could not hold them all at
/// once (as HIP refuses such a cooperative launch), and when every wave left waits at GWS with nothing
/// able to release it (a grid barrier that can never complete).
DispatchResult run_dispatch(const Kernel& kernel, const DispatchRequest& request, std::string& error);

} // namespace sim::isa
