// SPDX-License-Identifier: MIT
// Opening a file that must be a regular file: defined in the session format module
// (replayscope/session/regular_file.h), which checks session files with it; the collector's spool importer
// and the session store use it under these names.
#pragma once

#include "replayscope/session/regular_file.h"

namespace rs::ipc {

using session::file_kind;
using session::open_regular_file;

} // namespace rs::ipc
