// SPDX-License-Identifier: MIT
// Finding the program on PATH and starting it with posix_spawn.
#pragma once

#include "target_environment.h"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rs::runner {

/// Resolves `program` like execvp (contains '/': as is, when executable; else searched in PATH, or
/// /usr/local/bin:/usr/bin:/bin when PATH is unset). Empty when not found or not executable.
std::string resolve_program(const std::string& program);

/// Starts the program with posix_spawn (SIGINT/SIGQUIT/SIGPIPE default and no signal blocked in the
/// child, as with system()).
class ProgramLauncher {
  public:
    /// Returns false with `error` set (the path and strerror) when the program cannot be started.
    bool launch(const std::string& path, const std::vector<std::string>& argv, const TargetEnvironment& env,
                std::string& error);
    pid_t pid() const noexcept { return pid_; }
    /// Non-blocking: the exit status when the program has ended (exit code, or 128+signal; 127 when the
    /// child's status is lost).
    std::optional<int> poll();
    /// Signal that ended the program (0 when it exited, or has not ended).
    int term_signal() const noexcept { return signal_; }

  private:
    pid_t pid_ = -1;
    int signal_ = 0;
};

} // namespace rs::runner
