// SPDX-License-Identifier: MIT
// The schema part of the one session file check (check_session_file and every reader's open): the objects
// a file's declared format version requires, each of the type the schema gives it (a table where the
// schema has a table: a view or a trigger in its place could make a read run forever), and no trigger.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <vector>

namespace rs::session {

/// How a required object of a session file must be stored.
enum class ObjectType {
    table,         ///< a table (`sqlite_master.type` 'table')
    view,          ///< one of the schema's views
    table_or_view, ///< a table in older files, a view in newer ones of the same format version
};

/// One object a file of a given format version must have.
struct RequiredObject {
    std::string_view name;
    ObjectType type = ObjectType::table;
};

/// The objects every file of `format_version` (its `PRAGMA user_version`) has, with their types: the tables
/// and views of required_tables() (format 1: `dispatches`, `snapshots` and `passes` tables, later views over
/// `dispatch_rows`), and from format 5 the tables of the folded restore layout (`snapshot_store_rows`,
/// `restore_rows`, `snapshot_placements`, `restore_misses`) with their views (`snapshot_stores`,
/// `restores`), from format 7 `counters`, `pass_counters` and the view `pass_counter_values`. Format 4
/// files were written in several layouts while it was changed in place: its restore objects are found by
/// the reader's layout probe, and only their types are checked here.
std::vector<RequiredObject> required_objects(int format_version);

/// What check_session_schema found.
struct SchemaCheck {
    bool ok = false;
    std::string object;  ///< the object refused (empty when ok, or when sqlite_master cannot be read)
    std::string message; ///< why, a clause without the path: "it lacks the table \"restore_rows\" ..." (empty
                         ///< when ok)
};

/// Checks `sqlite_master` of the open connection `db` for a file declaring `format_version`: every object of
/// required_objects() exists with its type, the other objects the schema names (the format-4 restore
/// objects, `counters`, ...) have theirs when present, and there is no trigger (the schema has none). Reads
/// only `sqlite_master` (one row per object), never an object's rows.
SchemaCheck check_session_schema(sqlite3* db, int format_version);

} // namespace rs::session
