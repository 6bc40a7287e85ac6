// SPDX-License-Identifier: MIT
// Edits and reads of a finished session file, after its collector is gone: the run's exit status, the job
// rank, the derived metrics asked for, the restore totals (declared in session_store.h beside the writer).
// Each opens the file on its own, checked like every reader's, and edits it in one transaction.
#include "replayscope/ipc/session_store.h"

#include "replayscope/session/derived_counters_queries.h"
#include "replayscope/session/file_check.h"
#include "replayscope/session/read_queries.h"
#include "replayscope/session/restore_totals_queries.h"
#include "replayscope/session/sqlite_scalar.h"
#include "replayscope/session/write_statements.h"

#include <sqlite3.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace rs::ipc {

bool record_exit_status(const std::string& path, std::uint32_t root_pid, int exit_status, int exit_signal,
                        std::string& error) {
    const session::FileCheck check = session::check_session_file(path);
    if (!check.ok) {
        error = check.message;
        return false;
    }
    if (check.format_version < 2) {
        error = path + ": session format version " + std::to_string(check.format_version) +
                " has no exit status columns";
        return false;
    }
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
              sqlite3_busy_timeout(db, 2000) == SQLITE_OK &&
              sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) == SQLITE_OK;
    auto update = [&](const char* sql, bool with_pid) {
        sqlite3_stmt* st = nullptr;
        if (!ok || sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) {
            ok = false;
            return;
        }
        sqlite3_bind_int(st, 1, exit_status);
        if (exit_signal > 0) {
            sqlite3_bind_int(st, 2, exit_signal);
        } else {
            sqlite3_bind_null(st, 2);
        }
        if (with_pid) {
            sqlite3_bind_int64(st, 3, root_pid);
        }
        ok = sqlite3_step(st) == SQLITE_DONE;
        sqlite3_finalize(st);
    };
    update(session::kUpdateSessionExit, false);
    if (check.format_version >= 3 && root_pid != 0) {
        // The latest process image of that pid (an exec'd program follows the shell that exec'd it).
        update(session::kUpdateProcessExit, true);
    }
    ok = ok && sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok) {
        error = path + ": cannot record the exit status: " + sqlite3_errmsg(db);
    }
    // The recording is over: leave one self-contained file (see SessionStore::finish).
    if (ok) {
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
        sqlite3_exec(db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
    return ok;
}

namespace {

/// Opens the finished session at `path` (refused like every reader refuses it: check_session_file), runs
/// `edit(db)` in one IMMEDIATE transaction and commits it, then leaves one self-contained file (WAL
/// checkpointed, journal_mode=DELETE). False when any step fails: the transaction is rolled back and
/// `error` reads "<path>: cannot record <what>: <SQLite's message>".
template <typename Edit>
bool edit_finished_session(const std::string& path, const char* what, std::string& error, Edit edit) {
    const session::FileCheck check = session::check_session_file(path);
    if (!check.ok) {
        error = check.message;
        return false;
    }
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
              sqlite3_busy_timeout(db, 2000) == SQLITE_OK &&
              sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK && edit(db) &&
              sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok) {
        error =
            path + ": cannot record " + what + ": " + (db != nullptr ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    } else {
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
        sqlite3_exec(db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
    return ok;
}

/// Opens the session at `path` read-only as every reader does (check_session_file, then the file itself
/// or, when its WAL needs recovery in a read-only directory, a checkpointed copy) and returns
/// `read(db, check)`. False when the check, the open or `read` fails: `error` is the check's message, or
/// "<path>: cannot read <what>: <SQLite's message>".
template <typename Read>
bool read_finished_session(const std::string& path, const char* what, std::string& error, Read read) {
    const session::FileCheck check = session::check_session_file(path);
    if (!check.ok) {
        error = check.message;
        return false;
    }
    const std::string db_path = session::openable_session_copy(path, error);
    if (db_path.empty()) {
        return false;
    }
    sqlite3* db = nullptr;
    const bool ok =
        sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK && read(db, check);
    if (!ok) {
        error =
            path + ": cannot read " + what + ": " + (db != nullptr ? sqlite3_errmsg(db) : "out of memory");
    }
    sqlite3_close(db);
    session::remove_session_copy(path, db_path);
    return ok;
}

} // namespace

bool record_job_rank(const std::string& path, int rank, std::string& error) {
    if (rank < 0) {
        error = path + ": job rank " + std::to_string(rank) + " is not valid";
        return false;
    }
    return edit_finished_session(path, "the job rank", error, [rank](sqlite3* db) {
        sqlite3_int64 has_column = 0;
        std::string text;
        if (!session::query_scalar(db, session::kSessionHasJobRankQuery, has_column, text)) {
            return false;
        }
        // A file of a build before the column: add it (readers of those builds ignore it).
        if (has_column == 0 &&
            sqlite3_exec(db, session::kAddSessionJobRank, nullptr, nullptr, nullptr) != SQLITE_OK) {
            return false;
        }
        sqlite3_stmt* st = nullptr;
        bool ok = sqlite3_prepare_v2(db, session::kUpdateSessionJobRank, -1, &st, nullptr) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_int(st, 1, rank);
            ok = sqlite3_step(st) == SQLITE_DONE;
        }
        sqlite3_finalize(st);
        return ok;
    });
}

bool record_runner_command(const std::string& path, const std::string& command, std::string& error) {
    return edit_finished_session(path, "the runner's command line", error, [&command](sqlite3* db) {
        sqlite3_int64 has_column = 0;
        std::string text;
        if (!session::query_scalar(db, session::kSessionHasRunnerCommandQuery, has_column, text)) {
            return false;
        }
        if (has_column == 0 &&
            sqlite3_exec(db, session::kAddSessionRunnerCommand, nullptr, nullptr, nullptr) != SQLITE_OK) {
            return false;
        }
        sqlite3_stmt* st = nullptr;
        bool ok = sqlite3_prepare_v2(db, session::kUpdateSessionRunnerCommand, -1, &st, nullptr) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_text(st, 1, command.data(), static_cast<int>(command.size()), SQLITE_TRANSIENT);
            ok = sqlite3_step(st) == SQLITE_DONE;
        }
        sqlite3_finalize(st);
        return ok;
    });
}

bool record_derived_counters(const std::string& path, const std::vector<std::string>& names,
                             std::string& error) {
    if (names.empty()) {
        return true;
    }
    return edit_finished_session(path, "the derived metrics", error, [&names](sqlite3* db) {
        sqlite3_stmt* st = nullptr;
        bool ok = sqlite3_exec(db, session::kCreateDerivedCounters, nullptr, nullptr, nullptr) == SQLITE_OK &&
                  sqlite3_prepare_v2(db, session::kInsertDerivedCounter, -1, &st, nullptr) == SQLITE_OK;
        for (const std::string& name : names) {
            if (!ok) {
                break;
            }
            sqlite3_bind_text(st, 1, name.data(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
            ok = sqlite3_step(st) == SQLITE_DONE && sqlite3_reset(st) == SQLITE_OK;
        }
        sqlite3_finalize(st);
        return ok;
    });
}

bool read_job_rank(const std::string& path, int& rank, std::string& error) {
    rank = -1;
    return read_finished_session(path, "the job rank", error, [&](sqlite3* db, const session::FileCheck&) {
        sqlite3_int64 value = 0;
        std::string text;
        if (!session::query_scalar(db, session::kSessionHasJobRankQuery, value, text)) {
            return false;
        }
        if (value > 0) {
            if (!session::query_scalar(db, session::kSessionJobRankQuery, value, text)) {
                return false;
            }
            if (!text.empty() && value >= 0 && value <= std::numeric_limits<int>::max()) {
                rank = static_cast<int>(value);
            }
        }
        return true;
    });
}

bool read_configuration_warnings(const std::string& path, std::vector<std::string>& texts,
                                 std::string& error) {
    texts.clear();
    return read_finished_session(
        path, "the configuration warnings", error, [&](sqlite3* db, const session::FileCheck&) {
            sqlite3_stmt* st = nullptr;
            if (sqlite3_prepare_v2(db, session::kConfigurationWarningsQuery, -1, &st, nullptr) != SQLITE_OK) {
                sqlite3_finalize(st);
                return false;
            }
            int rc = SQLITE_ROW;
            while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
                texts.emplace_back(text != nullptr ? text : "");
            }
            sqlite3_finalize(st);
            return rc == SQLITE_DONE;
        });
}

bool read_restore_totals(const std::string& path, RestoreTotals& totals, std::string& error) {
    totals = RestoreTotals{};
    return read_finished_session(
        path, "the restore totals", error, [&](sqlite3* db, const session::FileCheck& check) {
            totals.format_version = check.format_version;
            bool ok = true;
            // Runs `sql` and stores its first row's columns into `out` (NULL reads as 0).
            auto row = [&](const char* sql, std::initializer_list<std::uint64_t*> out) {
                sqlite3_stmt* st = nullptr;
                if (!ok || sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) {
                    ok = false;
                    return;
                }
                const int rc = sqlite3_step(st);
                if (rc == SQLITE_ROW) {
                    int i = 0;
                    for (std::uint64_t* o : out) {
                        *o = static_cast<std::uint64_t>(sqlite3_column_int64(st, i++));
                    }
                }
                ok = rc == SQLITE_ROW || rc == SQLITE_DONE;
                sqlite3_finalize(st);
            };
            auto& t = totals;
            if (check.format_version >= 4) {
                row(session::kSnapshotTotalsQuery,
                    {&t.snapshots, &t.footprint_bytes, &t.host_snapshots, &t.device_snapshots,
                     &t.mixed_snapshots, &t.pageable_snapshots});
                row(session::kRestoreTotalsQuery,
                    {&t.restores, &t.full_restore_bytes, &t.restored_bytes_host, &t.restored_bytes_device,
                     &t.dirty_chunks, &t.total_chunks, &t.missed_chunks, &t.hash_ns, &t.restore_ns});
                if (check.format_version >= 5) {
                    row(session::kWindowTotalsQuery, {&t.windows, &t.window_ns, &t.longest_window_ns});
                }
            } else {
                // Before format 4 every snapshot went to pageable host memory and every restore copied all of
                // it back from there; the passes after the first name those restores.
                row(session::kLegacySnapshotTotalsQuery, {&t.snapshots, &t.footprint_bytes});
                t.host_snapshots = t.pageable_snapshots = t.snapshots;
                row(check.format_version >= 3 ? session::kLegacyRestoreTotalsQuery
                                              : session::kSingleProcessRestoreTotalsQuery,
                    {&t.restores, &t.full_restore_bytes, &t.restored_bytes_host, &t.restore_ns});
            }
            return ok;
        });
}

bool record_exit_status(const std::string& path, int exit_status, int exit_signal, std::string& error) {
    return record_exit_status(path, 0, exit_status, exit_signal, error);
}

bool read_event_totals(const std::string& path, EventTotals& totals, std::string& error) {
    totals = EventTotals{};
    return read_finished_session(
        path, "the event totals", error, [&](sqlite3* db, const session::FileCheck& check) {
            // Format 3 and later: per process; earlier files are one process, the session row.
            const char* sql =
                check.format_version >= 3
                    ? "SELECT coalesce(sum(last_sequence), 0), coalesce(sum(events_stored), 0), "
                      "coalesce(sum(missing_events), 0) FROM processes"
                    : "SELECT last_sequence, events_stored, coalesce(missing_events, 0) FROM session";
            sqlite3_stmt* st = nullptr;
            const int rc =
                sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK ? sqlite3_step(st) : SQLITE_ERROR;
            if (rc == SQLITE_ROW) {
                totals.sent = static_cast<std::uint64_t>(sqlite3_column_int64(st, 0));
                totals.stored = static_cast<std::uint64_t>(sqlite3_column_int64(st, 1));
                totals.missing = static_cast<std::uint64_t>(sqlite3_column_int64(st, 2));
            }
            sqlite3_finalize(st);
            return rc == SQLITE_ROW || rc == SQLITE_DONE;
        });
}

} // namespace rs::ipc
