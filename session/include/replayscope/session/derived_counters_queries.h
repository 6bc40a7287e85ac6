// SPDX-License-Identifier: MIT
// The derived metrics a run asked for (`derived_counters`, docs/session-schema.md "Derived metrics"):
// written by replayscope-run, read by the inspector, which computes their values from each dispatch's
// counter values. No format version: the table is optional, a file without it asked for none.
#pragma once

namespace rs::session {

/// Creates the table when the file has none (a file of any format version, of any build).
inline constexpr const char* kCreateDerivedCounters =
    "CREATE TABLE IF NOT EXISTS derived_counters (name TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID";
/// One requested metric (?1: its rocprofv3 name); a name recorded twice is kept once.
inline constexpr const char* kInsertDerivedCounter =
    "INSERT OR IGNORE INTO derived_counters (name) VALUES (?1)";
/// 1 when the file has the table, else 0.
inline constexpr const char* kHasDerivedCountersQuery =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'derived_counters'";
/// The requested metrics by name (one column: name). Only valid when kHasDerivedCountersQuery gives 1.
inline constexpr const char* kDerivedCountersQuery = "SELECT name FROM derived_counters ORDER BY name";

} // namespace rs::session
