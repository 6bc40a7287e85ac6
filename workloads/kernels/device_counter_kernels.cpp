// SPDX-License-Identifier: MIT
// Simulated code object of the device_counter workload: `__device__ uint32_t dispatch_counter = 0;` and
// count_dispatch.kd, which adds its kernarg increment to it once per dispatch (by work-item 0 only).
#include "kernargs.h"

#include <hsa_sim/code_object.h>

namespace {

using rs::workloads::CountDispatchArgs;

void count_dispatch(const hsa_sim_dispatch_t* dispatch) {
    if (dispatch->variable_count < 1 || dispatch->grid_size[0] == 0) {
        return;
    }
    const auto* args = static_cast<const CountDispatchArgs*>(dispatch->kernarg);
    auto* counter = static_cast<uint32_t*>(dispatch->variables[0]);
    __atomic_fetch_add(counter, args->increment, __ATOMIC_RELAXED);
}

const hsa_sim_kernel_t kKernels[] = {
    {"count_dispatch.kd", count_dispatch, sizeof(CountDispatchArgs), 0, 0},
};

const uint32_t kCounterInitial = 0;

const hsa_sim_variable_t kVariables[] = {
    {"dispatch_counter", sizeof(uint32_t), &kCounterInitial, HSA_SIM_VARIABLE_DEVICE},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 1, kKernels, 1, kVariables,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
