// SPDX-License-Identifier: MIT
// Workload peer_agents (run with HSA_SIM_GPU_AGENTS=2): agent 1 is granted access to agent 0's buffers
// a and x (hsa_amd_agents_allow_access). While the main thread's in-place dispatch add_one(a) runs on a
// queue of agent 0 (made long with HSA_SIM_KERNEL_TIME_NS=add_one.kd=NS), a second host thread submits
// set_values(x) to a queue of agent 1 and waits for it, DELAY_MS (argument 1, default 40) after the main
// thread announced its doorbell store, i.e. while a replaying tool's window for add_one is open.
// Afterwards a[i] == initial + 1 and x[i] == 0x1000 + i must both hold: a tool whose window on agent 0
// lets agent 1's kernel run inside it, and then restores agent 0's snapshot, loses x.
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
    if (session.gpus().size() < 2) {
        fail("peer_agents needs two GPU agents but found %zu (run with HSA_SIM_GPU_AGENTS=2)",
             session.gpus().size());
    }
    const hsa_agent_t gpu0 = session.gpu(0), gpu1 = session.gpu(1);
    {
        const std::vector<hsa_agent_t> agents{gpu0, gpu1};
        const Executable executable = session.load("window_kernels.so", agents);
        const Kernel add_one = executable.kernel("add_one.kd", gpu0);
        const Kernel set_values = executable.kernel("set_values.kd", gpu1);
        Queue q0(gpu0), q1(gpu1);

        const std::vector<uint32_t> initial = linear_values(kCount, 70, 11), old_x(kCount, 0xdeadbeefu);
        auto* a = static_cast<uint32_t*>(session.allocate(session.gpu_pools(0).coarse, kBytes));
        auto* x = static_cast<uint32_t*>(session.allocate(session.gpu_pools(0).coarse, kBytes));
        for (void* p : {static_cast<void*>(a), static_cast<void*>(x)}) {
            check(hsa_amd_agents_allow_access(1, &gpu1, nullptr, p), "hsa_amd_agents_allow_access");
        }
        session.copy_to_device(a, initial.data(), kBytes);
        session.copy_to_device(x, old_x.data(), kBytes);
        void* args_a = session.kernarg(AddOneArgs{a, kCount}, add_one.kernarg_segment_size);
        void* args_x = session.kernarg(SetValuesArgs{x, kCount, 0x1000}, set_values.kernarg_segment_size);

        std::atomic<bool> submitting{false};
        std::thread writer([&] {
            while (!submitting.load(std::memory_order_acquire)) {
                std::this_thread::yield();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            q1.dispatch_and_wait(make_dispatch(set_values, args_x, kCount));
        });
        submitting.store(true, std::memory_order_release);
        q0.dispatch_and_wait(make_dispatch(add_one, args_a, kCount));
        writer.join();

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_incremented(result, initial, "a", "add_one");
        session.copy_to_host(result.data(), x, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != 0x1000 + i) {
                fail("x[%u] = 0x%x, expected 0x%x: agent 1's write to agent 0's memory was lost", i,
                     result[i], 0x1000 + i);
            }
        }
        session.free(args_a);
        session.free(args_x);
        session.free(a);
        session.free(x);
    }
    std::printf("peer_agents: a[i] == initial + 1 and x holds agent 1's write\nPASS\n");
    return 0;
}
