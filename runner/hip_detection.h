// SPDX-License-Identifier: MIT
// --preload-engine auto: whether the program (or the program a wrapper starts) links HIP.
#pragma once

#include <string>
#include <vector>

namespace rs::runner {

/// True when the program file names libamdhip64 among its bytes (a direct HIP dependency): then the
/// engine is also LD_PRELOADed so that its hipGraphLaunch interposer precedes HIP's. False when the file
/// cannot be read.
bool program_uses_hip(const std::string& program_path);

/// --preload-engine auto: true when the program, or any of its arguments that names an executable file
/// (the program a wrapper such as `timeout 60 ./app`, `env X=1 ./app`, `numactl ... ./app` or `mpirun
/// ./app` starts), uses HIP (program_uses_hip). A program started from a shell command line or a script
/// is not found; the engine then warns in the session that its interposer is not in front of HIP.
bool command_uses_hip(const std::string& program_path, const std::vector<std::string>& arguments);

} // namespace rs::runner
