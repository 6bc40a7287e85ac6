// SPDX-License-Identifier: MIT
// hip_async_alloc: stream-ordered memory. A buffer from hipMallocAsync (the device's default memory
// pool) is filled, incremented in place by a kernel on the same stream, copied back and released with
// hipFreeAsync; a second hipMallocAsync of the same size after the free may reuse it (HIP keeps freed
// blocks in the pool until hipMemPoolTrimTo gives them back). HIP 5.2.3 backs a pool block with an ordinary
// device allocation, so the engine must see it as tracked device memory. Prints "alloc async ADDRESS BYTES"
// for the first buffer.
#include "hip_check.h"

#include <vector>

namespace {
constexpr const char* kProgram = "hip_async_alloc";
constexpr int kCount = 526336; // floats: 2 MiB + 8 KiB
} // namespace

__global__ void add(float* v, float amount, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] += amount;
    }
}

int main() {
    hipStream_t stream = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
    std::vector<float> host(kCount), result(kCount);
    for (int i = 0; i < kCount; ++i) {
        host[i] = static_cast<float>(i % 4096);
    }
    for (int round = 0; round < 2; ++round) {
        float* v = nullptr;
        HIP_CHECK(hipMallocAsync(reinterpret_cast<void**>(&v), kCount * sizeof(float), stream));
        if (round == 0) {
            std::printf("alloc async %lld %zu\n", rs_hip::address_of(v), kCount * sizeof(float));
        }
        HIP_CHECK(hipMemcpyAsync(v, host.data(), kCount * sizeof(float), hipMemcpyHostToDevice, stream));
        hipLaunchKernelGGL(add, dim3((kCount + 255) / 256), dim3(256), 0, stream, v, 2.0f, kCount);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpyAsync(result.data(), v, kCount * sizeof(float), hipMemcpyDeviceToHost, stream));
        HIP_CHECK(hipFreeAsync(v, stream));
        HIP_CHECK(hipStreamSynchronize(stream));
        for (int i = 0; i < kCount; ++i) {
            if (result[i] != host[i] + 2.0f) {
                rs_hip::fail(kProgram, "round %d: v[%d] = %g, expected %g (one increment)", round, i,
                             result[i], host[i] + 2.0f);
            }
        }
    }
    // Give the pool's freed blocks back (hipMemPoolTrimTo) before their stream goes away: with HIP 5.2.3
    // on the simulator, hipStreamDestroy otherwise never returns (docs/sim-fidelity.md).
    hipMemPool_t pool = nullptr;
    HIP_CHECK(hipDeviceGetDefaultMemPool(&pool, 0));
    HIP_CHECK(hipMemPoolTrimTo(pool, 0));
    HIP_CHECK(hipStreamDestroy(stream));
    std::printf("hip_async_alloc: two stream-ordered buffers incremented once each\nPASS\n");
    return 0;
}
