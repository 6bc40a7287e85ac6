// SPDX-License-Identifier: MIT
// Workload large_module_variable: a code object whose `__device__` variable large_table is 1 GiB + 4 KiB,
// over the engine's 1 GiB cap on module variables (docs/mechanism.md#module-scope-variables), next to a
// small `__device__` counter dispatch_total. One dispatch of large_table_read.kd reads large_table and
// adds 1 to each out[i] and to dispatch_total. A replaying tool captures dispatch_total and `out` but
// not large_table (skipped, reported too large); the application must still see one execution:
// out[i] == initial + 1 and dispatch_total == 1.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    constexpr uint64_t kLargeTableBytes = (1ull << 30) + 4096;

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("large_variable_kernels.so");
        const Kernel kernel = executable.kernel("large_table_read.kd", gpu);
        const Variable large = executable.variable("large_table", gpu);
        const Variable total = executable.variable("dispatch_total", gpu);
        if (large.size != kLargeTableBytes) {
            fail("large_table is %u bytes, expected %llu", large.size,
                 static_cast<unsigned long long>(kLargeTableBytes));
        }
        Queue queue(gpu);

        std::vector<uint32_t> initial(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = 1000 + 5 * i;
        }
        auto* out = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        session.copy_to_device(out, initial.data(), kBytes);
        void* kernarg = session.kernarg(TableLookupArgs{out, kCount}, kernel.kernarg_segment_size);
        queue.dispatch_and_wait(make_dispatch(kernel, kernarg, kCount));

        std::vector<uint32_t> result(kCount);
        uint32_t dispatches = 0;
        session.copy_to_host(result.data(), out, kBytes);
        session.copy_to_host(&dispatches, total.address, sizeof dispatches);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != initial[i] + 1) {
                fail("out[%u] = %u, expected %u (one execution)", i, result[i], initial[i] + 1);
            }
        }
        if (dispatches != 1) {
            fail("dispatch_total = %u, expected 1 (one execution)", dispatches);
        }
        session.free(kernarg);
        session.free(out);
        std::printf(
            "large_module_variable: large_table of %u bytes; out == initial + 1, dispatch_total == 1\n",
            large.size);
    }
    std::printf("PASS\n");
    return 0;
}
