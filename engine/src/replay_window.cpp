#include "replay_window.h"

#include "agent_context.h"
#include "async_copy_fence.h"
#include "engine.h"
#include "fidelity_check.h"
#include "hsa_api.h"
#include "memory_snapshot.h"
#include "queue_interceptor.h"

#include <cstring>
#include <mutex>
#include <optional>
#include <string>
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

} // namespace

DispatchDecision ReplayWindow::run(const hsa_kernel_dispatch_packet_t& packet,
                                   hsa_amd_queue_intercept_packet_writer writer) {
    packet_ = packet;
    bool fence_ok = false, done_ok = false;
    hsa_signal_t fence = create_signal(1, fence_ok);
    done_ = create_signal(1, done_ok);
    if (!fence_ok || !done_ok) {
        destroy_signal(fence);
        destroy_signal(done_);
        engine_.sink->warning(WarningCode::snapshot_incomplete, dispatch_id_,
                              "could not create the replay window's signals: dispatch runs once unreplayed");
        forward_packet(queue_, &packet, writer);
        return DispatchDecision::declined_snapshot_incomplete;
    }

    // 1. The only writer call of this invocation (ROCr 5.2.3 allows one).
    hsa_barrier_and_packet_t barriers[2] = {make_barrier_and(hsa_signal_t{0}, fence),
                                            make_barrier_and(done_, packet.completion_signal)};
    writer(barriers, 2);
    try {
        return after_barriers(fence);
    } catch (...) {
        // Bookkeeping ran out of memory: never leave the application's signal pending.
        hsa().core.hsa_signal_store_screlease_fn(done_, 0);
        return DispatchDecision::declined_snapshot_incomplete;
    }
}

DispatchDecision ReplayWindow::after_barriers(hsa_signal_t fence) {
    AgentContext& agent = *queue_.agent;
    // 2. Fence, replay lock, idle agent: one bounded deadline.
    const auto deadline = Clock::now() + engine_.config.drain_timeout;
    if (!wait_signal_eq(fence, 0, deadline)) {
        engine_.sink->warning(WarningCode::general, dispatch_id_,
                              "drain-timeout: earlier packets of the queue did not complete in time; the "
                              "dispatch runs once after them");
        run_once_after(fence);
        queue_.retired.push_back(fence);
        queue_.retired.push_back(done_);
        return DispatchDecision::declined_drain_timeout;
    }
    // B1 completed, so every earlier window's B2 (and fallback) of this queue did: their signals are free.
    for (hsa_signal_t s : queue_.retired)
        destroy_signal(s);
    queue_.retired.clear();
    queue_.retired.push_back(fence); // still referenced by nothing, but destroyed with done
    queue_.retired.push_back(done_);

    std::unique_lock lock(agent.replay_lock(), std::defer_lock);
    if (!lock.try_lock_until(deadline)) {
        engine_.sink->warning(WarningCode::general, dispatch_id_,
                              "drain-timeout: another replay window held the agent's replay lock");
        run_once_after(hsa_signal_t{0});
        return DispatchDecision::declined_drain_timeout;
    }
    // From here the agent is held: asynchronous copies touching it wait (AsyncCopyFence) and may name
    // this dispatch; the window never issues one itself (this thread is marked for the fence).
    const AsyncCopyFence::WindowScope on_window_thread;
    struct WindowMark {
        std::atomic<uint64_t>& mark;
        ~WindowMark() { mark.store(0, std::memory_order_release); }
    } window_mark{agent.window_dispatch()};
    agent.window_dispatch().store(dispatch_id_, std::memory_order_release);
    if (!wait_signal_eq(agent.in_flight(), 0, deadline)) {
        lock.unlock();
        engine_.sink->warning(WarningCode::general, dispatch_id_,
                              "drain-timeout: other queues of the agent still had packets in flight");
        run_once_after(hsa_signal_t{0});
        return DispatchDecision::declined_drain_timeout;
    }

    // 3. Snapshot.
    const auto t0 = Clock::now();
    DeviceSnapshot snapshot = engine_.snapshotter.snap(agent.agent(), dispatch_id_,
                                                       engine_.config.host_memory_budget, agent.arena());
    report_inventory(snapshot);
    engine_.sink->snapshot({dispatch_id_, agent.agent().handle, snapshot.generation, snapshot.bytes,
                            elapsed_ns(t0), static_cast<uint32_t>(snapshot.regions.size()),
                            static_cast<uint32_t>(snapshot.failures.size()),
                            snapshot.ok && !snapshot.over_budget});
    if (snapshot.over_budget) {
        engine_.sink->warning(WarningCode::general, dispatch_id_,
                              "footprint-budget: snapshot of " + std::to_string(snapshot.footprint) +
                                  " bytes exceeds REPLAYSCOPE_HOST_MEMORY_BUDGET; the dispatch runs once");
        run_once_locked();
        return DispatchDecision::declined_footprint_budget;
    }
    if (!snapshot.ok) {
        std::string reasons;
        for (const auto& f : snapshot.failures)
            reasons += (reasons.empty() ? "" : ",") + std::string(name(f.reason));
        engine_.sink->warning(WarningCode::snapshot_incomplete, dispatch_id_,
                              "snapshot incomplete (" + reasons +
                                  "): replay declined, the dispatch runs once");
        run_once_locked();
        return DispatchDecision::declined_snapshot_incomplete;
    }

    // 4./5.
    return run_passes(snapshot);
}

DispatchDecision ReplayWindow::run_passes(const DeviceSnapshot& snapshot) {
    AgentContext& agent = *queue_.agent;
    const Configuration& config = engine_.config;
    DispatchDecision decision = DispatchDecision::replayed;
    std::optional<FidelityCheck> fidelity;
    if (config.fidelity_check)
        fidelity.emplace(engine_.snapshotter, engine_.watched, snapshot, agent.agent(), dispatch_id_);
    uint32_t passes_run = 0;
    for (uint32_t i = 0; i < config.passes; ++i) {
        RestoreResult restored;
        uint64_t restore_ns = 0;
        if (i > 0) {
            const auto t0 = Clock::now();
            restored = engine_.snapshotter.restore(snapshot, dispatch_id_, i);
            restore_ns = elapsed_ns(t0);
            if (restored.failed) {
                engine_.sink->warning(WarningCode::restore_failed, dispatch_id_,
                                      "restore before pass " + std::to_string(i) +
                                          " failed: remaining passes not run (docs/replay-failures.md)");
                decision = DispatchDecision::declined_restore_failed;
                break;
            }
        }
        bool ok = false;
        hsa_signal_t pass_signal = create_signal(1, ok);
        if (!ok) {
            engine_.sink->warning(WarningCode::general, dispatch_id_, "could not create a pass signal");
            if (passes_run == 0) {
                run_once_locked();
                return DispatchDecision::declined_snapshot_incomplete;
            }
            break;
        }
        const hsa_kernel_dispatch_packet_t p = pass_packet(packet_, pass_signal);
        if (!agent.submit_private(&p, 1)) {
            destroy_signal(pass_signal);
            engine_.sink->warning(WarningCode::general, dispatch_id_, "no private queue for the agent");
            if (passes_run == 0) {
                // Without a private queue P cannot run here: release done; the application sees a
                // completion without execution, which is reported.
                hsa().core.hsa_signal_store_screlease_fn(done_, 0);
                return DispatchDecision::declined_drain_timeout;
            }
            break;
        }
        if (!wait_signal_eq(pass_signal, 0, Clock::now() + config.pass_timeout)) {
            // The kernel is still running: the signal stays alive (leaked) and no further pass runs.
            engine_.sink->warning(WarningCode::general, dispatch_id_,
                                  "pass " + std::to_string(i) +
                                      " did not complete within REPLAYSCOPE_PASS_TIMEOUT_MS");
            decision = passes_run == 0 ? DispatchDecision::declined_drain_timeout : decision;
            break;
        }
        ++passes_run;
        hsa_amd_profiling_dispatch_time_t ticks{};
        (void)hsa().amd.hsa_amd_profiling_get_dispatch_time_fn(agent.agent(), pass_signal, &ticks);
        destroy_signal(pass_signal);
        PassEvent pass{};
        pass.dispatch_id = dispatch_id_;
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
        if (fidelity)
            pass.fidelity = fidelity->after_pass(i, mismatches, differing);
        engine_.sink->pass(pass);
        for (const FidelityMismatchEvent& m : mismatches)
            engine_.sink->fidelity_mismatch(m);
        if (!differing.empty())
            engine_.sink->warning(WarningCode::fidelity_mismatch, dispatch_id_,
                                  "pass " + std::to_string(i) +
                                      " output differs from pass 0 in: " + differing);
    }
    // No restore after the last pass: memory holds exactly one execution's effect.
    hsa().core.hsa_signal_store_screlease_fn(done_, 0);
    return decision;
}

void ReplayWindow::report_inventory(const DeviceSnapshot& snapshot) noexcept {
    uint64_t& reported = queue_.agent->reported_generation();
    if (reported == snapshot.generation)
        return;
    try {
        std::vector<InventoryRegion> regions;
        regions.reserve(snapshot.regions.size());
        for (const SnapshotRegion& r : snapshot.regions)
            regions.push_back({r.address, r.size, r.allocation_id, r.kind});
        engine_.sink->inventory(
            {queue_.agent->agent().handle, snapshot.generation, regions.data(), regions.size()});
        reported = snapshot.generation;
    } catch (...) {
        // Out of memory for the listing: the inventory is sent with a later snapshot.
    }
}

void ReplayWindow::run_once_locked() {
    const hsa_kernel_dispatch_packet_t p = pass_packet(packet_, done_);
    if (!queue_.agent->submit_private(&p, 1)) {
        hsa().core.hsa_signal_store_screlease_fn(done_, 0);
        return;
    }
    // P completing decrements done to 0, which releases B2 and the application's signal.
    if (!wait_signal_eq(done_, 0, Clock::now() + engine_.config.pass_timeout))
        engine_.sink->warning(WarningCode::general, dispatch_id_,
                              "the single execution did not complete within REPLAYSCOPE_PASS_TIMEOUT_MS");
}

void ReplayWindow::run_once_after(hsa_signal_t fence) {
    AgentContext& agent = *queue_.agent;
    std::shared_lock lock(agent.replay_lock(), std::defer_lock);
    if (!lock.try_lock_for(engine_.config.drain_timeout))
        engine_.sink->warning(WarningCode::general, dispatch_id_,
                              "ran once without the agent's replay lock (another window held it too long)");
    struct {
        hsa_barrier_and_packet_t wait_fence;
        hsa_kernel_dispatch_packet_t dispatch;
        hsa_barrier_and_packet_t marker;
    } packets{make_barrier_and(fence, hsa_signal_t{0}), pass_packet(packet_, done_),
              make_barrier_and(hsa_signal_t{0}, agent.in_flight())};
    static_assert(sizeof(packets) == 3 * 64);
    hsa().core.hsa_signal_add_scacq_screl_fn(agent.in_flight(), 1);
    if (!agent.submit_private(&packets, 3)) {
        hsa().core.hsa_signal_subtract_scacq_screl_fn(agent.in_flight(), 1);
        hsa().core.hsa_signal_store_screlease_fn(done_, 0);
    }
}

} // namespace rs::engine
