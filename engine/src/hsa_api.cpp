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
            frequency == 0)
            frequency = 1'000'000'000;
        slice = frequency / 100; // 10 ms
        __atomic_store_n(&g_wait_slice_ticks, slice, __ATOMIC_RELAXED);
    }
    for (;;) {
        const hsa_signal_value_t v = g_hsa.core.hsa_signal_wait_scacquire_fn(
            signal, HSA_SIGNAL_CONDITION_EQ, value, slice, HSA_WAIT_STATE_BLOCKED);
        if (v == value)
            return true;
        if (Clock::now() >= deadline)
            return g_hsa.core.hsa_signal_load_scacquire_fn(signal) == value;
    }
}

hsa_signal_t create_signal(hsa_signal_value_t initial, bool& ok) {
    hsa_signal_t s{0};
    ok = g_hsa.core.hsa_signal_create_fn(initial, 0, nullptr, &s) == HSA_STATUS_SUCCESS && s.handle != 0;
    return s;
}

void destroy_signal(hsa_signal_t signal) {
    if (signal.handle != 0)
        (void)g_hsa.core.hsa_signal_destroy_fn(signal);
}

hsa_device_type_t device_type(hsa_agent_t agent) {
    hsa_device_type_t type = HSA_DEVICE_TYPE_DSP;
    if (g_hsa.core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
        return HSA_DEVICE_TYPE_DSP;
    return type;
}

std::string agent_name(hsa_agent_t agent) {
    char name[64] = {};
    if (g_hsa.core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_NAME, name) != HSA_STATUS_SUCCESS)
        return {};
    name[63] = '\0';
    return name;
}

std::string hex(uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
    return buffer;
}

} // namespace rs::engine
