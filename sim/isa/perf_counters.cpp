// SPDX-License-Identifier: MIT
#include "perf_counters.h"

namespace sim::isa {

void PerfCounters::start() {
    // Leave the session first so that folds racing with the reset are dropped, then zero and open a new
    // one; a dispatch that took the old token can no longer add to the new session's counts.
    session_.store(0, std::memory_order_release);
    for (auto& a : sq_) {
        a.store(0, std::memory_order_relaxed);
    }
    for (auto& unit : cu_) {
        for (auto& a : unit) {
            a.store(0, std::memory_order_relaxed);
        }
    }
    for (auto& channel : tcc_) {
        for (auto& a : channel) {
            a.store(0, std::memory_order_relaxed);
        }
    }
    work_groups_.store(0, std::memory_order_relaxed);
    cycles_.store(0, std::memory_order_relaxed);
    session_.store(last_session_.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_release);
}

void PerfCounters::stop() {
    session_.store(0, std::memory_order_release);
}

void PerfCounters::add_wave(uint64_t session, const WaveCounts& counts, uint32_t cu) {
    if (!current(session)) {
        return;
    }
    for (int i = 0; i < kSqCounts; ++i) {
        add(sq_[i], counts.sq[i]);
    }
    if (!counts.memory) {
        return;
    }
    auto& unit = cu_[cu % kPerfComputeUnits];
    for (int i = 0; i < kCuCounts; ++i) {
        add(unit[i], counts.cu[i]);
    }
    for (uint32_t c = 0; c < kPerfTccChannels; ++c) {
        for (int i = 0; i < kTccCounts; ++i) {
            add(tcc_[c][i], counts.tcc[c][i]);
        }
    }
}

void PerfCounters::add_dispatch(uint64_t session, uint64_t waves, uint64_t work_groups, uint64_t cycles) {
    if (!current(session)) {
        return;
    }
    add(sq_[static_cast<int>(SqCount::waves)], waves);
    add(work_groups_, work_groups);
    add(cycles_, cycles);
}

} // namespace sim::isa
