// SPDX-License-Identifier: MIT
// Queue entry points (HSA 1.2 §2.6), intercept queues (hsa_api_trace.h) and dispatch profiling.
#include "api.h"
#include "hardware_queue.h"
#include "intercept_queue.h"
#include "runtime.h"
#include "sim_signal.h"

#include <new>
#include <type_traits>

namespace sim::api {

namespace {

bool valid_size(Agent* a, uint32_t size) {
    return a && a->is_gpu() && size >= 64 && size <= 131072 && (size & (size - 1)) == 0;
}

template <typename Queue>
hsa_status_t create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                    void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data, hsa_queue_t** queue) {
    SIM_REQUIRE_INIT();
    auto& rt = Runtime::instance();
    Agent* a = rt.agent(agent);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    // ROCr 5.2.3 hsa_queue_create: a type past COOPERATIVE is invalid.
    if (!queue || !valid_size(a, size) || type > HSA_QUEUE_TYPE_COOPERATIVE) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (rt.config().next_queue_create_fails()) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES; // HSA_SIM_FAIL_QUEUE_CREATE
    }
    if constexpr (std::is_same_v<Queue, HardwareQueue>) {
        if (type == HSA_QUEUE_TYPE_COOPERATIVE) {
            // ROCr 5.2.3 GpuAgent::QueueCreate: every caller gets the agent's one cooperative queue (size
            // fixed, reference counted; the requested size is ignored).
            HardwareQueue* shared = rt.acquire_cooperative_queue(a, callback, data);
            if (!shared) {
                return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
            }
            *queue = &shared->header().queue;
            return HSA_STATUS_SUCCESS;
        }
    }
    auto* q = new (std::nothrow) Queue(a, size, type, callback, data);
    bool valid = q && q->header().queue.base_address;
    if constexpr (std::is_same_v<Queue, InterceptQueue>) {
        valid = valid && q->valid();
    }
    if (!valid) {
        delete q;
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    rt.track_queue(q);
    *queue = &q->header().queue;
    return HSA_STATUS_SUCCESS;
}

QueueHeader* header_of(const hsa_queue_t* q) {
    return QueueHeader::from(q);
}

} // namespace

hsa_status_t hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                              void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data, uint32_t,
                              uint32_t, hsa_queue_t** queue) {
    return create<HardwareQueue>(agent, size, type, callback, data, queue);
}

hsa_status_t hsa_amd_queue_intercept_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                            void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data,
                                            uint32_t, uint32_t, hsa_queue_t** queue) {
    return create<InterceptQueue>(agent, size, type, callback, data, queue);
}

hsa_status_t hsa_amd_queue_intercept_register(hsa_queue_t* queue, hsa_amd_queue_intercept_handler callback,
                                              void* user_data) {
    SIM_REQUIRE_INIT();
    QueueHeader* h = header_of(queue);
    if (!h) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    auto* iq = dynamic_cast<InterceptQueue*>(h->controller);
    if (!iq || !callback) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    iq->add_handler(callback, user_data);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_destroy(hsa_queue_t* queue) {
    SIM_REQUIRE_INIT();
    QueueHeader* h = header_of(queue);
    if (!h) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    QueueController* c = h->controller;
    if (Runtime::instance().is_cooperative_queue(c)) {
        Runtime::instance().release_cooperative_queue(h->agent); // ROCr: AqlQueue::Destroy -> GWSRelease
        return HSA_STATUS_SUCCESS;
    }
    Runtime::instance().untrack_queue(c);
    delete c;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_inactivate(hsa_queue_t* queue) {
    SIM_REQUIRE_INIT();
    QueueHeader* h = header_of(queue);
    if (!h) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    h->controller->inactivate();
    return HSA_STATUS_SUCCESS;
}

uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t* q) {
    QueueHeader* h = header_of(q);
    return h ? h->read_index.load(std::memory_order_acquire) : 0;
}
uint64_t hsa_queue_load_read_index_relaxed(const hsa_queue_t* q) {
    QueueHeader* h = header_of(q);
    return h ? h->read_index.load(std::memory_order_relaxed) : 0;
}
uint64_t hsa_queue_load_write_index_scacquire(const hsa_queue_t* q) {
    QueueHeader* h = header_of(q);
    return h ? h->write_index.load(std::memory_order_acquire) : 0;
}
uint64_t hsa_queue_load_write_index_relaxed(const hsa_queue_t* q) {
    QueueHeader* h = header_of(q);
    return h ? h->write_index.load(std::memory_order_relaxed) : 0;
}
void hsa_queue_store_write_index_relaxed(const hsa_queue_t* q, uint64_t v) {
    if (QueueHeader* h = header_of(q)) {
        h->write_index.store(v, std::memory_order_relaxed);
    }
}
void hsa_queue_store_write_index_screlease(const hsa_queue_t* q, uint64_t v) {
    if (QueueHeader* h = header_of(q)) {
        h->write_index.store(v, std::memory_order_release);
    }
}
uint64_t hsa_queue_cas_write_index_scacq_screl(const hsa_queue_t* q, uint64_t expected, uint64_t v) {
    QueueHeader* h = header_of(q);
    if (!h) {
        return 0;
    }
    h->write_index.compare_exchange_strong(expected, v, std::memory_order_acq_rel);
    return expected;
}
uint64_t hsa_queue_cas_write_index_scacquire(const hsa_queue_t* q, uint64_t e, uint64_t v) {
    return api::hsa_queue_cas_write_index_scacq_screl(q, e, v);
}
uint64_t hsa_queue_cas_write_index_relaxed(const hsa_queue_t* q, uint64_t e, uint64_t v) {
    return api::hsa_queue_cas_write_index_scacq_screl(q, e, v);
}
uint64_t hsa_queue_cas_write_index_screlease(const hsa_queue_t* q, uint64_t e, uint64_t v) {
    return api::hsa_queue_cas_write_index_scacq_screl(q, e, v);
}
uint64_t hsa_queue_add_write_index_scacq_screl(const hsa_queue_t* q, uint64_t v) {
    QueueHeader* h = header_of(q);
    return h ? h->write_index.fetch_add(v, std::memory_order_acq_rel) : 0;
}
uint64_t hsa_queue_add_write_index_scacquire(const hsa_queue_t* q, uint64_t v) {
    return api::hsa_queue_add_write_index_scacq_screl(q, v);
}
uint64_t hsa_queue_add_write_index_relaxed(const hsa_queue_t* q, uint64_t v) {
    return api::hsa_queue_add_write_index_scacq_screl(q, v);
}
uint64_t hsa_queue_add_write_index_screlease(const hsa_queue_t* q, uint64_t v) {
    return api::hsa_queue_add_write_index_scacq_screl(q, v);
}
void hsa_queue_store_read_index_relaxed(const hsa_queue_t* q, uint64_t v) {
    // Reserved to the packet processor by the spec; accepted as ROCr does.
    if (QueueHeader* h = header_of(q)) {
        h->read_index.store(v, std::memory_order_relaxed);
    }
}
void hsa_queue_store_read_index_screlease(const hsa_queue_t* q, uint64_t v) {
    if (QueueHeader* h = header_of(q)) {
        h->read_index.store(v, std::memory_order_release);
    }
}

hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t* queue, int enable) {
    SIM_REQUIRE_INIT();
    QueueHeader* h = header_of(queue);
    if (!h) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    h->controller->set_profiling(enable != 0);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_async_copy_enable(bool enable) {
    SIM_REQUIRE_INIT();
    Runtime::instance().async_copy_profiling().store(enable, std::memory_order_release);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                 hsa_amd_profiling_dispatch_time_t* time) {
    SIM_REQUIRE_INIT();
    if (!Runtime::instance().agent(agent)) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    Signal* s = Signal::from(signal);
    if (!s) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    if (!time) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // Ticks in the system domain (ns), as ROCr converts them before returning.
    time->end = s->dispatch_end.load(std::memory_order_acquire);
    time->start = s->dispatch_start.load(std::memory_order_relaxed);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent, uint64_t agent_tick,
                                                             uint64_t* system_tick) {
    SIM_REQUIRE_INIT();
    if (!Runtime::instance().agent(agent)) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (!system_tick) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *system_tick = agent_tick; // the simulated agents tick in the system domain
    return HSA_STATUS_SUCCESS;
}

} // namespace sim::api
