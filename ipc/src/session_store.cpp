#include "replayscope/ipc/session_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string_view>
#include <sys/stat.h>
#include <type_traits>
#include <unistd.h>

namespace rs::ipc {

namespace {

// Version 2 layout (docs/session-schema.md): a dispatch, its snapshot and its first two passes are one
// physical row of `dispatch_rows` (seq/ts of the parts relative to the row's anchor, kernel ticks as
// offsets and durations, small refs for agent/queue/kernel-object handles); `dispatches`, `snapshots`
// and `passes` are views with the documented columns.
constexpr const char* kSchema = R"sql(
CREATE TABLE session(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  format_version INTEGER NOT NULL,
  created_wall_ns INTEGER NOT NULL,
  protocol_version INTEGER, pid INTEGER, executable_id INTEGER, argv_id INTEGER, hostname_id INTEGER,
  engine_version_id INTEGER, configuration_id INTEGER,
  start_seq INTEGER, start_ns INTEGER, start_wall_ns INTEGER,
  end_seq INTEGER, end_ns INTEGER, spooled INTEGER,
  complete INTEGER NOT NULL DEFAULT 0,
  last_sequence INTEGER NOT NULL DEFAULT 0,
  events_stored INTEGER NOT NULL DEFAULT 0,
  end_reason TEXT,
  exit_status INTEGER, exit_signal INTEGER,
  internal_errors INTEGER);
CREATE TABLE event_counts(event_type INTEGER PRIMARY KEY, name TEXT NOT NULL, sent INTEGER, stored INTEGER NOT NULL);
CREATE TABLE sequence_gaps(first_seq INTEGER PRIMARY KEY, last_seq INTEGER NOT NULL);
CREATE TABLE enum_names(enum TEXT NOT NULL, code INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (enum, code)) WITHOUT ROWID;
CREATE TABLE strings(id INTEGER PRIMARY KEY, text TEXT NOT NULL, original_length INTEGER NOT NULL, seq INTEGER NOT NULL);
CREATE TABLE agents(handle INTEGER PRIMARY KEY, seq INTEGER, ts_ns INTEGER, name_id INTEGER, isa_id INTEGER,
  device_type INTEGER, node INTEGER);
CREATE TABLE allocations(id INTEGER PRIMARY KEY, alloc_seq INTEGER, alloc_ns INTEGER, address INTEGER, size INTEGER,
  agent INTEGER, api INTEGER, pool_flags INTEGER, pointer_type INTEGER, classification INTEGER,
  free_seq INTEGER, free_ns INTEGER);
CREATE TABLE executables(seq INTEGER PRIMARY KEY, ts_ns INTEGER, executable INTEGER, code_object INTEGER,
  agent INTEGER, uri_id INTEGER);
CREATE TABLE module_variables(seq INTEGER PRIMARY KEY, ts_ns INTEGER, executable INTEGER, agent INTEGER,
  address INTEGER, size INTEGER, symbol_id INTEGER, status INTEGER);
CREATE TABLE inventories(agent INTEGER NOT NULL, generation INTEGER NOT NULL, seq INTEGER, ts_ns INTEGER,
  bytes INTEGER, region_count INTEGER, PRIMARY KEY (agent, generation)) WITHOUT ROWID;
CREATE TABLE inventory_regions(agent INTEGER NOT NULL, generation INTEGER NOT NULL, idx INTEGER NOT NULL,
  seq INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, kind INTEGER,
  PRIMARY KEY (agent, generation, idx)) WITHOUT ROWID;
CREATE TABLE handles(ref INTEGER PRIMARY KEY, handle INTEGER NOT NULL);
CREATE TABLE dispatch_rows(id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, ts_ns INTEGER NOT NULL,
  agent_ref INTEGER, queue_ref INTEGER, kernel_ref INTEGER, kernel_name_id INTEGER,
  grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, workgroup_x INTEGER, workgroup_y INTEGER, workgroup_z INTEGER,
  decision INTEGER,
  s_dseq INTEGER, s_dts INTEGER, s_agent_ref INTEGER, generation INTEGER, regions INTEGER, bytes INTEGER,
  duration_ns INTEGER, ok INTEGER, failures INTEGER,
  p0_dseq INTEGER, p0_start INTEGER, p0_ticks INTEGER, p0_restore_ns INTEGER, p0_regions INTEGER,
  p0_bytes INTEGER, p0_skips INTEGER, p0_fidelity INTEGER,
  p1_dseq INTEGER, p1_start INTEGER, p1_ticks INTEGER, p1_restore_ns INTEGER, p1_regions INTEGER,
  p1_bytes INTEGER, p1_skips INTEGER, p1_fidelity INTEGER);
CREATE TABLE extra_passes(dispatch_id INTEGER NOT NULL, idx INTEGER NOT NULL, seq INTEGER, ts_ns INTEGER,
  start_tick INTEGER, end_tick INTEGER, restore_ns INTEGER, regions_restored INTEGER, bytes_restored INTEGER,
  skips INTEGER, fidelity INTEGER, PRIMARY KEY (dispatch_id, idx)) WITHOUT ROWID;
CREATE TABLE snapshot_failures(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER, address INTEGER,
  size INTEGER, allocation_id INTEGER, reason INTEGER);
CREATE TABLE restore_skips(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER, pass_idx INTEGER,
  address INTEGER, size INTEGER, allocation_id INTEGER, reason INTEGER);
CREATE TABLE fidelity_mismatches(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER, pass_idx INTEGER,
  address INTEGER, size INTEGER, allocation_id INTEGER);
CREATE TABLE async_copies(seq INTEGER PRIMARY KEY, ts_ns INTEGER, agent INTEGER, dst INTEGER, src INTEGER,
  size INTEGER, dispatch_id INTEGER, waited_ns INTEGER, outcome INTEGER);
CREATE TABLE warnings(seq INTEGER PRIMARY KEY, ts_ns INTEGER, code INTEGER, dispatch_id INTEGER, text_id INTEGER);
CREATE VIEW dispatches AS
  SELECT r.id AS id, r.seq AS seq, r.ts_ns AS ts_ns, ha.handle AS agent, hq.handle AS queue,
         hk.handle AS kernel_object, r.kernel_name_id AS kernel_name_id, r.grid_x AS grid_x, r.grid_y AS grid_y,
         r.grid_z AS grid_z, r.workgroup_x AS workgroup_x, r.workgroup_y AS workgroup_y,
         r.workgroup_z AS workgroup_z, r.decision AS decision
  FROM dispatch_rows r LEFT JOIN handles ha ON ha.ref = r.agent_ref LEFT JOIN handles hq ON hq.ref = r.queue_ref
       LEFT JOIN handles hk ON hk.ref = r.kernel_ref
  WHERE r.decision IS NOT NULL;
CREATE VIEW snapshots AS
  SELECT r.id AS dispatch_id, r.seq + r.s_dseq AS seq, r.ts_ns + r.s_dts AS ts_ns, h.handle AS agent,
         r.generation AS generation, r.regions AS regions, r.bytes AS bytes, r.duration_ns AS duration_ns,
         r.ok AS ok, r.failures AS failures
  FROM dispatch_rows r LEFT JOIN handles h ON h.ref = coalesce(r.s_agent_ref, r.agent_ref)
  WHERE r.s_dseq IS NOT NULL;
CREATE VIEW passes AS
  SELECT id AS dispatch_id, 0 AS idx, seq + p0_dseq AS seq, NULL AS ts_ns, p0_start AS start_tick,
         p0_start + p0_ticks AS end_tick, p0_restore_ns AS restore_ns,
         coalesce(p0_regions, regions) AS regions_restored, coalesce(p0_bytes, bytes) AS bytes_restored,
         p0_skips AS skips, coalesce(p0_fidelity, -1) AS fidelity
  FROM dispatch_rows WHERE p0_dseq IS NOT NULL
  UNION ALL
  SELECT id, 1, seq + p1_dseq, NULL, coalesce(p0_start, 0) + p1_start, coalesce(p0_start, 0) + p1_start + p1_ticks,
         p1_restore_ns, coalesce(p1_regions, regions), coalesce(p1_bytes, bytes), p1_skips,
         coalesce(p1_fidelity, -1)
  FROM dispatch_rows WHERE p1_dseq IS NOT NULL
  UNION ALL
  SELECT dispatch_id, idx, seq, ts_ns, start_tick, end_tick, restore_ns, regions_restored, bytes_restored, skips,
         fidelity FROM extra_passes;
CREATE VIEW declines AS
  SELECT d.id AS dispatch_id, d.seq AS seq, d.ts_ns AS ts_ns, d.decision AS reason_code, e.name AS reason
  FROM dispatches d JOIN enum_names e ON e.enum = 'decision' AND e.code = d.decision WHERE d.decision <> 0;
)sql";

/// Writes the enum_names rows of every list of vocabulary.hpp (records.hpp's kEnumTables); INSERT OR
/// IGNORE, so that reopening a file written by an older build adds the values it did not know.
/// Returns false with `error` set on an SQLite error.
bool insertEnumNames(sqlite3* db, std::string& error) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO enum_names(enum, code, name) VALUES (?1, ?2, ?3)", -1,
                           &st, nullptr) != SQLITE_OK) {
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

/// Adds session.internal_errors to a file written before it existed (the column is NULL there: not
/// reported). Returns false with `error` set on an SQLite error.
bool addInternalErrorsColumn(sqlite3* db, std::string& error) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM pragma_table_info('session') WHERE name='internal_errors'",
                           -1, &st, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    const bool present = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    if (present) {
        return true;
    }
    char* message = nullptr;
    if (sqlite3_exec(db, "ALTER TABLE session ADD COLUMN internal_errors INTEGER", nullptr, nullptr,
                     &message) != SQLITE_OK) {
        error = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        return false;
    }
    return true;
}

/// Regions a restore could not write back (protocol 3). Created with the schema, and added to a version-2
/// file written before it when appending (readers that do not know the table ignore it).
constexpr const char* kRestoreFailuresTable = R"sql(
CREATE TABLE IF NOT EXISTS restore_failures(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER,
  pass_idx INTEGER, holds_pass_idx INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, kind INTEGER,
  attempts INTEGER, status INTEGER);
)sql";

constexpr const char* kIndexes = R"sql(
CREATE INDEX IF NOT EXISTS allocations_address ON allocations(address);
CREATE INDEX IF NOT EXISTS snapshot_failures_dispatch ON snapshot_failures(dispatch_id);
CREATE INDEX IF NOT EXISTS restore_skips_dispatch ON restore_skips(dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS fidelity_mismatches_dispatch ON fidelity_mismatches(dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS restore_failures_dispatch ON restore_failures(dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS warnings_dispatch ON warnings(dispatch_id);
)sql";

/// Columns of dispatch_rows in insert order (the statement binds all of them).
constexpr int kRowColumns = 39;
/// Leading columns that hold the dispatch part (id .. decision).
constexpr int kDispatchColumns = 14;

/// Merges a (partial) row into an existing one: value columns keep what is known, the seq/ts deltas are
/// re-based when the dispatch part arrives and becomes the anchor, and a pass-1 start tick written
/// absolute (its pass 0 was flushed earlier) becomes an offset from pass 0.
constexpr const char* kRowUpsert =
    " ON CONFLICT(id) DO UPDATE SET"
    " seq = CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " ts_ns = CASE WHEN excluded.decision IS NOT NULL THEN excluded.ts_ns ELSE ts_ns END,"
    " agent_ref = coalesce(excluded.agent_ref, agent_ref), queue_ref = coalesce(excluded.queue_ref, "
    "queue_ref),"
    " kernel_ref = coalesce(excluded.kernel_ref, kernel_ref),"
    " kernel_name_id = coalesce(excluded.kernel_name_id, kernel_name_id),"
    " grid_x = coalesce(excluded.grid_x, grid_x), grid_y = coalesce(excluded.grid_y, grid_y),"
    " grid_z = coalesce(excluded.grid_z, grid_z), workgroup_x = coalesce(excluded.workgroup_x, workgroup_x),"
    " workgroup_y = coalesce(excluded.workgroup_y, workgroup_y),"
    " workgroup_z = coalesce(excluded.workgroup_z, workgroup_z), decision = coalesce(excluded.decision, "
    "decision),"
    " s_dseq = CASE WHEN excluded.s_dseq IS NOT NULL THEN excluded.seq + excluded.s_dseq ELSE seq + s_dseq "
    "END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " s_dts = CASE WHEN excluded.s_dts IS NOT NULL THEN excluded.ts_ns + excluded.s_dts ELSE ts_ns + s_dts "
    "END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.ts_ns ELSE ts_ns END,"
    " s_agent_ref = coalesce(excluded.s_agent_ref, s_agent_ref),"
    " generation = coalesce(excluded.generation, generation), regions = coalesce(excluded.regions, regions),"
    " bytes = coalesce(excluded.bytes, bytes), duration_ns = coalesce(excluded.duration_ns, duration_ns),"
    " ok = coalesce(excluded.ok, ok), failures = coalesce(excluded.failures, failures),"
    " p0_dseq = CASE WHEN excluded.p0_dseq IS NOT NULL THEN excluded.seq + excluded.p0_dseq ELSE seq + "
    "p0_dseq END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " p0_start = coalesce(excluded.p0_start, p0_start), p0_ticks = coalesce(excluded.p0_ticks, p0_ticks),"
    " p0_restore_ns = coalesce(excluded.p0_restore_ns, p0_restore_ns),"
    " p0_regions = coalesce(excluded.p0_regions, p0_regions), p0_bytes = coalesce(excluded.p0_bytes, "
    "p0_bytes),"
    " p0_skips = coalesce(excluded.p0_skips, p0_skips), p0_fidelity = coalesce(excluded.p0_fidelity, "
    "p0_fidelity),"
    " p1_dseq = CASE WHEN excluded.p1_dseq IS NOT NULL THEN excluded.seq + excluded.p1_dseq ELSE seq + "
    "p1_dseq END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " p1_start = CASE WHEN excluded.p1_start IS NULL THEN p1_start WHEN excluded.p0_dseq IS NULL"
    "   THEN excluded.p1_start - coalesce(p0_start, 0) ELSE excluded.p1_start END,"
    " p1_ticks = coalesce(excluded.p1_ticks, p1_ticks),"
    " p1_restore_ns = coalesce(excluded.p1_restore_ns, p1_restore_ns),"
    " p1_regions = coalesce(excluded.p1_regions, p1_regions), p1_bytes = coalesce(excluded.p1_bytes, "
    "p1_bytes),"
    " p1_skips = coalesce(excluded.p1_skips, p1_skips), p1_fidelity = coalesce(excluded.p1_fidelity, "
    "p1_fidelity)";

struct InsertSql {
    EventType type;
    const char* sql;
};
constexpr InsertSql kInserts[] = {
    {EventType::session_start,
     "UPDATE session SET protocol_version=?1, pid=?2, executable_id=?3, argv_id=?4, hostname_id=?5, "
     "engine_version_id=?6, configuration_id=?7, start_seq=?8, start_ns=?9, start_wall_ns=?10 WHERE id=1"},
    {EventType::string, "INSERT OR IGNORE INTO strings VALUES (?1,?2,?3,?4)"},
    {EventType::agent, "INSERT OR IGNORE INTO agents VALUES (?1,?2,?3,?4,?5,?6,?7)"},
    {EventType::allocation,
     "INSERT INTO "
     "allocations(id,alloc_seq,alloc_ns,address,size,agent,api,pool_flags,pointer_type,classification) "
     "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10) ON CONFLICT(id) DO UPDATE SET alloc_seq=?2, alloc_ns=?3, "
     "address=?4, size=?5, agent=?6, api=?7, pool_flags=?8, pointer_type=?9, classification=?10"},
    {EventType::free, "INSERT OR IGNORE INTO allocations(id,address,free_seq,free_ns) VALUES (?1,?2,?3,?4)"},
    {EventType::executable_loaded, "INSERT OR IGNORE INTO executables VALUES (?1,?2,?3,?4,?5,?6)"},
    {EventType::module_variable, "INSERT OR IGNORE INTO module_variables VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"},
    {EventType::inventory, "INSERT OR IGNORE INTO inventories VALUES (?1,?2,?3,?4,?5,?6)"},
    {EventType::inventory_region, "INSERT OR IGNORE INTO inventory_regions VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"},
    {EventType::snapshot_failure, "INSERT OR IGNORE INTO snapshot_failures VALUES (?1,?2,?3,?4,?5,?6,?7)"},
    {EventType::pass, "INSERT OR IGNORE INTO extra_passes VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)"},
    {EventType::restore_skip, "INSERT OR IGNORE INTO restore_skips VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"},
    {EventType::warning, "INSERT OR IGNORE INTO warnings VALUES (?1,?2,?3,?4,?5)"},
    {EventType::session_end,
     "UPDATE session SET end_seq=?1, end_ns=?2, spooled=?3, internal_errors=?4 WHERE id=1"},
    {EventType::fidelity_mismatch, "INSERT OR IGNORE INTO fidelity_mismatches VALUES (?1,?2,?3,?4,?5,?6,?7)"},
    {EventType::async_copy, "INSERT OR IGNORE INTO async_copies VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"},
    {EventType::restore_failure,
     "INSERT OR IGNORE INTO restore_failures VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)"},
};

/// Values are stored as SQLite's signed 64-bit integers (two's complement of the unsigned value).
inline void bind(sqlite3_stmt* s, int i, std::uint64_t v) {
    sqlite3_bind_int64(s, i, static_cast<sqlite3_int64>(v));
}
template <typename E>
inline void bindEnum(sqlite3_stmt* s, int i, E v) {
    sqlite3_bind_int(s, i, static_cast<int>(v));
}
/// One parameter by its value's type: enums through bindEnum, text (bound in place: it must outlive the
/// step) as text, signed integers as themselves, unsigned ones through bind().
template <typename T>
inline void bindValue(sqlite3_stmt* s, int i, const T& v) {
    if constexpr (std::is_enum_v<T>) {
        bindEnum(s, i, v);
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
inline void bindColumns(sqlite3_stmt* s, int first, const T&... values) {
    int i = first;
    (bindValue(s, i++, values), ...);
}

bool fileHasContent(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && st.st_size > 0;
}

} // namespace

SessionFileCheck checkSessionFile(const std::string& path) {
    SessionFileCheck check;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        check.message = path + ": cannot be opened";
        return check;
    }
    char magic[16] = {};
    in.read(magic, sizeof magic);
    if (in.gcount() < 16 || std::memcmp(magic, "SQLite format 3", 16) != 0) {
        check.message = path + ": not a SQLite database (foreign file), refusing to use it as a session file";
        return check;
    }
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        check.message = path + ": cannot be opened by SQLite: " + sqlite3_errmsg(db);
        sqlite3_close(db);
        return check;
    }
    auto scalar = [&](const char* sql, sqlite3_int64& value, std::string& text) {
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
    };
    sqlite3_int64 value = 0;
    std::string text;
    if (!scalar("PRAGMA quick_check", value, text) || text != "ok") {
        check.message = path + ": corrupt session file (SQLite integrity check: " + text + ")";
    } else if (!scalar("PRAGMA application_id", value, text) || value != kSessionApplicationId) {
        check.message = path + ": foreign SQLite database (application_id " + std::to_string(value) +
                        ", not a ReplayScope session)";
    } else if (!scalar("PRAGMA user_version", value, text) || value > kSessionFormatVersion) {
        check.message = path + ": session format version " + std::to_string(value) +
                        " is newer than this ReplayScope supports (" + std::to_string(kSessionFormatVersion) +
                        "); use a newer ReplayScope";
    } else if (value < kOldestReadableFormatVersion) {
        check.message = path + ": session format version " + std::to_string(value) +
                        " is not valid (this ReplayScope reads versions " +
                        std::to_string(kOldestReadableFormatVersion) + " to " +
                        std::to_string(kSessionFormatVersion) + ")";
    } else {
        check.ok = true;
        check.format_version = static_cast<int>(value);
    }
    sqlite3_close(db);
    return check;
}

std::unique_ptr<SessionStore> SessionStore::open(const std::string& path, Mode mode, std::string& error) {
    const bool exists = fileHasContent(path);
    bool fresh = true;
    if (exists) {
        if (mode == Mode::create) {
            error = path + ": already exists (use --force to overwrite)";
            return nullptr;
        }
        if (mode == Mode::overwrite) {
            ::unlink(path.c_str());
            ::unlink((path + "-wal").c_str());
            ::unlink((path + "-shm").c_str());
        } else {
            const SessionFileCheck check = checkSessionFile(path);
            if (!check.ok) {
                error = check.message;
                return nullptr;
            }
            if (check.format_version != kSessionFormatVersion) {
                error = path + ": session format version " + std::to_string(check.format_version) +
                        " can be read but not appended to; this ReplayScope writes version " +
                        std::to_string(kSessionFormatVersion);
                return nullptr;
            }
            fresh = false;
        }
    }
    std::unique_ptr<SessionStore> store(new SessionStore());
    // One thread at a time uses the connection (the collector thread, then finish() after joining it):
    // no per-call SQLite mutex.
    if (sqlite3_open_v2(path.c_str(), &store->db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        error = path + ": cannot create: " + sqlite3_errmsg(store->db_);
        return nullptr;
    }
    auto fail = [&]() -> std::unique_ptr<SessionStore> {
        error = path + ": " + store->error_;
        return nullptr;
    };
    // WAL + synchronous=NORMAL: the file is consistent after any crash, and every committed transaction
    // survives a crash of the writing process (an OS crash may roll back the last commits). Automatic
    // checkpoints (each syncs the WAL and the database file) every 64 MiB of WAL instead of SQLite's
    // 4 MiB default; finish() checkpoints and truncates the WAL.
    if (!store->exec("PRAGMA journal_mode=WAL") || !store->exec("PRAGMA synchronous=NORMAL") ||
        !store->exec("PRAGMA wal_autocheckpoint=16384") || !store->exec("PRAGMA cache_size=-16384")) {
        return fail();
    }
    if (fresh) {
        char pragmas[128];
        std::snprintf(pragmas, sizeof pragmas, "PRAGMA application_id=%d; PRAGMA user_version=%d;",
                      kSessionApplicationId, kSessionFormatVersion);
        if (!store->exec("BEGIN") || !store->exec(pragmas) || !store->exec(kSchema) ||
            !store->exec(kRestoreFailuresTable)) {
            return fail();
        }
        char row[160];
        std::snprintf(row, sizeof row,
                      "INSERT INTO session(id, format_version, created_wall_ns) VALUES (1, %d, %lld)",
                      kSessionFormatVersion, static_cast<long long>(wallClockNs()));
        if (!store->exec(row) || !insertEnumNames(store->db_, store->error_) || !store->exec("COMMIT")) {
            return fail();
        }
    } else if (!insertEnumNames(store->db_, store->error_) ||
               !addInternalErrorsColumn(store->db_, store->error_) || !store->exec(kRestoreFailuresTable)) {
        return fail();
    }
    if (!store->prepareAll() || (!fresh && !store->loadState())) {
        return fail();
    }
    return store;
}

SessionStore::~SessionStore() {
    if (in_transaction_) {
        commit();
    }
    for (auto* s : statements_) {
        sqlite3_finalize(s);
    }
    sqlite3_finalize(free_update_);
    sqlite3_finalize(session_update_);
    sqlite3_finalize(row_single_);
    sqlite3_finalize(row_batch_);
    sqlite3_finalize(narrow_single_);
    sqlite3_finalize(narrow_batch_);
    sqlite3_finalize(handle_insert_);
    sqlite3_close(db_);
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

bool SessionStore::prepareAll() {
    for (const auto& insert : kInserts) {
        if (sqlite3_prepare_v3(db_, insert.sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &statements_[static_cast<std::size_t>(insert.type)], nullptr) != SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
            return false;
        }
    }
    if (sqlite3_prepare_v3(db_, "UPDATE allocations SET free_seq=?2, free_ns=?3 WHERE id=?1", -1,
                           SQLITE_PREPARE_PERSISTENT, &free_update_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_,
                           "UPDATE session SET last_sequence=?1, events_stored=events_stored+?2 WHERE id=1",
                           -1, SQLITE_PREPARE_PERSISTENT, &session_update_, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    // Wide: every column. Narrow: the dispatch part only (declined dispatches; fewer bindings).
    auto rowInsert = [](int rows, int columns) {
        std::string sql =
            columns == kRowColumns
                ? "INSERT INTO dispatch_rows VALUES "
                : "INSERT INTO dispatch_rows(id, seq, ts_ns, agent_ref, queue_ref, kernel_ref, "
                  "kernel_name_id, grid_x, grid_y, grid_z, workgroup_x, workgroup_y, workgroup_z, "
                  "decision) VALUES ";
        for (int i = 0; i < rows; ++i) {
            sql += i == 0 ? "(" : ",(";
            for (int c = 0; c < columns; ++c) {
                sql += c == 0 ? "?" : ",?";
            }
            sql += ")";
        }
        return sql + kRowUpsert;
    };
    if (sqlite3_prepare_v3(db_, rowInsert(1, kRowColumns).c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                           &row_single_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_, rowInsert(kRowBatch, kRowColumns).c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                           &row_batch_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_, rowInsert(1, kDispatchColumns).c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                           &narrow_single_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_, rowInsert(kRowBatch, kDispatchColumns).c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                           &narrow_batch_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v3(db_, "INSERT OR IGNORE INTO handles VALUES (?1, ?2)", -1,
                           SQLITE_PREPARE_PERSISTENT, &handle_insert_, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    return true;
}

std::int64_t SessionStore::handleRef(std::uint64_t handle) {
    const auto it = refs_.find(handle);
    if (it != refs_.end()) {
        return it->second;
    }
    const auto ref = static_cast<std::int64_t>(refs_.size()) + 1;
    refs_.emplace(handle, ref);
    bindColumns(handle_insert_, 1, ref, handle);
    if (sqlite3_step(handle_insert_) != SQLITE_DONE) {
        error_ = sqlite3_errmsg(db_);
    }
    sqlite3_reset(handle_insert_);
    return ref;
}

SessionStore::PendingRow& SessionStore::pendingRow(std::uint64_t dispatch_id) {
    // Parts of one dispatch arrive close together: look at the most recent rows only.
    const std::size_t n = pending_.size();
    for (std::size_t i = n; i > 0 && i + 64 > n; --i) {
        if (pending_[i - 1].id == dispatch_id) {
            return pending_[i - 1];
        }
    }
    PendingRow& row = pending_.emplace_back();
    row.id = dispatch_id;
    return row;
}

void SessionStore::bindRow(sqlite3_stmt* s, int first, const PendingRow& r, bool narrow) {
    auto null = [&](int column) { sqlite3_bind_null(s, first + column); };
    auto value = [&](int column, std::uint64_t v) { bind(s, first + column, v); };
    auto signedValue = [&](int column, std::int64_t v) { sqlite3_bind_int64(s, first + column, v); };
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
    value(0, r.id);
    value(1, anchor_seq);
    value(2, anchor_ts);
    if (r.has_dispatch) {
        const auto& d = r.dispatch;
        signedValue(3, handleRef(d.agent));
        signedValue(4, handleRef(d.queue));
        signedValue(5, handleRef(d.kernel_object));
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
        signedValue(14, delta(r.snapshot_seq, anchor_seq));
        signedValue(15, delta(r.snapshot_ts, anchor_ts));
        if (r.has_dispatch && r.dispatch.agent == x.agent) {
            null(16);
        } else {
            signedValue(16, handleRef(x.agent));
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
        signedValue(c, delta(r.pass_seq[p], anchor_seq));
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
            signedValue(c + 7, x.fidelity);
        }
    }
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

bool SessionStore::flushRows(bool final) {
    // In order (rows append to the table's b-tree): runs of dispatch-only rows (declined dispatches)
    // through the narrow statements, the others wide; kRowBatch rows per execution, the rest singly.
    // When the buffer is merely full, the most recent rows stay: their parts are probably still coming.
    const std::size_t keep = final ? 0 : std::min<std::size_t>(pending_.size(), 64);
    const std::size_t n = pending_.size() - keep;
    auto narrowRow = [](const PendingRow& row) {
        return row.has_dispatch && !row.has_snapshot && !row.has_pass[0] && !row.has_pass[1];
    };
    bool ok = true;
    std::size_t i = 0;
    while (ok && i < n) {
        const bool narrow = narrowRow(pending_[i]);
        std::size_t run_end = i;
        while (run_end < n && run_end - i < static_cast<std::size_t>(kRowBatch) &&
               narrowRow(pending_[run_end]) == narrow) {
            ++run_end;
        }
        const int columns = narrow ? kDispatchColumns : kRowColumns;
        if (run_end - i == static_cast<std::size_t>(kRowBatch)) {
            sqlite3_stmt* batch = narrow ? narrow_batch_ : row_batch_;
            for (int k = 0; k < kRowBatch; ++k) {
                bindRow(batch, 1 + columns * k, pending_[i + static_cast<std::size_t>(k)], narrow);
            }
            ok = step(batch);
        } else {
            sqlite3_stmt* single = narrow ? narrow_single_ : row_single_;
            for (std::size_t k = i; ok && k < run_end; ++k) {
                bindRow(single, 1, pending_[k], narrow);
                ok = step(single);
            }
        }
        i = run_end;
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
    return ok;
}

bool SessionStore::loadState() {
    // Rebuild the sequence bitmap: everything up to last_sequence except the recorded gaps.
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT last_sequence, end_seq FROM session WHERE id=1", -1, &st, nullptr) !=
            SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        error_ = std::string("no session row: ") + sqlite3_errmsg(db_);
        sqlite3_finalize(st);
        return false;
    }
    const auto last = static_cast<std::uint64_t>(sqlite3_column_int64(st, 0));
    saw_end_ = sqlite3_column_type(st, 1) != SQLITE_NULL;
    sqlite3_finalize(st);
    for (std::uint64_t s = 1; s <= last; ++s) {
        markSequence(s);
    }
    last_sequence_ = last;
    if (sqlite3_prepare_v2(db_, "SELECT first_seq, last_seq FROM sequence_gaps", -1, &st, nullptr) !=
        SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (auto s = static_cast<std::uint64_t>(sqlite3_column_int64(st, 0));
             s <= static_cast<std::uint64_t>(sqlite3_column_int64(st, 1)); ++s) {
            seen_[s / 64] &= ~(1ull << (s % 64));
        }
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db_, "SELECT ref, handle FROM handles", -1, &st, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        refs_.emplace(static_cast<std::uint64_t>(sqlite3_column_int64(st, 1)), sqlite3_column_int64(st, 0));
    }
    sqlite3_finalize(st);
    return true;
}

void SessionStore::markSequence(std::uint64_t sequence) {
    const std::size_t word = sequence / 64;
    if (word >= seen_.size()) {
        seen_.resize(std::max(word + 1, seen_.size() * 2), 0);
    }
    seen_[word] |= 1ull << (sequence % 64);
    last_sequence_ = std::max(last_sequence_, sequence);
}

bool SessionStore::begin() {
    if (!in_transaction_) {
        if (!exec("BEGIN")) {
            return false;
        }
        in_transaction_ = true;
    }
    return true;
}

bool SessionStore::insert(const Record& r) {
    if (r.type == EventType::hello) {
        return true;
    }
    if (r.sequence != 0 && r.sequence / 64 < seen_.size() &&
        (seen_[r.sequence / 64] >> (r.sequence % 64)) & 1) {
        return true; // duplicate (spool imported twice, or a frame both sent and spooled)
    }
    if (!begin()) {
        return false;
    }
    // A dispatch, its snapshot and its first two passes are assembled into one dispatch_rows row in
    // memory (same transaction); counted now, written at the latest before the commit.
    const bool inline_pass = r.type == EventType::pass && r.pass.index < 2;
    if (r.type == EventType::dispatch || r.type == EventType::snapshot || inline_pass) {
        if (r.type == EventType::dispatch) {
            PendingRow* row = &pendingRow(r.dispatch.id);
            if (row->has_dispatch) { // the same id again (not a duplicate sequence): merged by the upsert
                row = &pending_.emplace_back();
                row->id = r.dispatch.id;
            }
            row->has_dispatch = true;
            row->dispatch = r.dispatch;
            row->dispatch_seq = r.sequence;
            row->dispatch_ts = r.timestamp_ns;
        } else if (r.type == EventType::snapshot) {
            PendingRow& row = pendingRow(r.snapshot.dispatch_id);
            row.has_snapshot = true;
            row.snapshot = r.snapshot;
            row.snapshot_seq = r.sequence;
            row.snapshot_ts = r.timestamp_ns;
        } else {
            PendingRow& row = pendingRow(r.pass.dispatch_id);
            const auto i = r.pass.index;
            row.has_pass[i] = true;
            row.pass[i] = r.pass;
            row.pass_seq[i] = r.sequence;
            row.pass_ts[i] = r.timestamp_ns;
        }
        markSequence(r.sequence);
        ++stored_;
        return pending_.size() < kMaxPendingRows || flushRows(false);
    }
    sqlite3_stmt* s = statement(r.type);
    if (s == nullptr) {
        return true;
    }
    const std::uint64_t seq = r.sequence, ts = r.timestamp_ns;
    switch (r.type) {
    case EventType::hello:
        break;
    case EventType::session_start: {
        const auto& x = r.session_start;
        bindColumns(s, 1, x.protocol_version, x.pid, x.executable, x.argv, x.hostname, x.engine_version,
                    x.configuration, seq, ts, x.wall_clock_ns);
        break;
    }
    case EventType::string:
        bindColumns(s, 1, r.string.id, r.string.view(), r.string.original_length, seq);
        break;
    case EventType::agent: {
        const auto& x = r.agent;
        bindColumns(s, 1, x.handle, seq, ts, x.name, x.isa, x.device_type, x.node);
        break;
    }
    case EventType::allocation: {
        const auto& x = r.allocation;
        bindColumns(s, 1, x.id, seq, ts, x.address, x.size, x.agent, x.api, x.pool_flags, x.pointer_type,
                    x.classification);
        break;
    }
    case EventType::free: {
        // Normally the allocation row exists: set its free sequence. Otherwise (its allocation event is
        // still to come, e.g. in a spool) a placeholder row keeps the free; the allocation upsert fills it.
        bindColumns(free_update_, 1, r.free.allocation_id, seq, ts);
        if (!step(free_update_)) {
            return false;
        }
        if (sqlite3_changes(db_) > 0) {
            markSequence(seq);
            ++stored_;
            return true;
        }
        bindColumns(s, 1, r.free.allocation_id, r.free.address, seq, ts);
        break;
    }
    case EventType::executable_loaded: {
        const auto& x = r.executable;
        bindColumns(s, 1, seq, ts, x.executable, x.code_object, x.agent, x.uri);
        break;
    }
    case EventType::module_variable: {
        const auto& x = r.module_variable;
        bindColumns(s, 1, seq, ts, x.executable, x.agent, x.address, x.size, x.symbol, x.status);
        break;
    }
    case EventType::inventory: {
        const auto& x = r.inventory;
        bindColumns(s, 1, x.agent, x.generation, seq, ts, x.bytes, x.regions);
        break;
    }
    case EventType::inventory_region: {
        const auto& x = r.inventory_region;
        bindColumns(s, 1, x.agent, x.generation, x.index, seq, x.address, x.size, x.allocation_id, x.kind);
        break;
    }
    case EventType::snapshot_failure: {
        const auto& x = r.snapshot_failure;
        bindColumns(s, 1, seq, ts, x.dispatch_id, x.address, x.size, x.allocation_id, x.reason);
        break;
    }
    case EventType::dispatch:
    case EventType::snapshot:
        break;              // assembled above
    case EventType::pass: { // index >= 2
        const auto& x = r.pass;
        bindColumns(s, 1, x.dispatch_id, x.index, seq, ts, x.start_tick, x.end_tick, x.restore_ns,
                    x.regions_restored, x.bytes_restored, x.skips, x.fidelity);
        break;
    }
    case EventType::fidelity_mismatch: {
        const auto& x = r.fidelity_mismatch;
        bindColumns(s, 1, seq, ts, x.dispatch_id, x.pass_index, x.address, x.size, x.allocation_id);
        break;
    }
    case EventType::restore_failure: {
        const auto& x = r.restore_failure;
        bindColumns(s, 1, seq, ts, x.dispatch_id, x.pass_index, x.holds_pass_index, x.address, x.size,
                    x.allocation_id, x.kind, x.attempts, x.status);
        break;
    }
    case EventType::async_copy: {
        const auto& x = r.async_copy;
        bindColumns(s, 1, seq, ts, x.agent, x.dst, x.src, x.size, x.dispatch_id, x.waited_ns, x.outcome);
        break;
    }
    case EventType::restore_skip: {
        const auto& x = r.restore_skip;
        bindColumns(s, 1, seq, ts, x.dispatch_id, x.pass_index, x.address, x.size, x.allocation_id, x.reason);
        break;
    }
    case EventType::warning: {
        const auto& x = r.warning;
        bindColumns(s, 1, seq, ts, x.code, x.dispatch_id, x.text);
        break;
    }
    case EventType::session_end: {
        const auto& x = r.session_end;
        bindColumns(s, 1, seq, ts, x.spooled, x.internal_errors);
        // Sent counts are kept for finish(); the row is written in event_counts there.
        sqlite3_stmt* counts = nullptr;
        if (sqlite3_prepare_v2(db_,
                               "INSERT INTO event_counts(event_type,name,sent,stored) VALUES (?1,?2,?3,0) "
                               "ON CONFLICT(event_type) DO UPDATE SET sent=?3",
                               -1, &counts, nullptr) != SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
            return false;
        }
        for (std::size_t i = 2; i < kEventTypeSlots; ++i) {
            const auto name = eventTypeName(static_cast<EventType>(i));
            bindColumns(counts, 1, static_cast<int>(i), name, x.counts[i]);
            sqlite3_step(counts);
            sqlite3_reset(counts);
        }
        sqlite3_finalize(counts);
        saw_end_ = true;
        break;
    }
    }
    if (!step(s)) { // every case binds every parameter: no clear_bindings needed
        return false;
    }
    markSequence(seq);
    ++stored_;
    return true;
}

bool SessionStore::commit() {
    if (!in_transaction_) {
        return true;
    }
    if (!pending_.empty() && !flushRows(true)) {
        return false;
    }
    // events_stored accumulates per commit: count rows added since the previous commit.
    bindColumns(session_update_, 1, last_sequence_, stored_ - committed_stored_);
    if (!step(session_update_) || !exec("COMMIT")) {
        return false;
    }
    committed_stored_ = stored_;
    in_transaction_ = false;
    return true;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> SessionStore::gaps() const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> result;
    std::uint64_t s = 1;
    while (s <= last_sequence_) {
        if ((seen_[s / 64] >> (s % 64)) & 1) {
            ++s;
            continue;
        }
        const std::uint64_t first = s;
        while (s <= last_sequence_ && !((seen_[s / 64] >> (s % 64)) & 1)) {
            ++s;
        }
        result.emplace_back(first, s - 1);
    }
    return result;
}

bool SessionStore::finish(const std::string& end_reason) {
    if (!begin() || (!pending_.empty() && !flushRows(true))) {
        return false;
    }
    const auto missing = gaps();
    if (!exec("DELETE FROM sequence_gaps")) {
        return false;
    }
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, "INSERT INTO sequence_gaps VALUES (?1, ?2)", -1, &st, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    for (const auto& [first, last] : missing) {
        bindColumns(st, 1, first, last);
        sqlite3_step(st);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    // Stored counts, per event type, from the tables themselves.
    static constexpr const char* kStored = R"sql(
INSERT INTO event_counts(event_type, name, sent, stored)
SELECT t.code, '', NULL, t.n FROM (
  SELECT 2 AS code, (SELECT count(*) FROM session WHERE start_seq IS NOT NULL) AS n
  UNION ALL SELECT 3, (SELECT count(*) FROM strings)
  UNION ALL SELECT 4, (SELECT count(*) FROM agents)
  UNION ALL SELECT 5, (SELECT count(*) FROM allocations WHERE alloc_seq IS NOT NULL)
  UNION ALL SELECT 6, (SELECT count(*) FROM allocations WHERE free_seq IS NOT NULL)
  UNION ALL SELECT 7, (SELECT count(*) FROM executables)
  UNION ALL SELECT 8, (SELECT count(*) FROM module_variables)
  UNION ALL SELECT 9, (SELECT count(*) FROM dispatches)
  UNION ALL SELECT 10, (SELECT count(*) FROM inventories)
  UNION ALL SELECT 11, (SELECT count(*) FROM inventory_regions)
  UNION ALL SELECT 12, (SELECT count(*) FROM snapshots)
  UNION ALL SELECT 13, (SELECT count(*) FROM snapshot_failures)
  UNION ALL SELECT 14, (SELECT count(*) FROM passes)
  UNION ALL SELECT 15, (SELECT count(*) FROM restore_skips)
  UNION ALL SELECT 16, (SELECT count(*) FROM warnings)
  UNION ALL SELECT 17, (SELECT count(*) FROM session WHERE end_seq IS NOT NULL)
  UNION ALL SELECT 18, (SELECT count(*) FROM fidelity_mismatches)
  UNION ALL SELECT 19, (SELECT count(*) FROM async_copies)
  UNION ALL SELECT 20, (SELECT count(*) FROM restore_failures)) AS t WHERE true
ON CONFLICT(event_type) DO UPDATE SET stored = excluded.stored;
)sql";
    if (!exec(kStored)) {
        return false;
    }
    // Names from the one list (RS_IPC_EVENT_TYPES), for the rows the statement above added.
    if (sqlite3_prepare_v2(db_, "UPDATE event_counts SET name=?2 WHERE event_type=?1", -1, &st, nullptr) !=
        SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    for (const EnumName& type : kEventTypeNames) {
        sqlite3_bind_int64(st, 1, type.code);
        sqlite3_bind_text(st, 2, type.name.data(), static_cast<int>(type.name.size()), SQLITE_STATIC);
        sqlite3_step(st);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    st = nullptr;
    if (sqlite3_prepare_v2(db_, "UPDATE session SET complete=?1, end_reason=?2 WHERE id=1", -1, &st,
                           nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    sqlite3_bind_int(st, 1, saw_end_ && missing.empty() ? 1 : 0);
    sqlite3_bind_text(st, 2, end_reason.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_step(st);
    sqlite3_finalize(st);
    if (!exec(kIndexes) || !commit()) {
        return false;
    }
    return exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

bool recordExitStatus(const std::string& path, int exit_status, int exit_signal, std::string& error) {
    const SessionFileCheck check = checkSessionFile(path);
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
    bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK;
    sqlite3_stmt* st = nullptr;
    ok = ok && sqlite3_busy_timeout(db, 2000) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "UPDATE session SET exit_status=?1, exit_signal=?2 WHERE id=1", -1, &st,
                            nullptr) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_int(st, 1, exit_status);
        if (exit_signal > 0) {
            sqlite3_bind_int(st, 2, exit_signal);
        } else {
            sqlite3_bind_null(st, 2);
        }
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    if (!ok) {
        error = path + ": cannot record the exit status: " + sqlite3_errmsg(db);
    }
    sqlite3_finalize(st);
    // The recording is over: leave one self-contained file. Back to a rollback journal, so that readers
    // (which open it read-only) create no -wal/-shm files next to it. If a reader is following the live
    // session right now the switch fails with SQLITE_BUSY and the file simply stays in WAL mode.
    if (ok) {
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
        sqlite3_exec(db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
    return ok;
}

} // namespace rs::ipc
