// SPDX-License-Identifier: MIT
// Workload alloc_churn: 5000 buffers of random sizes allocated from three pools (GPU coarse, GPU fine,
// CPU fine-grained system) and freed in random order, interleaved with accumulate.kd dispatches on
// random live device buffers. Every buffer's contents are checked when it is freed: each must still
// hold its own pattern (plus the dispatches it received), i.e. no allocation overlapped another.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

using namespace rs::workloads;

namespace {

constexpr uint32_t kAllocations = 5000;
constexpr uint32_t kDispatchEvery = 200; // operations between dispatches
constexpr uint32_t kMaxWords = 1024;     // largest buffer: 4 KiB

struct Buffer {
    uint32_t id = 0;
    std::size_t pool = 0; // index into the pool table
    uint32_t* ptr = nullptr;
    std::vector<uint32_t> expected;
};

} // namespace

int main(int argc, char** argv) {
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        struct PoolEntry {
            const char* name;
            hsa_amd_memory_pool_t pool;
            bool device; // kernels may touch it
            uint32_t allocated;
        };
        PoolEntry pools[] = {
            {"GPU coarse", session.gpu_pools().coarse, true, 0},
            {"GPU fine", session.gpu_pools().fine, true, 0},
            {"CPU system", session.system_pool(), false, 0},
        };
        constexpr std::size_t kPoolCount = sizeof(pools) / sizeof(pools[0]);

        std::mt19937 rng(20260123u);
        std::vector<Buffer> live;
        uint32_t allocated = 0;
        uint32_t freed = 0;
        uint32_t dispatches = 0;
        std::size_t max_live = 0;

        auto verify_and_free = [&](std::size_t slot) {
            Buffer buffer = std::move(live[slot]);
            live[slot] = std::move(live.back());
            live.pop_back();
            std::vector<uint32_t> actual(buffer.expected.size());
            session.copy_to_host(actual.data(), buffer.ptr, actual.size() * sizeof(uint32_t));
            for (std::size_t i = 0; i < actual.size(); ++i) {
                if (actual[i] != buffer.expected[i]) {
                    fail("buffer #%u (%s, %p, %zu words): word %zu = 0x%x, expected 0x%x", buffer.id,
                         pools[buffer.pool].name, static_cast<void*>(buffer.ptr), actual.size(), i, actual[i],
                         buffer.expected[i]);
                }
            }
            session.free(buffer.ptr);
            ++freed;
        };

        uint32_t operation = 0;
        while (allocated < kAllocations || !live.empty()) {
            ++operation;
            const bool may_allocate = allocated < kAllocations;
            const bool do_free = !live.empty() && (!may_allocate || rng() % 100 < 45);
            if (do_free) {
                verify_and_free(rng() % live.size());
            } else {
                Buffer buffer;
                buffer.id = allocated++;
                buffer.pool = rng() % kPoolCount;
                const uint32_t words = 1 + rng() % kMaxWords;
                buffer.expected.resize(words);
                for (uint32_t i = 0; i < words; ++i) {
                    buffer.expected[i] = (buffer.id << 12) ^ (i * 2654435761u);
                }
                buffer.ptr = static_cast<uint32_t*>(
                    session.allocate(pools[buffer.pool].pool, words * sizeof(uint32_t)));
                session.copy_to_device(buffer.ptr, buffer.expected.data(), words * sizeof(uint32_t));
                ++pools[buffer.pool].allocated;
                live.push_back(std::move(buffer));
                max_live = std::max(max_live, live.size());
            }

            if (operation % kDispatchEvery == 0 && !live.empty()) {
                // A random live buffer kernels may touch (device memory), scanning from a random slot.
                const std::size_t start = rng() % live.size();
                std::size_t slot = start;
                while (!pools[live[slot].pool].device) {
                    slot = (slot + 1) % live.size();
                    if (slot == start) {
                        break;
                    }
                }
                Buffer& target = live[slot];
                if (!pools[target.pool].device) {
                    continue;
                }
                const auto words = static_cast<uint32_t>(target.expected.size());
                void* kernarg =
                    session.kernarg(AccumulateArgs{target.ptr, words}, kernel.kernarg_segment_size);
                const KernelDispatch dispatch = make_dispatch(kernel, kernarg, words);
                queue.dispatch_and_wait(dispatch);
                session.free(kernarg);
                for (uint32_t& word : target.expected) {
                    word += 1;
                }
                ++dispatches;
            }
        }

        std::printf(
            "alloc_churn: %u allocations (%s %u, %s %u, %s %u), %u frees, %u dispatches, at most %zu live\n",
            allocated, pools[0].name, pools[0].allocated, pools[1].name, pools[1].allocated, pools[2].name,
            pools[2].allocated, freed, dispatches, max_live);
        if (freed != allocated) {
            fail("freed %u of %u buffers", freed, allocated);
        }
    }
    std::printf("alloc_churn: every buffer kept its contents\nPASS\n");
    return 0;
}
