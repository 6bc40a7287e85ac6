// SPDX-License-Identifier: MIT
#include "queue_interceptor.h"

#include "agent_context.h"
#include "engine.h"
#include "graph_launch.h"
#include "hsa_api.h"
#include "kernarg_scan.h"
#include "replay_window.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>

namespace rs::engine {

namespace {

uint8_t packet_type(const void* packet) {
    uint16_t header = 0;
    std::memcpy(&header, packet, sizeof header);
    return static_cast<uint8_t>(header & 0xff);
}

/// True for the HIP runtime's own kernels: the blit program ROCclr compiles at device creation, whose
/// kernels are named `__amd_rocclr_*` (ROCclr device/blitcl.cpp): fills and copies issued by hipMemset /
/// hipMemcpy, and `streamOpsWait`, which spins until a memory value matches. They are forwarded, never
/// replayed: they are the runtime's data movement, not the application's kernels, and a spin-wait kernel
/// inside a replay window would hold the agent until another queue writes the value
/// (docs/replay-failures.md, "Runtime kernels").
bool is_runtime_kernel(const std::string& kernel) {
    return kernel.rfind("__amd_rocclr_", 0) == 0;
}

/// ROCclr's `streamOpsWait` kernel (hipStreamWaitValue32/64 where no BARRIER_VALUE packet is used) only
/// spins until a memory value matches: like a barrier packet it waits and writes nothing, so it gets no
/// marker and is never counted as in flight (a drain would otherwise wait for whatever releases it).
bool is_wait_kernel(const std::string& kernel) {
    return kernel.rfind("__amd_rocclr_streamOpsWait", 0) == 0;
}

/// Kernel and agent dispatches write memory; barrier-AND/OR and AMD vendor packets only wait.
bool is_writing_packet(uint8_t type) {
    return type == HSA_PACKET_TYPE_KERNEL_DISPATCH || type == HSA_PACKET_TYPE_AGENT_DISPATCH;
}

void report_dispatch(Engine& e, const QueueContext& q, uint64_t id, const hsa_kernel_dispatch_packet_t& p,
                     const std::string& kernel, DispatchDecision decision) {
    DispatchEvent ev{};
    ev.id = id;
    ev.agent = q.agent->agent().handle;
    ev.queue = q.proxy->id;
    ev.kernel_object = p.kernel_object;
    ev.kernel_name = kernel;
    ev.grid[0] = p.grid_size_x;
    ev.grid[1] = p.grid_size_y;
    ev.grid[2] = p.grid_size_z;
    ev.workgroup[0] = p.workgroup_size_x;
    ev.workgroup[1] = p.workgroup_size_y;
    ev.workgroup[2] = p.workgroup_size_z;
    ev.decision = decision;
    e.sink->dispatch(ev);
}

/// True when no replay window can open on any agent any more (dispatch count reached, none open): the
/// handler then forwards packets alone (docs/replay-window.md, "no marker once no window can open").
bool windows_over(const Engine& e) {
    return e.config.dispatch_count != 0 &&
           e.next_dispatch_id.load() > e.config.dispatch_skip + e.config.dispatch_count &&
           e.open_windows.load() == 0;
}

/// Under the agent mutex: when the agent is gating and `q` has no gate of that window yet, writes the
/// gate to `slot` (recorded; without a record, and the window's release signal kept until unload, when
/// no room could be reserved) and returns true.
bool gate_current(AgentContext::State& st, QueueContext& q, hsa_barrier_and_packet_t& slot) noexcept {
    if (!st.gating || q.gates.has_gate_of(st.gating.get())) {
        return false;
    }
    try {
        q.gates.gates.reserve(q.gates.gates.size() + 1);
        q.gates.add_gate(st.gating);
        slot = make_gate(st.gating->release, q.gates.in_flight);
    } catch (...) {
        st.gating->retain_until_unload = true;
        slot = make_gate(st.gating->release, hsa_signal_t{0});
    }
    return true;
}

/// Under the agent mutex, for an application packet about to be written to `q`: when nothing of `q` is
/// held yet and the packet is a barrier that waits for a held signal, records a hold of that window (the
/// drain then does not wait for what follows it on `q`); when the packet cannot complete before some
/// window's release, its completion signal becomes held by that window (docs/replay-window.md, "Packets
/// that wait on a held packet"). Without memory for a record nothing is recorded: a drain may then wait
/// for those packets until its timeout, as it did before holds existed.
void hold_behind(HeldSignals& held, QueueContext& q, const void* packet) noexcept {
    try {
        std::shared_ptr<Window> holder = q.gates.last_unreleased();
        if (!holder) {
            holder = held.blocker_of(packet);
            if (holder) {
                q.gates.gates.reserve(q.gates.gates.size() + 1);
                q.gates.add_hold(holder);
            }
        }
        if (holder) {
            held.hold(packet_completion_signal(packet), holder);
        }
    } catch (...) {
        // std::bad_alloc from a record: see above.
    }
}

/// The replay candidate P: writes [G_current?][F_W][G_W][P][marker] with ONE writer call and hands W to
/// the agent's worker. Returns false, with nothing written, when W could not be set up (the caller then
/// forwards P and reports `decision`).
bool open_window(Engine& e, QueueContext& q, uint64_t id, const hsa_kernel_dispatch_packet_t& p,
                 std::string kernel, hsa_amd_queue_intercept_packet_writer writer,
                 DispatchDecision& decision) {
    AgentContext& agent = *q.agent;
    if (!agent.worker_running()) {
        decision = DispatchDecision::declined_out_of_memory;
        e.sink->warning(WarningCode::out_of_memory, id,
                        "the agent's window worker thread could not be started: the dispatch runs once");
        return false;
    }
    auto w = std::make_shared<Window>(); // std::bad_alloc: the caller forwards, out-of-memory
    w->dispatch_id = id;
    w->packet = p;
    w->kernel = std::move(kernel);
    w->queue_id = q.proxy->id;
    w->queue_type = q.type;
    w->owner = &agent;
    bool fence_ok = false, release_ok = false;
    w->fence = create_signal(1, fence_ok);
    w->release = create_signal(1, release_ok);
    if (!fence_ok || !release_ok) {
        destroy_signal(w->fence);
        destroy_signal(w->release);
        decision = DispatchDecision::declined_signal_unavailable;
        e.sink->warning(WarningCode::signal_unavailable, id,
                        "signal-unavailable: could not create the replay window's signals; the dispatch "
                        "runs once unreplayed");
        return false;
    }
    struct {
        hsa_barrier_and_packet_t slots[5];
    } batch{};
    static_assert(sizeof(batch) == 5 * 64);
    uint32_t n = 0;
    bool stopped = false;
    {
        std::lock_guard lock(agent.mutex());
        AgentContext::State& st = agent.state();
        // A window opened once the exit began would start a worker's passes while the exit handlers
        // tear the process down (an agent first used by an exit handler was never registered to be
        // stopped): the exit declines it as the stop does.
        stopped = st.stopping || g_exiting.load(std::memory_order_acquire);
    }
    if (stopped) {
        // The worker is stopped (unload or process exit): nothing would ever release a gate.
        destroy_signal(w->fence);
        destroy_signal(w->release);
        decision = DispatchDecision::declined_abandoned;
        e.sink->warning(WarningCode::abandoned, id,
                        g_exiting.load(std::memory_order_acquire)
                            ? "abandoned: submitted while the process is exiting; the dispatch runs once"
                            : "abandoned: submitted while the runtime shuts down; the dispatch runs once");
        return false;
    }
    {
        std::lock_guard lock(agent.mutex());
        AgentContext::State& st = agent.state();
        if (st.stopping) {
            // Stopped since the check above: declined without a warning of its own.
            destroy_signal(w->fence);
            destroy_signal(w->release);
            decision = DispatchDecision::declined_abandoned;
            return false;
        }
        try {
            w->cu_mask = q.cu_mask;
            q.gates.gates.reserve(q.gates.gates.size() + 2);
            st.pending.reserve(st.pending.size() + 1);
        } catch (...) {
            destroy_signal(w->fence);
            destroy_signal(w->release);
            throw;
        }
        // Nothing below throws: the records match the packets written.
        w->priority = q.priority;
        if (gate_current(st, q, batch.slots[n])) {
            ++n;
        }
        batch.slots[n++] = make_barrier_and(hsa_signal_t{0}, w->fence);
        q.gates.add_gate(w);
        batch.slots[n++] = make_gate(w->release, q.gates.in_flight);
        std::memcpy(&batch.slots[n++], &p, 64);
        try {
            e.held.hold(p.completion_signal, w); // P completes only after W's release
        } catch (...) {
            // Not recorded: a barrier on P's signal is waited for by drains, as before holds existed.
        }
        w->queue = &q;
        w->dispatch_position = q.gates.counted;
        q.gates.add_writes(1);
        batch.slots[n++] = make_barrier_and(hsa_signal_t{0}, q.gates.in_flight);
        w->submitted = Clock::now();
        st.pending.push_back(w);
    }
    // The only writer call of this invocation (ROCr 5.2.3 allows one).
    writer(&batch, n);
    agent.wake();
    return true;
}

/// Multi-packet heuristic (documented in docs/replay-failures.md): the handler sees one packet per
/// call, so a batch published by one doorbell store is recognised by the proxy's write index having
/// moved past this packet when its handler runs (packets reserved together); the later packets of that
/// batch are then below `batch_end`. Concurrent producers on one queue can make a single submission
/// look like a batch: it is then declined (never the reverse).
bool part_of_batch(QueueContext& q, uint64_t index) {
    const uint64_t write = hsa().core.hsa_queue_load_write_index_scacquire_fn(q.proxy);
    bool batch = index < q.batch_end;
    if (write > index + 1) {
        batch = true;
        if (write > q.batch_end) {
            q.batch_end = write;
        }
    }
    return batch;
}

/// The iteration of `kernel`'s dispatch now submitted (1-based), when --kernel-iteration-range is given:
/// one relaxed fetch_add on the loaded symbol's count, outside any lock (docs/replay-window.md, "Per-kernel
/// iterations"). 0 without ranges (nothing counted) and for a kernel object the registry does not know.
uint64_t next_iteration(const Engine& e, const ExecutableRegistry::Kernel& kernel) noexcept {
    if (e.config.iteration_ranges.empty() || !kernel.dispatches) {
        return 0;
    }
    return kernel.dispatches->fetch_add(1, std::memory_order_relaxed) + 1;
}

/// Counts the iterations of the kernel dispatches among `count` packets forwarded together (they are
/// never replayed, but rocprofv3 counts every dispatch of a kernel). Only with iteration ranges.
void count_iterations(Engine& e, const void* packets, uint64_t count) noexcept {
    if (e.config.iteration_ranges.empty()) {
        return;
    }
    try {
        for (uint64_t i = 0; i < count; ++i) {
            const auto* packet = static_cast<const unsigned char*>(packets) + i * 64;
            if (packet_type(packet) == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
                hsa_kernel_dispatch_packet_t p;
                std::memcpy(&p, packet, sizeof p);
                (void)next_iteration(e, e.executables.kernel(p.kernel_object));
            }
        }
    } catch (...) {
        note_internal_error(e, "dispatch handler's iteration count (later iterations of a kernel may be "
                               "numbered lower)");
    }
}

void intercept_handler(const void* packets, uint64_t count, uint64_t index, void* data,
                       hsa_amd_queue_intercept_packet_writer writer) {
    auto* q = static_cast<QueueContext*>(data);
    Engine* e = g_finalized.load(std::memory_order_acquire) ? nullptr : engine();
    if (!e || !q || count != 1) {
        // Several packets per call happen only on newer runtimes: never replayed, forwarded at once.
        if (e && q) {
            count_iterations(*e, packets, count);
        }
        writer(packets, count);
        return;
    }
    const uint8_t type = packet_type(packets);
    if (type != HSA_PACKET_TYPE_KERNEL_DISPATCH) {
        forward_packet(*q, packets, writer, is_writing_packet(type));
        return;
    }
    hsa_kernel_dispatch_packet_t p;
    std::memcpy(&p, packets, sizeof p);
    // Counted open before the id is taken: forward_packet drops its marker only when every id is past
    // the dispatch window AND no window that took an id is still open (seq_cst pairs with it). A window
    // handed to the worker is closed by the worker when it reports the dispatch.
    e->open_windows.fetch_add(1);
    const uint64_t id = e->next_dispatch_id.fetch_add(1);
    std::string kernel;
    DispatchDecision decision = DispatchDecision::replayed;
    try {
        const ExecutableRegistry::Kernel symbol = e->executables.kernel(p.kernel_object);
        kernel = symbol.name;
        // Every dispatch of the kernel is an iteration, whatever is decided below, as rocprofv3 counts.
        const uint64_t iteration = next_iteration(*e, symbol);
        if (part_of_batch(*q, index)) {
            decision = DispatchDecision::declined_multi_packet;
        } else if (graph_launch_active()) {
            decision = DispatchDecision::declined_graph_launch;
            if (first_graph_launch_decline()) {
                e->sink->warning(
                    WarningCode::graph_launch, id,
                    "HIP graph launches are not replayed: their dispatches run once (warned once)");
            }
        } else if (is_runtime_kernel(kernel)) {
            decision = DispatchDecision::declined_runtime_kernel;
        } else if (!e->config.dispatch_selected(id - 1) || !e->config.kernel_selected(kernel, symbol.shown)) {
            decision = DispatchDecision::declined_filtered;
        } else if (!e->config.iteration_selected(iteration)) {
            decision = DispatchDecision::declined_iteration_range;
        } else if (symbol.unrestorable_variable ||
                   kernarg_points_into(p.kernarg_address, symbol.kernarg_size, e->unrestorable,
                                       symbol.read_only_pointers.get(), &e->inventory)) {
            decision = DispatchDecision::declined_unrestorable_memory;
        } else if (e->peer_access.load(std::memory_order_acquire) &&
                   kernarg_points_into_peer(p.kernarg_address, symbol.kernarg_size, e->inventory,
                                            q->agent->agent().handle, symbol.read_only_pointers.get())) {
            decision = DispatchDecision::declined_peer_memory;
        }
        if (decision == DispatchDecision::replayed && open_window(*e, *q, id, p, kernel, writer, decision)) {
            return; // the worker reports the dispatch and closes the window
        }
    } catch (const std::bad_alloc&) {
        // Only reachable before the writer was called.
        decision = DispatchDecision::declined_out_of_memory;
        note_internal_error(*e, "dispatch handler's bookkeeping (the dispatch runs once unreplayed)", id);
    } catch (...) {
        decision = DispatchDecision::declined_internal_error;
        note_internal_error(*e, "dispatch handler (the dispatch runs once unreplayed)", id);
    }
    forward_packet(*q, packets, writer, !is_wait_kernel(kernel));
    report_dispatch(*e, *q, id, p, kernel, decision);
    e->open_windows.fetch_sub(1);
}

hsa_status_t queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                          void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data,
                          uint32_t private_segment_size, uint32_t group_segment_size, hsa_queue_t** queue) {
    const auto original = [&] {
        return hsa().core.hsa_queue_create_fn(agent, size, type, callback, data, private_segment_size,
                                              group_segment_size, queue);
    };
    Engine* e = engine();
    if (!e || g_finalized.load(std::memory_order_acquire) || !e->config.replay_enabled() || !queue) {
        return original();
    }
    AgentContext* ctx = nullptr;
    std::unique_ptr<QueueContext> q;
    try {
        ctx = e->agents.get(agent, e->config);
        if (!ctx || !ctx->selected()) {
            return original();
        }
        q = std::make_unique<QueueContext>();
    } catch (...) {
        note_internal_error(*e, "hsa_queue_create wrapper (the queue is created unintercepted)");
        return original();
    }
    bool ok = false;
    q->gates.in_flight = create_signal(0, ok);
    if (!ok) {
        e->sink->warning(WarningCode::signal_unavailable, 0,
                         "signal-unavailable: no in-flight signal for a new queue: queue not replayed");
        return original();
    }
    if (g_exiting.load(std::memory_order_acquire)) {
        destroy_signal(q->gates.in_flight);
        return original(); // no worker starts during the exit: nothing would stop it (its windows decline)
    }
    if (!ctx->start_worker()) {
        destroy_signal(q->gates.in_flight);
        e->sink->warning(WarningCode::out_of_memory, 0,
                         "the agent's window worker thread could not be started: queue not replayed");
        return original();
    }
    const auto& amd = hsa().amd;
    hsa_status_t st = amd.hsa_amd_queue_intercept_create_fn(agent, size, type, callback, data,
                                                            private_segment_size, group_segment_size, queue);
    if (st != HSA_STATUS_SUCCESS) {
        destroy_signal(q->gates.in_flight);
        return original();
    }
    q->proxy = *queue;
    q->agent = ctx;
    q->type = type;
    QueueContext* raw = q.get();
    try {
        e->queues.wlock([&](auto& list) { list.push_back(std::move(q)); });
        try {
            std::lock_guard lock(ctx->mutex());
            ctx->state().queues.push_back(raw);
        } catch (...) {
            e->queues.wlock([&](auto& list) { list.pop_back(); }); // frees the context
            throw;
        }
    } catch (...) {
        if (q) {
            destroy_signal(q->gates.in_flight);
        }
        note_internal_error(*e, "hsa_queue_create wrapper (a plain proxy queue without handler)");
        return HSA_STATUS_SUCCESS; // a plain proxy without handler: packets pass straight through
    }
    if (amd.hsa_amd_queue_intercept_register_fn(*queue, intercept_handler, raw) != HSA_STATUS_SUCCESS) {
        e->sink->warning(WarningCode::queue_intercept_failed, 0,
                         "hsa_amd_queue_intercept_register failed: queue not replayed");
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t queue_destroy(hsa_queue_t* queue) {
    Engine* e = engine();
    std::unique_ptr<QueueContext> context;
    if (e && queue && !g_finalized.load(std::memory_order_acquire)) {
        try {
            e->queues.wlock([&](auto& list) {
                for (auto it = list.begin(); it != list.end(); ++it) {
                    if ((*it)->proxy == queue) {
                        context = std::move(*it);
                        list.erase(it);
                        return;
                    }
                }
            });
        } catch (...) {
            note_internal_error(*e, "hsa_queue_destroy wrapper (the queue's context is kept)");
        }
    }
    if (context) {
        // Out of the agent's drain checks before the queue goes.
        std::lock_guard lock(context->agent->mutex());
        auto& queues = context->agent->state().queues;
        queues.erase(std::remove(queues.begin(), queues.end(), context.get()), queues.end());
    }
    // The application waited for its own packets, but the marker (and gate) behind its last one may
    // still be in the packet processor, and a shared cooperative queue outlives this handle (ROCr hands
    // one cooperative queue to every creator). Wait, bounded, until every marker and gate of the queue
    // has completed (they all decrement in_flight); if they do not, the signals are left alive rather
    // than destroyed under a packet that may still complete them.
    const bool drained = !context || wait_signal_eq(context->gates.in_flight, 0,
                                                    Clock::now() + std::chrono::milliseconds(200));
    const hsa_status_t st = hsa().core.hsa_queue_destroy_fn(queue);
    if (context && !drained) {
        (void)context.release(); // leaked on purpose: a late completion must find valid signals
    }
    if (context) {
        // Every packet that referenced the queue's signals has completed.
        std::vector<hsa_signal_t> unreferenced;
        try {
            std::lock_guard lock(context->agent->mutex());
            context->gates.drop_all(unreferenced);
        } catch (...) {
        }
        for (hsa_signal_t s : unreferenced) {
            destroy_signal(s);
        }
        destroy_signal(context->gates.in_flight);
    }
    return st;
}

/// Finds the intercepted queue of `proxy` (nullptr when not intercepted).
QueueContext* find_queue(Engine& e, const hsa_queue_t* proxy) {
    return e.queues.rlock([&](const auto& list) -> QueueContext* {
        for (const auto& q : list) {
            if (q->proxy == proxy) {
                return q.get();
            }
        }
        return nullptr;
    });
}

hsa_status_t queue_cu_set_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                               const uint32_t* cu_mask) {
    const hsa_status_t st = hsa().amd.hsa_amd_queue_cu_set_mask_fn(queue, num_cu_mask_count, cu_mask);
    Engine* e = engine();
    if (st != HSA_STATUS_SUCCESS || !e || g_finalized.load(std::memory_order_acquire)) {
        return st;
    }
    try {
        if (QueueContext* q = find_queue(*e, queue)) {
            // num_cu_mask_count counts bits, a multiple of 32 (hsa_ext_amd.h).
            std::vector<uint32_t> mask;
            if (cu_mask) {
                mask.assign(cu_mask, cu_mask + num_cu_mask_count / 32);
            }
            std::lock_guard lock(q->agent->mutex());
            q->cu_mask = std::move(mask);
        }
    } catch (...) {
        note_internal_error(*e, "hsa_amd_queue_cu_set_mask (the mask is not applied to the passes)");
    }
    return st;
}

hsa_status_t queue_set_priority(hsa_queue_t* queue, hsa_amd_queue_priority_t priority) {
    const hsa_status_t st = hsa().amd.hsa_amd_queue_set_priority_fn(queue, priority);
    Engine* e = engine();
    if (st != HSA_STATUS_SUCCESS || !e || g_finalized.load(std::memory_order_acquire)) {
        return st;
    }
    try {
        if (QueueContext* q = find_queue(*e, queue)) {
            std::lock_guard lock(q->agent->mutex());
            q->priority = priority;
        }
    } catch (...) {
        note_internal_error(*e, "hsa_amd_queue_set_priority (the priority is not applied to the passes)");
    }
    return st;
}

} // namespace

void release_intercepted_queues() {
    Engine* e = engine();
    if (!e) {
        return;
    }
    std::vector<hsa_signal_t> unreferenced;
    e->queues.wlock([&](auto& list) {
        // The workers read the queue contexts: stop them first (pending windows are released).
        for (auto& q : list) {
            (void)q->agent->stop_worker();
        }
        for (auto& q : list) {
            std::lock_guard lock(q->agent->mutex());
            q->agent->state().queues.clear();
        }
        for (auto& q : list) {
            {
                std::lock_guard lock(q->agent->mutex());
                q->gates.prune(unreferenced);
            }
            // Its remaining gate records may still be read by the packet processor until hsa_shut_down
            // destroys the queue: those release signals (and the in-flight signal) are the runtime's to free.
        }
        list.clear();
    });
    for (hsa_signal_t s : unreferenced) {
        destroy_signal(s);
    }
}

void forward_packet(QueueContext& q, const void* packet, hsa_amd_queue_intercept_packet_writer writer,
                    bool writing) noexcept {
    Engine* e = engine();
    if (!e || windows_over(*e)) {
        writer(packet, 1); // no replay window can open on any agent again: no gate, no marker needed
        return;
    }
    AgentContext& agent = *q.agent;
    struct {
        hsa_barrier_and_packet_t slots[3];
    } batch{};
    static_assert(sizeof(batch) == 3 * 64);
    uint32_t n = 0;
    {
        std::lock_guard lock(agent.mutex());
        AgentContext::State& st = agent.state();
        if (gate_current(st, q, batch.slots[n])) {
            ++n;
        }
        hold_behind(e->held, q, packet);
        std::memcpy(&batch.slots[n++], packet, 64);
        if (writing) {
            q.gates.add_writes(1);
            batch.slots[n++] = make_barrier_and(hsa_signal_t{0}, q.gates.in_flight);
        }
    }
    writer(&batch, n);
}

void install_queue_interceptor(CoreApiTable& core) {
    if (core.hsa_queue_create_fn != queue_create) {
        core.hsa_queue_create_fn = queue_create;
        core.hsa_queue_destroy_fn = queue_destroy;
    }
}

void install_queue_interceptor(CoreApiTable& core, AmdExtTable& amd) {
    install_queue_interceptor(core);
    if (amd.hsa_amd_queue_cu_set_mask_fn && amd.hsa_amd_queue_cu_set_mask_fn != queue_cu_set_mask) {
        amd.hsa_amd_queue_cu_set_mask_fn = queue_cu_set_mask;
    }
    if (amd.hsa_amd_queue_set_priority_fn && amd.hsa_amd_queue_set_priority_fn != queue_set_priority) {
        amd.hsa_amd_queue_set_priority_fn = queue_set_priority;
    }
}

} // namespace rs::engine
