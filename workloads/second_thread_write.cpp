// SPDX-License-Identifier: MIT
// Workload second_thread_write: while the main thread's in-place dispatch add_one(a) runs on queue Q1
// (made long with HSA_SIM_KERNEL_TIME_NS=add_one.kd=NS), a second host thread submits set_values(x) to a
// queue Q2 of its own and waits for it; x is unrelated to a. The second thread submits DELAY_MS (argument
// 1, default 40) after the main thread announced its doorbell store, i.e. while a replaying tool's
// window for add_one is open. Afterwards a[i] == initial + 1 and x[i] == 0x1000 + i must both hold: a
// tool that lets set_values run inside the window and then restores the window's snapshot loses x.
#include "hsa_session.h"
#include "kernels/window_kernels.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    const int delay_ms = std::atoi(program_argument(argc, argv, "40"));

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("window_kernels.so");
        const Kernel add_one = executable.kernel("add_one.kd", gpu);
        const Kernel set_values = executable.kernel("set_values.kd", gpu);
        Queue q1(gpu), q2(gpu);

        const std::vector<uint32_t> initial = linear_values(kCount, 70, 11), old_x(kCount, 0xdeadbeefu);
        auto* a = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        auto* x = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        session.copy_to_device(a, initial.data(), kBytes);
        session.copy_to_device(x, old_x.data(), kBytes);
        void* args_a = session.kernarg(AddOneArgs{a, kCount}, add_one.kernarg_segment_size);
        void* args_x = session.kernarg(SetValuesArgs{x, kCount, 0x1000}, set_values.kernarg_segment_size);

        std::atomic<bool> submitting{false};
        const auto start = std::chrono::steady_clock::now();
        double writer_done_ms = 0;
        std::thread writer([&] {
            while (!submitting.load(std::memory_order_acquire)) {
                std::this_thread::yield();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            q2.dispatch_and_wait(make_dispatch(set_values, args_x, kCount));
            writer_done_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        });
        submitting.store(true, std::memory_order_release);
        q1.dispatch_and_wait(make_dispatch(add_one, args_a, kCount));
        const double main_done_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        writer.join();
        std::printf("second_thread_write: add_one done after %.1f ms, set_values after %.1f ms\n",
                    main_done_ms, writer_done_ms);

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_incremented(result, initial, "a", "add_one");
        session.copy_to_host(result.data(), x, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != 0x1000 + i) {
                fail("x[%u] = 0x%x, expected 0x%x: the second thread's write was lost", i, result[i],
                     0x1000 + i);
            }
        }
        session.free(args_a);
        session.free(args_x);
        session.free(a);
        session.free(x);
    }
    std::printf("second_thread_write: a[i] == initial + 1 and x holds the second thread's write\nPASS\n");
    return 0;
}
