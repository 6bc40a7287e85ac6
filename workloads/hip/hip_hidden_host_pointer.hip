// SPDX-License-Identifier: MIT
// hip_hidden_host_pointer: kernels that reach pinned host memory (hipHostMalloc) through a pointer that is
// not in their arguments, each launched once:
//   bump_via_buffer    its only argument is a hipMalloc buffer holding the pinned host pointer; it
//                      increments that host memory in place;
//   bump_via_variable  a __device__ variable holds the pinned host pointer; it increments that host memory
//                      in place;
//   sum_via_buffer     reads pinned host memory through a pointer held in a hipMalloc buffer and adds it
//                      into hipMalloc memory (restored between passes); it writes no host memory.
// A replaying tool that looks only at kernel arguments replays the bump kernels, and every pass applies
// their increments again. Prints "alloc <name> ADDRESS BYTES" for each pinned buffer and "<kernel>: N
// execution(s)" for each kernel, then PASS when each bump kernel shows the executions given as the first
// argument (default 1: the program run as written) and sum_via_buffer shows one.
#include "hip_check.h"

#include <cstdlib>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_hidden_host_pointer";
constexpr int kCount = 1024;
constexpr int kBlock = 256;

/// How many executions of "+= 1" `values` show against `initial` (-1 when they disagree).
int executions(const int* values, const std::vector<int>& initial) {
    const int first = values[0] - initial[0];
    for (int i = 1; i < kCount; ++i) {
        if (values[i] - initial[i] != first) {
            return -1;
        }
    }
    return first;
}

std::vector<int> initial_values(int seed) {
    std::vector<int> v(kCount);
    for (int i = 0; i < kCount; ++i) {
        v[i] = seed + 5 * i;
    }
    return v;
}

/// Pinned host memory holding `initial`, its address printed as "alloc <name> ADDRESS BYTES".
int* pinned(const char* name, const std::vector<int>& initial) {
    int* p = nullptr;
    HIP_CHECK(hipHostMalloc(&p, kCount * sizeof(int)));
    std::copy(initial.begin(), initial.end(), p);
    std::printf("alloc %s %lld %zu\n", name, rs_hip::address_of(p), kCount * sizeof(int));
    return p;
}

/// A hipMalloc buffer holding the pointer `p`.
int** device_slot(int* p) {
    int** slot = nullptr;
    HIP_CHECK(hipMalloc(&slot, sizeof(int*)));
    HIP_CHECK(hipMemcpy(slot, &p, sizeof(int*), hipMemcpyHostToDevice));
    return slot;
}

} // namespace

__device__ int* g_host_values;

__global__ void bump_via_buffer(int* const* slot) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < kCount) {
        slot[0][i] += 1;
    }
}

__global__ void bump_via_variable(int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        g_host_values[i] += 1;
    }
}

__global__ void sum_via_buffer(int* const* slot, int* sum, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        sum[i] += slot[0][i];
    }
}

int main(int argc, char** argv) {
    const int expected = argc > 1 ? std::atoi(argv[1]) : 1;
    const dim3 grid(kCount / kBlock), block(kBlock);
    int failures = 0;
    const auto report = [&](const char* kernel, int n, int want) {
        std::printf("%s: %d execution(s)\n", kernel, n);
        failures += n == want ? 0 : 1;
    };

    // Pinned host memory reached through a pointer held in device memory.
    const std::vector<int> buffer_initial = initial_values(100);
    int* buffer_values = pinned("pinned_buffer", buffer_initial);
    int** buffer_slot = device_slot(buffer_values);
    hipLaunchKernelGGL(bump_via_buffer, grid, block, 0, 0, buffer_slot);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    report("bump_via_buffer", executions(buffer_values, buffer_initial), expected);

    // Pinned host memory reached through a __device__ variable.
    const std::vector<int> variable_initial = initial_values(200);
    int* variable_values = pinned("pinned_variable", variable_initial);
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(g_host_values), &variable_values, sizeof(int*)));
    hipLaunchKernelGGL(bump_via_variable, grid, block, 0, 0, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    report("bump_via_variable", executions(variable_values, variable_initial), expected);

    // Pinned host memory only read through a pointer held in device memory; device memory updated.
    std::vector<int> ones(kCount, 1);
    int* read_values = pinned("pinned_read", ones);
    int** read_slot = device_slot(read_values);
    const std::vector<int> sum_initial = initial_values(300);
    int* sum = nullptr;
    HIP_CHECK(hipMalloc(&sum, kCount * sizeof(int)));
    HIP_CHECK(hipMemcpy(sum, sum_initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(sum_via_buffer, grid, block, 0, 0, read_slot, sum, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<int> sums(kCount);
    HIP_CHECK(hipMemcpy(sums.data(), sum, kCount * sizeof(int), hipMemcpyDeviceToHost));
    report("sum_via_buffer", executions(sums.data(), sum_initial), 1);
    if (executions(read_values, ones) != 0) {
        rs_hip::fail(kProgram, "sum_via_buffer changed the memory it only reads");
    }

    HIP_CHECK(hipHostFree(buffer_values));
    HIP_CHECK(hipHostFree(variable_values));
    HIP_CHECK(hipHostFree(read_values));
    HIP_CHECK(hipFree(buffer_slot));
    HIP_CHECK(hipFree(read_slot));
    HIP_CHECK(hipFree(sum));
    if (failures > 0) {
        rs_hip::fail(kProgram, "%d kernel(s) did not show the expected executions (bump kernels: %d)",
                     failures, expected);
    }
    std::printf("hip_hidden_host_pointer: every kernel shows the expected executions\nPASS\n");
    return 0;
}
