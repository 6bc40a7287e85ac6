// SPDX-License-Identifier: MIT
// Workload async_copy_during_dispatch: while one thread's in-place dispatch (a[i] += 1) runs, another
// thread copies new contents into a second coarse-grained buffer of the same agent with
// hsa_amd_memory_async_copy. Both results must hold afterwards: a[i] == initial + 1 and b == the copied
// contents. A replaying tool that snapshots b before the copy lands and restores it between passes
// (instead of making the copy wait for the replay window to close) leaves b with its old contents.
// Run it with HSA_SIM_KERNEL_TIME_NS=accumulate.kd=50000000 so the copy is issued while the kernel runs.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 4096;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        std::vector<uint32_t> initial(kCount), old_b(kCount, 0xdeadbeef), new_b(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = 10 * i;
            new_b[i] = 0x5eed0000u + i;
        }
        auto* a = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        auto* b = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        session.copy_to_device(a, initial.data(), kBytes);
        session.copy_to_device(b, old_b.data(), kBytes);
        // Source of the asynchronous copy: host memory from the system pool.
        auto* staging = static_cast<uint32_t*>(session.allocate(session.system_pool(), kBytes));
        std::copy(new_b.begin(), new_b.end(), staging);

        void* kernarg = session.kernarg(AccumulateArgs{a, kCount}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);

        std::thread copier([&] {
            // Issued while the dispatch is running (the kernel is made to last 50 ms).
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            hsa_signal_t done{};
            check(hsa_signal_create(1, 0, nullptr, &done), "hsa_signal_create");
            check(hsa_amd_memory_async_copy(b, gpu, staging, session.cpu(), kBytes, 0, nullptr, done),
                  "hsa_amd_memory_async_copy");
            wait_for_completion(done);
            hsa_signal_destroy(done);
            std::printf("async_copy_during_dispatch: async copy of %zu bytes into b completed\n", kBytes);
        });
        queue.dispatch_and_wait(dispatch);
        std::printf("async_copy_during_dispatch: one dispatch of accumulate.kd on a completed\n");
        copier.join();

        std::vector<uint32_t> result_a(kCount), result_b(kCount);
        session.copy_to_host(result_a.data(), a, kBytes);
        session.copy_to_host(result_b.data(), b, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result_a[i] != initial[i] + 1) {
                fail("a[%u] = %u, expected %u: the in-place update ran %s", i, result_a[i], initial[i] + 1,
                     result_a[i] > initial[i] + 1 ? "more than once" : "not at all");
            }
            if (result_b[i] != new_b[i]) {
                fail("b[%u] = 0x%x, expected 0x%x: the asynchronous copy was lost (restored over?)", i,
                     result_b[i], new_b[i]);
            }
        }
        session.free(kernarg);
        session.free(staging);
        session.free(b);
        session.free(a);
    }
    std::printf("async_copy_during_dispatch: a[i] == initial + 1 and b holds the copied contents\nPASS\n");
    return 0;
}
