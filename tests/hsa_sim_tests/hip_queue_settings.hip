// SPDX-License-Identifier: MIT
// HIP 5.2.3 streams with their own queue settings, end to end on the simulated runtime: a stream made by
// hipExtStreamCreateWithCUMask and one made by hipStreamCreateWithPriority (highest priority) each run a
// kernel with correct results, and the simulator's dispatch log (HSA_SIM_DISPATCH_LOG, which the test
// sets; docs/sim-fidelity.md) shows that kernel's dispatch on a queue carrying that CU mask and that
// priority (ROCclr applies them with hsa_amd_queue_cu_set_mask / hsa_amd_queue_set_priority).
// Prints PASS and exits 0 when every check holds; otherwise names the failed check and exits 1.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

__global__ void scale_by(float* p, float factor, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        p[i] *= factor;
    }
}

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            std::printf("FAIL: %s (line %d)\n", #cond, __LINE__);                                            \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

/// Runs scale_by(factor) over 256 floats on `stream` and checks the result.
static int run_on(hipStream_t stream, float factor) {
    constexpr int n = 256;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) {
        host[i] = static_cast<float>(i);
    }
    float* d = nullptr;
    CHECK(hipMalloc(&d, n * sizeof(float)) == hipSuccess);
    CHECK(hipMemcpy(d, host.data(), n * sizeof(float), hipMemcpyHostToDevice) == hipSuccess);
    hipLaunchKernelGGL(scale_by, dim3(n / 64), dim3(64), 0, stream, d, factor, n);
    CHECK(hipGetLastError() == hipSuccess);
    CHECK(hipStreamSynchronize(stream) == hipSuccess);
    CHECK(hipMemcpy(host.data(), d, n * sizeof(float), hipMemcpyDeviceToHost) == hipSuccess);
    for (int i = 0; i < n; ++i) {
        CHECK(host[i] == static_cast<float>(i) * factor);
    }
    CHECK(hipFree(d) == hipSuccess);
    return 0;
}

int main() {
    const char* log_path = std::getenv("HSA_SIM_DISPATCH_LOG");
    CHECK(log_path != nullptr);
    std::ofstream(log_path, std::ios::trunc).close(); // this run's lines only

    const uint32_t mask[1] = {0x0000000f};
    hipStream_t masked = nullptr;
    CHECK(hipExtStreamCreateWithCUMask(&masked, 1, mask) == hipSuccess);
    int least = 0, greatest = 0;
    CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest) == hipSuccess);
    CHECK(greatest < least); // HIP: a smaller number is a higher priority
    hipStream_t urgent = nullptr;
    CHECK(hipStreamCreateWithPriority(&urgent, hipStreamDefault, greatest) == hipSuccess);
    int priority = 0;
    CHECK(hipStreamGetPriority(urgent, &priority) == hipSuccess);
    CHECK(priority == greatest);

    if (run_on(masked, 2.0f) || run_on(urgent, 3.0f)) {
        return 1;
    }
    CHECK(hipStreamDestroy(masked) == hipSuccess);
    CHECK(hipStreamDestroy(urgent) == hipSuccess);

    // Two dispatches of scale_by: one on a queue with exactly the stream's mask, one at high priority (2).
    std::ifstream log(log_path);
    std::string line;
    int kernels = 0, with_mask = 0, with_high_priority = 0;
    while (std::getline(log, line)) {
        if (line.find(" kernel=_Z8scale_byPffi ") == std::string::npos) {
            continue;
        }
        ++kernels;
        with_mask += line.find(" cu_mask=0000000f ") != std::string::npos;
        with_high_priority += line.find(" priority=2 ") != std::string::npos;
    }
    std::printf("scale_by dispatches %d, with the CU mask %d, at high priority %d\n", kernels, with_mask,
                with_high_priority);
    CHECK(kernels == 2);
    CHECK(with_mask == 1);
    CHECK(with_high_priority == 1);
    std::printf("PASS\n");
    return 0;
}
