// SPDX-License-Identifier: MIT
// Workload two_agents (run with HSA_SIM_GPU_AGENTS=2): one executable loaded for both GPU agents; two
// threads, each on its own agent with its own queue, kernarg and coarse buffer from that agent's pool,
// each running several in-place accumulate.kd dispatches. Checks each buffer == initial + dispatches.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace rs::workloads;

namespace {

constexpr uint32_t kCount = 2048;
constexpr uint32_t kDispatches = 8;

/** What one thread did: empty `error` on success. */
struct AgentRun {
    uint64_t buffer = 0;
    std::string error;
};

void run_on_agent(const HsaSession& session, const Executable& executable, std::size_t index, AgentRun& run) {
    const hsa_agent_t gpu = session.gpu(index);
    const Kernel kernel = executable.kernel("accumulate.kd", gpu);
    Queue queue(gpu);
    const std::size_t bytes = kCount * sizeof(uint32_t);

    std::vector<uint32_t> initial(kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
        initial[i] = static_cast<uint32_t>(index) * 100000 + i;
    }
    auto* data = static_cast<uint32_t*>(session.allocate(session.gpu_pools(index).coarse, bytes));
    run.buffer = reinterpret_cast<uintptr_t>(data);
    session.copy_to_device(data, initial.data(), bytes);
    void* kernarg = session.kernarg(AccumulateArgs{data, kCount}, kernel.kernarg_segment_size);
    for (uint32_t d = 0; d < kDispatches; ++d) {
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        queue.dispatch_and_wait(dispatch);
    }

    std::vector<uint32_t> result(kCount);
    session.copy_to_host(result.data(), data, bytes);
    for (uint32_t i = 0; i < kCount; ++i) {
        if (result[i] != initial[i] + kDispatches) {
            run.error = "GPU" + std::to_string(index) + ": a[" + std::to_string(i) +
                        "] = " + std::to_string(result[i]) + ", expected " +
                        std::to_string(initial[i] + kDispatches);
            break;
        }
    }
    session.free(kernarg);
    session.free(data);
}

} // namespace

int main(int argc, char** argv) {
    HsaSession session(argc, argv);
    if (session.gpus().size() < 2) {
        fail("two_agents needs two GPU agents but found %zu (run with HSA_SIM_GPU_AGENTS=2)",
             session.gpus().size());
    }
    {
        const std::vector<hsa_agent_t> agents{session.gpu(0), session.gpu(1)};
        const Executable executable = session.load("accumulate_kernels.so", agents);

        std::vector<AgentRun> runs(2);
        {
            std::jthread first(run_on_agent, std::cref(session), std::cref(executable), 0, std::ref(runs[0]));
            std::jthread second(run_on_agent, std::cref(session), std::cref(executable), 1,
                                std::ref(runs[1]));
        }
        for (std::size_t i = 0; i < runs.size(); ++i) {
            std::printf("two_agents: GPU%zu buffer 0x%llx, %u accumulate dispatches: %s\n", i,
                        static_cast<unsigned long long>(runs[i].buffer), kDispatches,
                        runs[i].error.empty() ? "correct" : runs[i].error.c_str());
        }
        for (const AgentRun& run : runs) {
            if (!run.error.empty()) {
                fail("%s", run.error.c_str());
            }
        }
    }
    std::printf("PASS\n");
    return 0;
}
