// SPDX-License-Identifier: MIT
// hip_device_props: what HIP reports about each device (hipGetDeviceProperties, hipDeviceGetAttribute,
// hipMemGetInfo), checked against what any gfx90a (MI200-class) agent must report, then one kernel per
// device writing its device index (so each agent really runs code). With HSA_SIM_GPU_AGENTS=N set, the
// device count must be N. Prints one line per device.
#include "hip_check.h"

#include <cstring>
#include <string>

namespace {
constexpr const char* kProgram = "hip_device_props";
} // namespace

__global__ void write_index(int* out, int index) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        *out = index;
    }
}

int main() {
    int count = 0;
    HIP_CHECK(hipGetDeviceCount(&count));
    if (const char* expected = std::getenv("HSA_SIM_GPU_AGENTS"); expected && count != std::atoi(expected)) {
        rs_hip::fail(kProgram, "%d devices, HSA_SIM_GPU_AGENTS=%s", count, expected);
    }
    if (count < 1) {
        rs_hip::fail(kProgram, "no device");
    }
    for (int d = 0; d < count; ++d) {
        HIP_CHECK(hipSetDevice(d));
        hipDeviceProp_t p{};
        HIP_CHECK(hipGetDeviceProperties(&p, d));
        const std::string arch = p.gcnArchName;
        if (arch.rfind("gfx90a", 0) != 0) {
            rs_hip::fail(kProgram, "device %d: gcnArchName %s, expected gfx90a[:features]", d, p.gcnArchName);
        }
        if (p.major != 9 || p.minor != 0) {
            rs_hip::fail(kProgram, "device %d: compute capability %d.%d, expected 9.0 (gfx9)", d, p.major,
                         p.minor);
        }
        if (p.warpSize != 64) {
            rs_hip::fail(kProgram, "device %d: warpSize %d, expected 64", d, p.warpSize);
        }
        if (p.maxThreadsPerBlock != 1024) {
            rs_hip::fail(kProgram, "device %d: maxThreadsPerBlock %d, expected 1024", d,
                         p.maxThreadsPerBlock);
        }
        if (p.sharedMemPerBlock != 64 * 1024) {
            rs_hip::fail(kProgram, "device %d: sharedMemPerBlock %zu, expected 65536", d,
                         p.sharedMemPerBlock);
        }
        if (p.multiProcessorCount <= 0 || p.totalGlobalMem == 0 || p.clockRate <= 0) {
            rs_hip::fail(kProgram, "device %d: %d compute units, %zu bytes, clock %d kHz", d,
                         p.multiProcessorCount, p.totalGlobalMem, p.clockRate);
        }
        int attr = 0;
        HIP_CHECK(hipDeviceGetAttribute(&attr, hipDeviceAttributeWarpSize, d));
        if (attr != p.warpSize) {
            rs_hip::fail(kProgram, "device %d: attribute warp size %d, property %d", d, attr, p.warpSize);
        }
        HIP_CHECK(hipDeviceGetAttribute(&attr, hipDeviceAttributeMultiprocessorCount, d));
        if (attr != p.multiProcessorCount) {
            rs_hip::fail(kProgram, "device %d: attribute CU count %d, property %d", d, attr,
                         p.multiProcessorCount);
        }
        size_t free_bytes = 0, total_bytes = 0;
        HIP_CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
        if (total_bytes != p.totalGlobalMem || free_bytes > total_bytes) {
            rs_hip::fail(kProgram, "device %d: hipMemGetInfo %zu free of %zu, totalGlobalMem %zu", d,
                         free_bytes, total_bytes, p.totalGlobalMem);
        }
        int* out = nullptr;
        HIP_CHECK(hipMalloc(&out, sizeof(int)));
        HIP_CHECK(hipMemset(out, 0xff, sizeof(int)));
        hipLaunchKernelGGL(write_index, dim3(1), dim3(64), 0, 0, out, d + 100);
        HIP_CHECK(hipGetLastError());
        int got = 0;
        HIP_CHECK(hipMemcpy(&got, out, sizeof(int), hipMemcpyDeviceToHost));
        if (got != d + 100) {
            rs_hip::fail(kProgram, "device %d: kernel wrote %d, expected %d", d, got, d + 100);
        }
        HIP_CHECK(hipFree(out));
        std::printf(
            "device %d: %s (%s), %d CUs, %zu MiB, warp %d, %zu KiB LDS per block, pci %04x:%02x:%02x\n", d,
            p.name, p.gcnArchName, p.multiProcessorCount, p.totalGlobalMem >> 20, p.warpSize,
            p.sharedMemPerBlock >> 10, p.pciDomainID, p.pciBusID, p.pciDeviceID);
    }
    std::printf("hip_device_props: %d device(s) as gfx90a\nPASS\n", count);
    return 0;
}
