// SPDX-License-Identifier: MIT
// Test program engine_fine_grained_leak: one in-place dispatch (a[i] += 1) on device memory from the GPU's
// FINE-grained pool, whose address the kernel reads from a coarse-grained table (accumulate_indirect.kd),
// so the kernarg segment holds no pointer into it and the engine replays the dispatch. The engine excludes
// fine-grained memory from snapshots (docs/mechanism.md#what-is-tracked), so every replay pass adds 1
// again: after N passes a[i] == initial + N.
// The program does not judge that (it exits 0 and prints what it saw); the engine's fidelity check must name
// the region as leaked state.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t); // distinctive size: 8 KiB
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate_indirect.kd", gpu);
        Queue queue(gpu);
        std::vector<uint32_t> initial(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = 7 * i;
        }
        auto* data = static_cast<uint32_t*>(session.allocate(session.gpu_pools().fine, kBytes));
        session.copy_to_device(data, initial.data(), kBytes);
        auto* table =
            static_cast<uint32_t**>(session.allocate(session.gpu_pools().coarse, sizeof(uint32_t*)));
        session.copy_to_device(table, &data, sizeof data);
        void* kernarg = session.kernarg(AccumulateIndirectArgs{table, kCount}, kernel.kernarg_segment_size);
        queue.dispatch_and_wait(make_dispatch(kernel, kernarg, kCount));
        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), data, kBytes);
        std::printf("engine_fine_grained_leak: fine-grained buffer at %p, a[1] - initial[1] = %u\n",
                    static_cast<void*>(data), result[1] - initial[1]);
        session.free(kernarg);
        session.free(table);
        session.free(data);
    }
    std::printf("PASS\n");
    return 0;
}
