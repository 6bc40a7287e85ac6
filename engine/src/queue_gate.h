// SPDX-License-Identifier: MIT
// Gates and the per-queue count of writing packets in flight: the bookkeeping that lets a replay window
// know when an agent is drained and keeps every later application packet behind the window's release
// (docs/replay-window.md).
#pragma once

#include "event_sink.h"
#include "hsa_api.h"

#include <hsa.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs::engine {

/// One replay window W for an application dispatch P. Created by the intercept handler that received P,
/// run by the agent's worker (window_worker.h). The fields above the marker are fixed at creation; the
/// ones below are guarded by the agent's mutex (AgentContext::mutex).
struct QueueContext;
class AgentContext;
struct Window;

/// Another agent B gated for a window W of agent A because B may access A's tracked memory: `window` is
/// a window object of B's (`peer_gate` set) that stands for W in B's state (its own release signal;
/// its fields under B's mutex), released by A's worker with W (docs/replay-window.md, "Agents that share
/// memory").
struct PeerGate {
    AgentContext* agent = nullptr;
    std::shared_ptr<Window> window;
};

struct Window {
    uint64_t dispatch_id = 0;
    hsa_kernel_dispatch_packet_t packet{}; ///< P as the application wrote it
    std::string kernel;
    uint64_t queue_id = 0; ///< hsa_queue_t::id of P's queue Q
    hsa_queue_type32_t queue_type = HSA_QUEUE_TYPE_MULTI;
    std::vector<uint32_t> cu_mask; ///< Q's CU mask as last set by the application; empty: all CUs
    hsa_amd_queue_priority_t priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
    /// Completed by the barrier-AND written in front of the gate: every earlier packet of Q is done.
    hsa_signal_t fence{0};
    /// 1 until the worker releases W (stores 0); every gate of W and every held copy depends on it.
    hsa_signal_t release{0};
    Clock::time_point submitted{}; ///< when the handler wrote W's packets
    /// Q's context (read under the agent mutex, and only while Q is among the agent's queues).
    QueueContext* queue = nullptr;
    /// P's position among Q's counted packets: P has completed once more than this many have.
    uint64_t dispatch_position = 0;
    /// The other agents W gates, ascending agent handles. Set by W's worker before its drain and never
    /// changed afterwards; empty unless Engine::peer_access was set when the window started.
    std::vector<PeerGate> peers;
    /// True for the window object of a PeerGate: it gates its agent for another agent's window, and only
    /// that window's worker releases it.
    bool peer_gate = false;
    /// The agent whose worker releases W (for a peer gate, the agent of the window it stands for). Fixed
    /// at creation. A drain honours a hold of W only when it runs on that worker: any other worker's window
    /// may be released while the drain's window is open.
    const AgentContext* owner = nullptr;

    // --- under the agent mutex ---
    /// Written under the agent mutex; atomic because a hold of this window in another agent's queue
    /// (held_signals.h) is read under that agent's mutex.
    std::atomic<bool> released{false};
    /// Gate records of W still in some queue's list (not yet proven complete); holds are not counted
    /// (they do not reference `release`, and may sit in another agent's queue).
    uint32_t gates = 0;
    /// Something the engine cannot watch references `release` (an asynchronous copy made to depend on it,
    /// or a gate written without a record when the record could not be allocated): `release` is then
    /// never destroyed by the engine.
    bool retain_until_unload = false;
};

/// A gate (barrier-AND, barrier bit, dependency = window->release, completion = the queue's in-flight
/// signal) written into a queue, at `position` among the queue's counted packets (0-based). A *hold*
/// (`hold` true) is no packet of the engine's: an application barrier that can complete only after the
/// window's release (held_signals.h), recorded at the position of the next counted packet; nothing of
/// the queue behind it can launch before the release either, so the drain treats it as a gate.
struct GateRecord {
    std::shared_ptr<Window> window;
    uint64_t position = 0;
    bool hold = false;
};

/// Per intercepted queue: how many counted packets (writing packets and gates) were written and how many
/// are still in flight. Guarded by the agent mutex, except `in_flight`'s value, which the packet
/// processor decrements.
///
/// Counted packets complete in queue order: the decrement of a writing packet is made by the marker
/// barrier-AND behind it and that of a gate by the gate itself, both barrier packets, which complete
/// only after every earlier packet of their queue (HSA 1.2 platform spec §2.9.6). So with `v` the
/// signal's value, the first `counted - v` counted packets are complete.
struct QueueGates {
    /// Counted packets written but not completed; incremented by the handler (under the agent mutex)
    /// before its writer call.
    hsa_signal_t in_flight{0};
    uint64_t counted = 0;
    /// In queue order; pruned once proven complete. A vector so that room can be reserved before the
    /// handler's critical section, which then cannot throw.
    std::vector<GateRecord> gates;

    /// True when a gate of `window` (not a hold) is still recorded in this queue (every later packet is
    /// behind it).
    bool has_gate_of(const Window* window) const;

    /// The window of the last gate or hold not yet released, or null. Every packet written now completes
    /// only after it is released; gates of one queue are released in queue order (a window's fence is
    /// behind every earlier gate of its queue, and the agent gates for one window at a time), so it is
    /// released after every earlier one unless a hold breaks that order (docs/replay-window.md).
    std::shared_ptr<Window> last_unreleased() const;

    /// Records a hold of `window` before the next counted packet (nothing is counted, nothing written).
    /// Room must have been reserved in `gates` (then it cannot throw).
    void add_hold(const std::shared_ptr<Window>& window) noexcept;

    /// Records a gate of `window` as the next counted packet (adds 1 to `counted` and to `in_flight`);
    /// the caller writes the packet. Room must have been reserved in `gates` (then it cannot throw).
    void add_gate(const std::shared_ptr<Window>& window) noexcept;

    /// Counts `n` writing packets about to be written (adds to `counted` and to `in_flight`).
    void add_writes(uint64_t n) noexcept;

    /// True when every counted packet written before the first unreleased gate has completed (nothing
    /// of this queue can run on the agent until that gate is released), for a drain run by the worker of
    /// `drainer`: a hold of a window another worker releases is no boundary (it may end at any moment),
    /// so the packets behind it are waited for.
    bool drained(const AgentContext* drainer) const;

    /// Drops the records of gates proven complete; a window left with no gate record, released and
    /// without held copies, has its release signal appended to `unreferenced` (destroy it without the
    /// agent mutex held).
    void prune(std::vector<hsa_signal_t>& unreferenced);

    /// Forgets every record after the queue was destroyed (no gate can be read any more); like prune
    /// for the windows' release signals.
    void drop_all(std::vector<hsa_signal_t>& unreferenced);
};

/// A gate on `release` whose completion decrements `in_flight` (see GateRecord); `in_flight` 0 for a
/// gate written without a record.
hsa_barrier_and_packet_t make_gate(hsa_signal_t release, hsa_signal_t in_flight);

} // namespace rs::engine
