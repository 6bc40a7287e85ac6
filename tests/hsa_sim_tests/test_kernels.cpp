// SPDX-License-Identifier: MIT
/*
 * A simulated code object (see sim/include/hsa_sim/code_object.h) used by the suites: two
 * kernels, a __device__ counter, a __constant__ table and a zero-sized variable.
 */
#include "sim_test_kernels.h"

#include <hsa_sim/code_object.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace {

using namespace rs_test;

void fill_kernel(const hsa_sim_dispatch_t* d) {
    const auto* args = static_cast<const FillArgs*>(d->kernarg);
    auto* counter = static_cast<uint64_t*>(d->variables[0]);
    const auto* table = static_cast<const uint32_t*>(d->variables[1]);
    uint64_t items = 1;
    for (uint32_t dim = 0; dim < d->dimensions; ++dim) {
        items *= d->grid_size[dim];
    }
    for (uint64_t i = 0; i < items; ++i) {
        args->out[i] = table[i % 4] * args->value + static_cast<uint32_t>(i);
    }
    std::atomic_ref<uint64_t>(*counter).fetch_add(items);
}

void record_kernel(const hsa_sim_dispatch_t* d) {
    const auto* args = static_cast<const RecordArgs*>(d->kernarg);
    RecordShared& s = *args->shared;
    const int32_t now = s.in_flight.fetch_add(1) + 1;
    int32_t seen = s.max_in_flight.load();
    while (now > seen && !s.max_in_flight.compare_exchange_weak(seen, now)) {
    }
    s.start_event[args->index] = s.clock.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::nanoseconds(args->sleep_ns));
    s.end_event[args->index] = s.clock.fetch_add(1);
    s.in_flight.fetch_sub(1);
}

const uint32_t table_bytes[4] = {kTableInitial[0], kTableInitial[1], kTableInitial[2], kTableInitial[3]};
const uint64_t counter_bytes = kCounterInitial;

const hsa_sim_kernel_t kernels[] = {
    {kFillKernel, fill_kernel, sizeof(FillArgs), kFillGroupSegment, kFillPrivateSegment},
    {kRecordKernel, record_kernel, sizeof(RecordArgs), 0, 0},
};

const hsa_sim_variable_t variables[] = {
    {kCounterVariable, sizeof(uint64_t), &counter_bytes, HSA_SIM_VARIABLE_DEVICE},
    {kTableVariable, sizeof(table_bytes), table_bytes, HSA_SIM_VARIABLE_CONSTANT},
    {kEmptyVariable, 0, nullptr, HSA_SIM_VARIABLE_DEVICE},
};

const hsa_sim_code_object_t code_object = {
    HSA_SIM_CODE_OBJECT_VERSION, "amdgcn-amd-amdhsa--gfx90a", 2, kernels, 3, variables,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &code_object;
}
