// SPDX-License-Identifier: MIT
/*
 * Kernel-argument layouts shared by the test kernel library (test_kernels.cpp) and the suites that
 * dispatch its kernels. Kernels are host functions on the simulator, so pointers in kernargs may point at
 * ordinary host memory.
 */
#ifndef RS_SIM_TEST_KERNELS_H
#define RS_SIM_TEST_KERNELS_H

#include <atomic>
#include <cstdint>

namespace rs_test {

/** Symbol names of the kernels and variables of the test kernel library. */
inline constexpr const char* kFillKernel = "rs_fill.kd";
inline constexpr const char* kRecordKernel = "rs_record.kd";
inline constexpr const char* kCounterVariable = "rs_counter"; // __device__ uint64_t, initially 1000
inline constexpr const char* kTableVariable = "rs_table";     // __constant__ uint32_t[4] = {1, 2, 3, 4}
inline constexpr const char* kEmptyVariable = "rs_empty";     // __device__, size 0
inline constexpr uint64_t kCounterInitial = 1000;
inline constexpr uint32_t kTableInitial[4] = {1, 2, 3, 4};

/** Segment sizes the library declares for rs_fill.kd. */
inline constexpr uint32_t kFillGroupSegment = 64;
inline constexpr uint32_t kFillPrivateSegment = 16;

/** rs_fill.kd: out[i] = table[i % 4] * value + i for every work-item i; counter += work-items. */
struct FillArgs {
    uint32_t* out;
    uint32_t value;
    uint32_t pad;
};

/** State shared by rs_record.kd dispatches: one global event clock, concurrency tracking. */
struct RecordShared {
    std::atomic<uint32_t> clock{0};
    std::atomic<int32_t> in_flight{0};
    std::atomic<int32_t> max_in_flight{0};
    uint32_t start_event[32] = {};
    uint32_t end_event[32] = {};
};

/** rs_record.kd: records start/end events of dispatch `index`, sleeping `sleep_ns` in between. */
struct RecordArgs {
    RecordShared* shared;
    uint32_t index;
    uint32_t pad;
    uint64_t sleep_ns;
};

} // namespace rs_test

#endif // RS_SIM_TEST_KERNELS_H
