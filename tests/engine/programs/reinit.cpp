// SPDX-License-Identifier: MIT
// Test program engine_reinit: two complete runtime lifetimes in one process (hsa_init ... hsa_shut_down,
// twice), one in-place accumulate dispatch in each. The engine is loaded again by the second hsa_init
// (docs/rocm-behaviour.md#tool-loading: OnUnload from hsa_shut_down, the table reset afterwards); nothing of
// the first runtime's agents, queues, executables or allocations may survive into the second.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

namespace {

/// One runtime lifetime: a[i] += 1 once as seen by the program; fails the process otherwise.
void one_lifetime(int argc, char** argv, int round) {
    constexpr uint32_t kCount = 1024;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    const Executable executable = session.load("accumulate_kernels.so");
    const Kernel kernel = executable.kernel("accumulate.kd", gpu);
    Queue queue(gpu);
    std::vector<uint32_t> values(kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
        values[i] = 100u * static_cast<uint32_t>(round) + i;
    }
    auto* data = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
    session.copy_to_device(data, values.data(), kBytes);
    void* kernarg = session.kernarg(AccumulateArgs{data, kCount}, kernel.kernarg_segment_size);
    queue.dispatch_and_wait(make_dispatch(kernel, kernarg, kCount));
    std::vector<uint32_t> result(kCount);
    session.copy_to_host(result.data(), data, kBytes);
    for (uint32_t i = 0; i < kCount; ++i) {
        if (result[i] != values[i] + 1) {
            fail("round %d: a[%u] = %u, expected %u", round, i, result[i], values[i] + 1);
        }
    }
    session.free(kernarg);
    session.free(data);
    std::printf("engine_reinit: round %d correct\n", round);
}

} // namespace

int main(int argc, char** argv) {
    one_lifetime(argc, argv, 1);
    one_lifetime(argc, argv, 2);
    std::printf("PASS\n");
    return 0;
}
