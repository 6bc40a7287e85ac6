// SPDX-License-Identifier: MIT
// AMD extension entry points HIP links against beyond memory, signals and queues' basics: queue priority
// and CU masks, coherency, async-copy timestamps, and the entry points the simulator exports only so that
// HIP loads (images, samplers, IPC, interop, agent-defined variables), which fail with
// HSA_STATUS_ERROR (docs/sim-fidelity.md). SVM attributes and prefetch live in api_svm.cpp.
#include "api.h"
#include "queue_controller.h"
#include "runtime.h"
#include "sim_signal.h"

#include <algorithm>

namespace sim::api {

hsa_status_t hsa_amd_queue_set_priority(hsa_queue_t* queue, hsa_amd_queue_priority_t priority) {
    SIM_REQUIRE_INIT();
    QueueHeader* h = QueueHeader::from(queue);
    if (!h) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    if (priority != HSA_AMD_QUEUE_PRIORITY_LOW && priority != HSA_AMD_QUEUE_PRIORITY_NORMAL &&
        priority != HSA_AMD_QUEUE_PRIORITY_HIGH) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    h->controller->settings().priority.store(priority, std::memory_order_release);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_cu_set_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                       const uint32_t* cu_mask) {
    SIM_REQUIRE_INIT();
    QueueHeader* h = QueueHeader::from(queue);
    if (!h) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    // As ROCr 5.2.3: the count is in bits and a multiple of 32; 0 restores the full mask.
    if (num_cu_mask_count != 0 && !cu_mask) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (num_cu_mask_count % 32 != 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    QueueHeader& target = h->controller->settings(); // an intercept proxy forwards to its lower queue
    std::lock_guard lock(target.cu_mask_mutex);
    target.cu_mask.assign(cu_mask, cu_mask + num_cu_mask_count / 32);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_cu_get_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                       uint32_t* cu_mask) {
    SIM_REQUIRE_INIT();
    if (!cu_mask) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    QueueHeader* h = QueueHeader::from(queue);
    if (!h) {
        return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    if (num_cu_mask_count == 0 || num_cu_mask_count % 32 != 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // The recorded mask; bits of compute units it does not name are set (the default enables all 104).
    constexpr uint32_t kComputeUnits = 104;
    QueueHeader& source = h->controller->settings();
    std::lock_guard lock(source.cu_mask_mutex);
    for (uint32_t word = 0; word < num_cu_mask_count / 32; ++word) {
        uint32_t all = 0;
        for (uint32_t bit = 0; bit < 32; ++bit) {
            all |= (word * 32 + bit < kComputeUnits) ? (1u << bit) : 0u;
        }
        cu_mask[word] =
            source.cu_mask.empty() ? all : (word < source.cu_mask.size() ? source.cu_mask[word] & all : 0u);
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t* type) {
    SIM_REQUIRE_INIT();
    Agent* a = Runtime::instance().agent(agent);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (!type) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!a->is_gpu()) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    *type = a->coherency;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type) {
    SIM_REQUIRE_INIT();
    Agent* a = Runtime::instance().agent(agent);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (type != HSA_AMD_COHERENCY_TYPE_COHERENT && type != HSA_AMD_COHERENCY_TYPE_NONCOHERENT) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!a->is_gpu()) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    a->coherency = type;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
                                                   hsa_amd_profiling_async_copy_time_t* time) {
    SIM_REQUIRE_INIT();
    if (!time) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    Signal* s = Signal::from(signal);
    if (!s) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    // As ROCr: HSA_STATUS_ERROR unless a profiled async copy completed this signal.
    if (!s->async_copy_timed.load(std::memory_order_acquire)) {
        return HSA_STATUS_ERROR;
    }
    time->start = s->dispatch_start.load(std::memory_order_relaxed);
    time->end = s->dispatch_end.load(std::memory_order_relaxed);
    return HSA_STATUS_SUCCESS;
}

// ---- Exported for HIP's sake, not supported: each returns HSA_STATUS_ERROR after the initialisation check.

hsa_status_t hsa_executable_agent_global_variable_define(hsa_executable_t, hsa_agent_t, const char*, void*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_image_create(hsa_agent_t, const hsa_ext_image_descriptor_t*,
                                  const hsa_amd_image_descriptor_t*, const void*, hsa_access_permission_t,
                                  hsa_ext_image_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_interop_map_buffer(uint32_t, hsa_agent_t*, int, uint32_t, size_t*, void**, size_t*,
                                        const void**) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_interop_unmap_buffer(void*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_ipc_memory_create(void*, size_t, hsa_amd_ipc_memory_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t*, size_t, uint32_t, const hsa_agent_t*,
                                       void**) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_ipc_memory_detach(void*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_image_create(hsa_agent_t, const hsa_ext_image_descriptor_t*, const void*,
                                  hsa_access_permission_t, hsa_ext_image_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_image_create_with_layout(hsa_agent_t, const hsa_ext_image_descriptor_t*, const void*,
                                              hsa_access_permission_t, hsa_ext_image_data_layout_t, size_t,
                                              size_t, hsa_ext_image_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_image_data_get_info(hsa_agent_t, const hsa_ext_image_descriptor_t*,
                                         hsa_access_permission_t, hsa_ext_image_data_info_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_image_destroy(hsa_agent_t, hsa_ext_image_t) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_image_export(hsa_agent_t, hsa_ext_image_t, void*, size_t, size_t,
                                  const hsa_ext_image_region_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_image_import(hsa_agent_t, const void*, size_t, size_t, hsa_ext_image_t,
                                  const hsa_ext_image_region_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_sampler_create(hsa_agent_t, const hsa_ext_sampler_descriptor_t*, hsa_ext_sampler_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ext_sampler_destroy(hsa_agent_t, hsa_ext_sampler_t) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

} // namespace sim::api
