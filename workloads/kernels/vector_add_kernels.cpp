// SPDX-License-Identifier: MIT
// Simulated code object of the vector_add workload: one kernel, vector_add.kd.
#include "kernargs.h"

#include <hsa_sim/code_object.h>

namespace {

using rs::workloads::VectorAddArgs;

void vector_add(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const VectorAddArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->c[i] = args->a[i] + args->b[i];
    }
}

const hsa_sim_kernel_t kKernels[] = {
    {"vector_add.kd", vector_add, sizeof(VectorAddArgs), 0, 0},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 1, kKernels, 0, nullptr,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
