// SPDX-License-Identifier: MIT
// hip_failure_contract: what a replaying tool must keep when its replay fails (docs/replay-failures.md).
//   counter: a 12288-byte buffer of counters (a size no copy of HIP's own makes: it is set by hipMemset
//            and read back 4096 bytes at a time) is incremented in place by 20 launches of `increment`,
//            one at a time. Prints "counter N" (the value of every counter, or "counter mixed") and
//            passes when N is 20: each launch executed exactly once as far as the program can see.
//   fault:   a hipMemset (HIP's fill kernel), one launch of `increment`, then one launch of
//            `faulting_kernel`, which a test makes fail on its queue (HSA_SIM_FAIL_KERNEL=faulting_kernel).
//            Without a failure it prints "fault: no fault" and PASS; with one, HIP's queue error callback
//            ends the process (abort) before hipDeviceSynchronize returns.
#include "hip_check.h"

#include <cstring>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_failure_contract";
constexpr int kCounters = 12288 / sizeof(int);
constexpr int kReadBack = 4096 / sizeof(int);
constexpr int kLaunches = 20;
} // namespace

__global__ void increment(int* counters, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        counters[i] += 1;
    }
}

__global__ void faulting_kernel(int* counters, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        counters[i] += 100;
    }
}

namespace {

/// Every counter, read back in 4096-byte pieces; the common value, or -1 when they differ.
int read_counters(const int* counters) {
    std::vector<int> host(kCounters);
    for (int at = 0; at < kCounters; at += kReadBack) {
        HIP_CHECK(hipMemcpy(host.data() + at, counters + at, kReadBack * sizeof(int), hipMemcpyDeviceToHost));
    }
    for (int v : host) {
        if (v != host[0]) {
            return -1;
        }
    }
    return host[0];
}

int run_counter(int* counters) {
    for (int k = 0; k < kLaunches; ++k) {
        hipLaunchKernelGGL(increment, dim3(kCounters / 256), dim3(256), 0, 0, counters, kCounters);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
    }
    const int value = read_counters(counters);
    if (value < 0) {
        std::printf("counter mixed\n");
        rs_hip::fail(kProgram, "the counters differ from one another");
    }
    std::printf("counter %d\n", value);
    if (value != kLaunches) {
        rs_hip::fail(kProgram, "counter %d after %d launches, expected %d", value, kLaunches, kLaunches);
    }
    std::printf("hip_failure_contract: every launch executed once\nPASS\n");
    return 0;
}

int run_fault(int* counters) {
    hipLaunchKernelGGL(increment, dim3(kCounters / 256), dim3(256), 0, 0, counters, kCounters);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::printf("fault: launching faulting_kernel\n");
    std::fflush(stdout);
    hipLaunchKernelGGL(faulting_kernel, dim3(kCounters / 256), dim3(256), 0, 0, counters, kCounters);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::printf("fault: no fault, counter %d\nPASS\n", read_counters(counters));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const bool fault = argc > 1 && std::strcmp(argv[1], "fault") == 0;
    if (argc > 1 && !fault && std::strcmp(argv[1], "counter") != 0) {
        rs_hip::fail(kProgram, "usage: hip_failure_contract [counter|fault]");
    }
    int* counters = nullptr;
    HIP_CHECK(hipMalloc(&counters, kCounters * sizeof(int)));
    std::printf("alloc counters %lld %zu\n", rs_hip::address_of(counters), kCounters * sizeof(int));
    HIP_CHECK(hipMemset(counters, 0, kCounters * sizeof(int)));
    HIP_CHECK(hipDeviceSynchronize());
    const int status = fault ? run_fault(counters) : run_counter(counters);
    HIP_CHECK(hipFree(counters));
    return status;
}
