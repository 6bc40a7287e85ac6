// SPDX-License-Identifier: MIT
// The simulator's single time base: CLOCK_MONOTONIC in ns. It is the HSA system timestamp
// (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY = 1 GHz), as ROCr on Linux reports it.
#pragma once

#include <cstdint>
#include <time.h>

namespace sim {

inline constexpr uint64_t kSystemTimestampFrequency = 1'000'000'000ull;

/// Current system timestamp in ns (monotonic).
inline uint64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

} // namespace sim
