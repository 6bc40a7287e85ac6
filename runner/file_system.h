// SPDX-License-Identifier: MIT
// Small file-system questions replayscope-run asks about the engine, the simulator, stand-ins, the
// program and the session path.
#pragma once

#include <string>

namespace rs::runner {

/// True when `path` names an existing regular file (stat(2), symlinks followed).
bool is_regular_file(const std::string& path);

/// True when stat(2) succeeds on `path` (a file, directory or anything else exists there).
bool path_exists(const std::string& path);

/// `path` made absolute against the current directory, lexically: no symlink is resolved, the file need
/// not exist, and leading "./" pieces are dropped. An empty or already absolute path, or one for which
/// getcwd(3) fails, is returned unchanged.
std::string absolute_path(const std::string& path);

} // namespace rs::runner
