// SPDX-License-Identifier: MIT
// The stand-in libamdhip64.so.5 (workloads/hip_stand_in): a library exporting only
// `hipGraphLaunch@hip_4.3`, so tools that intercept HIP graph launches can be tested without HIP.
//
// Setup is passed through `graph_exec` (no extra exported function): the caller builds a
// `StandInGraphExec` naming an HSA queue it created and the kernel dispatches of the "graph", and passes
// its address as the `hipGraphExec_t`. hipGraphLaunch then submits the nodes in order on the calling
// thread, one packet and one doorbell per node, each with its own completion signal, and waits for all
// of them before returning.
#ifndef RS_WORKLOADS_HIP_STAND_IN_GRAPH_EXEC_H
#define RS_WORKLOADS_HIP_STAND_IN_GRAPH_EXEC_H

#include "hsa_session.h"

#include <cstdint>

namespace rs::workloads {

/** Value of StandInGraphExec::magic ("RSGX"); anything else makes hipGraphLaunch fail with 1. */
inline constexpr uint32_t kStandInGraphExecMagic = 0x52534758u;

/** What a `hipGraphExec_t` points to for the stand-in. Owned by the caller; read during the launch only. */
struct StandInGraphExec {
    uint32_t magic = kStandInGraphExecMagic;
    hsa_queue_t* queue = nullptr;          ///< queue the nodes are submitted to
    uint32_t node_count = 0;               ///< number of entries of `nodes`
    const KernelDispatch* nodes = nullptr; ///< kernel dispatches in launch order (completion_signal ignored)
};

} // namespace rs::workloads

/** hipError_t of the stand-in: 0 = hipSuccess, 1 = hipErrorInvalidValue, 719 = hipErrorLaunchFailure. */
extern "C" int hipGraphLaunch(void* graph_exec, void* stream);

#endif // RS_WORKLOADS_HIP_STAND_IN_GRAPH_EXEC_H
