// SPDX-License-Identifier: MIT
// Workload graph_launch: calls hipGraphLaunch from the stand-in libamdhip64.so.5 (linked as usual) on a
// three-node "graph" built over accumulate_kernels.so: accumulate.kd on A, fill.kd on B, accumulate.kd
// on A again. The stand-in submits the nodes on this thread with one doorbell each and waits. Checks
// hipGraphLaunch returned hipSuccess, A == initial + 2 and B == fill pattern.
#include "hip_stand_in/graph_exec.h"
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 1024;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    constexpr uint32_t kFillBase = 0xabc000;

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel accumulate = executable.kernel("accumulate.kd", gpu);
        const Kernel fill = executable.kernel("fill.kd", gpu);
        Queue queue(gpu);

        std::vector<uint32_t> initial(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = 40 * i + 2;
        }
        const hsa_amd_memory_pool_t coarse = session.gpu_pools().coarse;
        auto* a = static_cast<uint32_t*>(session.allocate(coarse, kBytes));
        auto* b = static_cast<uint32_t*>(session.allocate(coarse, kBytes));
        session.copy_to_device(a, initial.data(), kBytes);
        session.copy_to_device(b, initial.data(), kBytes);

        void* accumulate_args = session.kernarg(AccumulateArgs{a, kCount}, accumulate.kernarg_segment_size);
        void* fill_args = session.kernarg(FillArgs{b, kCount, kFillBase}, fill.kernarg_segment_size);
        std::vector<KernelDispatch> nodes = {make_dispatch(accumulate, accumulate_args, kCount),
                                             make_dispatch(fill, fill_args, kCount),
                                             make_dispatch(accumulate, accumulate_args, kCount)};

        StandInGraphExec graph;
        graph.queue = queue.get();
        graph.node_count = static_cast<uint32_t>(nodes.size());
        graph.nodes = nodes.data();
        const int status = hipGraphLaunch(&graph, nullptr);
        std::printf("graph_launch: hipGraphLaunch(3 nodes) returned %d\n", status);
        if (status != 0) {
            fail("hipGraphLaunch returned %d, expected 0 (hipSuccess)", status);
        }

        std::vector<uint32_t> result_a(kCount);
        std::vector<uint32_t> result_b(kCount);
        session.copy_to_host(result_a.data(), a, kBytes);
        session.copy_to_host(result_b.data(), b, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result_a[i] != initial[i] + 2) {
                fail("a[%u] = %u, expected %u (two accumulate nodes)", i, result_a[i], initial[i] + 2);
            }
            if (result_b[i] != kFillBase + i) {
                fail("b[%u] = %u, expected %u (fill node)", i, result_b[i], kFillBase + i);
            }
        }
        std::printf("graph_launch: all three nodes' results correct\n");
        session.free(accumulate_args);
        session.free(fill_args);
        session.free(a);
        session.free(b);
    }
    std::printf("PASS\n");
    return 0;
}
