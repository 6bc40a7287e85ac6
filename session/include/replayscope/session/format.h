// The identity of a ReplayScope session file: application id, format versions and the schema text.
// Writers write kFormatVersion; readers accept [kOldestReadableVersion, kFormatVersion]. Tables, views
// and indexes are documented in docs/session-schema.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace rs::session {

/// `PRAGMA application_id` of a session file: "RSDB" in ASCII.
inline constexpr std::int32_t kApplicationId = 0x52534442;
/// `PRAGMA user_version` this build writes.
/// Version 2: compact dispatch rows (docs/session-schema.md), fidelity, async copies, exit status.
/// Version 3: processes as a dimension (every row carries its process; `processes`, `process_totals`).
/// Version 4: snapshot stores and dirty restores (`snapshot_stores`, `snapshot_placements`, `restores`,
/// `restore_misses`; new columns of the `dispatches`, `snapshots`, `passes` and `process_totals` views).
inline constexpr std::int32_t kFormatVersion = 4;
/// Oldest `user_version` readers accept (they handle 1 to 4; writers append only to 4; a version-1 or -2
/// file reads as one process; a version-3 file has none of the version-4 columns).
inline constexpr std::int32_t kOldestReadableVersion = 1;

} // namespace rs::session
