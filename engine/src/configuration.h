// Replay options from the environment that replayscope-run sets (names shared with ipc/environment.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace rs::engine {

/// Environment variables read by the engine. The first block matches ipc/include/replayscope/ipc/
/// environment.hpp (the launcher's names); the second is engine-only.
namespace env {
inline constexpr const char* kPasses = "REPLAYSCOPE_PASSES";
inline constexpr const char* kKernelIncludeRegex = "REPLAYSCOPE_KERNEL_INCLUDE_REGEX";
inline constexpr const char* kKernelExcludeRegex = "REPLAYSCOPE_KERNEL_EXCLUDE_REGEX";
inline constexpr const char* kDispatchSkip = "REPLAYSCOPE_DISPATCH_SKIP";
inline constexpr const char* kDispatchCount = "REPLAYSCOPE_DISPATCH_COUNT";
inline constexpr const char* kAgentFilter = "REPLAYSCOPE_AGENT_FILTER";
inline constexpr const char* kHostMemoryBudget = "REPLAYSCOPE_HOST_MEMORY_BUDGET";
inline constexpr const char* kFidelityCheck = "REPLAYSCOPE_FIDELITY_CHECK";
inline constexpr const char* kLog = "REPLAYSCOPE_LOG";                         ///< "1": events on stderr
inline constexpr const char* kDrainTimeoutMs = "REPLAYSCOPE_DRAIN_TIMEOUT_MS"; ///< default 10000
inline constexpr const char* kPassTimeoutMs = "REPLAYSCOPE_PASS_TIMEOUT_MS";   ///< default 60000
/// "0": virtual-memory mappings (hsa_amd_vmem_map, ROCr 6.x) are not snapshotted, as in the original design
/// (docs/mechanism.md#known-limitations-of-the-original-design; the fidelity check still watches them;
/// docs/replay-window.md). Default "1".
inline constexpr const char* kTrackVmem = "REPLAYSCOPE_TRACK_VMEM";
} // namespace env

/// The engine's configuration. Malformed values keep the default and are listed in `problems`.
struct Configuration {
    uint32_t passes = 2; ///< passes per replayed dispatch; <= 1: replay off
    std::optional<std::regex> kernel_include;
    std::optional<std::regex> kernel_exclude;
    std::string kernel_include_text, kernel_exclude_text;
    uint64_t dispatch_skip = 0;            ///< dispatches (engine-wide ordinal) let through first
    uint64_t dispatch_count = 0;           ///< dispatches replayed after the skip; 0 = all
    std::vector<std::string> agent_filter; ///< GPU indices ("0") or agent names; empty = all
    uint64_t host_memory_budget = 0;       ///< bytes a snapshot may hold; 0 = unlimited
    bool fidelity_check = false;
    bool log = false;
    bool track_vmem = true; ///< snapshot hsa_amd_vmem_map mappings (ROCr 6.x builds only)
    std::chrono::milliseconds drain_timeout{10000};
    std::chrono::milliseconds pass_timeout{60000};
    std::vector<std::string> problems;

    /// Replay is configured: allocation recording and queue interception are on.
    bool replay_enabled() const { return passes >= 2; }
    /// True when kernel `name` passes the include/exclude regexes.
    bool kernel_selected(const std::string& name) const;
    /// True when dispatch ordinal `n` (0-based) is inside the skip/count window.
    bool dispatch_selected(uint64_t n) const;
    /// True when the GPU agent with this index and name passes the agent filter.
    bool agent_selected(uint32_t gpu_index, const std::string& name) const;

    static Configuration from_environment();
    /// "KEY=value" lines of the effective configuration (for the session record).
    std::string describe() const;
};

} // namespace rs::engine
