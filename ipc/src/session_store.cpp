// SPDX-License-Identifier: MIT
#include "replayscope/ipc/session_store.h"

#include "replayscope/session/format.h"
#include "replayscope/session/write_statements.h"

#include "replayscope/session/file_check.h"
#include "replayscope/session/read_queries.h"
#include "replayscope/session/regular_file.h"
#include "replayscope/session/restore_totals_queries.h"
#include "replayscope/session/sqlite_scalar.h"

#include "sequence_space.h"
#include "wal_limit_vfs.h"

#include <replayscope/counters/catalogue.h>

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <string_view>
#include <sys/stat.h>
#include <type_traits>
#include <unistd.h>

namespace rs::ipc {

namespace {

// Version 2 layout (docs/session-schema.md): a dispatch, its snapshot and its first two passes are one
// physical row of `dispatch_rows` (seq/ts of the parts relative to the row's anchor, kernel ticks as
// offsets and durations, small refs for agent/queue/kernel-object handles); `dispatches`, `snapshots`
// and `passes` are views with the documented columns. Version 4 adds where each snapshot lives and what
// each restore moved: the snapshot's store and the restores before pass 1 and after it (the two of a
// replayed dispatch of two passes) fold into the same row (`s_store`, `r1`, `rf`; fold_or_spill), the
// others go to `snapshot_store_rows` / `restore_rows`, and `snapshot_stores` / `restores` are views over
// both; the `snapshot_placements` of mixed snapshots and `restore_misses` are tables.
// Statement texts and the dispatch_rows layout: session/ (write_statements.h); schema: session/schema/.
using session::kDispatchColumns;
using session::kDispatchKeyShift;
using session::kMaxDispatchId;
using session::kRowColumns;

/// Writes the enum_names rows of every list of vocabulary.h (records.h's kEnumTables); INSERT OR
/// IGNORE, so that reopening a file written by an older build adds the values it did not know.
/// Returns false with `error` set on an SQLite error.
bool insert_enum_names(sqlite3* db, std::string& error);

/// Writes the `counters` rows of the counter catalogue (counters/catalogue.h: id, name, block, select
/// value, unit, description); INSERT OR IGNORE, so that reopening a file adds the counters it lacks.
bool insert_counter_definitions(sqlite3* db, std::string& error) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, session::kInsertCounterDefinition, -1, &st, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    bool ok = true;
    const auto catalogue = rs::counters::gfx90a_counters();
    for (std::size_t i = 0; ok && i < catalogue.size(); ++i) {
        const auto& c = catalogue[i];
        const std::string_view block = rs::counters::block_name(c.block);
        sqlite3_bind_int64(st, 1, static_cast<sqlite3_int64>(i));
        sqlite3_bind_text(st, 2, c.name.data(), static_cast<int>(c.name.size()), SQLITE_STATIC);
        sqlite3_bind_text(st, 3, block.data(), static_cast<int>(block.size()), SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, c.event);
        sqlite3_bind_text(st, 5, c.unit.data(), static_cast<int>(c.unit.size()), SQLITE_STATIC);
        sqlite3_bind_text(st, 6, c.description.data(), static_cast<int>(c.description.size()), SQLITE_STATIC);
        ok = sqlite3_step(st) == SQLITE_DONE;
        sqlite3_reset(st);
    }
    if (!ok) {
        error = sqlite3_errmsg(db);
    }
    sqlite3_finalize(st);
    return ok;
}

bool insert_enum_names(sqlite3* db, std::string& error) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, session::kInsertEnumName, -1, &st, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    bool ok = true;
    for (const EnumTable& table : kEnumTables) {
        for (std::size_t i = 0; ok && i < table.count; ++i) {
            sqlite3_bind_text(st, 1, table.table.data(), static_cast<int>(table.table.size()), SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, table.names[i].code);
            sqlite3_bind_text(st, 3, table.names[i].name.data(), static_cast<int>(table.names[i].name.size()),
                              SQLITE_STATIC);
            ok = sqlite3_step(st) == SQLITE_DONE;
            sqlite3_reset(st);
        }
    }
    if (!ok) {
        error = sqlite3_errmsg(db);
    }
    sqlite3_finalize(st);
    return ok;
}

struct InsertSql {
    EventType type;
    const char* sql;
};
// Parameter ?1 is the process of every statement.
constexpr InsertSql kInserts[] = {
    {EventType::session_start, session::kUpdateProcessStart},
    {EventType::string, session::kInsertString},
    {EventType::agent, session::kInsertAgent},
    {EventType::allocation, session::kUpsertAllocation},
    {EventType::free, session::kInsertFree},
    {EventType::executable_loaded, session::kInsertExecutable},
    {EventType::module_variable, session::kInsertModuleVariable},
    {EventType::inventory, session::kInsertInventory},
    {EventType::inventory_region, session::kInsertInventoryRegion},
    {EventType::snapshot_failure, session::kInsertSnapshotFailure},
    {EventType::pass, session::kInsertExtraPass},
    {EventType::restore_skip, session::kInsertRestoreSkip},
    {EventType::warning, session::kInsertWarning},
    {EventType::session_end, session::kUpdateProcessEnd},
    {EventType::fidelity_mismatch, session::kInsertFidelityMismatch},
    {EventType::async_copy, session::kInsertAsyncCopy},
    {EventType::restore_failure, session::kInsertRestoreFailure},
    // The snapshot's store columns when they do not fold into its dispatch row (fold_or_spill).
    {EventType::snapshot, session::kInsertSnapshotStore},
    {EventType::snapshot_placement, session::kInsertSnapshotPlacement},
    {EventType::restore, session::kInsertRestore},
    {EventType::restore_miss, session::kInsertRestoreMiss},
    {EventType::counter_value, session::kInsertPassCounter},
};

/// Values are stored as SQLite's signed 64-bit integers (two's complement of the unsigned value).
inline void bind(sqlite3_stmt* s, int i, std::uint64_t v) {
    sqlite3_bind_int64(s, i, static_cast<sqlite3_int64>(v));
}
template <typename E>
inline void bind_enum(sqlite3_stmt* s, int i, E v) {
    sqlite3_bind_int(s, i, static_cast<int>(v));
}
/// One parameter by its value's type: enums through bind_enum, text (bound in place: it must outlive the
/// step) as text, signed integers as themselves, unsigned ones through bind().
template <typename T>
inline void bind_value(sqlite3_stmt* s, int i, const T& v) {
    if constexpr (std::is_enum_v<T>) {
        bind_enum(s, i, v);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    } else if constexpr (std::is_signed_v<T>) {
        sqlite3_bind_int64(s, i, v);
    } else {
        bind(s, i, v);
    }
}
/// Binds `values` to consecutive parameters from `first` (the columns of one row, in order).
template <typename... T>
inline void bind_columns(sqlite3_stmt* s, int first, const T&... values) {
    int i = first;
    (bind_value(s, i++, values), ...);
}

} // namespace

/// State of one process while writing: its sequence space and counts, with the committed values of
/// the counts (a failed commit returns to them).
struct SessionStore::ProcessState {
    std::int64_t index = 0;
    ProcessIdentity identity;
    SequenceSpace space;
    /// Sequence numbers stored in the open transaction (erased from `space` on rollback).
    std::vector<std::uint64_t> uncommitted;
    /// Highest sequence number read from the process (stored, or lost with a rolled-back transaction or
    /// a failed insert). Never rolled back: what a failed commit loses counts as missing.
    std::uint64_t received = 0;
    /// Its session_end was read (kept through rollbacks: end_record is stored again by every transaction
    /// until one commits it, so its sent counts reach the file when space returns).
    bool end_read = false;
    Record end_record{};
    bool row_written = false; ///< its processes row exists (committed, or in the open transaction)
    bool row_in_txn = false;  ///< written in the open transaction
    bool dirty = false;       ///< counts changed since the last commit
    bool gaps_dirty = false;  ///< sequence_gaps rows differ from `space`
    /// Changed since the last finish() that committed (or never finished): finish() recounts, names and
    /// ends only these, so that appending to a file of many processes costs what changed.
    bool unfinished = true;
    bool saw_end = false;                ///< its session_end is stored (committed or in the open transaction)
    std::uint64_t end_last_sequence = 0; ///< the session_end's last_sequence (0: none read)
    std::uint64_t stored = 0, dispatches = 0, rejected = 0;
    struct Committed {
        bool saw_end = false;
        std::uint64_t end_last_sequence = 0, stored = 0, dispatches = 0, last_sequence = 0, missing = 0;
    } committed;
};

std::unique_ptr<SessionStore> SessionStore::open(const std::string& path, Mode mode, std::string& error) {
    const bool exists = session::file_has_content(path);
    bool fresh = true;
    if (exists) {
        if (mode == Mode::create) {
            error = path + ": already exists (use --force to overwrite)";
            return nullptr;
        }
        if (mode == Mode::overwrite) {
            struct stat st{};
            if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
                error = path + ": " + session::file_kind(st.st_mode) + ", not overwritten";
                return nullptr;
            }
            ::unlink(path.c_str());
            ::unlink((path + "-wal").c_str());
            ::unlink((path + "-shm").c_str());
        } else {
            const session::FileCheck check = session::check_session_file(path);
            if (!check.ok) {
                error = check.message;
                return nullptr;
            }
            if (check.format_version != session::kFormatVersion) {
                error = path + ": session format version " + std::to_string(check.format_version) +
                        " can be read but not appended to; this ReplayScope writes version " +
                        std::to_string(session::kFormatVersion);
                return nullptr;
            }
            fresh = false;
        }
    } else {
        struct stat st{};
        if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
            error = path + ": " + session::file_kind(st.st_mode) + ", not a session file";
            return nullptr;
        }
    }
    // What this call creates, it removes again when it fails (no 0-byte or schema-less file is left,
    // e.g. by a full disk before the start).
    const bool created = !session::path_exists(path);
    const bool created_wal = !session::path_exists(path + "-wal"),
               created_shm = !session::path_exists(path + "-shm");
    std::unique_ptr<SessionStore> store(new SessionStore());
    auto fail = [&](const std::string& message) -> std::unique_ptr<SessionStore> {
        error = message;
        store.reset();
        if (created_wal) {
            ::unlink((path + "-wal").c_str());
        }
        if (created_shm) {
            ::unlink((path + "-shm").c_str());
        }
        if (created || (fresh && exists)) { // an emptied (overwritten) or new file holds nothing
            ::unlink(path.c_str());
        }
        ::unlink((path + "-journal").c_str());
        return nullptr;
    };
    // A session holds command lines, paths and configuration derived from the environment: a file this
    // call creates is made here with mode 0600 (before SQLite, which would create it 0644 less the
    // umask); SQLite gives its -wal, -shm and -journal files the database file's mode. O_EXCL: a file
    // that appeared meanwhile is left to the checks of sqlite3_open_v2 below.
    if (created) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0) {
            ::close(fd);
        }
    }
    // One thread at a time uses the connection (the collector thread, then finish() after joining it):
    // no per-call SQLite mutex.
    if (sqlite3_open_v2(path.c_str(), &store->db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        guarded_vfs()) != SQLITE_OK) {
        return fail(path + ": cannot create: " + sqlite3_errmsg(store->db_));
    }
    // WAL + synchronous=NORMAL: the file is consistent after any crash, and every committed transaction
    // survives a crash of the writing process (an OS crash may roll back the last commits). Automatic
    // checkpoints (each syncs the WAL and the database file) every 64 MiB of WAL instead of SQLite's
    // 4 MiB default; finish() checkpoints and truncates the WAL.
    if (!store->exec("PRAGMA journal_mode=WAL") || !store->exec("PRAGMA synchronous=NORMAL") ||
        !store->exec("PRAGMA cache_size=-16384")) {
        return fail(path + ": " + store->error_);
    }
    // In place of wal_autocheckpoint (a hook of its own), with the WAL reserve (wal_committed).
    store->path_ = path;
    sqlite3_wal_hook(store->db_, &SessionStore::wal_committed, store.get());
    if (fresh) {
        char pragmas[128];
        std::snprintf(pragmas, sizeof pragmas, "PRAGMA application_id=%d; PRAGMA user_version=%d;",
                      session::kApplicationId, session::kFormatVersion);
        char row[160];
        std::snprintf(row, sizeof row, session::kInsertSessionRowFormat, session::kFormatVersion,
                      static_cast<long long>(wall_clock_ns()));
        if (!store->exec("BEGIN") || !store->exec(pragmas) || !store->exec(session::tables_sql()) ||
            !store->exec(session::views_sql()) || !store->exec(row) ||
            !insert_enum_names(store->db_, store->error_) ||
            !insert_counter_definitions(store->db_, store->error_) || !store->exec("COMMIT")) {
            return fail(path + ": " + store->error_);
        }
    } else if (!insert_enum_names(store->db_, store->error_) ||
               !insert_counter_definitions(store->db_, store->error_)) {
        return fail(path + ": " + store->error_);
    }
    // A disk without room for the session's end rows next to the schema is full before the start: no
    // file is left that could not say what it lost.
    if (fresh && !store->wal_reserve_unsupported_ && store->wal_room_ < kWalEndBytes) {
        return fail(path + ": database or disk is full (no room for the end of the session)");
    }
    sqlite3_int64 page_size = 0;
    std::string page_text;
    if (session::query_scalar(store->db_, "PRAGMA page_size", page_size, page_text) && page_size > 0) {
        store->page_size_ = page_size;
    }
    if (!store->prepare_all() || (!fresh && !store->load_state())) {
        // An existing file was not created here: fail() removes only the -wal/-shm this call made.
        return fail(path + ": " + store->error_);
    }
    return store;
}

int SessionStore::wal_committed(void* store, sqlite3* db, const char* name, int frames) {
    auto* self = static_cast<SessionStore*>(store);
    if (frames >= kCheckpointFrames) {
        // As wal_autocheckpoint=16384 did: passive, so a reader following the live session never waits.
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    }
    self->wal_frames_ = frames;
    self->keep_wal_reserve();
    return SQLITE_OK;
}

void SessionStore::keep_wal_reserve() {
    // The next transaction writes its frames after the last commit's: keep kWalReserveBytes allocated
    // there (the frames are rewritten in place; the WAL is never read past its last valid frame), or as
    // much of it as the disk still has.
    const long long end = 32 + wal_frames_ * (24 + page_size_);
    const long long want = end + kWalReserveBytes;
    const std::string wal = path_ + "-wal";
    struct stat st{};
    if (wal_reserve_unsupported_ || ::stat(wal.c_str(), &st) != 0) {
        return;
    }
    long long size = st.st_size;
    if (size < want) {
        const int fd = ::open(wal.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        int rc = fd >= 0 ? ::posix_fallocate(fd, size, want - size) : errno;
        if (rc == 0) {
            size = want;
        } else if (disk_full(rc)) {
            for (long long chunk = (want - size) / 2; chunk >= page_size_ && size < want;) {
                chunk = std::min(chunk, want - size);
                rc = ::posix_fallocate(fd, size, chunk);
                if (rc == 0) {
                    size += chunk;
                } else {
                    chunk /= 2;
                }
            }
        } else {
            // No space can be allocated ahead here (not a full disk): the store writes as SQLite alone
            // would, without a reserve or a limit.
            wal_reserve_unsupported_ = true;
        }
        if (fd >= 0) {
            ::close(fd);
        }
    }
    if (wal_reserve_unsupported_) {
        wal_reserve_short_ = false;
        set_wal_limit(db_, -1);
        return;
    }
    wal_reserve_short_ = size < want;
    wal_room_ = size - end;
    // Normal transactions stop kWalEndBytes before the end of what is allocated: that part is the end
    // rows' whatever else fails.
    set_wal_limit(db_, size - kWalEndBytes);
}

SessionStore::~SessionStore() {
    if (in_transaction_) {
        commit();
    }
    for (auto* s : statements_) {
        sqlite3_finalize(s);
    }
    for (auto* s : {free_update_, session_update_, process_update_, process_insert_, end_counts_, row_single_,
                    row_batch_, narrow_single_, narrow_batch_, handle_insert_}) {
        sqlite3_finalize(s);
    }
    sqlite3_close(db_);
}

bool SessionStore::exec(std::string_view sql) {
    return exec(std::string(sql).c_str());
}

bool SessionStore::exec(const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        error_ = message ? message : sqlite3_errmsg(db_);
        sqlite3_free(message);
        return false;
    }
    return true;
}

bool SessionStore::prepare_all() {
    for (const auto& insert : kInserts) {
        if (sqlite3_prepare_v3(db_, insert.sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &statements_[static_cast<std::size_t>(insert.type)], nullptr) != SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
            return false;
        }
    }
    struct Extra {
        const char* sql;
        sqlite3_stmt** statement;
    };
    const Extra extras[] = {
        {session::kUpdateAllocationFree, &free_update_}, {session::kUpdateSession, &session_update_},
        {session::kUpdateProcess, &process_update_},     {session::kInsertProcess, &process_insert_},
        {session::kUpsertSentCount, &end_counts_},       {session::kInsertHandle, &handle_insert_},
    };
    for (const Extra& extra : extras) {
        if (sqlite3_prepare_v3(db_, extra.sql, -1, SQLITE_PREPARE_PERSISTENT, extra.statement, nullptr) !=
            SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
            return false;
        }
    }
    // Wide: every column. Narrow: the dispatch part only (declined dispatches; fewer bindings).
    auto row_insert = [](int rows, int columns) {
        return session::dispatch_row_insert(rows, columns != kRowColumns);
    };
    if (sqlite3_prepare_v3(db_, row_insert(1, kRowColumns).c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                           &row_single_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_, row_insert(kRowBatch, kRowColumns).c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                           &row_batch_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_, row_insert(1, kDispatchColumns).c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                           &narrow_single_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_, row_insert(kRowBatch, kDispatchColumns).c_str(), -1,
                           SQLITE_PREPARE_PERSISTENT, &narrow_batch_, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    return true;
}

std::int64_t SessionStore::handle_ref(std::uint64_t handle) {
    const auto it = refs_.find(handle);
    if (it != refs_.end()) {
        return it->second;
    }
    const auto ref = static_cast<std::int64_t>(refs_.size()) + 1;
    refs_.emplace(handle, ref);
    new_refs_.push_back(handle);
    bind_columns(handle_insert_, 1, ref, handle);
    if (sqlite3_step(handle_insert_) != SQLITE_DONE) {
        error_ = sqlite3_errmsg(db_);
    }
    sqlite3_reset(handle_insert_);
    return ref;
}

SessionStore::PendingRow* SessionStore::find_pending_row(std::int64_t process, std::uint64_t dispatch_id) {
    const std::size_t n = pending_.size();
    for (std::size_t i = n; i > 0 && i + 64 > n; --i) {
        if (pending_[i - 1].id == dispatch_id && pending_[i - 1].process == process) {
            return &pending_[i - 1];
        }
    }
    return nullptr;
}

SessionStore::PendingRow& SessionStore::pending_row(std::int64_t process, std::uint64_t dispatch_id) {
    // Parts of one dispatch arrive close together: look at the most recent rows only.
    const std::size_t n = pending_.size();
    for (std::size_t i = n; i > 0 && i + 64 > n; --i) {
        if (pending_[i - 1].id == dispatch_id && pending_[i - 1].process == process) {
            return pending_[i - 1];
        }
    }
    PendingRow& row = pending_.emplace_back();
    row.process = process;
    row.id = dispatch_id;
    return row;
}

void SessionStore::bind_row(sqlite3_stmt* s, int first, const PendingRow& r, bool narrow) {
    auto null = [&](int column) { sqlite3_bind_null(s, first + column); };
    auto value = [&](int column, std::uint64_t v) { bind(s, first + column, v); };
    auto signed_value = [&](int column, std::int64_t v) { sqlite3_bind_int64(s, first + column, v); };
    // Anchor: the dispatch part, else the earliest part present.
    std::uint64_t anchor_seq = 0, anchor_ts = 0;
    if (r.has_dispatch) {
        anchor_seq = r.dispatch_seq;
        anchor_ts = r.dispatch_ts;
    } else {
        anchor_seq = UINT64_MAX;
        auto consider = [&](bool present, std::uint64_t seq, std::uint64_t ts) {
            if (present && seq < anchor_seq) {
                anchor_seq = seq;
                anchor_ts = ts;
            }
        };
        consider(r.has_snapshot, r.snapshot_seq, r.snapshot_ts);
        consider(r.has_pass[0], r.pass_seq[0], r.pass_ts[0]);
        consider(r.has_pass[1], r.pass_seq[1], r.pass_ts[1]);
    }
    auto delta = [](std::uint64_t a, std::uint64_t b) { return static_cast<std::int64_t>(a - b); };
    signed_value(0, (r.process << kDispatchKeyShift) | static_cast<std::int64_t>(r.id));
    value(1, anchor_seq);
    value(2, anchor_ts);
    if (r.has_dispatch) {
        const auto& d = r.dispatch;
        signed_value(3, handle_ref(d.agent));
        signed_value(4, handle_ref(d.queue));
        signed_value(5, handle_ref(d.kernel_object));
        value(6, d.kernel_name);
        for (int i = 0; i < 3; ++i) {
            value(7 + i, d.grid[i]);
            value(10 + i, d.workgroup[i]);
        }
        value(13, static_cast<std::uint64_t>(d.decision));
    } else {
        for (int c = 3; c <= 13; ++c) {
            null(c);
        }
    }
    if (narrow) {
        return;
    }
    if (r.has_snapshot) {
        const auto& x = r.snapshot;
        signed_value(14, delta(r.snapshot_seq, anchor_seq));
        signed_value(15, delta(r.snapshot_ts, anchor_ts));
        if (r.has_dispatch && r.dispatch.agent == x.agent) {
            null(16);
        } else {
            signed_value(16, handle_ref(x.agent));
        }
        value(17, x.generation);
        value(18, x.regions);
        value(19, x.bytes);
        value(20, x.duration_ns);
        value(21, x.ok ? 1 : 0);
        value(22, x.failures);
    } else {
        for (int c = 14; c <= 22; ++c) {
            null(c);
        }
    }
    for (int p = 0; p < 2; ++p) {
        const int c = 23 + 8 * p;
        if (!r.has_pass[p]) {
            for (int k = 0; k < 8; ++k) {
                null(c + k);
            }
            continue;
        }
        const auto& x = r.pass[p];
        signed_value(c, delta(r.pass_seq[p], anchor_seq));
        // Pass 1 starts as an offset from pass 0 when both are here (else absolute; see kRowUpsert).
        value(c + 1, p == 1 && r.has_pass[0] ? x.start_tick - r.pass[0].start_tick : x.start_tick);
        value(c + 2, x.end_tick - x.start_tick);
        value(c + 3, x.restore_ns);
        const bool as_snapshot = r.has_snapshot && x.regions_restored == r.snapshot.regions &&
                                 x.bytes_restored == r.snapshot.bytes;
        if (as_snapshot) {
            null(c + 4);
            null(c + 5);
        } else {
            value(c + 4, x.regions_restored);
            value(c + 5, x.bytes_restored);
        }
        value(c + 6, x.skips);
        if (x.fidelity == kFidelityNotChecked) {
            null(c + 7);
        } else {
            signed_value(c + 7, x.fidelity);
        }
    }
    // Folded parts (fold_or_spill decided): the snapshot's store, the restore before pass 1, the final one.
    if (r.fold_store) {
        const auto& x = r.snapshot;
        // s_store: store (2 bits), hash path (2), host store pageable (1), total chunks (32), hash_ns (26).
        value(39, static_cast<std::uint64_t>(x.store) | static_cast<std::uint64_t>(x.hash_path) << 2 |
                      (x.host_pinned ? 0u : 16u) | std::uint64_t{x.total_chunks} << 5 | x.hash_ns << 37);
    } else {
        null(39);
    }
    if (r.fold_restore[0]) { // r1: hash_ns (31 bits) << 32 | dirty chunks
        value(40, r.restore[0].hash_ns << 32 | r.restore[0].dirty_chunks);
    } else {
        null(40);
    }
    if (r.fold_restore[1]) { // rf: hash_ns (32 bits) << 31 | restore_ns (31 bits)
        value(41, r.restore[1].hash_ns << 31 | r.restore[1].restore_ns);
    } else {
        null(41);
    }
    // s_fence_ns: the window's fence wait (NULL: no snapshot, or not recorded by the engine).
    if (r.has_snapshot && r.snapshot.fence_wait_ns >= 0) {
        signed_value(42, r.snapshot.fence_wait_ns);
    } else {
        null(42);
    }
}

bool SessionStore::fold_or_spill(PendingRow& r) {
    const SnapshotRecord& x = r.snapshot;
    r.fold_store = false;
    r.fold_restore[0] = r.fold_restore[1] = false;
    if (r.has_snapshot) {
        // Folds when the store alone says where the bytes went (host or device, not mixed) and the
        // hashing took less than 2^26 ns (67 ms; s_store's bits).
        r.fold_store = x.hash_ns < (std::uint64_t{1} << 26) && static_cast<unsigned>(x.hash_path) < 4 &&
                       ((x.store == SnapshotStore::host && x.host_bytes == x.bytes && x.device_bytes == 0) ||
                        (x.store == SnapshotStore::device && x.device_bytes == x.bytes && x.host_bytes == 0));
        if (!r.fold_store) {
            sqlite3_stmt* st = statement(EventType::snapshot);
            bind_columns(st, 1, r.process, x.dispatch_id, x.host_bytes, x.device_bytes, x.hash_ns,
                         x.total_chunks, x.store, x.hash_path, x.host_pinned ? 1 : 0);
            if (!step(st)) {
                return false;
            }
        }
    }
    // The restore before pass 1 folds when pass 1 names its time, regions and bytes, the snapshot's store
    // says which store they came from, it compared the snapshot's chunks, missed none and came right
    // before pass 1; the final restore folds when it also moved what that restore moved and came right
    // after pass 1 (as a full restore, or a dirty one after two passes that wrote the same chunks, does).
    constexpr std::uint64_t kBits31 = (std::uint64_t{1} << 31) - 1, kBits32 = (std::uint64_t{1} << 32) - 1;
    auto implied = [&](const RestoreRecord& e) {
        const std::uint64_t moved =
            x.store == SnapshotStore::host ? e.restored_bytes_host : e.restored_bytes_device;
        const std::uint64_t other =
            x.store == SnapshotStore::host ? e.restored_bytes_device : e.restored_bytes_host;
        const std::uint64_t bytes = r.pass[1].bytes_restored;
        return r.fold_store && r.has_pass[1] && other == 0 && moved == bytes &&
               e.regions_restored == r.pass[1].regions_restored && e.total_chunks == x.total_chunks &&
               e.missed_chunks == 0;
    };
    if (r.has_restore[0]) {
        const RestoreRecord& e = r.restore[0];
        r.fold_restore[0] = implied(e) && !e.final_restore && r.restore_seq[0] + 1 == r.pass_seq[1] &&
                            e.restore_ns == r.pass[1].restore_ns && e.hash_ns <= kBits31;
    }
    if (r.has_restore[1] && r.fold_restore[0]) {
        const RestoreRecord& e = r.restore[1];
        const RestoreRecord& first = r.restore[0];
        r.fold_restore[1] = implied(e) && e.final_restore && r.restore_seq[1] == r.pass_seq[1] + 1 &&
                            e.dirty_chunks == first.dirty_chunks && e.restore_ns <= kBits31 &&
                            e.hash_ns <= kBits32;
    }
    for (int k = 0; k < 2; ++k) {
        if (!r.has_restore[k] || r.fold_restore[k]) {
            continue;
        }
        const RestoreRecord& e = r.restore[k];
        sqlite3_stmt* st = statement(EventType::restore);
        bind_columns(st, 1, r.process, e.dispatch_id, e.pass_index, e.final_restore ? 1 : 0,
                     e.restored_bytes_host, e.restored_bytes_device, e.hash_ns, e.restore_ns,
                     e.regions_restored, e.dirty_chunks, e.total_chunks, e.missed_chunks, r.restore_seq[k],
                     r.restore_ts[k]);
        if (!step(st)) {
            return false;
        }
    }
    return true;
}

bool SessionStore::step(sqlite3_stmt* s) {
    const int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    return true;
}

bool SessionStore::flush_rows(bool final) {
    // In order (rows append to the table's b-tree): runs of dispatch-only rows (declined dispatches)
    // through the narrow statements, the others wide; kRowBatch rows per execution, the rest singly.
    // When the buffer is merely full, the most recent rows stay: their parts are probably still coming.
    const std::size_t keep = final ? 0 : std::min<std::size_t>(pending_.size(), 64);
    const std::size_t n = pending_.size() - keep;
    auto narrow_row = [](const PendingRow& row) {
        return row.has_dispatch && !row.has_snapshot && !row.has_pass[0] && !row.has_pass[1];
    };
    bool ok = true;
    for (std::size_t k = 0; ok && k < n; ++k) {
        ok = fold_or_spill(pending_[k]);
    }
    std::size_t i = 0;
    while (ok && i < n) {
        const bool narrow = narrow_row(pending_[i]);
        std::size_t run_end = i;
        while (run_end < n && run_end - i < static_cast<std::size_t>(kRowBatch) &&
               narrow_row(pending_[run_end]) == narrow) {
            ++run_end;
        }
        const int columns = narrow ? kDispatchColumns : kRowColumns;
        if (run_end - i == static_cast<std::size_t>(kRowBatch)) {
            sqlite3_stmt* batch = narrow ? narrow_batch_ : row_batch_;
            for (int k = 0; k < kRowBatch; ++k) {
                bind_row(batch, 1 + columns * k, pending_[i + static_cast<std::size_t>(k)], narrow);
            }
            ok = step(batch);
        } else {
            sqlite3_stmt* single = narrow ? narrow_single_ : row_single_;
            for (std::size_t k = i; ok && k < run_end; ++k) {
                bind_row(single, 1, pending_[k], narrow);
                ok = step(single);
            }
        }
        i = run_end;
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
    return ok;
}

bool SessionStore::load_state() {
    // Processes and their sequence spaces: [1, last_sequence] less the recorded gaps (O(gaps), never a
    // walk over sequence numbers).
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, session::kSelectProcessStates, -1, &st, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    std::uint64_t process_rejected = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        auto p = std::make_unique<ProcessState>();
        p->index = sqlite3_column_int64(st, 0);
        p->identity.instance = static_cast<std::uint64_t>(sqlite3_column_int64(st, 1));
        p->identity.pid = static_cast<std::uint32_t>(sqlite3_column_int64(st, 2));
        p->identity.parent_pid = static_cast<std::uint32_t>(sqlite3_column_int64(st, 3));
        const auto last = static_cast<std::uint64_t>(sqlite3_column_int64(st, 4));
        p->stored = static_cast<std::uint64_t>(sqlite3_column_int64(st, 5));
        p->rejected = static_cast<std::uint64_t>(sqlite3_column_int64(st, 6));
        p->saw_end = sqlite3_column_int(st, 7) != 0;
        p->dispatches = static_cast<std::uint64_t>(sqlite3_column_int64(st, 8));
        p->end_last_sequence = p->saw_end ? last : 0;
        p->end_read = p->saw_end;
        p->received = last;
        if (last > 0) {
            p->space.insert_range(1, last);
        }
        p->row_written = true;
        process_rejected += p->rejected;
        if (p->index != static_cast<std::int64_t>(processes_.size()) + 1) {
            error_ = "processes are not numbered 1.." + std::to_string(processes_.size() + 1);
            sqlite3_finalize(st);
            return false;
        }
        by_instance_.emplace(p->identity.instance, p->index);
        processes_.push_back(std::move(p));
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db_, session::kSelectGaps, -1, &st, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        ProcessState* p = state(sqlite3_column_int64(st, 0));
        const auto first = static_cast<std::uint64_t>(sqlite3_column_int64(st, 1));
        const auto last = static_cast<std::uint64_t>(sqlite3_column_int64(st, 2));
        if (p != nullptr && first >= 1 && first <= last) {
            p->space.erase_range(first, last);
        }
    }
    sqlite3_finalize(st);
    sqlite3_int64 rejected = 0;
    std::string text;
    if (session::query_scalar(db_, session::kSelectRejectedFrames, rejected, text)) {
        rejected_ = static_cast<std::uint64_t>(rejected);
        rejected_unauthenticated_ = rejected_ > process_rejected ? rejected_ - process_rejected : 0;
    }
    for (auto& p : processes_) {
        p->committed = {p->saw_end,    p->end_last_sequence, p->stored,
                        p->dispatches, space_end(*p),        p->space.missing(space_end(*p))};
        p->unfinished = false;
    }
    // Processes a finish ended are final as the file holds them; the others (a writer that died) are not.
    if (sqlite3_prepare_v2(db_, session::kSelectUnfinishedProcesses, -1, &st, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (ProcessState* p = state(sqlite3_column_int64(st, 0))) {
            p->unfinished = true;
        }
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db_, session::kSelectHandles, -1, &st, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        refs_.emplace(static_cast<std::uint64_t>(sqlite3_column_int64(st, 1)), sqlite3_column_int64(st, 0));
    }
    sqlite3_finalize(st);
    return true;
}

SessionStore::ProcessState* SessionStore::state(std::int64_t process) const {
    if (process < 1 || process > static_cast<std::int64_t>(processes_.size())) {
        return nullptr;
    }
    return processes_[static_cast<std::size_t>(process - 1)].get();
}

std::uint64_t SessionStore::space_end(const ProcessState& p) {
    // Numbers read but lost with a rolled-back transaction count up to the highest read.
    const std::uint64_t highest = std::max(p.space.highest(), p.received);
    // A session_end may say that numbers after the highest received were sent (and lost): believed
    // only within the window, so a forged last_sequence cannot claim billions of missing events.
    if (p.end_read && p.end_last_sequence > highest && p.end_last_sequence - highest <= kSequenceWindow) {
        return p.end_last_sequence;
    }
    return highest;
}

void SessionStore::mark_sequence(ProcessState& p, std::uint64_t sequence) {
    const std::uint64_t highest = p.space.highest();
    p.received = std::max(p.received, sequence);
    if (p.space.insert(sequence)) {
        p.uncommitted.push_back(sequence);
        ++p.stored;
        ++stored_;
        // Only the next number of an in-order stream leaves the set of gaps as it was.
        p.gaps_dirty = p.gaps_dirty || sequence != highest + 1;
        p.dirty = true;
        p.unfinished = true;
    }
}

bool SessionStore::begin() {
    bool begun = false;
    if (!in_transaction_) {
        if (!exec("BEGIN")) {
            return false;
        }
        in_transaction_ = true;
        begun = true;
    }
    if (!persist_processes()) {
        return false;
    }
    // A session_end read but lost with a rolled-back transaction goes into every new one until one
    // commits it: its sent counts and last sequence are not lost to a full disk that clears.
    for (auto& p : processes_) {
        if (begun && p->end_read && !p->saw_end && !insert_session_end(p->index, *p, p->end_record)) {
            return false;
        }
    }
    return true;
}

bool SessionStore::persist_processes() {
    // Only the processes waiting for their row: begin() runs before every insert.
    std::size_t done = 0;
    bool ok = true;
    for (; done < unwritten_.size(); ++done) {
        ProcessState* p = unwritten_[done];
        if (p->row_written) {
            continue;
        }
        bind_columns(process_insert_, 1, p->index, p->identity.instance, p->identity.pid,
                     p->identity.parent_pid);
        if (!step(process_insert_)) {
            ok = false;
            break;
        }
        p->row_written = true;
        p->row_in_txn = true;
        p->dirty = true;
    }
    unwritten_.erase(unwritten_.begin(), unwritten_.begin() + static_cast<std::ptrdiff_t>(done));
    return ok;
}

std::int64_t SessionStore::process(const ProcessIdentity& identity) {
    const auto it = by_instance_.find(identity.instance);
    if (it != by_instance_.end()) {
        ProcessState& p = *processes_[static_cast<std::size_t>(it->second - 1)];
        if (p.identity.pid == 0 && identity.pid != 0) {
            p.identity.pid = identity.pid;
            p.dirty = p.unfinished = true;
        }
        if (p.identity.parent_pid == 0 && identity.parent_pid != 0) {
            p.identity.parent_pid = identity.parent_pid;
            p.dirty = p.unfinished = true;
        }
        return it->second;
    }
    auto p = std::make_unique<ProcessState>();
    p->index = static_cast<std::int64_t>(processes_.size()) + 1;
    p->identity = identity;
    p->dirty = true;
    by_instance_.emplace(identity.instance, p->index);
    unwritten_.push_back(p.get());
    processes_.push_back(std::move(p));
    // The row is written with the open transaction, or the next one (commit() starts one for it).
    if (in_transaction_) {
        persist_processes();
    }
    return static_cast<std::int64_t>(processes_.size());
}

SequenceVerdict SessionStore::check_sequence(std::int64_t process, std::uint64_t sequence) const {
    const ProcessState* p = state(process);
    if (p == nullptr || sequence == 0) {
        return SequenceVerdict::out_of_window;
    }
    if (p->space.contains(sequence)) {
        return SequenceVerdict::duplicate;
    }
    const std::uint64_t highest = p->space.highest();
    return sequence - highest <= kSequenceWindow || sequence <= highest ? SequenceVerdict::fresh
                                                                        : SequenceVerdict::out_of_window;
}

void SessionStore::note_rejected_frame(std::int64_t process) {
    ++rejected_;
    if (ProcessState* p = state(process)) {
        ++p->rejected;
        p->dirty = p->unfinished = true;
    } else {
        ++rejected_unauthenticated_;
    }
}

bool SessionStore::insert(const Record& r) {
    if (r.type == EventType::hello) {
        return true;
    }
    ProcessIdentity identity;
    if (r.type == EventType::session_start) {
        identity.pid = r.session_start.pid;
    }
    // A refused first frame creates no process: it is counted for the session only.
    if (by_instance_.count(0) == 0 && (r.sequence == 0 || r.sequence > kSequenceWindow)) {
        note_rejected_frame(0);
        return true;
    }
    return insert(process(identity), r);
}

bool SessionStore::insert(std::int64_t process, const Record& r) {
    if (r.type == EventType::hello) {
        return true;
    }
    ProcessState* p = state(process);
    if (p == nullptr) {
        error_ = "no process " + std::to_string(process) + " in this session";
        return false;
    }
    switch (check_sequence(process, r.sequence)) {
    case SequenceVerdict::duplicate:
        return true; // spool imported twice, or a frame both sent and spooled
    case SequenceVerdict::out_of_window:
        note_rejected_frame(process);
        return true;
    case SequenceVerdict::fresh:
        break;
    }
    // Read from the process: stored, or lost (counted as missing) when the transaction fails.
    if (!begin() || !insert_record(process, *p, r)) {
        rollback();
        p->received = std::max(p->received, r.sequence);
        p->unfinished = true; // what the transaction lost is missing now
        return false;
    }
    return true;
}

bool SessionStore::insert_record(std::int64_t process, ProcessState& p, const Record& r) {
    switch (r.type) {
    case EventType::hello:
        return true;
    case EventType::session_start:
        return insert_session_start(process, p, r);
    case EventType::string:
        return insert_string(process, p, r);
    case EventType::agent:
        return insert_agent(process, p, r);
    case EventType::allocation:
        return insert_allocation(process, p, r);
    case EventType::free:
        return insert_free(process, p, r);
    case EventType::executable_loaded:
        return insert_executable(process, p, r);
    case EventType::module_variable:
        return insert_module_variable(process, p, r);
    case EventType::dispatch:
        return insert_dispatch(process, p, r);
    case EventType::inventory:
        return insert_inventory(process, p, r);
    case EventType::inventory_region:
        return insert_inventory_region(process, p, r);
    case EventType::snapshot:
        return insert_snapshot(process, p, r);
    case EventType::snapshot_failure:
        return insert_snapshot_failure(process, p, r);
    case EventType::pass:
        return insert_pass(process, p, r);
    case EventType::restore_skip:
        return insert_restore_skip(process, p, r);
    case EventType::warning:
        return insert_warning(process, p, r);
    case EventType::session_end:
        return insert_session_end(process, p, r);
    case EventType::fidelity_mismatch:
        return insert_fidelity_mismatch(process, p, r);
    case EventType::async_copy:
        return insert_async_copy(process, p, r);
    case EventType::restore_failure:
        return insert_restore_failure(process, p, r);
    case EventType::snapshot_placement:
        return insert_snapshot_placement(process, p, r);
    case EventType::restore:
        return insert_restore(process, p, r);
    case EventType::restore_miss:
        return insert_restore_miss(process, p, r);
    case EventType::counter_value:
        return insert_counter_value(process, p, r);
    }
    return true;
}

sqlite3_stmt* SessionStore::row_statement(EventType type, std::int64_t process) const {
    sqlite3_stmt* s = statement(type);
    sqlite3_bind_int64(s, 1, process);
    return s;
}

bool SessionStore::store_row(ProcessState& p, sqlite3_stmt* s, std::uint64_t sequence) {
    if (!step(s)) { // every insert binds every parameter: no clear_bindings needed
        rollback();
        return false;
    }
    mark_sequence(p, sequence);
    return true;
}

bool SessionStore::dispatch_id_fits(std::int64_t process, std::uint64_t id) {
    if (id > kMaxDispatchId) { // no emitter counts that far: a forged id (it would not fit the key)
        note_rejected_frame(process);
        return false;
    }
    return true;
}

bool SessionStore::buffer_part(ProcessState& p, std::uint64_t sequence) {
    mark_sequence(p, sequence);
    if (pending_.size() < kMaxPendingRows || flush_rows(false)) {
        return true;
    }
    rollback();
    return false;
}

// A dispatch, its snapshot and its first two passes are assembled into one dispatch_rows row in memory
// (same transaction); counted now, written at the latest before the commit.
bool SessionStore::insert_dispatch(std::int64_t process, ProcessState& p, const Record& r) {
    if (!dispatch_id_fits(process, r.dispatch.id)) {
        return true;
    }
    PendingRow* row = &pending_row(process, r.dispatch.id);
    if (row->has_dispatch) { // the same id again (not a duplicate sequence): merged by the upsert
        row = &pending_.emplace_back();
        row->process = process;
        row->id = r.dispatch.id;
    }
    row->has_dispatch = true;
    row->dispatch = r.dispatch;
    row->dispatch_seq = r.sequence;
    row->dispatch_ts = r.timestamp_ns;
    ++p.dispatches;
    return buffer_part(p, r.sequence);
}

bool SessionStore::insert_snapshot(std::int64_t process, ProcessState& p, const Record& r) {
    if (!dispatch_id_fits(process, r.snapshot.dispatch_id)) {
        return true;
    }
    PendingRow& row = pending_row(process, r.snapshot.dispatch_id);
    row.has_snapshot = true;
    row.snapshot = r.snapshot;
    row.snapshot_seq = r.sequence;
    row.snapshot_ts = r.timestamp_ns;
    return buffer_part(p, r.sequence);
}

bool SessionStore::insert_pass(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.pass;
    if (x.index >= 2) { // passes 0 and 1 belong to the dispatch's row, later ones to extra_passes
        sqlite3_stmt* s = row_statement(EventType::pass, process);
        bind_columns(s, 2, x.dispatch_id, x.index, r.sequence, r.timestamp_ns, x.start_tick, x.end_tick,
                     x.restore_ns, x.regions_restored, x.bytes_restored, x.skips, x.fidelity);
        return store_row(p, s, r.sequence);
    }
    if (!dispatch_id_fits(process, x.dispatch_id)) {
        return true;
    }
    PendingRow& row = pending_row(process, x.dispatch_id);
    const auto i = x.index;
    row.has_pass[i] = true;
    row.pass[i] = x;
    row.pass_seq[i] = r.sequence;
    row.pass_ts[i] = r.timestamp_ns;
    return buffer_part(p, r.sequence);
}

bool SessionStore::insert_restore(std::int64_t process, ProcessState& p, const Record& r) {
    // The restore before pass 1 and the final restore after pass 1 wait in their dispatch's pending
    // row (fold_or_spill decides at flush whether the row holds them); others go to restore_rows now.
    const auto& x = r.restore;
    const int slot = x.pass_index == 1 && !x.final_restore  ? 0
                     : x.pass_index == 2 && x.final_restore ? 1
                                                            : -1;
    PendingRow* row = slot < 0 ? nullptr : find_pending_row(process, x.dispatch_id);
    if (row != nullptr && !row->has_restore[slot]) {
        row->has_restore[slot] = true;
        row->restore[slot] = x;
        row->restore_seq[slot] = r.sequence;
        row->restore_ts[slot] = r.timestamp_ns;
        mark_sequence(p, r.sequence);
        return true;
    }
    sqlite3_stmt* s = row_statement(EventType::restore, process);
    bind_columns(s, 2, x.dispatch_id, x.pass_index, x.final_restore ? 1 : 0, x.restored_bytes_host,
                 x.restored_bytes_device, x.hash_ns, x.restore_ns, x.regions_restored, x.dirty_chunks,
                 x.total_chunks, x.missed_chunks, r.sequence, r.timestamp_ns);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_session_start(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.session_start;
    sqlite3_stmt* s = row_statement(EventType::session_start, process);
    bind_columns(s, 2, x.protocol_version, x.pid, x.executable, x.argv, x.hostname, x.engine_version,
                 x.configuration, r.sequence, r.timestamp_ns, x.wall_clock_ns);
    if (p.identity.pid == 0) {
        p.identity.pid = x.pid;
    }
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_string(std::int64_t process, ProcessState& p, const Record& r) {
    sqlite3_stmt* s = row_statement(EventType::string, process);
    bind_columns(s, 2, r.string.id, r.string.view(), r.string.original_length, r.sequence);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_agent(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.agent;
    sqlite3_stmt* s = row_statement(EventType::agent, process);
    bind_columns(s, 2, x.handle, r.sequence, r.timestamp_ns, x.name, x.isa, x.device_type, x.node);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_allocation(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.allocation;
    sqlite3_stmt* s = row_statement(EventType::allocation, process);
    bind_columns(s, 2, x.id, r.sequence, r.timestamp_ns, x.address, x.size, x.agent, x.api, x.pool_flags,
                 x.pointer_type, x.classification);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_free(std::int64_t process, ProcessState& p, const Record& r) {
    const std::uint64_t seq = r.sequence, ts = r.timestamp_ns;
    // Normally the allocation row exists: set its free sequence. Otherwise (its allocation event is
    // still to come, e.g. in a spool) a placeholder row keeps the free; the allocation upsert fills it.
    bind_columns(free_update_, 1, process, r.free.allocation_id, seq, ts);
    if (!step(free_update_)) {
        rollback();
        return false;
    }
    if (sqlite3_changes(db_) > 0) {
        mark_sequence(p, seq);
        return true;
    }
    sqlite3_stmt* s = row_statement(EventType::free, process);
    bind_columns(s, 2, r.free.allocation_id, r.free.address, seq, ts);
    return store_row(p, s, seq);
}

bool SessionStore::insert_executable(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.executable;
    sqlite3_stmt* s = row_statement(EventType::executable_loaded, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.executable, x.code_object, x.agent, x.uri);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_module_variable(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.module_variable;
    sqlite3_stmt* s = row_statement(EventType::module_variable, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.executable, x.agent, x.address, x.size, x.symbol,
                 x.status);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_inventory(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.inventory;
    sqlite3_stmt* s = row_statement(EventType::inventory, process);
    bind_columns(s, 2, x.agent, x.generation, r.sequence, r.timestamp_ns, x.bytes, x.regions);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_inventory_region(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.inventory_region;
    sqlite3_stmt* s = row_statement(EventType::inventory_region, process);
    bind_columns(s, 2, x.agent, x.generation, x.index, r.sequence, x.address, x.size, x.allocation_id,
                 x.kind);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_snapshot_failure(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.snapshot_failure;
    sqlite3_stmt* s = row_statement(EventType::snapshot_failure, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.dispatch_id, x.address, x.size, x.allocation_id,
                 x.reason);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_snapshot_placement(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.snapshot_placement;
    sqlite3_stmt* s = row_statement(EventType::snapshot_placement, process);
    bind_columns(s, 2, x.dispatch_id, x.address, x.size, enum_name(x.store), r.sequence, r.timestamp_ns);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_restore_miss(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.restore_miss;
    sqlite3_stmt* s = row_statement(EventType::restore_miss, process);
    bind_columns(s, 2, x.dispatch_id, x.pass_index, x.address, x.size, x.allocation_id, r.sequence,
                 r.timestamp_ns);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_counter_value(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.counter_value;
    sqlite3_stmt* s = row_statement(EventType::counter_value, process);
    bind_columns(s, 2, x.dispatch_id, x.pass_index, x.counter, x.value, r.sequence, r.timestamp_ns);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_fidelity_mismatch(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.fidelity_mismatch;
    sqlite3_stmt* s = row_statement(EventType::fidelity_mismatch, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.dispatch_id, x.pass_index, x.address, x.size,
                 x.allocation_id);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_restore_failure(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.restore_failure;
    sqlite3_stmt* s = row_statement(EventType::restore_failure, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.dispatch_id, x.pass_index, x.holds_pass_index, x.address,
                 x.size, x.allocation_id, x.kind, x.attempts, x.status);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_async_copy(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.async_copy;
    sqlite3_stmt* s = row_statement(EventType::async_copy, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.agent, x.dst, x.src, x.size, x.dispatch_id, x.waited_ns,
                 x.outcome);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_restore_skip(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.restore_skip;
    sqlite3_stmt* s = row_statement(EventType::restore_skip, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.dispatch_id, x.pass_index, x.address, x.size,
                 x.allocation_id, x.reason);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_warning(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.warning;
    sqlite3_stmt* s = row_statement(EventType::warning, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.code, x.dispatch_id, x.text);
    return store_row(p, s, r.sequence);
}

bool SessionStore::insert_session_end(std::int64_t process, ProcessState& p, const Record& r) {
    const auto& x = r.session_end;
    // Kept whatever happens to the transaction (begin() stores it again after a rollback).
    if (&r != &p.end_record) {
        p.end_record = r;
    }
    p.end_read = true;
    p.end_last_sequence = x.last_sequence;
    p.unfinished = true;
    sqlite3_stmt* s = row_statement(EventType::session_end, process);
    bind_columns(s, 2, r.sequence, r.timestamp_ns, x.spooled, x.internal_errors);
    if (x.exit_status >= 0 && x.exit_status <= 255) {
        sqlite3_bind_int(s, 6, x.exit_status);
    } else {
        sqlite3_bind_null(s, 6);
    }
    // Sent counts are kept for finish(); the row is written in event_counts there.
    bool ok = true;
    for (std::size_t i = 2; ok && i < kEventTypeSlots; ++i) {
        const auto name = event_type_name(static_cast<EventType>(i));
        bind_columns(end_counts_, 1, process, static_cast<int>(i), name, x.counts[i]);
        ok = step(end_counts_);
    }
    if (!ok) {
        rollback();
        return false;
    }
    p.saw_end = true;
    p.gaps_dirty = true; // the end of the space may have moved
    return store_row(p, s, r.sequence);
}

bool SessionStore::write_gaps(bool all) {
    sqlite3_stmt* del = nullptr;
    sqlite3_stmt* ins = nullptr;
    bool ok = sqlite3_prepare_v2(db_, session::kDeleteGaps, -1, &del, nullptr) == SQLITE_OK &&
              sqlite3_prepare_v2(db_, session::kInsertGap, -1, &ins, nullptr) == SQLITE_OK;
    for (auto& p : processes_) {
        // Between commits, a space broken into very many pieces (a hostile stream) is written at
        // finish() only; its gaps are bounded by what was received in any case.
        if (!ok || !p->gaps_dirty || (!all && p->space.intervals() > kGapsPerCommit)) {
            continue;
        }
        sqlite3_bind_int64(del, 1, p->index);
        ok = step(del);
        for (const auto& [first, last] : p->space.gaps(space_end(*p))) {
            if (!ok) {
                break;
            }
            bind_columns(ins, 1, p->index, first, last);
            ok = step(ins);
        }
        p->gaps_dirty = !ok; // a failed transaction is rolled back, which marks every process again
    }
    if (!ok && error_.empty()) {
        error_ = sqlite3_errmsg(db_);
    }
    sqlite3_finalize(del);
    sqlite3_finalize(ins);
    return ok;
}

bool SessionStore::update_process_rows() {
    for (auto& p : processes_) {
        if (!p->dirty) {
            continue;
        }
        const std::uint64_t end = space_end(*p);
        const std::uint64_t missing = p->space.missing(end);
        bind_columns(process_update_, 1, p->index, p->identity.pid, p->identity.parent_pid, end, p->stored,
                     missing, p->rejected, p->saw_end && missing == 0 ? 1 : 0);
        if (!step(process_update_)) {
            return false;
        }
    }
    bind_columns(session_update_, 1, rejected_);
    return step(session_update_);
}

bool SessionStore::commit() {
    if (wal_reserve_short_ && !end_rows_) {
        // Space may have returned since the last commit: the reserve, and the limit of the normal
        // transactions' frames with it, grow again.
        keep_wal_reserve();
    }
    bool pending_processes = !unwritten_.empty();
    for (const auto& p : processes_) {
        pending_processes = pending_processes || !p->row_written || p->dirty || (p->end_read && !p->saw_end);
    }
    if (!in_transaction_ && !pending_processes) {
        return true;
    }
    if (!begin() || (!pending_.empty() && !flush_rows(true)) || !write_gaps(false) ||
        !update_process_rows() || !exec("COMMIT")) {
        const std::string why = error_;
        rollback();
        error_ = why;
        return false;
    }
    in_transaction_ = false;
    committed_stored_ = stored_;
    new_refs_.clear();
    for (auto& p : processes_) {
        p->uncommitted.clear();
        p->row_in_txn = false;
        const std::uint64_t end = space_end(*p);
        p->committed = {p->saw_end, p->end_last_sequence, p->stored, p->dispatches,
                        end,        p->space.missing(end)};
        p->dirty = false;
    }
    return true;
}

void SessionStore::rollback() {
    if (in_transaction_ && !sqlite3_get_autocommit(db_)) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    in_transaction_ = false;
    pending_.clear();
    for (const std::uint64_t handle : new_refs_) {
        refs_.erase(handle);
    }
    new_refs_.clear();
    stored_ = committed_stored_;
    for (auto& p : processes_) {
        p->unfinished = p->unfinished || !p->uncommitted.empty();
        for (const std::uint64_t s : p->uncommitted) {
            p->space.erase(s);
        }
        p->uncommitted.clear();
        p->gaps_dirty = true; // the transaction's sequence_gaps rows are gone too
        if (p->row_in_txn) {
            p->row_written = false;
            p->row_in_txn = false;
            unwritten_.push_back(p.get());
        }
        // The session_end stays read (end_read, end_last_sequence): stored again by the next transaction.
        p->saw_end = p->committed.saw_end;
        p->stored = p->committed.stored;
        p->dispatches = p->committed.dispatches;
        p->dirty = true; // rewritten (rejected counts, identity) by the next commit
    }
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> SessionStore::gaps(std::int64_t process) const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> result;
    for (const auto& p : processes_) {
        if (process == 0 || p->index == process) {
            const auto g = p->space.gaps(space_end(*p));
            result.insert(result.end(), g.begin(), g.end());
        }
    }
    return result;
}

std::uint64_t SessionStore::last_sequence() const noexcept {
    std::uint64_t last = 0;
    for (const auto& p : processes_) {
        last = std::max(last, space_end(*p));
    }
    return last;
}

bool SessionStore::all_processes_ended() const noexcept {
    return !processes_.empty() &&
           std::all_of(processes_.begin(), processes_.end(), [](const auto& p) { return p->saw_end; });
}

std::vector<ProcessSummary> SessionStore::processes() const {
    std::vector<ProcessSummary> result;
    sqlite3_stmt* st = nullptr;
    // The command: the argv string of the process's session_start (NUL- or space-separated as sent).
    sqlite3_prepare_v2(db_, session::kSelectProcessCommand, -1, &st, nullptr);
    for (const auto& p : processes_) {
        ProcessSummary s;
        s.process = p->index;
        s.identity = p->identity;
        // Sent: the session_end's last sequence, else the highest read, whether or not a commit failed
        // since; every sent event not in the file is missing (sent = stored + missing).
        s.events_stored = p->committed.stored;
        s.dispatches = p->committed.dispatches;
        s.last_sequence = std::max(space_end(*p), p->committed.last_sequence);
        s.missing = s.last_sequence > s.events_stored ? s.last_sequence - s.events_stored : 0;
        s.rejected_frames = p->rejected;
        s.complete = p->committed.saw_end && s.missing == 0;
        if (st != nullptr) {
            sqlite3_bind_int64(st, 1, p->index);
            if (sqlite3_step(st) == SQLITE_ROW) {
                const auto* text = sqlite3_column_text(st, 0);
                s.command = text ? reinterpret_cast<const char*>(text) : "";
                std::replace(s.command.begin(), s.command.end(), '\0', ' ');
            }
            sqlite3_reset(st);
        }
        result.push_back(std::move(s));
    }
    sqlite3_finalize(st);
    return result;
}

bool SessionStore::write_end_rows(const std::string& end_reason, const std::vector<ProcessState*>& changed) {
    // Per process: why it ended. The session: complete when it has processes and all are complete.
    bool complete = !processes_.empty();
    for (const auto& p : processes_) {
        complete = complete && p->saw_end && p->space.missing(space_end(*p)) == 0;
    }
    sqlite3_stmt* st = nullptr;
    bool ok = sqlite3_prepare_v2(db_, session::kUpdateProcessEndReason, -1, &st, nullptr) == SQLITE_OK;
    for (const ProcessState* p : changed) {
        if (!ok) {
            break;
        }
        const std::uint64_t missing = p->space.missing(space_end(*p));
        const std::string reason =
            !p->saw_end   ? "no session end"
            : missing > 0 ? "session end received, " + std::to_string(missing) + " events missing"
                          : "session end received";
        sqlite3_bind_int64(st, 1, p->index);
        sqlite3_bind_text(st, 2, reason.c_str(), -1, SQLITE_TRANSIENT);
        ok = step(st);
    }
    sqlite3_finalize(st);
    st = nullptr;
    ok = ok && sqlite3_prepare_v2(db_, session::kUpdateSessionEnd, -1, &st, nullptr) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_int(st, 1, complete ? 1 : 0);
        sqlite3_bind_text(st, 2, end_reason.c_str(), -1, SQLITE_TRANSIENT);
        ok = step(st);
    }
    sqlite3_finalize(st);
    if (!ok && error_.empty()) {
        error_ = sqlite3_errmsg(db_);
    }
    return ok;
}

bool SessionStore::finish(const std::string& end_reason) {
    finished_counts_ = false;
    if (finish_all(end_reason)) {
        return true;
    }
    const std::string why = error_;
    if (finished_counts_) { // committed; only the checkpoint or the journal mode failed
        return false;
    }
    // The whole finish did not fit (a full disk): its transaction and the events of the one before are
    // rolled back and count as missing. What a reader reports of each changed process (sent, stored,
    // missing, complete), its gaps and the session row with its end reason are a few pages: one more
    // transaction writes them into the last kWalEndBytes of the WAL, kept for them (keep_wal_reserve). The
    // per-type counts, the processes' end reasons (so that a later writer, a spool import, finishes them
    // again: kSelectUnfinishedProcesses), the gaps of a process broken into more than kGapsPerCommit pieces
    // and the indexes are left out.
    rollback(); // every process is dirty: its row is written by the commit below
    end_rows_ = true;
    set_wal_limit(db_, -1); // the end rows may use the WAL to its end (the wal hook sets the limit again)
    const bool recorded = begin() && write_end_rows(end_reason, {}) && commit();
    end_rows_ = false;
    if (recorded) {
        error_ = why + " (the session's counts were recorded, not its per-type counts and indexes)";
        return false;
    }
    rollback();
    error_ = why;
    return false;
}

bool SessionStore::finish_all(const std::string& end_reason) {
    if (!begin() || (!pending_.empty() && !flush_rows(true))) {
        const std::string why = error_;
        rollback();
        error_ = why;
        return false;
    }
    // Only the processes changed since the last finish (all of a new file's): their counts, names, end
    // reasons and gaps are recomputed from their own rows, each by searches of its key ranges, so that a
    // finish costs what changed, not what the file holds (a spool appended to a file of many processes).
    std::vector<ProcessState*> changed;
    for (auto& p : processes_) {
        if (p->unfinished) {
            p->gaps_dirty = true; // written now, however many
            p->dirty = true;
            changed.push_back(p.get());
        }
    }
    // Stored counts, per process and event type, from the tables themselves.
    sqlite3_stmt* st = nullptr;
    bool ok = sqlite3_prepare_v2(db_, session::kUpsertStoredCounts, -1, &st, nullptr) == SQLITE_OK;
    for (const ProcessState* p : changed) {
        if (!ok) {
            break;
        }
        sqlite3_bind_int64(st, 1, p->index);
        sqlite3_bind_int64(st, 2, p->index << kDispatchKeyShift);
        sqlite3_bind_int64(st, 3,
                           (p->index << kDispatchKeyShift) + static_cast<std::int64_t>(kMaxDispatchId));
        ok = step(st);
    }
    sqlite3_finalize(st);
    st = nullptr;
    // Names from the one list (RS_IPC_EVENT_TYPES), for the rows the statement above added.
    ok = ok && sqlite3_prepare_v2(db_, session::kUpdateEventCountName, -1, &st, nullptr) == SQLITE_OK;
    for (const ProcessState* p : changed) {
        for (const EnumName& type : kEventTypeNames) {
            if (!ok) {
                break;
            }
            sqlite3_bind_int64(st, 1, p->index);
            sqlite3_bind_int64(st, 2, type.code);
            sqlite3_bind_text(st, 3, type.name.data(), static_cast<int>(type.name.size()), SQLITE_STATIC);
            ok = step(st);
        }
    }
    sqlite3_finalize(st);
    st = nullptr;
    ok = ok && write_end_rows(end_reason, changed);
    if (!ok) {
        if (error_.empty()) {
            error_ = sqlite3_errmsg(db_);
        }
        const std::string why = error_;
        rollback();
        error_ = why;
        return false;
    }
    if (!exec(session::indexes_sql())) {
        const std::string why = error_;
        rollback();
        error_ = why;
        return false;
    }
    if (!write_gaps(true) || !commit()) {
        return false;
    }
    for (auto& p : processes_) {
        p->unfinished = false;
    }
    finished_counts_ = true;
    // One self-contained file: the WAL checkpointed into it, then a rollback journal, so that readers
    // (which open it read-only) create no -wal/-shm files next to it. A reader following the live
    // session makes the switch fail (SQLITE_BUSY): the file then stays in WAL mode, still valid.
    if (!exec("PRAGMA wal_checkpoint(TRUNCATE)")) {
        return false;
    }
    exec("PRAGMA journal_mode=DELETE");
    return true;
}

} // namespace rs::ipc
