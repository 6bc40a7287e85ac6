// SPDX-License-Identifier: MIT
// Writes a realistic session file through the pipeline's own SessionStore (the collector's writer):
// agents, tracked and excluded allocations, module variables, replayed and declined dispatches with
// inventories, snapshots (with their stores and chunks), passes, restores (bytes moved over the host link and
// inside the device, dirty chunks), placements of mixed snapshots, restore misses, restore skips and
// warnings. For tests, the benchmark and screenshots.
#pragma once

#include <QString>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rs::app {

class SyntheticSession {
  public:
    struct Options {
        int dispatches = 400;
        int regionsPerInventory = 6; ///< regions of each inventory generation
        int newInventoryEvery = 8;   ///< dispatches per agent between inventory changes (1: every dispatch)
        int agents = 2;
        int passes = 3;
        int allocations = 60;
        bool complete = true; ///< emit session_end and finish (else the writer "dies" mid-session)
        /// Format 4 content: snapshot stores and chunks, one restore record per restore (each pass after
        /// the first and the final one), placements of mixed snapshots, a restore miss every 997 dispatches.
        /// The snapshots carry their window's fence wait. false: snapshots without stores or fence wait
        /// and no restore records (what an older engine reports).
        bool storesAndRestores = true;
        std::uint64_t chunkSize = 65536; ///< bytes per chunk of the dirty restore
        unsigned seed = 1;
        /// Several processes in one session (format 3): the dispatches of each, written one process
        /// after the other through SessionStore::process(); empty: one process (compatibility insert).
        std::vector<int> processDispatches;
        /// Name the CPU agent as the simulated runtime does ("ReplayScope simulated CPU"), which is how
        /// the inspector recognises a simulated session (model/SimulatedRuntime).
        bool simulatedRuntime = false;
        /// Every pass's kernel time multiplied by this (a slower or faster build of the same program).
        double kernelTimeScale = 1.0;
        /// Hardware counters (catalogue name, value) collected in pass 0 of every replayed dispatch (format
        /// 7): dispatch i of kernel k counts value * (k + 1) + i % 4.
        std::vector<std::pair<std::string, std::uint64_t>> counters;
        std::string hostname = "synthetic"; ///< the host the session start names
        /// The job rank recorded in the finished file as replayscope-run records it under a launcher
        /// (rs::ipc::record_job_rank); -1: none (a run outside a job).
        int jobRank = -1;
    };
    /// Writes `path` (replacing it). False with `error` set on failure.
    static bool write(const QString& path, const Options& options, QString* error = nullptr);
};

} // namespace rs::app
