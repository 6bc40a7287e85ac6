// SPDX-License-Identifier: MIT
// Simulated code object of the replay-window workloads: late_fill.kd (writes its output only at its
// end), add_one.kd (in place) and set_values.kd (plain writes). Separate kernels from accumulate_kernels.so
// so that HSA_SIM_KERNEL_TIME_NS and the engine's kernel filters can tell them apart by name.
#include "window_kernels.h"

#include <hsa_sim/code_object.h>

#include <chrono>
#include <thread>

namespace {

using rs::workloads::AddOneArgs;
using rs::workloads::LateFillArgs;
using rs::workloads::SetValuesArgs;

void late_fill(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const LateFillArgs*>(dispatch->kernarg);
    std::this_thread::sleep_for(std::chrono::nanoseconds(args->delay_ns));
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->data[i] = args->value + i;
    }
}

void add_one(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const AddOneArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->data[i] += 1;
    }
}

void set_values(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const SetValuesArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->data[i] = args->value + i;
    }
}

const hsa_sim_kernel_t kKernels[] = {
    {"late_fill.kd", late_fill, sizeof(LateFillArgs), 0, 0},
    {"add_one.kd", add_one, sizeof(AddOneArgs), 0, 0},
    {"set_values.kd", set_values, sizeof(SetValuesArgs), 0, 0},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 3, kKernels, 0, nullptr,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
