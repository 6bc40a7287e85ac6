// SPDX-License-Identifier: MIT
// Workload valu_trips: one dispatch of valu_trips.kd (kernels/valu_trips.s, gfx90a machine code run by
// the simulator's interpreter) over one wave. The kernel loops *trips times and stores *trips + 1, so
// each execution on the same buffer executes more VALU instructions than the one before. The buffer is
// kTripsBufferBytes long, a size no other allocation of the program has, so that
// HSA_SIM_POINTER_INFO_UNKNOWN_BYTES can hide it from a tool's snapshot (tests/engine/tst_counter_passes).
// Argument: how many times the kernel is expected to execute on the buffer (default 1); the program
// fails unless *trips ends at kInitialTrips + that number.
#include "hsa_session.h"

#include <cstdio>
#include <cstdlib>

using namespace rs::workloads;

namespace {

constexpr uint32_t kInitialTrips = 5;            ///< *trips before the dispatch
constexpr std::size_t kTripsBufferBytes = 20484; ///< the buffer's size: only this allocation has it

struct ValuTripsArgs {
    uint32_t* trips;
};

} // namespace

int main(int argc, char** argv) {
    const uint32_t executions =
        static_cast<uint32_t>(std::strtoul(program_argument(argc, argv, "1"), nullptr, 10));
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("valu_trips.co");
        const Kernel kernel = executable.kernel("valu_trips.kd", gpu);
        Queue queue(gpu);

        auto* trips = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kTripsBufferBytes));
        const uint32_t initial = kInitialTrips;
        session.copy_to_device(trips, &initial, sizeof initial);

        void* kernarg = session.kernarg(ValuTripsArgs{trips}, kernel.kernarg_segment_size);
        queue.dispatch_and_wait(make_dispatch(kernel, kernarg, 64));

        uint32_t after = 0;
        session.copy_to_host(&after, trips, sizeof after);
        std::printf("valu_trips: trips %u -> %u after one dispatch (buffer of %zu bytes)\n", initial, after,
                    kTripsBufferBytes);
        if (after != initial + executions) {
            fail("trips is %u, expected %u: the kernel executed %u times on the buffer, expected %u", after,
                 initial + executions, after - initial, executions);
        }
        session.free(kernarg);
        session.free(trips);
    }
    std::printf("PASS\n");
    return 0;
}
