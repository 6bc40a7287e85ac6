// SPDX-License-Identifier: MIT
// Simulated code object of the free_during_kernel and realloc_smaller workloads: kernels that free (and
// re-allocate) their own buffers while they run, through host callbacks passed in their kernargs.
// Both tolerate the free failing, since a replaying tool may run them a second time.
#include "kernargs.h"

#include <hsa_sim/code_object.h>

#include <vector>

namespace {

using rs::workloads::FreeDuringKernelArgs;
using rs::workloads::ReallocResult;
using rs::workloads::ReallocSmallerArgs;

void free_during_kernel(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const FreeDuringKernelArgs*>(dispatch->kernarg);
    const uint32_t n = args->n < dispatch->grid_size[0] ? args->n : dispatch->grid_size[0];
    std::vector<uint32_t> values(args->buffer, args->buffer + n); // "registers"
    const uint32_t half = n / 2;
    for (uint32_t i = 0; i < half; ++i) {
        args->out[i] = 2 * values[i];
    }
    // The buffer goes away mid-kernel. A second free (replay) fails; the kernel carries on regardless.
    (void)args->free_buffer(args->buffer);
    for (uint32_t i = half; i < n; ++i) {
        args->out[i] = 2 * values[i];
    }
}

void realloc_smaller(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const ReallocSmallerArgs*>(dispatch->kernarg);
    std::vector<uint32_t> values(args->buffer, args->buffer + args->n);
    ReallocResult result{nullptr, 0, 0};
    result.free_status = args->free_buffer(args->buffer);
    void* replacement = nullptr;
    result.allocate_status = args->allocate(
        args->pool_handle, static_cast<uint64_t>(args->new_n) * sizeof(uint32_t), &replacement);
    if (result.allocate_status == 0 && replacement != nullptr) {
        auto* smaller = static_cast<uint32_t*>(replacement);
        for (uint32_t i = 0; i < args->new_n && i < args->n; ++i) {
            smaller[i] = values[i] + 1;
        }
        result.new_buffer = replacement;
    }
    *args->result = result;
}

const hsa_sim_kernel_t kKernels[] = {
    {"free_during_kernel.kd", free_during_kernel, sizeof(FreeDuringKernelArgs), 0, 0},
    {"realloc_smaller.kd", realloc_smaller, sizeof(ReallocSmallerArgs), 0, 0},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 2, kKernels, 0, nullptr,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
