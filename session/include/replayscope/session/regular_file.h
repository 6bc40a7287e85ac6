// SPDX-License-Identifier: MIT
// Opening a file that must be a regular file (a session file, a spool) without ever blocking on a FIFO
// or reading a device: the session file check, the collector's spool importer and the session store all go
// through it.
#pragma once

#include <string>
#include <sys/stat.h>

namespace rs::session {

/// What kind of file `mode` is, for refusals: "a FIFO", "a character device", "a block device",
/// "a directory", "a socket", else "not a regular file".
const char* file_kind(mode_t mode);

/// Opens `path` read-only when it is a regular file: stat first (a FIFO is never opened, so nothing
/// blocks), then open with O_NONBLOCK|O_CLOEXEC|O_NOCTTY and fstat the descriptor (the path may have
/// been replaced in between). Returns the descriptor, with its fstat in `identity`; or -1 with `error`
/// set to "PATH: cannot be opened: REASON" or "PATH: KIND, REFUSAL" (`refusal` says what the file
/// was needed as, e.g. "not a session file (refused before reading)").
int open_regular_file(const std::string& path, const char* refusal, struct stat& identity,
                      std::string& error);

/// Whether `path` (symbolic links followed) exists and holds at least one byte.
bool file_has_content(const std::string& path);

/// Whether `path` exists as any kind of file, a dangling symbolic link included (lstat).
bool path_exists(const std::string& path);

} // namespace rs::session
