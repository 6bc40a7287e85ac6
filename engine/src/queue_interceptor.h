// Turns the application's GPU queues into intercept queues and decides, per AQL packet, whether a
// dispatch is replayed (docs/rocm-behaviour.md#intercept-queues-in-rocr-523).
#pragma once

#include <hsa.h>
#include <hsa_api_trace.h>

#include <cstdint>
#include <vector>

namespace rs::engine {

class AgentContext;

/// One intercepted queue. Touched only from its handler (which the runtime serialises per proxy queue).
struct QueueContext {
    hsa_queue_t* proxy = nullptr;
    AgentContext* agent = nullptr;
    /// Multi-packet heuristic: every packet below this index belongs to a batch published together.
    uint64_t batch_end = 0;
    /// fence/done signals of earlier windows, destroyed once a later window's fence has fired (which
    /// proves every barrier referencing them completed).
    std::vector<hsa_signal_t> retired;
};

/// Stores the hsa_queue_create / hsa_queue_destroy wrappers in the live table (unless already there).
void install_queue_interceptor(CoreApiTable& core);

/// Forgets every intercepted queue, destroying the window signals they still hold (OnUnload, while the
/// runtime is up: hsa_shut_down destroys the queues themselves).
void release_intercepted_queues();

/// Forwards one application packet with ONE writer call: [packet, marker] (marker = barrier-AND, barrier
/// bit, completion = the agent's in-flight signal), or [packet] alone once no replay window can open any
/// more (dispatch count reached, none open): the marker is what lets a window know the agent's other
/// queues are idle, and its barrier bit serialises the queue (docs/replay-window.md).
void forward_packet(QueueContext& q, const void* packet, hsa_amd_queue_intercept_packet_writer writer);

} // namespace rs::engine
