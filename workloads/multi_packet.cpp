// SPDX-License-Identifier: MIT
// Workload multi_packet: two kernel-dispatch packets (accumulate.kd on buffer A, fill.kd on buffer B)
// reserved together (write index advanced by 2), both written, then published with ONE doorbell store
// of the second packet's index. Each packet has its own completion signal; both results are checked.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 512;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    constexpr uint32_t kFillBase = 0x5000;

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel accumulate = executable.kernel("accumulate.kd", gpu);
        const Kernel fill = executable.kernel("fill.kd", gpu);
        Queue queue(gpu);

        std::vector<uint32_t> initial(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = 3 * i + 11;
        }
        const hsa_amd_memory_pool_t coarse = session.gpu_pools().coarse;
        auto* a = static_cast<uint32_t*>(session.allocate(coarse, kBytes));
        auto* b = static_cast<uint32_t*>(session.allocate(coarse, kBytes));
        session.copy_to_device(a, initial.data(), kBytes);
        session.copy_to_device(b, initial.data(), kBytes);

        void* accumulate_args = session.kernarg(AccumulateArgs{a, kCount}, accumulate.kernarg_segment_size);
        void* fill_args = session.kernarg(FillArgs{b, kCount, kFillBase}, fill.kernarg_segment_size);

        KernelDispatch first = make_dispatch(accumulate, accumulate_args, kCount);
        check(hsa_signal_create(1, 0, nullptr, &first.completion_signal), "hsa_signal_create");
        KernelDispatch second = make_dispatch(fill, fill_args, kCount);
        check(hsa_signal_create(1, 0, nullptr, &second.completion_signal), "hsa_signal_create");

        const uint64_t index = reserve_packets(queue.get(), 2);
        write_dispatch_packet(queue.get(), index, first);
        write_dispatch_packet(queue.get(), index + 1, second);
        ring_doorbell(queue.get(), index + 1);
        std::printf(
            "multi_packet: packets %llu (accumulate.kd) and %llu (fill.kd) published by one doorbell\n",
            static_cast<unsigned long long>(index), static_cast<unsigned long long>(index + 1));

        wait_for_completion(first.completion_signal);
        wait_for_completion(second.completion_signal);

        std::vector<uint32_t> result_a(kCount);
        std::vector<uint32_t> result_b(kCount);
        session.copy_to_host(result_a.data(), a, kBytes);
        session.copy_to_host(result_b.data(), b, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result_a[i] != initial[i] + 1) {
                fail("packet 1 (accumulate): a[%u] = %u, expected %u", i, result_a[i], initial[i] + 1);
            }
            if (result_b[i] != kFillBase + i) {
                fail("packet 2 (fill): b[%u] = %u, expected %u", i, result_b[i], kFillBase + i);
            }
        }
        std::printf("multi_packet: both packets' results correct\n");

        check(hsa_signal_destroy(first.completion_signal), "hsa_signal_destroy");
        check(hsa_signal_destroy(second.completion_signal), "hsa_signal_destroy");
        session.free(accumulate_args);
        session.free(fill_args);
        session.free(a);
        session.free(b);
    }
    std::printf("PASS\n");
    return 0;
}
