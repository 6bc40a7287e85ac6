// SPDX-License-Identifier: MIT
// Workload accumulate: one in-place dispatch of a[i] += 1 on a coarse-grained buffer. The kernel is not
// idempotent, so a tool that replays it must restore the buffer in between: after ONE dispatch as seen by
// the program, every a[i] must equal its initial value + 1.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
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

        const std::vector<uint32_t> initial = linear_values(kCount, 1000, 7);
        uint32_t* data = session.device_copy(initial);

        void* kernarg = session.kernarg(AccumulateArgs{data, kCount}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        queue.dispatch_and_wait(dispatch);
        std::printf("accumulate: one dispatch of accumulate.kd on %p (%u uint32, coarse-grained)\n",
                    static_cast<void*>(data), kCount);

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), data, kBytes);
        expect_incremented(result, initial, "a", "the in-place update");
        session.free(kernarg);
        session.free(data);
    }
    std::printf("accumulate: every a[i] == initial + 1\nPASS\n");
    return 0;
}
