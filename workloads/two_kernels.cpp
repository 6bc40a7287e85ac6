// SPDX-License-Identifier: MIT
// Workload two_kernels: N rounds of two different kernels on one queue, each dispatch waited for: first
// accumulate.kd (a[i] += 1), then accumulate_indirect.kd (b[i] += 1, b's address read from a table in
// device memory). Usage: two_kernels N (N >= 1, default 4). Each kernel thus has the iterations 1..N,
// interleaved with the other's (--kernel-iteration-range, tests/engine/tst_engine.cpp). Neither kernel is
// idempotent: after the run every a[i] and b[i] must equal its initial value + N, however often a tool
// replayed each dispatch.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 256;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    const char* rounds_text = program_argument(argc, argv, "4");
    char* end = nullptr;
    errno = 0;
    const unsigned long rounds_value = std::strtoul(rounds_text, &end, 10);
    if (errno != 0 || end == rounds_text || *end != '\0' || rounds_value < 1 || rounds_value > 100000) {
        fail("N (rounds) must be a number in [1, 100000], got \"%s\"", rounds_text);
    }
    const auto rounds = static_cast<uint32_t>(rounds_value);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel accumulate = executable.kernel("accumulate.kd", gpu);
        const Kernel indirect = executable.kernel("accumulate_indirect.kd", gpu);
        Queue queue(gpu);

        const std::vector<uint32_t> initial_a = linear_values(kCount, 1000, 7);
        const std::vector<uint32_t> initial_b = linear_values(kCount, 5000, 3);
        uint32_t* a = session.device_copy(initial_a);
        uint32_t* b = session.device_copy(initial_b);
        uint32_t** table = session.device_copy(std::vector<uint32_t*>{b});
        void* kernarg_a = session.kernarg(AccumulateArgs{a, kCount}, accumulate.kernarg_segment_size);
        void* kernarg_b =
            session.kernarg(AccumulateIndirectArgs{table, kCount}, indirect.kernarg_segment_size);
        for (uint32_t round = 0; round < rounds; ++round) {
            queue.dispatch_and_wait(make_dispatch(accumulate, kernarg_a, kCount));
            queue.dispatch_and_wait(make_dispatch(indirect, kernarg_b, kCount));
        }

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_added(result, initial_a, rounds, "a", "accumulate.kd (once per dispatch)");
        session.copy_to_host(result.data(), b, kBytes);
        expect_added(result, initial_b, rounds, "b", "accumulate_indirect.kd (once per dispatch)");
        session.free(kernarg_b);
        session.free(kernarg_a);
        session.free(table);
        session.free(b);
        session.free(a);
    }
    std::printf("two_kernels: every a[i] and b[i] == initial + %u\nPASS\n", rounds);
    return 0;
}
