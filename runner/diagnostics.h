// SPDX-License-Identifier: MIT
// replayscope-run's messages on stderr and its own failure status.
#pragma once

#include <string>

namespace rs::runner {

/// Exit status when replayscope-run itself fails before or instead of running the program (bad option,
/// engine missing, session file refused); otherwise it exits with the program's status.
inline constexpr int kToolFailure = 125;

/// Prints "replayscope-run: <message>" and a newline on stderr.
void note(const std::string& message);

/// note(message), then returns kToolFailure for the caller to exit with.
int fail(const std::string& message);

} // namespace rs::runner
