// SPDX-License-Identifier: MIT
// Turns the application's GPU queues into intercept queues and decides, per AQL packet, whether a
// dispatch is replayed (docs/rocm-behaviour.md#intercept-queues-in-rocr-523).
#pragma once

#include <hsa.h>
#include <hsa_api_trace.h>

#include "queue_gate.h"

#include <cstdint>
#include <vector>

namespace rs::engine {

class AgentContext;

/// One intercepted queue. `batch_end` is touched only from its handler (which the runtime serialises per
/// proxy queue); `gates`, `cu_mask` and `priority` are guarded by the agent's mutex.
struct QueueContext {
    hsa_queue_t* proxy = nullptr;
    AgentContext* agent = nullptr;
    hsa_queue_type32_t type = HSA_QUEUE_TYPE_MULTI;
    /// Multi-packet heuristic: every packet below this index belongs to a batch published together.
    uint64_t batch_end = 0;
    QueueGates gates;
    /// As last set by the application (hsa_amd_queue_cu_set_mask; empty: all CUs) and
    /// hsa_amd_queue_set_priority: the private queue a window's passes run on gets the same.
    std::vector<uint32_t> cu_mask;
    hsa_amd_queue_priority_t priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
};

/// Stores the hsa_queue_create / hsa_queue_destroy wrappers in the live core table and the
/// hsa_amd_queue_cu_set_mask / hsa_amd_queue_set_priority wrappers (which record the queue's attributes
/// for the private queue) in the AMD table (unless already there).
void install_queue_interceptor(CoreApiTable& core, AmdExtTable& amd);
/// The core wrappers only (no CU mask / priority recording: passes then run with the default ones).
void install_queue_interceptor(CoreApiTable& core);

/// Forgets every intercepted queue, destroying the signals proven unreferenced (OnUnload, after the
/// agents' workers stopped; hsa_shut_down destroys the queues themselves).
void release_intercepted_queues();

/// Forwards one application packet with ONE writer call: [gate of the window the agent is gating for,
/// when this queue has none yet][packet][marker when `writing`] (marker = barrier-AND, barrier bit,
/// completion = the queue's in-flight signal), or [packet] alone once no replay window can open any more
/// (dispatch count reached, none open). The gate keeps the packet from launching inside the window; the
/// marker is what lets a window know the queue has drained, and its barrier bit serialises the queue
/// (docs/replay-window.md). Never waits; never throws.
void forward_packet(QueueContext& q, const void* packet, hsa_amd_queue_intercept_packet_writer writer,
                    bool writing) noexcept;

} // namespace rs::engine
