// SPDX-License-Identifier: MIT
// Workload vector_add: c = a + b on three coarse-grained device buffers of GPU 0.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 1024;
    constexpr std::size_t kBytes = kCount * sizeof(float);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    const hsa_amd_memory_pool_t coarse = session.gpu_pools().coarse;
    {
        const Executable executable = session.load("vector_add_kernels.so");
        const Kernel kernel = executable.kernel("vector_add.kd", gpu);
        Queue queue(gpu);

        std::vector<float> a(kCount);
        std::vector<float> b(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            a[i] = static_cast<float>(i);
            b[i] = 0.5f * static_cast<float>(i) + 3.0f;
        }
        auto* device_a = static_cast<float*>(session.allocate(coarse, kBytes));
        auto* device_b = static_cast<float*>(session.allocate(coarse, kBytes));
        auto* device_c = static_cast<float*>(session.allocate(coarse, kBytes));
        session.copy_to_device(device_a, a.data(), kBytes);
        session.copy_to_device(device_b, b.data(), kBytes);
        std::printf("vector_add: a=%p b=%p c=%p (%u floats each, coarse-grained)\n",
                    static_cast<void*>(device_a), static_cast<void*>(device_b), static_cast<void*>(device_c),
                    kCount);

        void* kernarg =
            session.kernarg(VectorAddArgs{device_a, device_b, device_c, kCount}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        queue.dispatch_and_wait(dispatch);

        std::vector<float> c(kCount);
        session.copy_to_host(c.data(), device_c, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (c[i] != a[i] + b[i]) {
                fail("c[%u] = %g, expected %g", i, static_cast<double>(c[i]),
                     static_cast<double>(a[i] + b[i]));
            }
        }
        session.free(kernarg);
        session.free(device_a);
        session.free(device_b);
        session.free(device_c);
    }
    std::printf("vector_add: all %u sums correct\nPASS\n", kCount);
    return 0;
}
