// SPDX-License-Identifier: MIT
// Hand-written stand-in library (sim/include/hsa_sim/standin.h) for elf_kernels.hip: host versions of its
// kernels and storage for its variables. Every loaded code object gets a private instance, so these
// globals belong to one load. "no_standin" is deliberately missing; "failing" reports an error.
#include "hsa_sim/standin.h"

#include <cstdio>
#include <cstring>

namespace {

int counter = 0; // initial bytes come from the code object
float scale[4];
double table[3];
int zeroed[64];
int* counter_ptr = nullptr;

template <typename T>
T arg(const hsa_sim_standin_launch_t* l, size_t offset) {
    T v;
    std::memcpy(&v, static_cast<const char*>(l->kernarg) + offset, sizeof(T));
    return v;
}

// vadd(float* out, const float* a, const float* b, int n): kernarg offsets 0, 8, 16, 24.
int vadd(const hsa_sim_standin_launch_t* l, char*, size_t) {
    auto* out = arg<float*>(l, 0);
    const auto* a = arg<const float*>(l, 8);
    const auto* b = arg<const float*>(l, 16);
    const int n = arg<int>(l, 24);
    for (uint32_t i = 0; i < l->grid_size[0]; ++i) {
        if (static_cast<int>(i) < n) {
            out[i] = (a[i] + b[i]) * scale[0] + static_cast<float>(counter);
        }
    }
    return 0;
}

// bump(int by)
int bump(const hsa_sim_standin_launch_t* l, char*, size_t) {
    counter += arg<int>(l, 0);
    zeroed[0] += *counter_ptr;
    return 0;
}

int failing(const hsa_sim_standin_launch_t* l, char* error, size_t error_size) {
    std::snprintf(error, error_size, "failing: refused %u work-items on purpose", l->grid_size[0]);
    return 1;
}

// scaled(float* p, int n): records the dynamic LDS size it was given in p[0].
int scaled(const hsa_sim_standin_launch_t* l, char*, size_t) {
    auto* p = arg<float*>(l, 0);
    p[0] = static_cast<float>(l->dynamic_group_segment_size) * static_cast<float>(table[1]);
    return 0;
}

const hsa_sim_standin_kernel_t kKernels[] = {
    {"vadd", &vadd},
    {"bump", &bump},
    {"failing", &failing},
    {"_Z6scaledPfi", &scaled},
};

const hsa_sim_standin_variable_t kVariables[] = {
    {"counter", &counter, sizeof(counter)},
    {"scale", scale, sizeof(scale)},
    {"table", table, sizeof(table)},
    {"zeroed", zeroed, sizeof(zeroed)},
    {"counter_ptr", &counter_ptr, sizeof(counter_ptr)},
};

const hsa_sim_standin_library_t kLibrary = {HSA_SIM_STANDIN_ABI_VERSION, 4, kKernels, 5, kVariables};

} // namespace

extern "C" __attribute__((visibility("default"))) const hsa_sim_standin_library_t* hsa_sim_standin_library() {
    return &kLibrary;
}
