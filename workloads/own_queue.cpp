// SPDX-License-Identifier: MIT
// Workload own_queue: one in-place dispatch add_one(a) on a queue with settings of its own: queue type
// TYPE (argument 1: "multi" or "cooperative", default multi), CU mask 0x0f0f0f0f 0x00ff00ff 0 0
// (hsa_amd_queue_cu_set_mask), priority high (hsa_amd_queue_set_priority) and profiling enabled. The
// dispatch carries the application's completion signal S; after it completed, its start and end ticks are
// read from S (hsa_amd_profiling_get_dispatch_time). Prints
//   own_queue: queue=<hsa_queue_t::id> type=<TYPE> completion=<S.handle> start=<tick> end=<tick>
//   ms=<end-start in ms>
// and checks a[i] == initial + 1. A tool that runs the application's dispatch elsewhere, or lets another
// packet decrement S, changes what these values say.
#include "hsa_session.h"
#include "kernels/window_kernels.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    const std::string type_name = program_argument(argc, argv, "multi");
    if (type_name != "multi" && type_name != "cooperative") {
        fail("unknown queue type '%s' (multi or cooperative)", type_name.c_str());
    }
    const hsa_queue_type32_t type = type_name == "multi" ? HSA_QUEUE_TYPE_MULTI : HSA_QUEUE_TYPE_COOPERATIVE;

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("window_kernels.so");
        const Kernel kernel = executable.kernel("add_one.kd", gpu);
        hsa_queue_t* queue = nullptr;
        check(hsa_queue_create(gpu, 64, type, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
              "hsa_queue_create");
        const uint32_t mask[4] = {0x0f0f0f0fu, 0x00ff00ffu, 0u, 0u};
        check(hsa_amd_queue_cu_set_mask(queue, 128, mask), "hsa_amd_queue_cu_set_mask");
        check(hsa_amd_queue_set_priority(queue, HSA_AMD_QUEUE_PRIORITY_HIGH), "hsa_amd_queue_set_priority");
        check(hsa_amd_profiling_set_profiler_enabled(queue, 1), "hsa_amd_profiling_set_profiler_enabled");

        const std::vector<uint32_t> initial = linear_values(kCount, 2, 9);
        uint32_t* a = session.device_copy(initial);
        void* kernarg = session.kernarg(AddOneArgs{a, kCount}, kernel.kernarg_segment_size);
        hsa_signal_t done{};
        check(hsa_signal_create(1, 0, nullptr, &done), "hsa_signal_create");
        KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        dispatch.completion_signal = done;
        submit_dispatch(queue, dispatch);
        wait_for_completion(done);

        hsa_amd_profiling_dispatch_time_t time{};
        check(hsa_amd_profiling_get_dispatch_time(gpu, done, &time), "hsa_amd_profiling_get_dispatch_time");
        uint64_t frequency = 0;
        check(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency),
              "hsa_system_get_info(TIMESTAMP_FREQUENCY)");
        const double ms =
            frequency ? 1e3 * static_cast<double>(time.end - time.start) / static_cast<double>(frequency)
                      : 0.0;
        std::printf("own_queue: queue=%llu type=%s completion=%llu start=%llu end=%llu ms=%.3f\n",
                    static_cast<unsigned long long>(queue->id), type_name.c_str(),
                    static_cast<unsigned long long>(done.handle), static_cast<unsigned long long>(time.start),
                    static_cast<unsigned long long>(time.end), ms);

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_incremented(result, initial, "a", "add_one");
        hsa_signal_destroy(done);
        session.free(kernarg);
        session.free(a);
        check(hsa_queue_destroy(queue), "hsa_queue_destroy");
    }
    std::printf("own_queue: a[i] == initial + 1\nPASS\n");
    return 0;
}
