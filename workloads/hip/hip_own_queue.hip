// SPDX-License-Identifier: MIT
// hip_own_queue: kernels launched on streams whose hardware queues carry settings of their own, each timed
// by hipExtLaunchKernelGGL's start/stop events (HIP 5.2.3 takes both times from the kernel dispatch's own
// completion signal):
//  - `timed_cu` on a stream made by hipExtStreamCreateWithCUMask (CU mask 0x0f0f0f0f 0x00ff00ff 0 0),
//  - `timed_prio` on a stream of the highest priority hipDeviceGetStreamPriorityRange reports,
//  - with the argument --cooperative, `timed_coop` launched with hipLaunchCooperativeKernel (HIP's
//    cooperative queue), when the device reports hipDeviceAttributeCooperativeLaunch.
// Before each kernel a hipMemsetAsync on the same stream names that stream's queue in a dispatch log. The
// kernels add 1 in place (so a replaying tool must restore their buffer). Prints one line per kernel,
// "timed KERNEL elapsed MS ms", and checks every buffer holds initial + 1.
#include "hip_check.h"

#include <hip/hip_ext.h>

#include <cstring>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_own_queue";
constexpr int kCount = 2048;
} // namespace

__device__ void add_one(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] += 1;
    }
}
__global__ void timed_cu(int* a, int n) {
    add_one(a, n);
}
__global__ void timed_prio(int* a, int n) {
    add_one(a, n);
}
__global__ void timed_coop(int* a, int n) {
    add_one(a, n);
}

namespace {

/// Uploads initial values into `buffer` on `stream` after a memset on it (the memset's blit kernel names
/// the stream's queue in the simulator's dispatch log).
void prepare(int* buffer, const std::vector<int>& initial, hipStream_t stream) {
    HIP_CHECK(hipMemsetAsync(buffer, 0, kCount * sizeof(int), stream));
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipMemcpy(buffer, initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
}

/// Fails unless `buffer` holds initial + 1 (one execution of the in-place kernel `name`).
void check_once(const char* name, const int* buffer, const std::vector<int>& initial) {
    std::vector<int> result(kCount);
    HIP_CHECK(hipMemcpy(result.data(), buffer, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != initial[i] + 1) {
            rs_hip::fail(kProgram, "%s: a[%d] = %d, expected %d", name, i, result[i], initial[i] + 1);
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    const bool with_cooperative = argc > 1 && std::strcmp(argv[1], "--cooperative") == 0;
    std::vector<int> initial(kCount);
    for (int i = 0; i < kCount; ++i) {
        initial[i] = 40 + 9 * i;
    }
    int* buffers[3] = {};
    for (int*& b : buffers) {
        HIP_CHECK(hipMalloc(&b, kCount * sizeof(int)));
    }
    hipEvent_t start = nullptr, stop = nullptr;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));
    float ms = 0;

    // A CU-masked stream.
    hipStream_t masked = nullptr;
    const uint32_t mask[4] = {0x0f0f0f0fu, 0x00ff00ffu, 0u, 0u};
    HIP_CHECK(hipExtStreamCreateWithCUMask(&masked, 4, mask));
    prepare(buffers[0], initial, masked);
    hipExtLaunchKernelGGL(timed_cu, dim3(kCount / 256), dim3(256), 0, masked, start, stop, 0, buffers[0],
                          kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipEventSynchronize(stop));
    HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
    std::printf("timed timed_cu elapsed %.3f ms\n", ms);
    check_once("timed_cu", buffers[0], initial);

    // The highest-priority stream.
    int least = 0, greatest = 0;
    HIP_CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
    hipStream_t urgent = nullptr;
    HIP_CHECK(hipStreamCreateWithPriority(&urgent, hipStreamNonBlocking, greatest));
    prepare(buffers[1], initial, urgent);
    hipExtLaunchKernelGGL(timed_prio, dim3(kCount / 256), dim3(256), 0, urgent, start, stop, 0, buffers[1],
                          kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipEventSynchronize(stop));
    HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
    std::printf("priority range %d..%d\ntimed timed_prio elapsed %.3f ms\n", least, greatest, ms);
    check_once("timed_prio", buffers[1], initial);

    // A cooperative launch.
    int cooperative = 0;
    HIP_CHECK(hipDeviceGetAttribute(&cooperative, hipDeviceAttributeCooperativeLaunch, 0));
    if (with_cooperative && cooperative) {
        hipStream_t plain = nullptr;
        HIP_CHECK(hipStreamCreateWithFlags(&plain, hipStreamNonBlocking));
        prepare(buffers[2], initial, plain);
        int* arg0 = buffers[2];
        int arg1 = kCount;
        void* args[] = {&arg0, &arg1};
        HIP_CHECK(hipEventRecord(start, plain));
        HIP_CHECK(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(timed_coop), dim3(kCount / 256),
                                             dim3(256), args, 0, plain));
        HIP_CHECK(hipEventRecord(stop, plain));
        HIP_CHECK(hipEventSynchronize(stop));
        HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
        std::printf("timed timed_coop elapsed %.3f ms\n", ms);
        check_once("timed_coop", buffers[2], initial);
        HIP_CHECK(hipStreamDestroy(plain));
    } else if (with_cooperative) {
        rs_hip::fail(kProgram, "the device reports no cooperative launch");
    }

    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    HIP_CHECK(hipStreamDestroy(masked));
    HIP_CHECK(hipStreamDestroy(urgent));
    for (int* b : buffers) {
        HIP_CHECK(hipFree(b));
    }
    std::printf("hip_own_queue: every kernel ran once\nPASS\n");
    return 0;
}
