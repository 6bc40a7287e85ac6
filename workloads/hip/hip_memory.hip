// SPDX-License-Identifier: MIT
// hip_memory: kernels touching memory of every HIP allocation class. `data` (hipMalloc, coarse-grained
// device memory) is incremented in place by `bump`, so a replay that did not restore it between passes
// would leave data[i] = initial + passes. `mirror` then copies it into `host` (hipHostMalloc) and `fine`
// (hipExtMallocWithFlags with hipDeviceMallocFinegrained): memory nobody restores, so the engine must not
// replay that launch. HIP's kernel arguments travel in its own kernarg memory. Prints
// "alloc CLASS ADDRESS BYTES" for each buffer (the address as the session file stores it) and checks
// every value.
#include "hip_check.h"

namespace {
constexpr const char* kProgram = "hip_memory";
constexpr int kCount = 263168;                        // floats: 1 MiB + 4 KiB of device memory
constexpr int kHostCount = 16384, kFineCount = 24576; // 64 KiB pinned host, 96 KiB fine-grained
} // namespace

__global__ void bump(float* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += 1.0f;
    }
}

__global__ void mirror(const float* data, float* host, float* fine, int host_n, int fine_n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < host_n) {
        host[i] = data[i];
    }
    if (i < fine_n) {
        fine[i] = 2.0f * data[i];
    }
}

int main() {
    float *data = nullptr, *host = nullptr, *fine = nullptr;
    HIP_CHECK(hipMalloc(&data, kCount * sizeof(float)));
    HIP_CHECK(hipHostMalloc(&host, kHostCount * sizeof(float), hipHostMallocDefault));
    HIP_CHECK(hipExtMallocWithFlags(reinterpret_cast<void**>(&fine), kFineCount * sizeof(float),
                                    hipDeviceMallocFinegrained));
    std::printf("alloc device %lld %zu\nalloc host %lld %zu\nalloc fine %lld %zu\n", rs_hip::address_of(data),
                kCount * sizeof(float), rs_hip::address_of(host), kHostCount * sizeof(float),
                rs_hip::address_of(fine), kFineCount * sizeof(float));
    float* initial = new float[kCount];
    for (int i = 0; i < kCount; ++i) {
        initial[i] = static_cast<float>(i % 1000);
    }
    HIP_CHECK(hipMemcpy(data, initial, kCount * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(bump, dim3((kCount + 255) / 256), dim3(256), 0, 0, data, kCount);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(mirror, dim3((kFineCount + 255) / 256), dim3(256), 0, 0, data, host, fine, kHostCount,
                       kFineCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    float* result = new float[kCount];
    float* fine_result = new float[kFineCount];
    HIP_CHECK(hipMemcpy(result, data, kCount * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(fine_result, fine, kFineCount * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        const float want = initial[i] + 1.0f;
        if (result[i] != want) {
            rs_hip::fail(kProgram, "data[%d] = %g, expected %g (one increment)", i, result[i], want);
        }
        if (i < kHostCount && host[i] != want) {
            rs_hip::fail(kProgram, "host[%d] = %g, expected %g", i, host[i], want);
        }
        if (i < kFineCount && fine_result[i] != 2.0f * want) {
            rs_hip::fail(kProgram, "fine[%d] = %g, expected %g", i, fine_result[i], 2.0f * want);
        }
    }
    HIP_CHECK(hipFree(data));
    HIP_CHECK(hipHostFree(host));
    HIP_CHECK(hipFree(fine));
    delete[] initial;
    delete[] result;
    delete[] fine_result;
    std::printf("hip_memory: data incremented once, host and fine-grained buffers written\nPASS\n");
    return 0;
}
