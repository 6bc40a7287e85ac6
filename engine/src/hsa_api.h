// SPDX-License-Identifier: MIT
// The HSA entry points the engine calls: copies of the runtime's tables taken in OnLoad BEFORE the
// engine installs its wrappers, so every call made from inside the engine reaches the original,
// un-wrapped function (docs/rocm-behaviour.md#tool-loading: call the saved originals, never the exports).
#pragma once

#include <hsa.h>
#include <hsa_api_trace.h>
#include <hsa_ext_amd.h>
#include <hsa_ven_amd_aqlprofile.h>
#include <hsa_ven_amd_loader.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace rs::engine {

/// Saved original tables. Plain data (trivially destructible): still valid while static destructors run.
struct HsaApi {
    CoreApiTable core;
    AmdExtTable amd;
    /// Loader extension 1.03 (docs/rocm-behaviour.md#table-layout-and-versions: Debian's ROCr exports no
    /// hsa_ven_amd_loader_* symbol, the table comes from hsa_system_get_major_extension_table). `has_loader`
    /// false when refused.
    hsa_ven_amd_loader_1_03_pfn_t loader;
    bool has_loader;
    /// AMD aqlprofile extension 1.00, from hsa_system_get_major_extension_table too
    /// (load_aqlprofile_extension, counter_collection.h); `has_aqlprofile` false when the runtime has none.
    hsa_ven_amd_aqlprofile_1_00_pfn_t aqlprofile;
    bool has_aqlprofile;
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

/// Whether `pool` is a global-segment memory pool the runtime allocates from on request
/// (HSA_AMD_MEMORY_POOL_INFO_SEGMENT global, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED true); its
/// HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS go to `flags`. False when it is not, or when the runtime refuses
/// one of the three queries (`flags` is then unspecified).
bool allocatable_global_pool(hsa_amd_memory_pool_t pool, uint32_t& flags);

/// Fills hsa().loader through the saved hsa_system_get_major_extension_table (call after saving core).
void load_loader_extension();

/// The loaded code objects of a frozen executable: (handle, agent, URI) each; empty without the loader
/// extension or when it refuses the executable.
struct LoadedCodeObject {
    uint64_t handle;
    uint64_t agent;
    std::string uri;
};
std::vector<LoadedCodeObject> loaded_code_objects(hsa_executable_t exe);

/// "0x" + hex.
std::string hex(uint64_t value);

} // namespace rs::engine
