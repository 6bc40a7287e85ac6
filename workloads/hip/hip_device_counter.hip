// SPDX-License-Identifier: MIT
// hip_device_counter: a `__device__` counter incremented once by one kernel launch and a `__constant__`
// table filled with hipMemcpyToSymbol and read by another kernel. Under replay the counter is a module
// variable the engine snapshots and restores between passes, so it must still read 1 afterwards.
#include "hip_check.h"

namespace {
constexpr const char* kProgram = "hip_device_counter";
constexpr int kTable = 64;
} // namespace

__device__ unsigned int counter;
__constant__ int table[kTable];

__global__ void count_once() {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        atomicAdd(&counter, 1u);
    }
}

__global__ void lookup(int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 3 * table[i % kTable] + 1;
    }
}

int main() {
    int host_table[kTable];
    for (int i = 0; i < kTable; ++i) {
        host_table[i] = i * i;
    }
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), host_table, sizeof(host_table)));
    const unsigned zero = 0;
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter), &zero, sizeof(zero)));
    // Allocated before the first launch, not while it may still be queued: the device memory each dispatch
    // sees (the simulator's dispatch digest, the replay's snapshot) is then the same in every run.
    constexpr int n = 1024;
    int* out = nullptr;
    HIP_CHECK(hipMalloc(&out, n * sizeof(int)));
    hipLaunchKernelGGL(count_once, dim3(4), dim3(64), 0, 0);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(lookup, dim3(n / 256), dim3(256), 0, 0, out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    unsigned value = 0;
    HIP_CHECK(hipMemcpyFromSymbol(&value, HIP_SYMBOL(counter), sizeof(value)));
    int result[n];
    HIP_CHECK(hipMemcpy(result, out, sizeof(result), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        if (result[i] != 3 * host_table[i % kTable] + 1) {
            rs_hip::fail(kProgram, "out[%d] = %d, expected %d", i, result[i], 3 * host_table[i % kTable] + 1);
        }
    }
    std::printf("counter %u\n", value);
    if (value != 1) {
        rs_hip::fail(kProgram, "__device__ counter = %u after one launch, expected 1", value);
    }
    HIP_CHECK(hipFree(out));
    std::printf("hip_device_counter: counter 1, constant table read\nPASS\n");
    return 0;
}
