// SPDX-License-Identifier: MIT
/*
 * A test tool that keeps copies of the core and AMD-extension API tables it is handed, so that a test
 * can reach tool-only entry points (hsa_amd_queue_intercept_create/register) that the runtime does not
 * export. The test finds the copies with dlopen(RTLD_NOLOAD) + dlsym.
 */
#include <hsa_api_trace.h>

extern "C" {
__attribute__((visibility("default"))) CoreApiTable rs_saved_core;
__attribute__((visibility("default"))) AmdExtTable rs_saved_amd_ext;
__attribute__((visibility("default"))) int rs_table_tool_loaded = 0;

__attribute__((visibility("default"))) bool OnLoad(HsaApiTable* table, uint64_t, uint64_t,
                                                   const char* const*) {
    if (!table || !table->core_ || !table->amd_ext_) {
        return false;
    }
    rs_saved_core = *table->core_;
    rs_saved_amd_ext = *table->amd_ext_;
    rs_table_tool_loaded = 1;
    return true;
}
}
