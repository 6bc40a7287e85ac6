// SPDX-License-Identifier: MIT
// What the collector (collector.cpp) and the spool importer (spool_importer.cpp) share about writing
// what they receive into the session file.
#pragma once

#include <cstddef>

namespace rs::ipc {

/// Rows inserted between two commits of the session file, at most (the collector also commits every
/// 200 ms).
inline constexpr std::size_t kCommitRows = 10000;
/// Bytes read per read(2) call, from a connection or a spool file.
inline constexpr std::size_t kReadBytes = 1 << 20;

} // namespace rs::ipc
