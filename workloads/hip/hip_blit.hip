// SPDX-License-Identifier: MIT
// hip_blit: data movement HIP implements with its own runtime ("blit") kernels, compiled by ROCclr at
// run time: hipMemset and hipMemsetAsync (fill kernels), a device-to-device hipMemcpy (copy kernel),
// hipMemcpy2D between pitched device buffers (rectangular copy) and from host to a pitched device buffer,
// then one kernel of the program's own that checks the device data in place. Every value is checked.
#include "hip_check.h"

#include <vector>

namespace {
constexpr const char* kProgram = "hip_blit";
constexpr int kCount = 65536;                  // ints
constexpr int kWidth = 200, kRows = 48;        // 2-D region: 200 floats x 48 rows
constexpr size_t kPitch = 256 * sizeof(float); // device pitch in bytes
} // namespace

/** flags[0] = number of i with a[i] != want (a device-side check of the fills and copies). */
__global__ void count_mismatches(const int* a, int want, int n, int* mismatches) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && a[i] != want) {
        atomicAdd(mismatches, 1);
    }
}

int main() {
    int *a = nullptr, *b = nullptr, *mismatches = nullptr;
    HIP_CHECK(hipMalloc(&a, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&b, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&mismatches, sizeof(int)));
    HIP_CHECK(hipMemset(a, 0x5a, kCount * sizeof(int)));
    HIP_CHECK(hipMemsetAsync(mismatches, 0, sizeof(int), nullptr));
    HIP_CHECK(hipMemcpy(b, a, kCount * sizeof(int), hipMemcpyDeviceToDevice));
    hipLaunchKernelGGL(count_mismatches, dim3(kCount / 256), dim3(256), 0, 0, b, 0x5a5a5a5a, kCount,
                       mismatches);
    HIP_CHECK(hipGetLastError());
    int device_mismatches = -1;
    HIP_CHECK(hipMemcpy(&device_mismatches, mismatches, sizeof(int), hipMemcpyDeviceToHost));
    if (device_mismatches != 0) {
        rs_hip::fail(kProgram, "%d ints of the device-to-device copy differ from the fill",
                     device_mismatches);
    }
    std::vector<int> back(kCount);
    HIP_CHECK(hipMemcpy(back.data(), b, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (back[i] != 0x5a5a5a5a) {
            rs_hip::fail(kProgram, "b[%d] = %#x after hipMemset + hipMemcpy, expected 0x5a5a5a5a", i,
                         back[i]);
        }
    }

    // 2-D: host rows -> pitched device buffer -> second pitched device buffer (offset 3 rows) -> host.
    std::vector<float> host(kWidth * kRows), result(kWidth * kRows, -1.0f);
    for (int i = 0; i < kWidth * kRows; ++i) {
        host[i] = 0.5f * static_cast<float>(i);
    }
    float *p = nullptr, *q = nullptr;
    HIP_CHECK(hipMalloc(&p, kPitch * kRows));
    HIP_CHECK(hipMalloc(&q, kPitch * (kRows + 3)));
    HIP_CHECK(hipMemset(q, 0, kPitch * (kRows + 3)));
    HIP_CHECK(hipMemcpy2D(p, kPitch, host.data(), kWidth * sizeof(float), kWidth * sizeof(float), kRows,
                          hipMemcpyHostToDevice));
    float* q3 = reinterpret_cast<float*>(reinterpret_cast<char*>(q) + 3 * kPitch);
    HIP_CHECK(hipMemcpy2D(q3, kPitch, p, kPitch, kWidth * sizeof(float), kRows, hipMemcpyDeviceToDevice));
    HIP_CHECK(hipMemcpy2D(result.data(), kWidth * sizeof(float), q3, kPitch, kWidth * sizeof(float), kRows,
                          hipMemcpyDeviceToHost));
    for (int i = 0; i < kWidth * kRows; ++i) {
        if (result[i] != host[i]) {
            rs_hip::fail(kProgram, "2-D copy: element %d (row %d) = %g, expected %g", i, i / kWidth,
                         result[i], host[i]);
        }
    }
    std::vector<float> first_rows(256 * 3, -1.0f);
    HIP_CHECK(hipMemcpy(first_rows.data(), q, 3 * kPitch, hipMemcpyDeviceToHost));
    for (float v : first_rows) {
        if (v != 0.0f) {
            rs_hip::fail(kProgram, "2-D copy wrote outside its rectangle (%g in the 3 rows before it)", v);
        }
    }
    for (void* ptr : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(mismatches),
                      static_cast<void*>(p), static_cast<void*>(q)}) {
        HIP_CHECK(hipFree(ptr));
    }
    std::printf("hip_blit: fills, 1-D and 2-D copies match\nPASS\n");
    return 0;
}
