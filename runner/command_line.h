// SPDX-License-Identifier: MIT
// A command line as a POSIX shell reads it back: what replayscope-run records of its own invocation in the
// session (session.runner_command), so that a run can be repeated with exactly its options.
#pragma once

#include <string>
#include <vector>

namespace rs::runner {

/// `args` joined by spaces, each argument that holds anything but letters, digits and `_./%=:,+@-` put
/// in single quotes (a quote inside as '\''); an empty argument as ''.
std::string shell_command_line(const std::vector<std::string>& args);

} // namespace rs::runner
