// SPDX-License-Identifier: MIT
// Workload early_completion: one dispatch of late_fill.kd (sleeps DELAY_MS, argument 1, default 300, then
// writes out[i] = 0x2000 + i) with the application's own completion signal. The moment the wait on that
// signal returns, the output is read back: it must be complete. A tool that decrements the application's
// completion signal before the kernel really finished (a replay pass that timed out, a replay that could
// not run at all) makes the program read the old contents. Prints how long the wait took (at least
// DELAY_MS when the signal is right).
#include "hsa_session.h"
#include "kernels/window_kernels.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 1024;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    const int delay_ms = std::atoi(program_argument(argc, argv, "300"));

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("window_kernels.so");
        const Kernel kernel = executable.kernel("late_fill.kd", gpu);
        Queue queue(gpu);

        const std::vector<uint32_t> zeros(kCount, 0);
        uint32_t* out = session.device_copy(zeros);
        void* kernarg =
            session.kernarg(LateFillArgs{out, kCount, 0x2000, static_cast<uint64_t>(delay_ms) * 1000000u},
                            kernel.kernarg_segment_size);
        hsa_signal_t done{};
        check(hsa_signal_create(1, 0, nullptr, &done), "hsa_signal_create");
        KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        dispatch.completion_signal = done;

        const auto start = std::chrono::steady_clock::now();
        submit_dispatch(queue.get(), dispatch);
        wait_for_completion(done);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        // Read at once: the completion signal said the kernel is done.
        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), out, kBytes);
        std::printf("early_completion: completion signal reached 0 after %.1f ms (kernel sleeps %d ms)\n", ms,
                    delay_ms);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != 0x2000 + i) {
                fail(
                    "out[%u] = 0x%x right after the completion signal fired, expected 0x%x: the signal fired "
                    "before the kernel completed",
                    i, result[i], 0x2000 + i);
            }
        }
        hsa_signal_destroy(done);
        session.free(kernarg);
        session.free(out);
    }
    std::printf("early_completion: the output was complete when the completion signal fired\nPASS\n");
    return 0;
}
