// SPDX-License-Identifier: MIT
// Workload wait_behind_host_signal: the application puts a barrier-AND packet that waits on its own
// signal `gate` (value 1) into its queue, then an in-place dispatch (a[i] += 1) behind it, each with its
// own doorbell, and sets `gate` to 0 from the host only DELAY_MS after the dispatch was submitted. The
// dispatch cannot start before that, so a replaying tool that waits for the queue to drain before its
// snapshot must give up after its drain timeout (shorter than the delay) and let the dispatch run once,
// when the application releases it. Prints how long the dispatch's doorbell store took ("submit took N
// ms"). Afterwards a[i] == initial + 1.
//   wait_behind_host_signal [DELAY_MS]   (default 200)
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    const long delay_ms = std::strtol(program_argument(argc, argv, "200"), nullptr, 10);
    constexpr uint32_t kCount = 1024;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        const std::vector<uint32_t> initial = linear_values(kCount, 3, 11);
        uint32_t* a = session.device_copy(initial);
        void* kernarg = session.kernarg(AccumulateArgs{a, kCount}, kernel.kernarg_segment_size);
        KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);

        hsa_signal_t gate{};
        check(hsa_signal_create(1, 0, nullptr, &gate), "hsa_signal_create");
        check(hsa_signal_create(1, 0, nullptr, &dispatch.completion_signal), "hsa_signal_create");
        const uint64_t barrier_index = reserve_packets(queue.get(), 1);
        write_barrier_and(queue.get(), barrier_index, gate);
        ring_doorbell(queue.get(), barrier_index);

        const auto before = std::chrono::steady_clock::now();
        submit_dispatch(queue.get(), dispatch);
        const auto submitted = std::chrono::steady_clock::now();
        std::printf("wait_behind_host_signal: submit took %lld ms\n",
                    static_cast<long long>(
                        std::chrono::duration_cast<std::chrono::milliseconds>(submitted - before).count()));

        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        if (hsa_signal_load_scacquire(dispatch.completion_signal) < 1) {
            fail("the dispatch completed before the barrier it sits behind was released");
        }
        hsa_signal_store_screlease(gate, 0);
        wait_for_completion(dispatch.completion_signal);
        check(hsa_signal_destroy(dispatch.completion_signal), "hsa_signal_destroy");
        check(hsa_signal_destroy(gate), "hsa_signal_destroy");

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_incremented(result, initial, "a", "the dispatch");
        session.free(kernarg);
        session.free(a);
        std::printf("wait_behind_host_signal: released after %ld ms; a[i] == initial + 1\n", delay_ms);
    }
    std::printf("PASS\n");
    return 0;
}
