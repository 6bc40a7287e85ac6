// SPDX-License-Identifier: MIT
// Workload sync_copy_during_dispatch: one thread dispatches accumulate.kd (a[i] += 1) round after round,
// each dispatch waited for, while a second thread copies new contents into K coarse-grained buffers
// b[0..K-1] of the same agent with the synchronous hsa_memory_copy, one buffer after another, 5 ms apart
// (a host-to-device copy as hipMemcpy makes it, into memory the agent's replay windows snapshot and
// restore). The copier starts 10 ms after the first dispatch was submitted and the dispatcher goes on
// until every copy returned (at least ROUNDS rounds), so the copies meet open windows. Afterwards a[i] ==
// initial + rounds dispatched and every b[k] holds what was copied into it, each buffer written exactly
// once: a replaying tool that lets a copy land inside a window (after its snapshot, before its last
// restore) loses that copy, and one that snapshots while a copy writes keeps half of it.
// Usage: sync_copy_during_dispatch [ROUNDS] (1 to 1000, default 4). Run it with
// HSA_SIM_KERNEL_TIME_NS=accumulate.kd=20000000 so that windows last (3 passes: about 80 ms each).
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 1024;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    constexpr uint32_t kBuffers = 16;
    const int min_rounds = std::clamp(std::atoi(program_argument(argc, argv, "4")), 1, 1000);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        // Every buffer is allocated and written before the threads start.
        const std::vector<uint32_t> initial = linear_values(kCount, 3000, 7);
        uint32_t* a = session.device_copy(initial);
        std::vector<uint32_t*> b(kBuffers);
        std::vector<uint32_t*> staging(kBuffers);
        for (uint32_t k = 0; k < kBuffers; ++k) {
            b[k] = session.device_copy(std::vector<uint32_t>(kCount, 0xdeadbeefu));
            // Source of the copy: host memory from the system pool, filled with the buffer's own values.
            staging[k] = static_cast<uint32_t*>(session.allocate(session.system_pool(), kBytes));
            for (uint32_t i = 0; i < kCount; ++i) {
                staging[k][i] = 0x5eed0000u + (k << 12) + i;
            }
        }
        void* kernarg = session.kernarg(AccumulateArgs{a, kCount}, kernel.kernarg_segment_size);

        std::atomic<bool> submitted{false}, copies_done{false};
        double longest_copy_ms = 0;
        std::thread copier([&] {
            while (!submitted.load(std::memory_order_acquire)) {
                std::this_thread::yield();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            for (uint32_t k = 0; k < kBuffers; ++k) {
                const auto start = std::chrono::steady_clock::now();
                check(hsa_memory_copy(b[k], staging[k], kBytes), "hsa_memory_copy");
                longest_copy_ms = std::max(longest_copy_ms, std::chrono::duration<double, std::milli>(
                                                                std::chrono::steady_clock::now() - start)
                                                                .count());
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
            copies_done.store(true, std::memory_order_release);
        });
        uint32_t rounds = 0;
        while (rounds < static_cast<uint32_t>(min_rounds) || !copies_done.load(std::memory_order_acquire)) {
            if (rounds == 1000) {
                fail("the %u copies did not return within 1000 dispatches", kBuffers);
            }
            submitted.store(true, std::memory_order_release); // the copier starts 10 ms after this
            queue.dispatch_and_wait(make_dispatch(kernel, kernarg, kCount));
            ++rounds;
        }
        copier.join();

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_added(result, initial, rounds, "a", "accumulate.kd (once per dispatch)");
        for (uint32_t k = 0; k < kBuffers; ++k) {
            session.copy_to_host(result.data(), b[k], kBytes);
            for (uint32_t i = 0; i < kCount; ++i) {
                if (result[i] != staging[k][i]) {
                    fail("b[%u][%u] = 0x%x, expected 0x%x: the hsa_memory_copy into b[%u] was lost (restored "
                         "over, or half snapshotted)",
                         k, i, result[i], staging[k][i], k);
                }
            }
        }
        std::printf("sync_copy_during_dispatch: %u dispatches, %u copies, longest copy call %.1f ms\n",
                    rounds, kBuffers, longest_copy_ms);
        session.free(kernarg);
        for (uint32_t k = 0; k < kBuffers; ++k) {
            session.free(staging[k]);
            session.free(b[k]);
        }
        session.free(a);
    }
    std::printf(
        "sync_copy_during_dispatch: a[i] == initial + dispatches and every b[k] holds its copy\nPASS\n");
    return 0;
}
