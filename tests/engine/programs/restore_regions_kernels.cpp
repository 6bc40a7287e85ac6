// SPDX-License-Identifier: MIT
// Simulated code object of engine_restore_regions: bump_regions.kd over three buffers and the
// `__device__ uint32_t bumps = 0;` variable (restore_regions.h).
#include "restore_regions.h"

#include <hsa_sim/code_object.h>

namespace {

using rs::tests::BumpRegionsArgs;

void bump_regions(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const BumpRegionsArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->a[i] += rs::tests::kBumpA;
        args->b[i] += rs::tests::kBumpB;
        args->c[i] += rs::tests::kBumpC;
    }
    if (dispatch->variable_count >= 1 && dispatch->grid_size[0] > 0) {
        __atomic_fetch_add(static_cast<uint32_t*>(dispatch->variables[0]), 1u, __ATOMIC_RELAXED);
    }
}

const hsa_sim_kernel_t kKernels[] = {
    {"bump_regions.kd", bump_regions, sizeof(BumpRegionsArgs), 0, 0},
};

const uint32_t kBumpsInitial = 0;

const hsa_sim_variable_t kVariables[] = {
    {"bumps", sizeof(uint32_t), &kBumpsInitial, HSA_SIM_VARIABLE_DEVICE},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 1, kKernels, 1, kVariables,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
