// SPDX-License-Identifier: MIT
// The replay window of one dispatch P, run by its agent's worker thread (docs/replay-window.md).
#pragma once

#include "event_sink.h"
#include "queue_gate.h"

#include <hsa.h>
#include <hsa_ven_amd_aqlprofile.h>

#include <array>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace rs::engine {

struct Engine;
class AgentContext;
class CounterCollection;
struct DeviceSnapshot;
struct RestoreResult;

/// Releases `gate` (the window object of a PeerGate) on `agent`: under the agent's mutex, stops the agent
/// gating for it, marks it released and stores 0 to its release signal, so every packet and copy held
/// behind it may start; destroys the signal at once when no gate record or held copy references it
/// (else QueueGates::prune does once its gates are complete). Any thread that holds no agent mutex.
void release_peer_gate(AgentContext& agent, const std::shared_ptr<Window>& gate) noexcept;

/// Runs window W after its fence fired (every earlier packet of P's queue Q completed):
///  1. Drain: waits until every intercepted queue of the agent has completed the writing packets not
///     behind an unreleased gate, and enters *gating W* under the agent mutex in the same check (phase 1,
///     at most half of REPLAYSCOPE_DRAIN_TIMEOUT_MS); then gates anyway and waits for the drain until the
///     deadline (phase 2). Miss: drain-timeout (the wait in the warning's text). Its wall time is the
///     window's fence wait, sent with the snapshot (SnapshotEvent::fence_wait_ns).
///  2. Snapshot; over budget or incomplete: declined.
///  3. N passes on the agent's private queue of Q's type, CU mask and priority, each with its own
///     completion signal and profiling ticks; restore before every pass after the first and after the
///     last. A pass missing REPLAYSCOPE_PASS_TIMEOUT_MS ends the passes (pass-timeout) and is waited for
///     in slices until it really completes, the agent still gated; a region that cannot be restored ends
///     them too (restore-failed).
///  4. Reports the dispatch with its final decision, then releases: leaves gating and stores 0 to W's
///     release signal, so P runs once on Q with its own completion signal.
/// Every decline is a release: P then runs once on Q as without the engine.
class ReplayWindow {
  public:
    ReplayWindow(Engine& engine, AgentContext& agent, std::shared_ptr<Window> window)
        : engine_(engine), agent_(agent), window_(std::move(window)) {}

    /// Steps 1-4 (worker thread, agent mutex not held). Never throws.
    void run() noexcept;
    /// W's fence did not fire within REPLAYSCOPE_DRAIN_TIMEOUT_MS of its handler: release, drain-timeout.
    void decline_unfenced() noexcept;
    /// W was still pending when its worker stopped (process exit, hsa_shut_down): warning and decision
    /// `abandoned`, release; at process exit P is then waited for (wait_for_dispatch).
    void decline_abandoned() noexcept;

  private:
    DispatchDecision replay();
    /// Before step 1, only while Engine::peer_access is set: takes Engine::peer_windows (in 10 ms slices,
    /// watching `stopping`) and makes a PeerGate, with a release signal of its own, for every other
    /// agent with a selected context that was granted access to this agent's tracked memory
    /// (AllocationInventory::peers_of), stored in W's `peers`. False, with `decision` set and its warning
    /// sent, when the worker stopped first (abandoned) or a signal could not be made
    /// (signal-unavailable). docs/replay-window.md, "Agents that share memory".
    bool prepare_peers(DispatchDecision& decision);
    /// Takes the mutexes of the agent and of W's peers in ascending handle order into `locks` (whose
    /// capacity must hold them all, so that nothing throws).
    void lock_agents(std::vector<std::unique_lock<std::mutex>>& locks);
    /// Step 1, over the agent and W's peers; false on timeout or stop (some may be gating W: release()
    /// ends it).
    bool drain();
    /// Sends the agent's inventory when the snapshot's generation is not the one last sent for it.
    void report_inventory(const DeviceSnapshot& snapshot) noexcept;
    DispatchDecision run_passes(const DeviceSnapshot& snapshot);
    /// One restore of `snapshot` before pass `pass_index` (or after the last pass: `final_restore`),
    /// reported as a RestoreEvent; its wall time (hashing included) in restored_ns_.
    RestoreResult restore(const DeviceSnapshot& snapshot, uint32_t pass_index, bool final_restore);
    /// Waits in slices until `pass_signal` reaches 0 (a pass that missed its timeout); false when the
    /// worker is stopping or `deadline` passes first.
    bool wait_out(hsa_signal_t pass_signal, Clock::time_point deadline);
    bool stopping();
    /// The START, STOP and READ packets of pass `pass_index`'s counter group into packets[0], [2] and
    /// [3] (the dispatch goes into [1]), with a new `read_signal` (1) as the READ's completion signal.
    /// False, with a counter-read-failed warning and no signal left, when either cannot be made: the pass
    /// then runs without counters.
    bool counter_packets(CounterCollection& counters, uint32_t pass_index,
                         std::array<hsa_ext_amd_aql_pm4_packet_t, 4>& packets,
                         hsa_signal_t& read_signal) noexcept;
    /// After pass `pass_index` completed: waits for its READ (at most REPLAYSCOPE_PASS_TIMEOUT_MS), then
    /// reads the requested counters of its group into `values` and the fidelity counter's count into
    /// `fidelity_value` (the caller sends them after the pass row). False, with a counter-read-failed
    /// warning, when they cannot be read; a READ that does not complete abandons the agent's collection,
    /// its signal left alive for it.
    bool read_counters(CounterCollection& counters, uint32_t pass_index, hsa_signal_t read_signal,
                       std::vector<std::pair<uint32_t, uint64_t>>& values,
                       std::optional<uint64_t>& fidelity_value) noexcept;
    /// Once per process, a stderr line: a region could not be restored before pass `pass_index` (or,
    /// `pass_index` equal to the passes run, before the application's own execution).
    void tell_restore_failure(uint32_t pass_index) noexcept;
    /// Why the worker stops, for the texts of `abandoned` warnings.
    static const char* stop_reason();
    /// At process exit, after the release: waits until P has completed on Q (its marker proved it), at
    /// most REPLAYSCOPE_PASS_TIMEOUT_MS, so that P, started later than without the engine, is not still
    /// starting while the exit handlers that follow tear the process down. Returns at once when Q is no
    /// longer the agent's.
    void wait_for_dispatch() noexcept;
    void release() noexcept;
    /// Queues the dispatch event with its final decision. Called before release(): once released, P may
    /// end the process (a kernel that faults on its own queue, docs/replay-window.md), and the abort flush
    /// sends only what was queued.
    void report(DispatchDecision decision) noexcept;
    /// After release(): the window no longer counts as open (Engine::open_windows).
    void close() noexcept;

    Engine& engine_;
    AgentContext& agent_;
    std::shared_ptr<Window> window_;
    uint64_t restored_ns_ = 0; ///< wall time of the last restore()
    /// Engine::peer_windows, held from before the drain to after the release when W may gate peers.
    std::unique_lock<std::mutex> peer_lock_;
};

} // namespace rs::engine
