// SPDX-License-Identifier: MIT
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
/// Version 5: the window's fence wait (`snapshots.fence_wait_ns`, stored as `dispatch_rows.s_fence_ns`).
/// Version 6: how long each replayed dispatch was held behind its window (`dispatches.window_ns`, a view
/// column over the version-5 tables: the tables are unchanged).
/// Version 7: hardware counters per pass (`pass_counters`, the catalogue in `counters`, the view
/// `pass_counter_values` joining them; docs/counters.md).
inline constexpr std::int32_t kFormatVersion = 7;
/// Oldest `user_version` readers accept (they handle 1 to 7; writers append only to 7; a version-1 or -2
/// file reads as one process; a version-3 file has none of the version-4 columns, a version-4 file no
/// fence wait, a version-5 file no `dispatches.window_ns`, a version-6 file no counters).
inline constexpr std::int32_t kOldestReadableVersion = 1;

/// The schema this build creates, as SQL text for sqlite3_exec (several statements each; every view is
/// NUL-terminated, backed by a string literal). Embedded at build time from session/schema/*.sql.
/// tables_sql(): every table; run first, once, when a file is created.
std::string_view tables_sql() noexcept;
/// views_sql(): the documented read columns over the tables (dispatches, snapshots, passes, restores, ...);
/// run after tables_sql().
std::string_view views_sql() noexcept;
/// indexes_sql(): the indexes the readers' look-ups use, `CREATE INDEX IF NOT EXISTS`, built when a session
/// is finished.
std::string_view indexes_sql() noexcept;

} // namespace rs::session
