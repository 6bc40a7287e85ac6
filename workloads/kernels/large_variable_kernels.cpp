// SPDX-License-Identifier: MIT
// Simulated code object of the large_module_variable workload: `__device__ uint32_t large_table[]` of
// 1 GiB + 4 KiB (one page over the engine's 1 GiB cap on module variables, zero-initialised, never
// written), a small `__device__ uint32_t dispatch_total` and large_table_read.kd, which adds
// 1 + large_table[i] to out[i] and 1 to dispatch_total: the dispatch reads the large variable and writes
// tracked memory and a captured variable, so its replay is still checked.
#include "kernargs.h"

#include <hsa_sim/code_object.h>

namespace {

using rs::workloads::TableLookupArgs;

constexpr uint64_t kLargeTableBytes = (1ull << 30) + 4096;

void large_table_read(const hsa_sim_dispatch_t* dispatch) {
    if (dispatch->variable_count < 2) {
        return;
    }
    const auto* args = static_cast<const TableLookupArgs*>(dispatch->kernarg);
    const auto* table = static_cast<const uint32_t*>(dispatch->variables[0]);
    auto* total = static_cast<uint32_t*>(dispatch->variables[1]);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->out[i] += 1 + table[i];
    }
    *total += 1;
}

const hsa_sim_kernel_t kKernels[] = {
    {"large_table_read.kd", large_table_read, sizeof(TableLookupArgs), 0, 0},
};

const hsa_sim_variable_t kVariables[] = {
    {"large_table", kLargeTableBytes, nullptr, HSA_SIM_VARIABLE_DEVICE},
    {"dispatch_total", sizeof(uint32_t), nullptr, HSA_SIM_VARIABLE_DEVICE},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 1, kKernels, 2, kVariables,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
