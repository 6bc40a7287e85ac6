// SPDX-License-Identifier: MIT
// Replay options from the environment that replayscope-run sets (names: ipc/environment.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <replayscope/counters/counter_plan.h>
#include <replayscope/ipc/environment.h>
#include <replayscope/ipc/iteration_ranges.h>

namespace rs::engine {

/// Environment variables read by the engine: the launcher's own list (ipc/include/replayscope/ipc/
/// environment.h), so the engine and replayscope-run can never disagree on a name.
namespace env = ipc::env;

/// Where snapshots are placed (REPLAYSCOPE_SNAPSHOT_STORE, docs/mechanism.md#restore): `auto` the device
/// store while it has room beyond the reserve, the host store for the rest; `host` the host store only;
/// `device` like auto, but a region that does not fit is reported.
enum class SnapshotStoreMode : uint8_t { auto_, host, device };
/// How a restore writes the snapshot back (REPLAYSCOPE_RESTORE): `full` every region; `dirty` only the
/// chunks whose hash (computed on the device) changed; `dirty_host` the same with the hashes computed on
/// the host after reading the device back (the fallback path, measured by the benchmark).
enum class RestoreMode : uint8_t { full, dirty, dirty_host };
/// Option text of a mode: "auto" "host" "device"; "full" "dirty" "dirty-host".
const char* option_name(SnapshotStoreMode m) noexcept;
const char* option_name(RestoreMode m) noexcept;

/// The engine's configuration. Malformed values keep the default and are listed in `problems`.
struct Configuration {
    uint32_t passes = 2; ///< passes per replayed dispatch; <= 1: replay off
    std::optional<std::regex> kernel_include;
    std::optional<std::regex> kernel_exclude;
    std::string kernel_include_text, kernel_exclude_text;
    uint64_t dispatch_skip = 0;  ///< dispatches (engine-wide ordinal) let through first
    uint64_t dispatch_count = 0; ///< dispatches replayed after the skip; 0 = all
    /// REPLAYSCOPE_KERNEL_ITERATION_RANGE (rocprofv3's --kernel-iteration-range): the iterations of each
    /// kernel that may be replayed, 1-based per loaded kernel symbol (ExecutableRegistry::Kernel::
    /// dispatches); empty = every iteration, and no iteration is counted.
    std::vector<ipc::IterationRange> iteration_ranges;
    std::vector<std::string> agent_filter; ///< GPU indices ("0") or agent names; empty = all
    uint64_t host_memory_budget = 0;       ///< bytes a snapshot may hold in the host store; 0 = unlimited
    SnapshotStoreMode snapshot_store = SnapshotStoreMode::auto_;
    uint64_t device_store_reserve = 1ull << 30; ///< device bytes the device store leaves free
    RestoreMode restore = RestoreMode::dirty;
    uint64_t chunk_size = 65536; ///< bytes; power of two in [4096, 1 GiB]
    bool fidelity_check = false;
    /// Bytes of unrestorable memory the fidelity check hashes per window (docs/replay-window.md).
    uint64_t fidelity_unrestorable_budget = uint64_t{256} << 20;
    bool log = false;
    bool track_vmem = true; ///< snapshot hsa_amd_vmem_map mappings (ROCr 6.x builds only)
    std::chrono::milliseconds drain_timeout{10000};
    std::chrono::milliseconds pass_timeout{60000};
    /// Hardware counters to collect per pass (REPLAYSCOPE_PMC, request lines of catalogue names; names
    /// the catalogue lacks are dropped and listed in `problems`). docs/counters.md.
    counters::CounterRequest counters;
    std::vector<std::string> problems;

    /// Replay is configured: allocation recording and queue interception are on (two passes or more, or
    /// counters to collect, which need at least one pass).
    bool replay_enabled() const { return passes >= 2 || (passes >= 1 && !counters.empty()); }
    /// True when a kernel passes the include/exclude regexes: included when the include regex matches its
    /// symbol `name` or its name as shown `shown` (demangled, as rocprofv3 matches; ExecutableRegistry),
    /// excluded when the exclude regex matches either.
    bool kernel_selected(const std::string& name, const std::string& shown) const;
    /// True when dispatch ordinal `n` (0-based) is inside the skip/count window.
    bool dispatch_selected(uint64_t n) const;
    /// True when a kernel's `iteration` (1-based; 0 when it could not be counted) may be replayed: no
    /// iteration ranges, or one of them holds it.
    bool iteration_selected(uint64_t iteration) const {
        return iteration_ranges.empty() || ipc::in_iteration_ranges(iteration_ranges, iteration);
    }
    /// True when the GPU agent with this index and name passes the agent filter.
    bool agent_selected(uint32_t gpu_index, const std::string& name) const;

    static Configuration from_environment();
    /// "KEY=value" lines of the effective configuration (for the session record).
    std::string describe() const;
};

} // namespace rs::engine
