// Replay options from the environment that replayscope-run sets (names: ipc/environment.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <replayscope/ipc/environment.hpp>

namespace rs::engine {

/// Environment variables read by the engine: the launcher's own list (ipc/include/replayscope/ipc/
/// environment.hpp), so the engine and replayscope-run can never disagree on a name.
namespace env = ipc::env;

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
