// SPDX-License-Identifier: MIT
// Setup shared by the engine tests that run engine sources in process on the simulated runtime
// (tst_device_hasher, tst_snapshot_store, tst_snapshot_agent_address): the agent and pool look-ups
// and the saved API tables, which the simulator's table tool (rs_simtest_table_tool, loaded through
// HSA_TOOLS_LIB by hsa_init) keeps as the engine keeps them in OnLoad.
#pragma once

#include "hsa_api.h"

#include <hsa.h>
#include <hsa_api_trace.h>
#include <hsa_ext_amd.h>

#include <dlfcn.h>

#include <cstdint>

namespace rs::test {

/// hsa_iterate_agents callback: stores the first GPU agent in `data` (an hsa_agent_t*, left alone when
/// there is none) and stops.
inline hsa_status_t find_gpu(hsa_agent_t agent, void* data) {
    hsa_device_type_t type{};
    hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
    if (type == HSA_DEVICE_TYPE_GPU) {
        *static_cast<hsa_agent_t*>(data) = agent;
        return HSA_STATUS_INFO_BREAK;
    }
    return HSA_STATUS_SUCCESS;
}

/// hsa_amd_agent_iterate_memory_pools callback: stores the agent's first global coarse-grained memory
/// pool in `data` (an hsa_amd_memory_pool_t*, left alone when there is none) and stops.
inline hsa_status_t find_coarse_pool(hsa_amd_memory_pool_t pool, void* data) {
    uint32_t flags = 0;
    hsa_amd_segment_t segment{};
    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
    if (segment == HSA_AMD_SEGMENT_GLOBAL && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)) {
        *static_cast<hsa_amd_memory_pool_t*>(data) = pool;
        return HSA_STATUS_INFO_BREAK;
    }
    return HSA_STATUS_SUCCESS;
}

/// After hsa_init with HSA_TOOLS_LIB=`tool` (the table tool's path): copies the core and AMD extension
/// tables the tool saved in its OnLoad into rs::engine::hsa(). False (hsa() untouched) when the tool is
/// not loaded in the process or its OnLoad did not run.
inline bool take_saved_tables(const char* tool) {
    void* handle = dlopen(tool, RTLD_NOW | RTLD_NOLOAD);
    if (!handle) {
        return false;
    }
    const auto* loaded = static_cast<const int*>(dlsym(handle, "rs_table_tool_loaded"));
    const auto* core = static_cast<const CoreApiTable*>(dlsym(handle, "rs_saved_core"));
    const auto* amd = static_cast<const AmdExtTable*>(dlsym(handle, "rs_saved_amd_ext"));
    if (!loaded || *loaded != 1 || !core || !amd) {
        return false;
    }
    rs::engine::hsa().core = *core;
    rs::engine::hsa().amd = *amd;
    return true;
}

} // namespace rs::test
