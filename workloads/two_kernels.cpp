// SPDX-License-Identifier: MIT
// Workload two_kernels: N rounds of two different kernels, each dispatch waited for: first accumulate.kd
// (a[i] += 1), then accumulate_indirect.kd (b[i] += 1, b's address read from a table in device memory).
// Usage: two_kernels [N [THREADS]] (N >= 1, default 4; THREADS 1 to 8, default 1): with several threads,
// each runs its N rounds at the same time on a queue and buffers of its own, on the one agent, so that
// every thread submits the same two kernel objects. Each kernel thus has the iterations 1..N*THREADS
// (--kernel-iteration-range, tests/engine/tst_engine.cpp). Every buffer is allocated and written before
// the threads start and read back after they end, so that the threads only submit dispatches (a
// synchronous host copy that meets another thread's replay window waits for it: that case is
// sync_copy_during_dispatch). Neither kernel is idempotent:
// after the run every a[i] and b[i] of every thread must equal its initial value + N, however often a tool
// replayed each dispatch.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

using namespace rs::workloads;

namespace {

constexpr uint32_t kCount = 256;
constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

/// `text` as an unsigned number in [min, max]; fails the workload naming `what` otherwise.
uint32_t parse_number(const char* text, unsigned long min, unsigned long max, const char* what) {
    char* end = nullptr;
    errno = 0;
    const unsigned long value = std::strtoul(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        fail("%s must be a number in [%lu, %lu], got \"%s\"", what, min, max, text);
    }
    return static_cast<uint32_t>(value);
}

/// One thread's queue, buffers and kernel arguments.
struct Lane {
    std::unique_ptr<Queue> queue;
    std::vector<uint32_t> initial_a, initial_b;
    uint32_t* a = nullptr;
    uint32_t* b = nullptr;
    uint32_t** table = nullptr; ///< device memory holding b's address
    void* kernarg_a = nullptr;
    void* kernarg_b = nullptr;
};

} // namespace

int main(int argc, char** argv) {
    const std::vector<const char*> args = program_arguments(argc, argv);
    const uint32_t rounds = args.size() > 0 ? parse_number(args[0], 1, 100000, "N (rounds)") : 4;
    const uint32_t threads = args.size() > 1 ? parse_number(args[1], 1, 8, "THREADS") : 1;

    HsaSession session(argc, argv);
    {
        const hsa_agent_t gpu = session.gpu();
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel accumulate = executable.kernel("accumulate.kd", gpu);
        const Kernel indirect = executable.kernel("accumulate_indirect.kd", gpu);
        std::vector<Lane> lanes(threads);
        for (uint32_t t = 0; t < threads; ++t) {
            Lane& lane = lanes[t];
            lane.queue = std::make_unique<Queue>(gpu);
            lane.initial_a = linear_values(kCount, 1000 + 100000 * t, 7);
            lane.initial_b = linear_values(kCount, 5000 + 100000 * t, 3);
            lane.a = session.device_copy(lane.initial_a);
            lane.b = session.device_copy(lane.initial_b);
            lane.table = session.device_copy(std::vector<uint32_t*>{lane.b});
            lane.kernarg_a = session.kernarg(AccumulateArgs{lane.a, kCount}, accumulate.kernarg_segment_size);
            lane.kernarg_b =
                session.kernarg(AccumulateIndirectArgs{lane.table, kCount}, indirect.kernarg_segment_size);
        }
        {
            std::latch start(threads);
            std::vector<std::jthread> running;
            for (Lane& lane : lanes) {
                running.emplace_back([&] {
                    start.arrive_and_wait(); // the threads submit at the same time
                    for (uint32_t round = 0; round < rounds; ++round) {
                        lane.queue->dispatch_and_wait(make_dispatch(accumulate, lane.kernarg_a, kCount));
                        lane.queue->dispatch_and_wait(make_dispatch(indirect, lane.kernarg_b, kCount));
                    }
                });
            }
        }
        std::vector<uint32_t> result(kCount);
        for (Lane& lane : lanes) {
            session.copy_to_host(result.data(), lane.a, kBytes);
            expect_added(result, lane.initial_a, rounds, "a", "accumulate.kd (once per dispatch)");
            session.copy_to_host(result.data(), lane.b, kBytes);
            expect_added(result, lane.initial_b, rounds, "b", "accumulate_indirect.kd (once per dispatch)");
            session.free(lane.kernarg_b);
            session.free(lane.kernarg_a);
            session.free(lane.table);
            session.free(lane.b);
            session.free(lane.a);
        }
    }
    std::printf("two_kernels: %u thread(s), every a[i] and b[i] == initial + %u\nPASS\n", threads, rounds);
    return 0;
}
