// SPDX-License-Identifier: MIT
// The records' clocks (records.h): CLOCK_MONOTONIC for every record's timestamp, CLOCK_REALTIME for
// the session start's wall clock. Linked on both sides (rs_ipc_encoder).
#include "replayscope/ipc/records.h"

#include <ctime>

namespace rs::ipc {

std::uint64_t monotonic_ns() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t wall_clock_ns() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

} // namespace rs::ipc
