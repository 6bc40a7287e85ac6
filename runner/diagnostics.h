// SPDX-License-Identifier: MIT
// replayscope-run's messages on stderr, their level (--log-level, --quiet) and its own failure status.
#pragma once

#include <optional>
#include <string>

namespace rs::runner {

/// Exit status when replayscope-run itself fails before or instead of running the program (bad option,
/// engine missing, session file refused); otherwise it exits with the program's status.
inline constexpr int kToolFailure = 125;

/// How much replayscope-run says on stderr, rocprofv3's --log-level names (source/bin/rocprofv3.py in
/// rocprofiler-sdk): each level prints its own lines and those of every level before it.
enum class LogLevel {
    fatal,   ///< only why replayscope-run stops (exit 125)
    error,   ///< also errors after which the run goes on (an export not written, a record refused)
    warning, ///< also warnings
    info,    ///< also the run's notes and its closing report (the default)
    trace,   ///< also the environment given to the program
};

/// The level a --log-level value names: fatal, error, warning, info or trace (any case), and
/// rocprofv3's env and config, both taken as trace (they print what the program is given). Nullopt for
/// anything else.
std::optional<LogLevel> parse_log_level(const std::string& text);

/// Sets the level of this process's messages (LogLevel::info until called).
void set_log_level(LogLevel level);

/// The current level.
LogLevel log_level();

/// True when lines of `level` are printed at the current level.
bool logs(LogLevel level);

/// Prints "replayscope-run: <message>" and a newline on stderr at LogLevel::info.
void note(const std::string& message);

/// Prints "replayscope-run: warning: <message>" at LogLevel::warning.
void warn(const std::string& message);

/// Prints "replayscope-run: error: <message>" at LogLevel::error (the run goes on).
void error_line(const std::string& message);

/// Prints "replayscope-run: <message>" at LogLevel::trace.
void trace(const std::string& message);

/// Prints "replayscope-run: <message>" at every level (replayscope-run stops).
void fatal(const std::string& message);

/// fatal(message), then returns kToolFailure for the caller to exit with.
int fail(const std::string& message);

} // namespace rs::runner
