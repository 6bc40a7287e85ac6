// SPDX-License-Identifier: MIT
// Workload constant_table: the host fills the `__constant__` variable lookup_table AFTER the executable
// is frozen (hsa_memory_copy into its VARIABLE_ADDRESS, as hipMemcpyToSymbol does); table_lookup.kd then
// copies the table into an output buffer, which must hold the host's values (not the initial 0xdeadbeef).
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <array>
#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kEntries = 64;
    constexpr uint32_t kCount = 1000;

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("constant_table_kernels.so");
        const Kernel kernel = executable.kernel("table_lookup.kd", gpu);
        const Variable table = executable.variable("lookup_table", gpu);
        if (table.size != kEntries * sizeof(uint32_t)) {
            fail("lookup_table has VARIABLE_SIZE %u, expected %zu", table.size, kEntries * sizeof(uint32_t));
        }

        std::array<uint32_t, kEntries> values{};
        for (uint32_t i = 0; i < kEntries; ++i) {
            values[i] = i * i + 7;
        }
        session.copy_to_device(table.address, values.data(), sizeof values);
        std::printf("constant_table: wrote %u entries into lookup_table at %p after freeze\n", kEntries,
                    table.address);

        auto* out =
            static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kCount * sizeof(uint32_t)));
        Queue queue(gpu);
        void* kernarg = session.kernarg(TableLookupArgs{out, kCount}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        queue.dispatch_and_wait(dispatch);

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), out, kCount * sizeof(uint32_t));
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != values[i % kEntries]) {
                fail("out[%u] = 0x%x, expected lookup_table[%u] = 0x%x", i, result[i], i % kEntries,
                     values[i % kEntries]);
            }
        }
        std::printf("constant_table: %u outputs match the host-written table\n", kCount);
        session.free(kernarg);
        session.free(out);
    }
    std::printf("PASS\n");
    return 0;
}
