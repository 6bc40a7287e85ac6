// SPDX-License-Identifier: MIT
// Workload free_during_kernel: free_during_kernel.kd frees one of its own buffers (a coarse device
// allocation) while it runs, through a host callback passed in its kernarg that calls
// hsa_amd_memory_pool_free. Checks: the kernel's output is complete, exactly one free succeeded (a
// replaying tool may run the kernel again; that second free must fail harmlessly) and the buffer is no
// longer a known allocation afterwards.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <atomic>
#include <cstdio>
#include <vector>

using namespace rs::workloads;

namespace {

std::atomic<int> g_free_calls{0};
std::atomic<int> g_successful_frees{0};

/** FreeCallback: hsa_amd_memory_pool_free, counted. Runs on the simulator's kernel thread. */
int32_t free_device_buffer(void* ptr) {
    const hsa_status_t status = hsa_amd_memory_pool_free(ptr);
    g_free_calls.fetch_add(1);
    if (status == HSA_STATUS_SUCCESS) {
        g_successful_frees.fetch_add(1);
    }
    return static_cast<int32_t>(status);
}

} // namespace

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("buffer_lifetime_kernels.so");
        const Kernel kernel = executable.kernel("free_during_kernel.kd", gpu);
        Queue queue(gpu);

        const hsa_amd_memory_pool_t coarse = session.gpu_pools().coarse;
        auto* doomed = static_cast<uint32_t*>(session.allocate(coarse, kBytes));
        auto* out = static_cast<uint32_t*>(session.allocate(coarse, kBytes));
        const std::vector<uint32_t> input = linear_values(kCount, 1, 5);
        session.copy_to_device(doomed, input.data(), kBytes);
        std::printf("free_during_kernel: buffer %p (freed by the kernel), output %p\n",
                    static_cast<void*>(doomed), static_cast<void*>(out));

        void* kernarg = session.kernarg(FreeDuringKernelArgs{doomed, out, kCount, free_device_buffer},
                                        kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        queue.dispatch_and_wait(dispatch);
        std::printf("free_during_kernel: kernel done; free callback called %d time(s), %d succeeded\n",
                    g_free_calls.load(), g_successful_frees.load());

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), out, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != 2 * input[i]) {
                fail("out[%u] = %u, expected %u", i, result[i], 2 * input[i]);
            }
        }
        if (g_successful_frees.load() != 1) {
            fail("the kernel's buffer was freed successfully %d times, expected exactly once",
                 g_successful_frees.load());
        }
        hsa_amd_pointer_info_t info{};
        info.size = sizeof(info);
        check(hsa_amd_pointer_info(doomed, &info, nullptr, nullptr, nullptr), "hsa_amd_pointer_info");
        if (info.type != HSA_EXT_POINTER_TYPE_UNKNOWN) {
            fail("the freed buffer %p is still a known allocation (type %d)", static_cast<void*>(doomed),
                 static_cast<int>(info.type));
        }
        std::printf("free_during_kernel: output correct, buffer freed exactly once\n");
        session.free(kernarg);
        session.free(out);
    }
    std::printf("PASS\n");
    return 0;
}
