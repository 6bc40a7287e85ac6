// SPDX-License-Identifier: MIT
#include "replay_window.h"

#include "agent_context.h"
#include "counter_check.h"
#include "engine.h"
#include "fidelity_check.h"
#include "hsa_api.h"
#include "memory_snapshot.h"
#include "queue_interceptor.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rs::engine {

namespace {

uint64_t elapsed_ns(Clock::time_point since) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - since).count());
}

/// P with another completion signal and the barrier bit set (the private queue runs it alone).
hsa_kernel_dispatch_packet_t pass_packet(const hsa_kernel_dispatch_packet_t& p, hsa_signal_t completion) {
    hsa_kernel_dispatch_packet_t copy = p;
    copy.header = static_cast<uint16_t>(copy.header | (1u << HSA_PACKET_HEADER_BARRIER));
    copy.completion_signal = completion;
    return copy;
}

/// hsa_status_string of `status` (saved original), else its number.
std::string status_text(uint32_t status) {
    const char* text = nullptr;
    if (hsa().core.hsa_status_string_fn &&
        hsa().core.hsa_status_string_fn(static_cast<hsa_status_t>(status), &text) == HSA_STATUS_SUCCESS &&
        text) {
        return text;
    }
    return "status " + hex(status);
}

/// How often the wait for a pass looks at its private queue's error state.
constexpr auto kPassErrorSlice = std::chrono::milliseconds(10);

/// Once per process: a region the application's own dispatch reads in a state other than its inputs.
std::atomic<bool> g_told_restore_failure{false};

/// How long one private-queue submission may wait for room in the ring.
constexpr auto kSubmitBound = std::chrono::milliseconds(1000);
/// How many more REPLAYSCOPE_PASS_TIMEOUT_MS a pass that missed its timeout is waited for before the
/// window is released with it still running.
constexpr int kLatePassBound = 10;

} // namespace

bool ReplayWindow::stopping() {
    std::lock_guard lock(agent_.mutex());
    return agent_.state().stopping;
}

const char* ReplayWindow::stop_reason() {
    return g_exiting.load(std::memory_order_acquire) ? "the process is exiting"
                                                     : "the runtime is shutting down (hsa_shut_down)";
}

void ReplayWindow::wait_for_dispatch() noexcept {
    // One deadline for every window of the exit, counted from its start: the windows' dispatches run
    // at the same time on their queues, so a dispatch that never completes holds the exit one pass
    // timeout, not one per window.
    const int64_t exit_started = g_exit_started_ns.load(std::memory_order_acquire);
    const auto deadline =
        (exit_started != 0 ? Clock::time_point(std::chrono::nanoseconds(exit_started)) : Clock::now()) +
        engine_.config.pass_timeout;
    for (;;) {
        {
            std::lock_guard lock(agent_.mutex());
            const std::vector<QueueContext*>& queues = agent_.state().queues;
            QueueContext* q = window_->queue;
            if (!q || std::find(queues.begin(), queues.end(), q) == queues.end()) {
                return;
            }
            const auto v = static_cast<uint64_t>(hsa().core.hsa_signal_load_scacquire_fn(q->gates.in_flight));
            const uint64_t completed = v <= q->gates.counted ? q->gates.counted - v : 0;
            if (completed > window_->dispatch_position) {
                return;
            }
        }
        if (Clock::now() >= deadline) {
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void ReplayWindow::run() noexcept {
    DispatchDecision decision = DispatchDecision::declined_out_of_memory;
    try {
        decision = replay();
    } catch (const std::bad_alloc&) {
        note_internal_error(engine_, "replay window's bookkeeping (the dispatch runs once)",
                            window_->dispatch_id);
    } catch (...) {
        decision = DispatchDecision::declined_internal_error;
        note_internal_error(engine_, "replay window (the dispatch runs once)", window_->dispatch_id);
    }
    report(decision);
    release();
    if (peer_lock_.owns_lock()) {
        peer_lock_.unlock(); // every agent W gated is released: another window may gate them
    }
    if (g_exiting.load(std::memory_order_acquire)) {
        wait_for_dispatch();
    }
    close();
}

void ReplayWindow::decline_abandoned() noexcept {
    engine_.sink->warning(WarningCode::abandoned, window_->dispatch_id,
                          std::string("abandoned: the window had not started when ") + stop_reason() +
                              "; no pass, the dispatch runs once after its queue's earlier packets");
    report(DispatchDecision::declined_abandoned);
    release();
    if (g_exiting.load(std::memory_order_acquire)) {
        wait_for_dispatch();
    }
    close();
}

void ReplayWindow::decline_unfenced() noexcept {
    engine_.sink->warning(WarningCode::drain_timeout, window_->dispatch_id,
                          "drain-timeout: earlier packets of the queue did not complete within "
                          "REPLAYSCOPE_DRAIN_TIMEOUT_MS; the dispatch runs once after them");
    report(DispatchDecision::declined_drain_timeout);
    release();
    close();
}

bool ReplayWindow::prepare_peers(DispatchDecision& decision) {
    if (!engine_.peer_access.load(std::memory_order_acquire)) {
        return true; // no agent was granted another's memory: the window gates its own agent only
    }
    Window& w = *window_;
    // Polled with try_lock in 10 ms slices (not try_lock_for: libstdc++ implements it with
    // pthread_mutex_clocklock, which ThreadSanitizer does not see, so the later unlock looks unpaired).
    peer_lock_ = std::unique_lock<std::mutex>(engine_.peer_windows, std::defer_lock);
    while (!peer_lock_.try_lock()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (stopping()) {
            engine_.sink->warning(WarningCode::abandoned, w.dispatch_id,
                                  std::string("abandoned: ") + stop_reason() +
                                      " while the window waited for another agent's window to end; no "
                                      "snapshot, no pass, the dispatch runs once");
            decision = DispatchDecision::declined_abandoned;
            return false;
        }
    }
    const std::vector<uint64_t> handles = engine_.inventory.peers_of(agent_.agent().handle);
    std::vector<PeerGate> peers;
    peers.reserve(handles.size());
    try {
        for (uint64_t h : handles) {
            AgentContext* c = engine_.agents.find(h);
            if (!c || c == &agent_ || !c->selected()) {
                continue; // no queue of it is intercepted: nothing to gate (docs/replay-window.md)
            }
            auto g = std::make_shared<Window>();
            g->dispatch_id = w.dispatch_id;
            g->peer_gate = true;
            g->owner = &agent_; // released by this worker, with W
            bool ok = false;
            g->release = create_signal(1, ok);
            if (!ok) {
                for (const PeerGate& made : peers) {
                    destroy_signal(made.window->release);
                }
                engine_.sink->warning(WarningCode::signal_unavailable, w.dispatch_id,
                                      "signal-unavailable: could not create the signal that gates agent " +
                                          hex(h) + " for the window; the dispatch runs once unreplayed");
                decision = DispatchDecision::declined_signal_unavailable;
                return false;
            }
            peers.push_back({c, std::move(g)});
        }
    } catch (...) {
        for (const PeerGate& made : peers) {
            destroy_signal(made.window->release);
        }
        throw;
    }
    w.peers = std::move(peers);
    return true;
}

void ReplayWindow::lock_agents(std::vector<std::unique_lock<std::mutex>>& locks) {
    bool own = false;
    for (const PeerGate& g : window_->peers) {
        if (!own && agent_.agent().handle < g.agent->agent().handle) {
            locks.emplace_back(agent_.mutex());
            own = true;
        }
        locks.emplace_back(g.agent->mutex());
    }
    if (!own) {
        locks.emplace_back(agent_.mutex());
    }
}

bool ReplayWindow::drain() {
    const auto start = Clock::now();
    const auto deadline = start + engine_.config.drain_timeout;
    const auto phase1_end = start + engine_.config.drain_timeout / 2;
    auto slice = std::chrono::microseconds(20);
    bool gating = false; // the agent, or some of W's peers, gate for W (phase 2 goes on with the others)
    std::vector<hsa_signal_t> unreferenced;
    const std::vector<PeerGate>& peers = window_->peers;
    std::vector<std::unique_lock<std::mutex>> locks;
    locks.reserve(peers.size() + 1);
    for (;;) {
        bool drained = true;
        bool gated = true; // every agent gates for W
        {
            lock_agents(locks);
            AgentContext::State& st = agent_.state();
            if (st.stopping) {
                return false;
            }
            const auto check = [&](AgentContext::State& s) {
                // A synchronous copy into (or out of) the agent's memory still running: the snapshot
                // would capture it half written (docs/replay-window.md, "Synchronous copies").
                if (s.sync_copies != 0) {
                    drained = false;
                    return;
                }
                for (QueueContext* q : s.queues) {
                    q->gates.prune(unreferenced);
                    if (!q->gates.drained(&agent_)) {
                        drained = false;
                        return;
                    }
                }
            };
            check(st);
            for (size_t i = 0; drained && i < peers.size(); ++i) {
                check(peers[i].agent->state());
            }
            // Copies that began before this window counted as open looked at no agent; none starts
            // unwatched while it is open (engine.h, unwatched_sync_copies).
            drained = drained && engine_.unwatched_sync_copies.load() == 0;
            // Phase 1 ends by gating in the same critical section as a successful check, so no packet
            // can be forwarded ungated in between; phase 2 gates first and then waits for the drain. An
            // agent that gates for another window (one that opened before peer access was recorded) is
            // gated for W once that window's release freed it; until then W is not drained.
            const auto free_for = [](const AgentContext::State& s, const std::shared_ptr<Window>& mine) {
                return !s.gating || s.gating == mine;
            };
            bool all_free = free_for(st, window_);
            for (const PeerGate& g : peers) {
                all_free = all_free && free_for(g.agent->state(), g.window);
            }
            const bool phase2 = Clock::now() >= phase1_end;
            if (gating || phase2 || (drained && all_free)) {
                const auto gate = [&](AgentContext::State& s, const std::shared_ptr<Window>& mine) {
                    if (free_for(s, mine)) {
                        s.gating = mine;
                        gating = true;
                    } else {
                        gated = false;
                    }
                };
                gate(st, window_);
                for (const PeerGate& g : peers) {
                    gate(g.agent->state(), g.window);
                }
            } else {
                gated = false;
            }
        }
        locks.clear();
        for (hsa_signal_t s : unreferenced) {
            destroy_signal(s);
        }
        unreferenced.clear();
        if (drained && gated) {
            return true;
        }
        if (Clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(slice);
        slice = std::min<std::chrono::microseconds>(slice * 2, std::chrono::milliseconds(2));
    }
}

DispatchDecision ReplayWindow::replay() {
    Window& w = *window_;
    DispatchDecision peers_declined = DispatchDecision::replayed;
    if (!prepare_peers(peers_declined)) {
        return peers_declined;
    }
    // The fence wait: two steady-clock reads on this thread around the drain, no lock and no wait of their
    // own (docs/replay-window.md, "Fence wait"). It goes out with the snapshot; a window whose drain timed
    // out takes no snapshot, so its wait is only named in the warning's text.
    const auto drain_start = Clock::now();
    const bool drained = drain();
    const uint64_t fence_wait_ns = elapsed_ns(drain_start);
    if (!drained && stopping()) {
        engine_.sink->warning(WarningCode::abandoned, w.dispatch_id,
                              std::string("abandoned: ") + stop_reason() +
                                  " while the window waited for the agent to drain; no snapshot, no pass, "
                                  "the dispatch runs once");
        return DispatchDecision::declined_abandoned;
    }
    if (!drained) {
        engine_.sink->warning(WarningCode::drain_timeout, w.dispatch_id,
                              "drain-timeout: other queues of the agent still had packets in flight after " +
                                  std::to_string(fence_wait_ns / 1000000) +
                                  " ms (REPLAYSCOPE_DRAIN_TIMEOUT_MS); the dispatch runs once");
        return DispatchDecision::declined_drain_timeout;
    }
    // From here until release() no application packet can launch on the agent (docs/replay-window.md).
    // The stores are the window's from its snapshot to its last restore (docs/replay-window.md,
    // "Snapshot stores"): a device-store reclaim by an allocation wrapper waits for them, bounded.
    // An allocation wrapper waiting for the device store (a reclaim requested) goes first: it polls the
    // lock every millisecond, so a short yield here lets it in instead of making it wait a whole window.
    for (int i = 0; i < 100 && agent_.stores().reclaim_requested(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::unique_lock<std::timed_mutex> stores_lock(agent_.stores().lock());
    const Configuration& config = engine_.config;
    SnapshotOptions options;
    options.host_budget = config.host_memory_budget;
    options.store = config.snapshot_store;
    options.device_reserve = config.device_store_reserve;
    options.restore = config.restore;
    options.chunk_size = config.chunk_size;
    try {
        uint64_t generation = 0;
        for (const TrackedAllocation& a : engine_.watched.owned_by(agent_.agent().handle, generation)) {
            options.watched_bytes += a.size;
        }
    } catch (const std::bad_alloc&) {
        // Estimated without the watched bytes (only used where the runtime has no free-memory query).
    }
    const auto t0 = Clock::now();
    DeviceSnapshot snapshot =
        engine_.snapshotter.snap(agent_.agent(), w.dispatch_id, options, agent_.stores(), agent_.hasher());
    rearm_exit_hook(false);
    report_inventory(snapshot);
    SnapshotEvent ev{};
    ev.dispatch_id = w.dispatch_id;
    ev.agent = agent_.agent().handle;
    ev.generation = snapshot.generation;
    ev.bytes = snapshot.bytes;
    ev.duration_ns = elapsed_ns(t0);
    ev.regions = static_cast<uint32_t>(snapshot.regions.size());
    ev.failures = static_cast<uint32_t>(snapshot.failures.size());
    ev.ok = snapshot.ok && !snapshot.over_budget;
    ev.host_bytes = snapshot.host_bytes;
    ev.device_bytes = snapshot.device_bytes;
    ev.hash_ns = snapshot.hash_ns;
    ev.total_chunks = static_cast<uint32_t>(snapshot.chunks.size());
    ev.store = snapshot.store();
    ev.hash_path = snapshot.hash_path;
    ev.host_pinned = snapshot.host_pinned;
    ev.fence_wait_ns = static_cast<int64_t>(std::min<uint64_t>(fence_wait_ns, INT64_MAX));
    engine_.sink->snapshot(ev);
    if (ev.store == SnapshotStore::mixed) {
        for (const SnapshotRegion& r : snapshot.regions) {
            engine_.sink->snapshot_placement(
                {w.dispatch_id, r.address, r.size,
                 r.store == StoreKind::device ? SnapshotStore::device : SnapshotStore::host});
        }
    }
    if (snapshot.over_budget) {
        engine_.sink->warning(WarningCode::footprint_budget, w.dispatch_id,
                              "footprint-budget: snapshot of " + std::to_string(snapshot.footprint) +
                                  " bytes, " + std::to_string(snapshot.host_planned) +
                                  " of them for the host store, exceeds REPLAYSCOPE_HOST_MEMORY_BUDGET; the "
                                  "dispatch runs once");
        return DispatchDecision::declined_footprint_budget;
    }
    if (!snapshot.ok) {
        std::string reasons;
        for (const auto& f : snapshot.failures) {
            // Separator and name appended apart: a `"" + std::string` temporary makes GCC 12 -O3 report
            // a false -Wrestrict inside std::string.
            if (!reasons.empty()) {
                reasons += ',';
            }
            reasons += name(f.reason);
        }
        engine_.sink->warning(WarningCode::snapshot_incomplete, w.dispatch_id,
                              "snapshot incomplete (" + reasons +
                                  "): replay declined, the dispatch runs once");
        return DispatchDecision::declined_snapshot_incomplete;
    }
    return run_passes(snapshot);
}

bool ReplayWindow::counter_packets(CounterCollection& counters, uint32_t pass_index,
                                   std::array<hsa_ext_amd_aql_pm4_packet_t, 4>& packets,
                                   hsa_signal_t& read_signal) noexcept {
    bool ok = false;
    read_signal = create_signal(1, ok);
    if (!ok) {
        engine_.sink->warning(WarningCode::counter_read_failed, window_->dispatch_id,
                              "counter-read-failed: no signal for the counters of pass " +
                                  std::to_string(pass_index) + " (" + counters.group_text(pass_index) +
                                  "); the pass runs without them");
        return false;
    }
    if (!counters.make_packets(pass_index, read_signal, packets[0], packets[2], packets[3])) {
        destroy_signal(read_signal);
        engine_.sink->warning(WarningCode::counter_read_failed, window_->dispatch_id,
                              "counter-read-failed: aqlprofile made no start/stop/read packets for pass " +
                                  std::to_string(pass_index) + " (" + counters.group_text(pass_index) +
                                  "); the pass runs without its counters");
        return false;
    }
    return true;
}

bool ReplayWindow::read_counters(CounterCollection& counters, uint32_t pass_index, hsa_signal_t read_signal,
                                 std::vector<std::pair<uint32_t, uint64_t>>& values,
                                 std::optional<uint64_t>& fidelity_value) noexcept {
    const uint64_t id = window_->dispatch_id;
    fidelity_value.reset();
    // The READ follows the dispatch and the STOP (barrier bits): bounded by the pass timeout like a pass.
    if (!wait_signal_eq(read_signal, 0, Clock::now() + engine_.config.pass_timeout)) {
        counters.abandon(); // the READ may still write the output buffer: never reused
        engine_.sink->warning(WarningCode::counter_read_failed, id,
                              "counter-read-failed: the counters of pass " + std::to_string(pass_index) +
                                  " were not read within REPLAYSCOPE_PASS_TIMEOUT_MS; none are collected on "
                                  "this agent any more");
        return false; // the signal stays alive: the late READ still completes it
    }
    destroy_signal(read_signal);
    if (!counters.read(pass_index, values, fidelity_value)) {
        engine_.sink->warning(WarningCode::counter_read_failed, id,
                              "counter-read-failed: aqlprofile could not list the counters of pass " +
                                  std::to_string(pass_index) + " (" + counters.group_text(pass_index) + ")");
        return false;
    }
    return true;
}

bool ReplayWindow::wait_out(hsa_signal_t pass_signal, Clock::time_point deadline) {
    for (;;) {
        if (wait_signal_eq(pass_signal, 0,
                           std::min(deadline, Clock::now() + std::chrono::milliseconds(100)))) {
            return true;
        }
        if (stopping() || Clock::now() >= deadline) {
            return false;
        }
    }
}

DispatchDecision ReplayWindow::run_passes(const DeviceSnapshot& snapshot) {
    Window& w = *window_;
    const Configuration& config = engine_.config;
    const uint64_t id = w.dispatch_id;
    DispatchDecision decision = DispatchDecision::replayed;
    std::optional<FidelityCheck> fidelity;
    if (config.fidelity_check) {
        fidelity.emplace(engine_.snapshotter, engine_.watched, snapshot, agent_.agent(), id);
    }
    hsa_queue_t* queue = agent_.private_queue(w.queue_type, w.cu_mask, w.priority);
    if (!queue) {
        engine_.sink->warning(WarningCode::no_private_queue, id,
                              "no-private-queue: the engine's private queue of the dispatch's queue type "
                              "could not be created; the dispatch runs once");
        return DispatchDecision::declined_no_private_queue;
    }
    if (queue->id == w.queue_id) {
        // ROCr may hand every creator of a cooperative queue the same queue (hsa.h,
        // HSA_QUEUE_TYPE_COOPERATIVE): the passes would wait behind the window's own gate.
        engine_.sink->warning(WarningCode::no_private_queue, id,
                              "no-private-queue: the agent's only queue of this type is the application's "
                              "own (a shared cooperative queue); the dispatch runs once");
        return DispatchDecision::declined_no_private_queue;
    }
    // Counters (docs/counters.md): the agent's profiles are planned at its first window; pass i collects
    // group i, so a window runs at least one pass per group.
    CounterCollection& counters = agent_.counters();
    counters.prepare(config, *engine_.sink, agent_.agent(), agent_.cpu_agent(), id);
    const uint32_t passes = std::max(config.passes, counters.groups());
    // --fidelity-check: the fidelity counter's count of every pass against pass 0's ("The counter check").
    std::optional<CounterCheck> counter_check;
    if (fidelity && counters.fidelity_counter()) {
        counter_check.emplace(*counters.fidelity_counter());
    }
    uint32_t passes_run = 0; // passes that may have written memory (restore needed before P runs)
    // An application allocation refused while this window holds the device store waits for it: no
    // further pass then, only the final restore (docs/replay-window.md, "Snapshot stores").
    const auto cut_short = [&](uint32_t next) {
        if (!agent_.stores().reclaim_requested()) {
            return false;
        }
        engine_.sink->warning(WarningCode::device_store_reclaimed, id,
                              "device-store-reclaimed: passes cut short after " + std::to_string(next) +
                                  " of " + std::to_string(passes) +
                                  ": the application needed device memory the snapshot store held; the "
                                  "store is given back after the final restore");
        return true;
    };
    // The worker is stopping (process exit, hsa_shut_down): no further pass; the final restore still runs
    // after any pass that did, so P sees its inputs (docs/replay-window.md, "Process exit and fork").
    const auto abandon = [&](uint32_t next) {
        if (!stopping()) {
            return false;
        }
        engine_.sink->warning(
            WarningCode::abandoned, id,
            std::string("abandoned: ") + stop_reason() + "; passes cut short after " + std::to_string(next) +
                " of " + std::to_string(passes) +
                (next > 0 ? ", inputs restored, the dispatch runs once" : ", the dispatch runs once"));
        return true;
    };
    for (uint32_t i = 0; i < passes; ++i) {
        RestoreResult restored;
        uint64_t restore_ns = 0;
        if (abandon(i)) {
            decision = DispatchDecision::declined_abandoned;
            break;
        }
        if (i > 0) {
            // Checked before the restore (which the pass follows at once): the restore before pass i and
            // the final one would otherwise share pass index i.
            if (cut_short(i)) {
                break;
            }
            restored = restore(snapshot, i, false);
            restore_ns = restored_ns_;
            if (restored.failed) {
                engine_.sink->warning(
                    WarningCode::restore_failed, id,
                    "restore before pass " + std::to_string(i) +
                        " failed: remaining passes not run, the dispatch runs once on the "
                        "memory the restore_failure rows describe (docs/replay-failures.md)");
                tell_restore_failure(i);
                return DispatchDecision::declined_restore_failed;
            }
        }
        bool ok = false;
        hsa_signal_t pass_signal = create_signal(1, ok);
        if (!ok) {
            engine_.sink->warning(WarningCode::signal_unavailable, id,
                                  "signal-unavailable: could not create the signal of pass " +
                                      std::to_string(i) + "; no further pass");
            decision = DispatchDecision::declined_signal_unavailable;
            break;
        }
        if (fidelity && i == 0) {
            fidelity->watch_unrestorable(engine_); // right before pass 0: what then changes, it wrote
        }
        // With a counter group for this pass: START before the dispatch, STOP and READ after it.
        std::array<hsa_ext_amd_aql_pm4_packet_t, 4> packets{};
        static_assert(sizeof(hsa_ext_amd_aql_pm4_packet_t) == 64 &&
                      sizeof(hsa_kernel_dispatch_packet_t) == 64);
        hsa_signal_t read_signal{0};
        const bool collect = counters.collects(i) && counter_packets(counters, i, packets, read_signal);
        const hsa_kernel_dispatch_packet_t p = pass_packet(w.packet, pass_signal);
        std::memcpy(&packets[collect ? 1 : 0], &p, sizeof p);
        if (!AgentContext::submit_private(queue, packets.data(), collect ? 4 : 1,
                                          Clock::now() + kSubmitBound)) {
            destroy_signal(pass_signal);
            if (collect) {
                destroy_signal(read_signal);
            }
            engine_.sink->warning(WarningCode::no_private_queue, id,
                                  "no-private-queue: the private queue stayed full; no further pass");
            decision = DispatchDecision::declined_no_private_queue;
            break;
        }
        ++passes_run;
        // Completed, failed (the private queue's error callback ran: the runtime suspended the queue, so
        // the pass will never complete and runs no further), or late.
        const PrivateQueueError* error = agent_.private_queue_error(w.queue_type);
        const auto pass_deadline = Clock::now() + config.pass_timeout;
        bool completed = false, failed = false;
        while (!completed && !failed && Clock::now() < pass_deadline) {
            completed =
                wait_signal_eq(pass_signal, 0, std::min(pass_deadline, Clock::now() + kPassErrorSlice));
            failed = !completed && error && error->failed.load(std::memory_order_acquire);
        }
        if (failed) {
            const uint32_t status = error->status.load(std::memory_order_relaxed);
            // The queue is of no further use (ROCr leaves it suspended): destroyed, made again for the
            // next window unless it failed too often. Its pass signal is unreferenced once it is gone.
            const bool again = agent_.discard_private_queue(w.queue_type);
            destroy_signal(pass_signal);
            if (collect) {
                destroy_signal(read_signal); // its queue is gone: the READ never runs
                counters.abandon();
            }
            engine_.sink->warning(WarningCode::pass_failed, id,
                                  "pass-failed: pass " + std::to_string(i) +
                                      " failed on the engine's private queue (" + status_text(status) +
                                      "); no further pass, inputs restored, the dispatch runs once on its "
                                      "own queue, as without the engine; " +
                                      (again
                                           ? "the private queue is made again for the next window"
                                           : "no private queue of this type is made again on this agent (" +
                                                 std::to_string(kMaxPrivateQueueErrors) + " queue errors)"));
            decision = DispatchDecision::declined_pass_failed;
            break;
        }
        if (!completed) {
            // The kernel is still running: the agent stays gated until it really completes, so P never
            // runs concurrently with a pass.
            engine_.sink->warning(WarningCode::pass_timeout, id,
                                  "pass-timeout: pass " + std::to_string(i) +
                                      " did not complete within REPLAYSCOPE_PASS_TIMEOUT_MS; no further "
                                      "pass, the dispatch runs once it has completed");
            decision = DispatchDecision::declined_pass_timeout;
            if (collect) {
                // The late pass's STOP and READ still run: their buffers and signal are never reused.
                counters.abandon();
                engine_.sink->warning(WarningCode::counter_read_failed, id,
                                      "counter-read-failed: pass " + std::to_string(i) +
                                          " timed out: its counters are not read, none are collected on "
                                          "this agent any more");
            }
            // Bounded: a pass that waits for work held behind this very window (a flag set by a kernel
            // submitted after gating) would never complete; after ten more pass timeouts the window is
            // released with the pass still running (docs/replay-failures.md, "Timeouts").
            if (wait_out(pass_signal, Clock::now() + kLatePassBound * config.pass_timeout)) {
                destroy_signal(pass_signal);
            } else {
                // Its signal stays alive (leaked): the late pass still completes it.
                if (!stopping()) {
                    engine_.sink->warning(
                        WarningCode::pass_timeout, id,
                        "pass-timeout: pass " + std::to_string(i) +
                            " still running after ten more REPLAYSCOPE_PASS_TIMEOUT_MS; the "
                            "window is released with it running (its writes may overlap "
                            "the dispatch's own execution)");
                }
                return decision; // no restore under a running pass
            }
            break;
        }
        hsa_amd_profiling_dispatch_time_t ticks{};
        (void)hsa().amd.hsa_amd_profiling_get_dispatch_time_fn(agent_.agent(), pass_signal, &ticks);
        destroy_signal(pass_signal);
        rearm_exit_hook(true);
        // The pass's counters, read before its row: the counter check decides its fidelity too.
        std::vector<std::pair<uint32_t, uint64_t>> counted;
        std::optional<uint64_t> fidelity_count;
        const bool counters_read =
            collect && read_counters(counters, i, read_signal, counted, fidelity_count);
        PassEvent pass{};
        pass.dispatch_id = id;
        pass.start_tick = ticks.start;
        pass.end_tick = ticks.end;
        pass.restore_ns = restore_ns;
        pass.bytes_restored = restored.bytes_restored;
        pass.index = i;
        pass.regions_restored = restored.regions_restored;
        pass.skips = restored.skips;
        pass.fidelity = -1;
        std::vector<FidelityMismatchEvent> mismatches;
        std::string differing;
        if (fidelity) {
            pass.fidelity = fidelity->after_pass(i, mismatches, differing);
        }
        if (counter_check && counter_check->after_pass(i, fidelity_count) == 0) {
            pass.fidelity = 0; // same memory, other count: the pass did not execute as pass 0 did
        }
        engine_.sink->pass(pass);
        if (counters_read) {
            for (const auto& [counter, value] : counted) {
                engine_.sink->counter_value({id, value, i, counter});
            }
        }
        for (const FidelityMismatchEvent& m : mismatches) {
            engine_.sink->fidelity_mismatch(m);
        }
        if (!differing.empty()) {
            engine_.sink->warning(WarningCode::fidelity_mismatch, id,
                                  "pass " + std::to_string(i) +
                                      " output differs from pass 0 in: " + differing);
        }
        if (fidelity && i == 0) {
            if (!fidelity->unrestorable_written().empty()) {
                engine_.sink->warning(WarningCode::unrestorable_memory_written, id,
                                      fidelity->unrestorable_written());
            }
            if (!fidelity->unrestorable_unchecked().empty()) {
                engine_.sink->warning(WarningCode::unrestorable_memory_unchecked, id,
                                      fidelity->unrestorable_unchecked());
            }
        }
    }
    if (counter_check) {
        const std::string text = counter_check->mismatch_text(id, w.kernel);
        if (!text.empty()) {
            engine_.sink->warning(WarningCode::counter_mismatch, id, text);
        }
    }
    if (passes_run > 0) {
        // P itself runs next, on its own queue: it must see the pre-dispatch inputs.
        const RestoreResult restored = restore(snapshot, passes_run, true);
        if (restored.failed) {
            engine_.sink->warning(WarningCode::restore_failed, id,
                                  "restore after the last pass failed: the dispatch runs once on the "
                                  "memory the restore_failure rows describe (docs/replay-failures.md)");
            tell_restore_failure(passes_run);
            decision = DispatchDecision::declined_restore_failed;
        }
    }
    return decision;
}

void ReplayWindow::tell_restore_failure(uint32_t pass_index) noexcept {
    if (g_told_restore_failure.exchange(true)) {
        return;
    }
    std::fprintf(stderr,
                 "replayscope: dispatch %llu (%s): a memory region could not be restored after pass %u; the "
                 "application's own execution of the dispatch reads that region as the pass left it, so its "
                 "result there may show two executions. The session names each region (restore_failures); "
                 "this is said once per process\n",
                 static_cast<unsigned long long>(window_->dispatch_id), window_->kernel.c_str(),
                 pass_index > 0 ? pass_index - 1 : 0);
}

RestoreResult ReplayWindow::restore(const DeviceSnapshot& snapshot, uint32_t pass_index, bool final_restore) {
    const auto t0 = Clock::now();
    RestoreOtherPath other;
    other.cpu = agent_.cpu_agent();
    {
        // A copy of the application's held behind this window sits in front of ours in the copy engine
        // until the release, which waits for this restore: then the other path is not tried.
        std::lock_guard lock(agent_.mutex());
        other.allowed = !window_->retain_until_unload;
    }
    for (const PeerGate& g : window_->peers) {
        std::lock_guard lock(g.agent->mutex());
        other.allowed = other.allowed && !g.window->retain_until_unload;
    }
    RestoreResult r = engine_.snapshotter.restore(snapshot, window_->dispatch_id, pass_index, agent_.hasher(),
                                                  engine_.config.fidelity_check, &other);
    restored_ns_ = elapsed_ns(t0);
    if (!r.recovered.empty()) {
        std::string ranges;
        for (size_t k = 0; k < r.recovered.size() && k < 8; ++k) {
            const RecoveredRange& x = r.recovered[k];
            ranges +=
                (k ? ", " : "") + hex(x.address) + " (" + std::to_string(x.bytes) + " bytes, " +
                (x.allocation_id ? "allocation " + std::to_string(x.allocation_id) : "module variable") +
                ", " + status_text(x.status) + ")";
        }
        if (r.recovered.size() > 8) {
            ranges += " and " + std::to_string(r.recovered.size() - 8) + " more";
        }
        engine_.sink->warning(WarningCode::restore_recovered, window_->dispatch_id,
                              "restore-recovered: the " +
                                  std::string(final_restore ? "final restore" : "restore") + " before " +
                                  (final_restore ? std::string("the dispatch's own execution")
                                                 : "pass " + std::to_string(pass_index)) +
                                  " could not write " + std::to_string(r.recovered.size()) +
                                  " range(s) with " + std::to_string(kRestoreAttempts) +
                                  " hsa_memory_copy calls; hsa_amd_memory_async_copy wrote them: " + ranges);
    }
    if (r.copy_still_running) {
        engine_.sink->warning(
            WarningCode::restore_failed, window_->dispatch_id,
            "restore-failed: an hsa_amd_memory_async_copy of the restore before " +
                (final_restore ? std::string("the dispatch's own execution")
                               : "pass " + std::to_string(pass_index)) +
                " had not completed after its waits; it may still write snapshot bytes into "
                "its range after the release");
    }
    RestoreEvent e{};
    e.dispatch_id = window_->dispatch_id;
    e.restored_bytes_host = r.bytes_host;
    e.restored_bytes_device = r.bytes_device;
    e.hash_ns = r.hash_ns;
    e.restore_ns = restored_ns_;
    e.pass_index = pass_index;
    e.regions_restored = r.regions_restored;
    e.dirty_chunks = r.dirty_chunks;
    e.total_chunks = r.total_chunks;
    e.missed_chunks = r.missed_chunks;
    e.final_restore = final_restore;
    engine_.sink->restore(e);
    return r;
}

void release_peer_gate(AgentContext& agent, const std::shared_ptr<Window>& gate) noexcept {
    hsa_signal_t unreferenced{0};
    {
        std::lock_guard lock(agent.mutex());
        AgentContext::State& st = agent.state();
        if (st.gating == gate) {
            st.gating.reset();
        }
        if (gate->released) {
            return;
        }
        gate->released = true;
        hsa().core.hsa_signal_store_screlease_fn(gate->release, 0);
        if (gate->gates == 0 && !gate->retain_until_unload && gate->release.handle != 0) {
            unreferenced = gate->release; // never written into a queue, nor given to a copy
            gate->release.handle = 0;
        }
    }
    if (unreferenced.handle != 0) {
        destroy_signal(unreferenced);
    }
}

void ReplayWindow::release() noexcept {
    {
        std::lock_guard lock(agent_.mutex());
        AgentContext::State& st = agent_.state();
        if (st.gating == window_) {
            st.gating.reset();
        }
        window_->released = true;
        // P (and every packet and copy held behind W's gates) may start now.
        hsa().core.hsa_signal_store_screlease_fn(window_->release, 0);
    }
    // Each peer under its own mutex, one at a time: the work is done, so the order does not matter.
    for (const PeerGate& g : window_->peers) {
        release_peer_gate(*g.agent, g.window);
    }
}

void ReplayWindow::report(DispatchDecision decision) noexcept {
    const Window& w = *window_;
    DispatchEvent ev{};
    ev.id = w.dispatch_id;
    ev.agent = agent_.agent().handle;
    ev.queue = w.queue_id;
    ev.kernel_object = w.packet.kernel_object;
    ev.kernel_name = w.kernel;
    ev.grid[0] = w.packet.grid_size_x;
    ev.grid[1] = w.packet.grid_size_y;
    ev.grid[2] = w.packet.grid_size_z;
    ev.workgroup[0] = w.packet.workgroup_size_x;
    ev.workgroup[1] = w.packet.workgroup_size_y;
    ev.workgroup[2] = w.packet.workgroup_size_z;
    ev.decision = decision;
    engine_.sink->dispatch(ev);
}

void ReplayWindow::close() noexcept {
    // The window is closed (after its release): forward_packet may drop its marker once none is open.
    engine_.open_windows.fetch_sub(1);
}

void ReplayWindow::report_inventory(const DeviceSnapshot& snapshot) noexcept {
    uint64_t& reported = agent_.reported_generation();
    if (reported == snapshot.generation) {
        return;
    }
    try {
        std::vector<InventoryRegion> regions;
        regions.reserve(snapshot.regions.size());
        for (const SnapshotRegion& r : snapshot.regions) {
            regions.push_back({r.address, r.size, r.allocation_id, r.kind});
        }
        engine_.sink->inventory({agent_.agent().handle, snapshot.generation, regions.data(), regions.size()});
        reported = snapshot.generation;
    } catch (...) {
        // The inventory is sent with a later snapshot.
        note_internal_error(engine_, "inventory report (sent with a later snapshot)", window_->dispatch_id);
    }
}

} // namespace rs::engine
