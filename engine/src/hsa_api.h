// The HSA entry points the engine calls: copies of the runtime's tables taken in OnLoad BEFORE the
// engine installs its wrappers, so every call made from inside the engine reaches the original,
// un-wrapped function (rocr-facts.md, "Tool loading": call the saved originals, never the exports).
#pragma once

#include <hsa.h>
#include <hsa_api_trace.h>
#include <hsa_ext_amd.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace rs::engine {

/// Saved original tables. Plain data (trivially destructible): still valid while static destructors run.
struct HsaApi {
    CoreApiTable core;
    AmdExtTable amd;
};

/// The process-wide copy (filled by OnLoad).
HsaApi& hsa();

using Clock = std::chrono::steady_clock;

/// Waits until `signal` == `value` or `deadline` passes. Bounded: waits in short slices of the HSA
/// timestamp clock (HSA 1.2 §2.3.1: the timeout is a hint, so the deadline is checked on our clock).
bool wait_signal_eq(hsa_signal_t signal, hsa_signal_value_t value, Clock::time_point deadline);

/// hsa_signal_create through the original table; `ok` false on failure (handle 0).
hsa_signal_t create_signal(hsa_signal_value_t initial, bool& ok);
void destroy_signal(hsa_signal_t signal);

/// HSA_AGENT_INFO_DEVICE of `agent` (HSA_DEVICE_TYPE_GPU, ...); HSA_DEVICE_TYPE_DSP on error.
hsa_device_type_t device_type(hsa_agent_t agent);
/// HSA_AGENT_INFO_NAME of `agent` ("" on error).
std::string agent_name(hsa_agent_t agent);

/// "0x" + hex.
std::string hex(uint64_t value);

} // namespace rs::engine
