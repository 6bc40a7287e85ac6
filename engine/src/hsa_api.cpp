// SPDX-License-Identifier: MIT
#include "hsa_api.h"

#include <cstdio>

namespace rs::engine {

namespace {
HsaApi g_hsa{};
uint64_t g_wait_slice_ticks = 0; // set on first wait (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY / 100)
} // namespace

HsaApi& hsa() {
    return g_hsa;
}

bool wait_signal_eq(hsa_signal_t signal, hsa_signal_value_t value, Clock::time_point deadline) {
    uint64_t slice = __atomic_load_n(&g_wait_slice_ticks, __ATOMIC_RELAXED);
    if (slice == 0) {
        uint64_t frequency = 0;
        if (g_hsa.core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency) !=
                HSA_STATUS_SUCCESS ||
            frequency == 0) {
            frequency = 1'000'000'000;
        }
        slice = frequency / 100; // 10 ms
        __atomic_store_n(&g_wait_slice_ticks, slice, __ATOMIC_RELAXED);
    }
    for (;;) {
        const hsa_signal_value_t v = g_hsa.core.hsa_signal_wait_scacquire_fn(
            signal, HSA_SIGNAL_CONDITION_EQ, value, slice, HSA_WAIT_STATE_BLOCKED);
        if (v == value) {
            return true;
        }
        if (Clock::now() >= deadline) {
            return g_hsa.core.hsa_signal_load_scacquire_fn(signal) == value;
        }
    }
}

hsa_signal_t create_signal(hsa_signal_value_t initial, bool& ok) {
    hsa_signal_t s{0};
    ok = g_hsa.core.hsa_signal_create_fn(initial, 0, nullptr, &s) == HSA_STATUS_SUCCESS && s.handle != 0;
    return s;
}

void destroy_signal(hsa_signal_t signal) {
    if (signal.handle != 0) {
        (void)g_hsa.core.hsa_signal_destroy_fn(signal);
    }
}

hsa_device_type_t device_type(hsa_agent_t agent) {
    hsa_device_type_t type = HSA_DEVICE_TYPE_DSP;
    if (g_hsa.core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) {
        return HSA_DEVICE_TYPE_DSP;
    }
    return type;
}

bool allocatable_global_pool(hsa_amd_memory_pool_t pool, uint32_t& flags) {
    const auto& amd = g_hsa.amd;
    hsa_amd_segment_t segment{};
    bool alloc_allowed = false;
    return amd.hsa_amd_memory_pool_get_info_fn(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) ==
               HSA_STATUS_SUCCESS &&
           segment == HSA_AMD_SEGMENT_GLOBAL &&
           amd.hsa_amd_memory_pool_get_info_fn(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
                                               &alloc_allowed) == HSA_STATUS_SUCCESS &&
           alloc_allowed &&
           amd.hsa_amd_memory_pool_get_info_fn(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags) ==
               HSA_STATUS_SUCCESS;
}

std::string agent_name(hsa_agent_t agent) {
    char name[64] = {};
    if (g_hsa.core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_NAME, name) != HSA_STATUS_SUCCESS) {
        return {};
    }
    name[63] = '\0';
    return name;
}

void load_loader_extension() {
    g_hsa.has_loader = g_hsa.core.hsa_system_get_major_extension_table_fn(
                           HSA_EXTENSION_AMD_LOADER, 1, sizeof(hsa_ven_amd_loader_1_03_pfn_t),
                           &g_hsa.loader) == HSA_STATUS_SUCCESS;
}

namespace {

hsa_status_t collect_code_object(hsa_executable_t, hsa_loaded_code_object_t lco, void* data) {
    auto* out = static_cast<std::vector<LoadedCodeObject>*>(data);
    const auto get = g_hsa.loader.hsa_ven_amd_loader_loaded_code_object_get_info;
    LoadedCodeObject c{lco.handle, 0, {}};
    hsa_agent_t agent{0};
    if (get(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &agent) == HSA_STATUS_SUCCESS) {
        c.agent = agent.handle;
    }
    uint32_t length = 0;
    if (get(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &length) == HSA_STATUS_SUCCESS &&
        length > 0) {
        c.uri.assign(length, '\0');
        if (get(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, c.uri.data()) != HSA_STATUS_SUCCESS) {
            c.uri.clear();
        }
    }
    out->push_back(std::move(c));
    return HSA_STATUS_SUCCESS;
}

} // namespace

std::vector<LoadedCodeObject> loaded_code_objects(hsa_executable_t exe) {
    std::vector<LoadedCodeObject> out;
    if (g_hsa.has_loader && g_hsa.loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects &&
        g_hsa.loader.hsa_ven_amd_loader_loaded_code_object_get_info) {
        (void)g_hsa.loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(exe, collect_code_object,
                                                                                     &out);
    }
    return out;
}

std::string hex(uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
    return buffer;
}

} // namespace rs::engine
