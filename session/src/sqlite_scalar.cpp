// SPDX-License-Identifier: MIT
#include "replayscope/session/sqlite_scalar.h"

namespace rs::session {

bool query_scalar(sqlite3* db, const char* sql, sqlite3_int64& value, std::string& text) {
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            value = sqlite3_column_int64(st, 0);
            const auto* t = sqlite3_column_text(st, 0);
            text = t ? reinterpret_cast<const char*>(t) : "";
            rc = SQLITE_OK;
        }
    }
    if (rc != SQLITE_OK) {
        text = sqlite3_errmsg(db);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK;
}

} // namespace rs::session
