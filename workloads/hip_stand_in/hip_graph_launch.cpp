// SPDX-License-Identifier: MIT
// Stand-in libamdhip64.so.5: hipGraphLaunch@hip_4.3 (see graph_exec.h for the calling convention).
#include "graph_exec.h"

#include <vector>

namespace {

constexpr int kHipSuccess = 0;
constexpr int kHipErrorInvalidValue = 1;
constexpr int kHipErrorLaunchFailure = 719;

} // namespace

/**
 * Launches the "graph" `graph_exec` (a `rs::workloads::StandInGraphExec*`) on its queue: one packet and
 * doorbell per node, then waits for every node. `stream` is ignored. Returns 0 on success, 1 if
 * `graph_exec` is null, has the wrong magic, no queue or no nodes, 719 if an HSA call fails.
 */
extern "C" __attribute__((visibility("default"))) int hipGraphLaunch(void* graph_exec, void* stream) {
    (void)stream;
    const auto* graph = static_cast<const rs::workloads::StandInGraphExec*>(graph_exec);
    if (graph == nullptr || graph->magic != rs::workloads::kStandInGraphExecMagic ||
        graph->queue == nullptr || graph->nodes == nullptr || graph->node_count == 0) {
        return kHipErrorInvalidValue;
    }

    std::vector<hsa_signal_t> signals;
    signals.reserve(graph->node_count);
    int result = kHipSuccess;
    for (uint32_t i = 0; i < graph->node_count; ++i) {
        rs::workloads::KernelDispatch node = graph->nodes[i];
        if (hsa_signal_create(1, 0, nullptr, &node.completion_signal) != HSA_STATUS_SUCCESS) {
            result = kHipErrorLaunchFailure;
            break;
        }
        signals.push_back(node.completion_signal);
        const uint64_t index = rs::workloads::reserve_packets(graph->queue, 1);
        rs::workloads::write_dispatch_packet(graph->queue, index, node);
        rs::workloads::ring_doorbell(graph->queue, index);
    }
    for (hsa_signal_t signal : signals) {
        rs::workloads::wait_for_completion(signal);
        if (hsa_signal_destroy(signal) != HSA_STATUS_SUCCESS) {
            result = kHipErrorLaunchFailure;
        }
    }
    return result;
}
