// SPDX-License-Identifier: MIT
// Workload allocate_during_kernel: free_during_kernel.kd calls a host callback in the middle of its run;
// here the callback does not free the kernel's buffer but allocates (and at once frees) a large block of
// coarse-grained device memory, timing the call. With HSA_SIM_DEVICE_MEMORY small enough, that block
// fits only if no snapshot store holds device memory: a replaying tool that keeps its snapshot on the
// device must give it back (and must not deadlock when the allocation comes from a kernel it is
// replaying). Arguments: [buffer MiB (default 8)] [block MiB (default 40)]. Checks: the kernel's output
// is right and the last call (the application's own dispatch) got its block. Prints every call's status
// and duration.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

using namespace rs::workloads;

namespace {

struct Call {
    int32_t status;
    double ms;
};

std::mutex g_mutex;
std::vector<Call> g_calls;
hsa_amd_memory_pool_t g_pool{};
std::size_t g_block_bytes = 0;

/** FreeCallback of free_during_kernel.kd: allocates and frees the block. Runs on the kernel's thread. */
int32_t allocate_block(void*) {
    const auto t0 = std::chrono::steady_clock::now();
    void* block = nullptr;
    const hsa_status_t status = hsa_amd_memory_pool_allocate(g_pool, g_block_bytes, 0, &block);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (status == HSA_STATUS_SUCCESS) {
        (void)hsa_amd_memory_pool_free(block);
    }
    std::lock_guard lock(g_mutex);
    g_calls.push_back({static_cast<int32_t>(status), ms});
    return static_cast<int32_t>(status);
}

} // namespace

int main(int argc, char** argv) {
    HsaSession session(argc, argv);
    const std::size_t buffer_mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 8;
    const std::size_t block_mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 40;
    const uint32_t count = static_cast<uint32_t>((buffer_mib << 20) / sizeof(uint32_t));
    const std::size_t bytes = std::size_t(count) * sizeof(uint32_t);
    g_block_bytes = block_mib << 20;
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("buffer_lifetime_kernels.so");
        const Kernel kernel = executable.kernel("free_during_kernel.kd", gpu);
        Queue queue(gpu);
        g_pool = session.gpu_pools().coarse;
        const std::vector<uint32_t> input = linear_values(count, 3, 11);
        uint32_t* buffer = session.device_copy(input);
        auto* out = static_cast<uint32_t*>(session.allocate(g_pool, bytes));
        void* kernarg = session.kernarg(FreeDuringKernelArgs{buffer, out, count, allocate_block},
                                        kernel.kernarg_segment_size);
        queue.dispatch_and_wait(make_dispatch(kernel, kernarg, count));

        std::vector<uint32_t> result(count);
        session.copy_to_host(result.data(), out, bytes);
        for (uint32_t i = 0; i < count; ++i) {
            if (result[i] != 2 * input[i]) {
                fail("out[%u] = %u, expected %u", i, result[i], 2 * input[i]);
            }
        }
        std::lock_guard lock(g_mutex);
        for (std::size_t i = 0; i < g_calls.size(); ++i) {
            std::printf("allocate_during_kernel: call %zu: status 0x%x after %.0f ms\n", i + 1,
                        static_cast<unsigned>(g_calls[i].status), g_calls[i].ms);
        }
        if (g_calls.empty() || g_calls.back().status != HSA_STATUS_SUCCESS) {
            fail("the application's own dispatch did not get its %zu MiB block", block_mib);
        }
        std::printf(
            "allocate_during_kernel: %zu call(s), the last one got its %zu MiB block; output correct\n",
            g_calls.size(), block_mib);
        session.free(kernarg);
        session.free(out);
        session.free(buffer);
    }
    std::printf("PASS\n");
    return 0;
}
