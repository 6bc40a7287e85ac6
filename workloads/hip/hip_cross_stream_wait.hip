// SPDX-License-Identifier: MIT
// hip_cross_stream_wait: waits across streams, every call from one host thread. Stream A is told to wait
// for a flag (hipStreamWaitValue32, which HIP 5.2.3 runs as its `streamOpsWait` kernel spinning on the
// flag), then a kernel of the program is launched on A; only after that launch returned does the thread
// ask stream B to set the flag (hipStreamWriteValue32). Without a tool this takes milliseconds; a tool
// that holds the launching thread until A's earlier work is done never lets the thread reach the write.
//  round 1: A: wait(flag == 1), add_one(a);           B: write(flag = 1)
//  round 2: A: wait(flag == 2), consume(x, out);      B: produce(x), write(flag = 2)
// Prints "round N: ... in T ms" (wall time from the first call of the round to the end of A's work) and
// checks every value: a[i] == initial + 1 (an in-place kernel, so a replaying tool must restore it) and
// out[i] == x[i] + 1 with x produced by B.
#include "hip_check.h"

#include <chrono>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_cross_stream_wait";
constexpr int kCount = 4096;

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

__global__ void add_one(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] += 1;
    }
}

__global__ void produce(int* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = 5 * i + 3;
    }
}

__global__ void consume(const int* x, int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = x[i] + 1;
    }
}

int main() {
    hipStream_t a = nullptr, b = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
    HIP_CHECK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
    unsigned* flag = nullptr;
    // Signal memory: HIP accepts exactly 8 bytes with this flag.
    HIP_CHECK(hipExtMallocWithFlags(reinterpret_cast<void**>(&flag), 8, hipMallocSignalMemory));
    HIP_CHECK(hipMemset(flag, 0, 8));
    int *data = nullptr, *x = nullptr, *out = nullptr;
    HIP_CHECK(hipMalloc(&data, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&x, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&out, kCount * sizeof(int)));
    std::vector<int> initial(kCount), result(kCount);
    for (int i = 0; i < kCount; ++i) {
        initial[i] = 100 + 3 * i;
    }
    HIP_CHECK(hipMemcpy(data, initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(x, 0, kCount * sizeof(int)));
    HIP_CHECK(hipMemset(out, 0, kCount * sizeof(int)));
    HIP_CHECK(hipDeviceSynchronize());

    // Round 1: the kernel waits behind a flag that only a later call of this thread sets.
    auto start = std::chrono::steady_clock::now();
    HIP_CHECK(hipStreamWaitValue32(a, flag, 1, hipStreamWaitValueEq, 0xffffffffu));
    hipLaunchKernelGGL(add_one, dim3(kCount / 256), dim3(256), 0, a, data, kCount);
    HIP_CHECK(hipGetLastError());
    const double launch_ms = ms_since(start);
    HIP_CHECK(hipStreamWriteValue32(b, flag, 1, 0));
    HIP_CHECK(hipStreamSynchronize(a));
    std::printf("round 1: launch returned after %.1f ms, stream A done in %.1f ms\n", launch_ms,
                ms_since(start));
    HIP_CHECK(hipMemcpy(result.data(), data, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != initial[i] + 1) {
            rs_hip::fail(kProgram, "round 1: a[%d] = %d, expected %d (the in-place add ran %s)", i, result[i],
                         initial[i] + 1, result[i] > initial[i] + 1 ? "more than once" : "not at all");
        }
    }

    // Round 2: the consumer on A waits for the producer on B, submitted after it.
    start = std::chrono::steady_clock::now();
    HIP_CHECK(hipStreamWaitValue32(a, flag, 2, hipStreamWaitValueEq, 0xffffffffu));
    hipLaunchKernelGGL(consume, dim3(kCount / 256), dim3(256), 0, a, x, out, kCount);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(produce, dim3(kCount / 256), dim3(256), 0, b, x, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamWriteValue32(b, flag, 2, 0));
    HIP_CHECK(hipStreamSynchronize(a));
    HIP_CHECK(hipStreamSynchronize(b));
    std::printf("round 2: consumer and producer done in %.1f ms\n", ms_since(start));
    HIP_CHECK(hipMemcpy(result.data(), out, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 5 * i + 4) {
            rs_hip::fail(kProgram, "round 2: out[%d] = %d, expected %d", i, result[i], 5 * i + 4);
        }
    }

    HIP_CHECK(hipStreamDestroy(a));
    HIP_CHECK(hipStreamDestroy(b));
    for (void* p : {static_cast<void*>(data), static_cast<void*>(x), static_cast<void*>(out),
                    static_cast<void*>(flag)}) {
        HIP_CHECK(hipFree(p));
    }
    std::printf("hip_cross_stream_wait: both rounds finished with correct results\nPASS\n");
    return 0;
}
