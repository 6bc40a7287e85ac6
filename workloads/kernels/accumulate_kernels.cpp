// SPDX-License-Identifier: MIT
// Simulated code object shared by the in-place workloads (accumulate, multi_packet, alloc_classes,
// two_agents, alloc_churn, graph_launch, ...): accumulate.kd, accumulate_indirect.kd and fill.kd.
#include "kernargs.h"

#include <hsa_sim/code_object.h>

namespace {

using rs::workloads::AccumulateArgs;
using rs::workloads::AccumulateIndirectArgs;
using rs::workloads::FillArgs;

void accumulate(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const AccumulateArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->data[i] += 1;
    }
}

void accumulate_indirect(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const AccumulateIndirectArgs*>(dispatch->kernarg);
    uint32_t* data = *args->table;
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        data[i] += 1;
    }
}

void fill(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const FillArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->data[i] = args->value + i;
    }
}

const hsa_sim_kernel_t kKernels[] = {
    {"accumulate.kd", accumulate, sizeof(AccumulateArgs), 0, 0},
    {"fill.kd", fill, sizeof(FillArgs), 0, 0},
    {"accumulate_indirect.kd", accumulate_indirect, sizeof(AccumulateIndirectArgs), 0, 0},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 3, kKernels, 0, nullptr,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
