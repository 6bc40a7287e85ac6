// SPDX-License-Identifier: MIT
// hip_early_completion: a kernel that writes its output only at its end (`late_fill`: work-item 0 of the
// one work-group spins on clock64() for SPIN_MS, argument 1, default 300, at the rate
// hipDeviceProp_t::clockInstructionRate gives; then every work-item
// writes out[i] = 0x2000 + i), launched on a stream the program then synchronises. The moment
// hipStreamSynchronize returns, the output must be complete: the stream's completion may only be
// signalled once that kernel has really finished. A tool that releases the application's completion
// signal early (a replay pass that timed out, or a replay that could not run at all) makes the program
// read zeros. Prints how long the synchronisation took, which must be at least SPIN_MS.
#include "hip_check.h"

#include <chrono>
#include <cstdlib>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_early_completion";
constexpr int kCount = 256; // one work-group
} // namespace

__global__ void late_fill(int* out, int n, long long spin_ticks) {
    if (threadIdx.x == 0) {
        const long long start = clock64();
        while (clock64() - start < spin_ticks) {
        }
    }
    __syncthreads();
    const int i = threadIdx.x;
    if (i < n) {
        out[i] = 0x2000 + i;
    }
}

int main(int argc, char** argv) {
    const int spin_ms = argc > 1 ? std::atoi(argv[1]) : 300;
    hipDeviceProp_t props{};
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    const int rate_khz = props.clockInstructionRate; // clock64() ticks per ms
    if (rate_khz <= 0) {
        rs_hip::fail(kProgram, "clock64 rate %d kHz", rate_khz);
    }
    const long long ticks = static_cast<long long>(spin_ms) * rate_khz;
    int* out = nullptr;
    HIP_CHECK(hipMalloc(&out, kCount * sizeof(int)));
    HIP_CHECK(hipMemset(out, 0, kCount * sizeof(int)));
    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    HIP_CHECK(hipDeviceSynchronize());

    const auto start = std::chrono::steady_clock::now();
    hipLaunchKernelGGL(late_fill, dim3(1), dim3(kCount), 0, s, out, kCount, ticks);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(s));
    const double waited_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // Read at once: the stream said the kernel is done.
    std::vector<int> result(kCount, -1);
    HIP_CHECK(hipMemcpy(result.data(), out, kCount * sizeof(int), hipMemcpyDeviceToHost));
    std::printf("clock64 at %d kHz; stream synchronised after %.1f ms (kernel spins %d ms)\n", rate_khz,
                waited_ms, spin_ms);
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 0x2000 + i) {
            rs_hip::fail(kProgram,
                         "out[%d] = %#x right after hipStreamSynchronize, expected %#x: the stream "
                         "completed before its kernel did",
                         i, result[i], 0x2000 + i);
        }
    }
    HIP_CHECK(hipStreamDestroy(s));
    HIP_CHECK(hipFree(out));
    std::printf("hip_early_completion: the output was complete when the stream completed\nPASS\n");
    return 0;
}
