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

/// Creates the directories above the file `path` that do not exist yet, as `mkdir -p` does (mode 0777
/// less the umask, as rocprofv3 creates its output directory). False with `error` ("cannot create
/// directory 'D': <strerror>", or "'D' is not a directory") when one cannot be created or a component
/// exists and is not a directory. A path without a directory part: true, nothing to do.
bool create_parent_directories(const std::string& path, std::string& error);

} // namespace rs::runner
