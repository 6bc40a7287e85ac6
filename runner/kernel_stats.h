// SPDX-License-Identifier: MIT
// --stats: per-kernel statistics of a session in the columns of rocprofv3's kernel_stats.csv, read from
// the session file with SQL (no Qt).
#pragma once

#include <replayscope/session/kernel_name.h>

#include <cstdint>
#include <string>
#include <vector>

namespace rs::runner {

/// How kernel names are written, and the name of a symbol in a style: the session library's, which the
/// inspector shows too (-M/-T, rocprofv3's meaning).
using session::kernel_display_name;
using session::KernelNameStyle;

/// One kernel's timed passes. Durations are agent timestamp ticks taken as ns (1 GHz, as the inspector).
struct KernelStats {
    std::string name;        ///< kernel_display_name of its symbol
    std::uint64_t calls = 0; ///< timed passes (end tick >= start tick, end tick > 0)
    std::uint64_t total_ns = 0;
    std::uint64_t min_ns = 0;
    std::uint64_t max_ns = 0;
    double sum_squares = 0; ///< sum of the squared durations (ns^2), for the standard deviation

    /// total_ns / calls (0 without calls).
    double average_ns() const;
    /// The sample standard deviation (n - 1, as rocprofv3's statistics), 0 below two calls.
    double stddev_ns() const;
};

/// Reads the per-kernel statistics of the session file `session`: every timed pass of the `passes` view
/// (end_tick - start_tick) joined to its dispatch's kernel name (`dispatches.kernel_name_id` in
/// `strings` of the same process), over every process; kernels whose names in `style` are equal are one
/// row. Sorted by total duration, longest first (then by name). False with `error` when the file cannot
/// be opened or read as a session.
bool read_kernel_stats(const std::string& session, KernelNameStyle style, std::vector<KernelStats>& stats,
                       std::string& error);

/// The header line of rocprofv3's kernel_stats.csv (source/lib/output/generateCSV.cpp in
/// rocprofiler-sdk), without the line end.
inline constexpr const char* kKernelStatsHeader =
    "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"";

/// `stats` as rocprofv3's kernel_stats.csv: the header, then one row per kernel in the given order: the
/// name quoted ('"' doubled), calls, total, average (6 decimals), percentage of the sum of the totals
/// (2 decimals), min, max, standard deviation (6 decimals).
std::string kernel_stats_csv(const std::vector<KernelStats>& stats);

/// Writes kernel_stats_csv(stats) to `path`: a file there is removed, the new one created with mode 0600,
/// as the session file. False with `error` when it cannot be replaced, created or written.
bool write_kernel_stats_csv(const std::vector<KernelStats>& stats, const std::string& path,
                            std::string& error);

} // namespace rs::runner
