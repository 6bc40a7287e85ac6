// SPDX-License-Identifier: MIT
// One scalar out of an SQLite query, for the session file check and the session store.
#pragma once

#include <sqlite3.h>

#include <string>

namespace rs::session {

/// Runs `sql` on `db` and returns the first column of its first row as an integer in `value` and as text
/// in `text` (empty for NULL). False on an SQLite error or when there is no row, with `text` set to
/// SQLite's message.
bool query_scalar(sqlite3* db, const char* sql, sqlite3_int64& value, std::string& text);

} // namespace rs::session
