// SPDX-License-Identifier: MIT
#include "derived_counters_record.h"

#include <replayscope/session/derived_counters_queries.h>
#include <replayscope/session/file_check.h>

#include <sqlite3.h>

namespace rs::runner {

bool record_derived_counters(const std::string& path, const std::vector<std::string>& names,
                             std::string& error) {
    if (names.empty()) {
        return true;
    }
    const session::FileCheck check = session::check_session_file(path);
    if (!check.ok) {
        error = check.message;
        return false;
    }
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
              sqlite3_busy_timeout(db, 2000) == SQLITE_OK &&
              sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, session::kCreateDerivedCounters, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_stmt* st = nullptr;
    ok = ok && sqlite3_prepare_v2(db, session::kInsertDerivedCounter, -1, &st, nullptr) == SQLITE_OK;
    for (const std::string& name : names) {
        if (!ok) {
            break;
        }
        sqlite3_bind_text(st, 1, name.data(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE && sqlite3_reset(st) == SQLITE_OK;
    }
    sqlite3_finalize(st);
    ok = ok && sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok) {
        error = path + ": cannot record the derived metrics: " +
                (db != nullptr ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    } else {
        // The recording is over: leave one self-contained file, as the exit status does.
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
        sqlite3_exec(db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
    return ok;
}

} // namespace rs::runner
