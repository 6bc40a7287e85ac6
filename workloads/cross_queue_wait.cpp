// SPDX-License-Identifier: MIT
// Workload cross_queue_wait: a wait across queues, every packet from one host thread.
//   queue Q1: barrier-AND on the application's signal S (value 1), then dispatch P1 = add_one(a);
//   queue Q2: dispatch P2 = add_one(b) whose completion signal is S,
// each with its own doorbell, in that order. P1 can only start after P2 completed, and P2 is submitted
// only after P1's doorbell store returned: a tool that holds the submitting thread until Q1 has drained
// stalls the program. Prints "both dispatches done in T ms" (from the first doorbell to P1's completion)
// and checks a[i] == initial + 1 and b[i] == initial + 2 (in-place kernels: a replaying tool must restore).
#include "hsa_session.h"
#include "kernels/window_kernels.h"

#include <chrono>
#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("window_kernels.so");
        const Kernel kernel = executable.kernel("add_one.kd", gpu);
        Queue q1(gpu), q2(gpu);

        const std::vector<uint32_t> initial = linear_values(kCount, 500, 3);
        auto* a = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        auto* b = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        session.copy_to_device(a, initial.data(), kBytes);
        session.copy_to_device(b, initial.data(), kBytes);
        void* args_a = session.kernarg(AddOneArgs{a, kCount}, kernel.kernarg_segment_size);
        void* args_b = session.kernarg(AddOneArgs{b, kCount}, kernel.kernarg_segment_size);

        hsa_signal_t s{}, p1_done{}, p2_done{};
        check(hsa_signal_create(1, 0, nullptr, &s), "hsa_signal_create");
        check(hsa_signal_create(1, 0, nullptr, &p1_done), "hsa_signal_create");
        check(hsa_signal_create(1, 0, nullptr, &p2_done), "hsa_signal_create");

        // Round 1: P1 waits for P2 through S.
        const auto start = std::chrono::steady_clock::now();
        const uint64_t barrier = reserve_packets(q1.get(), 1);
        write_barrier_and(q1.get(), barrier, s);
        ring_doorbell(q1.get(), barrier);
        KernelDispatch p1 = make_dispatch(kernel, args_a, kCount);
        p1.completion_signal = p1_done;
        submit_dispatch(q1.get(), p1);
        KernelDispatch p2 = make_dispatch(kernel, args_b, kCount);
        p2.completion_signal = s;
        submit_dispatch(q2.get(), p2);
        wait_for_completion(p1_done);
        // Round 2: b once more, on Q2 again, after the wait resolved.
        p2.completion_signal = p2_done;
        submit_dispatch(q2.get(), p2);
        wait_for_completion(p2_done);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::printf("cross_queue_wait: both dispatches done in %.1f ms\n", ms);

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_incremented(result, initial, "a", "P1");
        session.copy_to_host(result.data(), b, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != initial[i] + 2) {
                fail("b[%u] = %u, expected %u: P2 ran %u times in two dispatches", i, result[i],
                     initial[i] + 2, result[i] - initial[i]);
            }
        }
        hsa_signal_destroy(s);
        hsa_signal_destroy(p1_done);
        hsa_signal_destroy(p2_done);
        session.free(args_a);
        session.free(args_b);
        session.free(a);
        session.free(b);
    }
    std::printf("cross_queue_wait: a[i] == initial + 1, b[i] == initial + 2\nPASS\n");
    return 0;
}
