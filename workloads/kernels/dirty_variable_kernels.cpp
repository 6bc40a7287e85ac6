// SPDX-License-Identifier: MIT
// Simulated code object dirty_variable_kernels.so: the `__device__` variable dirty_table
// (kDirtyTableBytes bytes, byte i = i % 251) and bump_variable.kd, which adds 1 to one byte of it
// (dirty_kernels.h), for workloads/dirty_restore.cpp's module-variable case.
#include "dirty_kernels.h"

#include <hsa_sim/code_object.h>

#include <array>

namespace {

using namespace rs::workloads;

const std::array<uint8_t, kDirtyTableBytes> kInitial = [] {
    std::array<uint8_t, kDirtyTableBytes> bytes{};
    for (uint64_t i = 0; i < kDirtyTableBytes; ++i) {
        bytes[i] = static_cast<uint8_t>(i % 251);
    }
    return bytes;
}();

void bump_variable(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const BumpVariableArgs*>(dispatch->kernarg);
    if (dispatch->variable_count < 1 || args->offset >= kDirtyTableBytes) {
        return;
    }
    static_cast<uint8_t*>(dispatch->variables[0])[args->offset] += 1;
}

const hsa_sim_kernel_t kKernels[] = {
    {"bump_variable.kd", bump_variable, sizeof(BumpVariableArgs), 0, 0},
};

const hsa_sim_variable_t kVariables[] = {
    {"dirty_table", kDirtyTableBytes, kInitial.data(), HSA_SIM_VARIABLE_DEVICE},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 1, kKernels, 1, kVariables,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
