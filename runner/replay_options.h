// SPDX-License-Identifier: MIT
// The replay options replayscope-run passes to the engine, and the validation of the store and restore
// options given as text on its command line.
#pragma once

#include <replayscope/counters/counter_plan.h>
#include <replayscope/ipc/iteration_ranges.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rs::runner {

/// Replay options passed to the engine (REPLAYSCOPE_* variables, ipc/environment.h).
struct ReplayOptions {
    unsigned passes = 2;
    std::string kernel_include_regex;
    std::string kernel_exclude_regex;
    std::uint64_t dispatch_skip = 0;
    std::uint64_t dispatch_count = 0; ///< 0 = no limit
    /// --kernel-iteration-range: the iterations of each kernel that may be replayed (empty: all);
    /// REPLAYSCOPE_KERNEL_ITERATION_RANGE in its canonical text when not empty.
    std::vector<rs::ipc::IterationRange> iteration_ranges;
    std::string agent_filter;
    std::uint64_t host_memory_budget = 0; ///< bytes, 0 = none
    bool fidelity_check = false;
    std::optional<std::uint64_t> fidelity_unrestorable_budget; ///< REPLAYSCOPE_FIDELITY_UNRESTORABLE_BUDGET
    bool track_vmem = true;                                    ///< false: REPLAYSCOPE_TRACK_VMEM=0
    std::optional<unsigned> drain_timeout_ms;                  ///< REPLAYSCOPE_DRAIN_TIMEOUT_MS when set
    std::optional<unsigned> pass_timeout_ms;                   ///< REPLAYSCOPE_PASS_TIMEOUT_MS when set
    std::string snapshot_store = "auto";               ///< REPLAYSCOPE_SNAPSHOT_STORE: auto, host or device
    std::optional<std::uint64_t> device_store_reserve; ///< REPLAYSCOPE_DEVICE_STORE_RESERVE (bytes) when set
    std::string restore = "dirty";                     ///< REPLAYSCOPE_RESTORE: full, dirty or dirty-host
    std::optional<std::uint64_t> restore_chunk_size;   ///< REPLAYSCOPE_RESTORE_CHUNK_SIZE (bytes) when set
    rs::counters::CounterRequest counters; ///< --pmc / -i, validated: REPLAYSCOPE_PMC when not empty
    std::vector<rs::counters::CounterGroup> counter_plan; ///< the groups planned with documented slots
    /// Derived metrics named in --pmc / -i (rocprofv3's names), their inputs put into `counters`; recorded
    /// in the session's derived_counters table after the run.
    std::vector<std::string> derived_counters;
};

/// The store and restore options as given on the command line (empty: not given).
struct StoreOptionText {
    std::string snapshot_store = "auto"; ///< --snapshot-store
    std::string device_store_reserve;    ///< --device-store-reserve SIZE
    std::string restore = "dirty";       ///< --restore
    std::string restore_chunk_size;      ///< --restore-chunk-size SIZE
};

/// Smallest and largest chunk of a dirty restore (bytes; the engine's bounds, docs/replay-window.md).
inline constexpr std::uint64_t kMinRestoreChunk = 4096;
inline constexpr std::uint64_t kMaxRestoreChunk = std::uint64_t{1} << 30;

/// Validates `text` into `options`: --snapshot-store auto|host|device, --restore full|dirty|dirty-host,
/// --device-store-reserve a byte count (parse_bytes), --restore-chunk-size a byte count that is a power of
/// two in [kMinRestoreChunk, kMaxRestoreChunk]. False with `error` naming the option, the value and what
/// it should be; `options` is then unchanged.
bool parse_store_options(const StoreOptionText& text, ReplayOptions& options, std::string& error);

/// One range of --kernel-iteration-range: the iterations `first` to `last` of a kernel (1-based, both
/// included; a single number is a range of one).
using IterationRange = rs::ipc::IterationRange;

/// Parses rocprofv3's --kernel-iteration-range values (rs::ipc::parse_iteration_ranges, the reading the
/// engine applies to REPLAYSCOPE_KERNEL_ITERATION_RANGE; rocprofv3's own is get_kernel_filter_range in
/// rocprofiler-sdk's source/lib/rocprofiler-sdk-tool/config.cpp), e.g. "[1-3],[5]" or "[1, 3, [8-12]]".
/// False with `error` ("--kernel-iteration-range: ..." naming the item) when an item is not such a number
/// or range, names iteration 0 or ends before it starts, or when there is no item at all.
bool parse_iteration_ranges(const std::string& text, std::vector<IterationRange>& ranges, std::string& error);

} // namespace rs::runner
