// SPDX-License-Identifier: MIT
// The environment replayscope-run gives the program it runs.
#pragma once

#include "replay_options.h"

#include <optional>
#include <string>
#include <vector>

namespace rs::runner {

/// The environment of the target: the current environment minus any stale ReplayScope/HSA tool
/// variables (REPLAYSCOPE_LOG, REPLAYSCOPE_DRAIN_TIMEOUT_MS and REPLAYSCOPE_PASS_TIMEOUT_MS of the caller
/// are kept), plus the tool library, connection and replay variables.
class TargetEnvironment {
  public:
    TargetEnvironment();
    void set(const std::string& name, const std::string& value);
    /// Prepends `entry` to a ':'-separated list variable (LD_LIBRARY_PATH, LD_PRELOAD).
    void prepend(const std::string& name, const std::string& entry);
    void set_replay_options(const ReplayOptions& options);
    std::optional<std::string> get(const std::string& name) const;
    /// "KEY=value" lines of the REPLAYSCOPE_* replay variables (recorded in the session).
    std::string describe_replay_options() const;
    /// NAME=VALUE strings for execve/posix_spawn.
    const std::vector<std::string>& entries() const noexcept { return entries_; }

  private:
    std::vector<std::string> entries_;
};

} // namespace rs::runner
