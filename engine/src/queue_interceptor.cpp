#include "queue_interceptor.h"

#include "agent_context.h"
#include "engine.h"
#include "graph_launch.h"
#include "hsa_api.h"
#include "kernarg_scan.h"
#include "replay_window.h"

#include <cstring>
#include <mutex>
#include <shared_mutex>

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
        if (write > q.batch_end)
            q.batch_end = write;
    }
    return batch;
}

void intercept_handler(const void* packets, uint64_t count, uint64_t index, void* data,
                       hsa_amd_queue_intercept_packet_writer writer) {
    auto* q = static_cast<QueueContext*>(data);
    Engine* e = g_finalized.load(std::memory_order_acquire) ? nullptr : engine();
    if (!e || !q || count != 1) {
        // Several packets per call happen only on newer runtimes: never replayed, forwarded at once.
        writer(packets, count);
        return;
    }
    if (packet_type(packets) != HSA_PACKET_TYPE_KERNEL_DISPATCH) {
        forward_packet(*q, packets, writer);
        return;
    }
    hsa_kernel_dispatch_packet_t p;
    std::memcpy(&p, packets, sizeof p);
    // Counted open before the id is taken: forward_packet drops its marker only when every id is past
    // the dispatch window AND no handler that took an id is still open (seq_cst pairs with it).
    e->open_windows.fetch_add(1);
    struct CloseWindow {
        Engine& engine;
        ~CloseWindow() { engine.open_windows.fetch_sub(1); }
    } close_window{*e};
    const uint64_t id = e->next_dispatch_id.fetch_add(1);
    std::string kernel;
    DispatchDecision decision = DispatchDecision::replayed;
    try {
        const ExecutableRegistry::Kernel symbol = e->executables.kernel(p.kernel_object);
        kernel = symbol.name;
        if (part_of_batch(*q, index)) {
            decision = DispatchDecision::declined_multi_packet;
        } else if (graph_launch_active()) {
            decision = DispatchDecision::declined_graph_launch;
            if (first_graph_launch_decline())
                e->sink->warning(
                    WarningCode::graph_launch, id,
                    "HIP graph launches are not replayed: their dispatches run once (warned once)");
        } else if (is_runtime_kernel(kernel)) {
            decision = DispatchDecision::declined_runtime_kernel;
        } else if (!e->config.dispatch_selected(id - 1) || !e->config.kernel_selected(kernel)) {
            decision = DispatchDecision::declined_filtered;
        } else if (kernarg_points_into(p.kernarg_address, symbol.kernarg_size, e->unrestorable)) {
            decision = DispatchDecision::declined_unrestorable_memory;
        }
        if (decision == DispatchDecision::replayed)
            decision = ReplayWindow(*e, *q, id).run(p, writer);
        else
            forward_packet(*q, packets, writer);
    } catch (...) {
        // Only reachable before the writer was called (allocation failure in bookkeeping).
        decision = DispatchDecision::declined_snapshot_incomplete;
        forward_packet(*q, packets, writer);
    }
    report_dispatch(*e, *q, id, p, kernel, decision);
}

hsa_status_t queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                          void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data,
                          uint32_t private_segment_size, uint32_t group_segment_size, hsa_queue_t** queue) {
    const auto original = [&] {
        return hsa().core.hsa_queue_create_fn(agent, size, type, callback, data, private_segment_size,
                                              group_segment_size, queue);
    };
    Engine* e = engine();
    if (!e || g_finalized.load(std::memory_order_acquire) || !e->config.replay_enabled() || !queue)
        return original();
    AgentContext* ctx = nullptr;
    std::unique_ptr<QueueContext> q;
    try {
        ctx = e->agents.get(agent, e->config);
        if (!ctx || !ctx->selected())
            return original();
        q = std::make_unique<QueueContext>();
    } catch (...) {
        return original();
    }
    const auto& amd = hsa().amd;
    hsa_status_t st = amd.hsa_amd_queue_intercept_create_fn(agent, size, type, callback, data,
                                                            private_segment_size, group_segment_size, queue);
    if (st != HSA_STATUS_SUCCESS)
        return original();
    q->proxy = *queue;
    q->agent = ctx;
    QueueContext* raw = q.get();
    try {
        e->queues.wlock([&](auto& list) { list.push_back(std::move(q)); });
    } catch (...) {
        return HSA_STATUS_SUCCESS; // a plain proxy without handler: packets pass straight through
    }
    if (amd.hsa_amd_queue_intercept_register_fn(*queue, intercept_handler, raw) != HSA_STATUS_SUCCESS)
        e->sink->warning(WarningCode::general, 0,
                         "hsa_amd_queue_intercept_register failed: queue not replayed");
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
        }
    }
    const hsa_status_t st = hsa().core.hsa_queue_destroy_fn(queue);
    // The application waited for its packets (HSA: destroying a queue with packets in flight is
    // undefined), so every barrier that referenced the last windows' fence/done signals has completed.
    if (context)
        for (hsa_signal_t s : context->retired)
            destroy_signal(s);
    return st;
}

} // namespace

void release_intercepted_queues() {
    Engine* e = engine();
    if (!e)
        return;
    e->queues.wlock([](auto& list) {
        for (auto& q : list)
            for (hsa_signal_t s : q->retired)
                destroy_signal(s);
        list.clear();
    });
}

void forward_packet(QueueContext& q, const void* packet, hsa_amd_queue_intercept_packet_writer writer) {
    AgentContext& agent = *q.agent;
    std::shared_lock lock(agent.replay_lock(), std::defer_lock);
    Engine* e = engine();
    const auto timeout = e ? e->config.drain_timeout : std::chrono::milliseconds(10000);
    // Waits while a replay window of the agent runs, so nothing new executes inside it (bounded).
    if (!lock.try_lock_for(timeout) && e)
        e->sink->warning(WarningCode::general, 0,
                         "forwarded a packet while a replay window held the agent too long");
    if (e && e->config.dispatch_count != 0 &&
        e->next_dispatch_id.load() > e->config.dispatch_skip + e->config.dispatch_count &&
        e->open_windows.load() == 0) {
        writer(packet, 1); // no replay window can open on any agent again: no marker needed
        return;
    }
    struct {
        unsigned char packet[64];
        hsa_barrier_and_packet_t marker;
    } batch;
    static_assert(sizeof(batch) == 128);
    std::memcpy(batch.packet, packet, 64);
    batch.marker = make_barrier_and(hsa_signal_t{0}, agent.in_flight());
    hsa().core.hsa_signal_add_scacq_screl_fn(agent.in_flight(), 1);
    writer(&batch, 2);
}

void install_queue_interceptor(CoreApiTable& core) {
    if (core.hsa_queue_create_fn != queue_create) {
        core.hsa_queue_create_fn = queue_create;
        core.hsa_queue_destroy_fn = queue_destroy;
    }
}

} // namespace rs::engine
