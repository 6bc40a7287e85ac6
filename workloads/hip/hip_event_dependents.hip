// SPDX-License-Identifier: MIT
// hip_event_dependents: work on a second stream that waits for a kernel of the first through an event
// and is no replay window of its own. Each round, from one host thread:
//   stream A: prepare(d)                      (d[i] = i * round; a tool's filter leaves it alone)
//             hipEventRecord(t0, A)
//             update(a)                       (in place: a[i] = 3 * a[i] + 1)
//             hipEventRecord(t1, A)
//             hipEventRecord(e, A)
//   stream B: hipStreamWaitEvent(B, e)
//             follow(a, b)                    (b[i] = a[i] + 7)
//             hipMemcpyAsync(pinned, b)       (device to host, a runtime copy)
//             hipMemsetAsync(c, round)        (a runtime fill)
// then both streams are synchronised. With --cooperative, update is a cooperative launch
// (hipLaunchCooperativeKernel: HIP runs it on the agent's cooperative queue, ordered with stream A). A tool
// that replays update (and not follow) must not wait for B's work before its passes: that work can only run
// after update. Given a long prepare (e.g. the simulator's HSA_SIM_KERNEL_TIME_NS), all of B's work is
// submitted while update still waits for it. Prints "round N: done in T ms" and "round N: update timed T
// ms" (hipEventElapsedTime(t0, t1): what the application measures of update; under a replaying tool its
// window as well) and checks every value: a after each round equals one update per round, b and the copy
// equal the new a plus 7, c holds the round's byte, d the round's values.
#include "hip_check.h"

#include <chrono>
#include <cstring>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_event_dependents";
constexpr int kCount = 8192;
constexpr int kRounds = 3;

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

__global__ void update(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = 3 * a[i] + 1;
    }
}

__global__ void prepare(int* d, int n, int round) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        d[i] = i * round;
    }
}

__global__ void follow(const int* a, int* b, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        b[i] = a[i] + 7;
    }
}

int main(int argc, char** argv) {
    const bool cooperative = argc > 1 && std::strcmp(argv[1], "--cooperative") == 0;
    hipStream_t sa = nullptr, sb = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&sa, hipStreamNonBlocking));
    HIP_CHECK(hipStreamCreateWithFlags(&sb, hipStreamNonBlocking));
    hipEvent_t done = nullptr;
    HIP_CHECK(hipEventCreateWithFlags(&done, hipEventDisableTiming));
    hipEvent_t t0 = nullptr, t1 = nullptr;
    HIP_CHECK(hipEventCreate(&t0));
    HIP_CHECK(hipEventCreate(&t1));
    int *a = nullptr, *b = nullptr, *d = nullptr, *host_b = nullptr;
    unsigned char* c = nullptr;
    HIP_CHECK(hipMalloc(&a, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&b, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&d, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&c, kCount));
    HIP_CHECK(hipHostMalloc(reinterpret_cast<void**>(&host_b), kCount * sizeof(int), hipHostMallocDefault));
    std::vector<int> expected(kCount);
    for (int i = 0; i < kCount; ++i) {
        expected[i] = i % 97;
    }
    HIP_CHECK(hipMemcpy(a, expected.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    std::vector<int> got(kCount);
    std::vector<unsigned char> bytes(kCount);
    std::vector<int> prepared(kCount);
    const dim3 block(256), grid((kCount + 255) / 256);
    for (int round = 1; round <= kRounds; ++round) {
        const auto start = std::chrono::steady_clock::now();
        hipLaunchKernelGGL(prepare, grid, block, 0, sa, d, kCount, round);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipEventRecord(t0, sa));
        if (cooperative) {
            int count = kCount;
            void* args[] = {&a, &count};
            HIP_CHECK(
                hipLaunchCooperativeKernel(reinterpret_cast<const void*>(update), grid, block, args, 0, sa));
        } else {
            hipLaunchKernelGGL(update, grid, block, 0, sa, a, kCount);
            HIP_CHECK(hipGetLastError());
        }
        HIP_CHECK(hipEventRecord(t1, sa));
        HIP_CHECK(hipEventRecord(done, sa));
        HIP_CHECK(hipStreamWaitEvent(sb, done, 0));
        hipLaunchKernelGGL(follow, grid, block, 0, sb, a, b, kCount);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpyAsync(host_b, b, kCount * sizeof(int), hipMemcpyDeviceToHost, sb));
        HIP_CHECK(hipMemsetAsync(c, round, kCount, sb));
        HIP_CHECK(hipStreamSynchronize(sb));
        HIP_CHECK(hipStreamSynchronize(sa));
        std::printf("round %d: done in %.1f ms\n", round, ms_since(start));
        float timed = 0;
        HIP_CHECK(hipEventElapsedTime(&timed, t0, t1));
        std::printf("round %d: update timed %.1f ms\n", round, static_cast<double>(timed));
        for (int& v : expected) {
            v = 3 * v + 1;
        }
        HIP_CHECK(hipMemcpy(got.data(), a, kCount * sizeof(int), hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(bytes.data(), c, kCount, hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(prepared.data(), d, kCount * sizeof(int), hipMemcpyDeviceToHost));
        for (int i = 0; i < kCount; ++i) {
            if (got[i] != expected[i]) {
                rs_hip::fail(kProgram, "round %d: a[%d] = %d, expected %d (one update per round)", round, i,
                             got[i], expected[i]);
            }
            if (host_b[i] != expected[i] + 7) {
                rs_hip::fail(kProgram, "round %d: copied b[%d] = %d, expected %d", round, i, host_b[i],
                             expected[i] + 7);
            }
            if (prepared[i] != i * round) {
                rs_hip::fail(kProgram, "round %d: d[%d] = %d, expected %d", round, i, prepared[i], i * round);
            }
            if (bytes[i] != round) {
                rs_hip::fail(kProgram, "round %d: c[%d] = %d, expected %d", round, i, bytes[i], round);
            }
        }
    }
    HIP_CHECK(hipEventDestroy(done));
    HIP_CHECK(hipEventDestroy(t1));
    HIP_CHECK(hipEventDestroy(t0));
    HIP_CHECK(hipHostFree(host_b));
    HIP_CHECK(hipFree(c));
    HIP_CHECK(hipFree(d));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipStreamDestroy(sb));
    HIP_CHECK(hipStreamDestroy(sa));
    std::printf("hip_event_dependents: every round right\nPASS\n");
    return 0;
}
