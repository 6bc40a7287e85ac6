#include "replayscope/ipc/session_store.hpp"

#include "regular_file.hpp"

#include "sequence_space.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <initializer_list>
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
// replayed dispatch of two passes) fold into the same row (`s_store`, `r1`, `rf`; foldOrSpill), the
// others go to `snapshot_store_rows` / `restore_rows`, and `snapshot_stores` / `restores` are views over
// both; the `snapshot_placements` of mixed snapshots and `restore_misses` are tables.
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
  internal_errors INTEGER,
  process_count INTEGER, rejected_frames INTEGER, missing_events INTEGER);
CREATE TABLE processes(process INTEGER PRIMARY KEY, instance INTEGER NOT NULL UNIQUE, pid INTEGER,
  parent_pid INTEGER, protocol_version INTEGER, executable_id INTEGER, argv_id INTEGER, hostname_id INTEGER,
  engine_version_id INTEGER, configuration_id INTEGER, start_seq INTEGER, start_ns INTEGER,
  start_wall_ns INTEGER, end_seq INTEGER, end_ns INTEGER, spooled INTEGER, internal_errors INTEGER,
  exit_status INTEGER, exit_signal INTEGER,
  last_sequence INTEGER NOT NULL DEFAULT 0, events_stored INTEGER NOT NULL DEFAULT 0,
  missing_events INTEGER NOT NULL DEFAULT 0, rejected_frames INTEGER NOT NULL DEFAULT 0,
  complete INTEGER NOT NULL DEFAULT 0, end_reason TEXT);
CREATE TABLE event_counts(process INTEGER NOT NULL, event_type INTEGER NOT NULL, name TEXT NOT NULL,
  sent INTEGER, stored INTEGER NOT NULL, PRIMARY KEY (process, event_type)) WITHOUT ROWID;
CREATE TABLE sequence_gaps(process INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
  PRIMARY KEY (process, first_seq)) WITHOUT ROWID;
CREATE TABLE enum_names(enum TEXT NOT NULL, code INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (enum, code)) WITHOUT ROWID;
CREATE TABLE strings(process INTEGER NOT NULL, id INTEGER NOT NULL, text TEXT NOT NULL,
  original_length INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (process, id));
CREATE TABLE agents(process INTEGER NOT NULL, handle INTEGER NOT NULL, seq INTEGER, ts_ns INTEGER,
  name_id INTEGER, isa_id INTEGER, device_type INTEGER, node INTEGER, PRIMARY KEY (process, handle)) WITHOUT ROWID;
CREATE TABLE allocations(process INTEGER NOT NULL, id INTEGER NOT NULL, alloc_seq INTEGER, alloc_ns INTEGER,
  address INTEGER, size INTEGER, agent INTEGER, api INTEGER, pool_flags INTEGER, pointer_type INTEGER,
  classification INTEGER, free_seq INTEGER, free_ns INTEGER, PRIMARY KEY (process, id)) WITHOUT ROWID;
CREATE TABLE executables(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, executable INTEGER,
  code_object INTEGER, agent INTEGER, uri_id INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE module_variables(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, executable INTEGER,
  agent INTEGER, address INTEGER, size INTEGER, symbol_id INTEGER, status INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE inventories(process INTEGER NOT NULL, agent INTEGER NOT NULL, generation INTEGER NOT NULL,
  seq INTEGER, ts_ns INTEGER, bytes INTEGER, region_count INTEGER,
  PRIMARY KEY (process, agent, generation)) WITHOUT ROWID;
CREATE TABLE inventory_regions(process INTEGER NOT NULL, agent INTEGER NOT NULL, generation INTEGER NOT NULL,
  idx INTEGER NOT NULL, seq INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, kind INTEGER,
  PRIMARY KEY (process, agent, generation, idx)) WITHOUT ROWID;
CREATE TABLE handles(ref INTEGER PRIMARY KEY, handle INTEGER NOT NULL);
CREATE TABLE dispatch_rows(
  process INTEGER GENERATED ALWAYS AS (key >> 40) VIRTUAL,
  id INTEGER GENERATED ALWAYS AS (key & 1099511627775) VIRTUAL,
  key INTEGER PRIMARY KEY, seq INTEGER NOT NULL, ts_ns INTEGER NOT NULL,
  agent_ref INTEGER, queue_ref INTEGER, kernel_ref INTEGER, kernel_name_id INTEGER,
  grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, workgroup_x INTEGER, workgroup_y INTEGER, workgroup_z INTEGER,
  decision INTEGER,
  s_dseq INTEGER, s_dts INTEGER, s_agent_ref INTEGER, generation INTEGER, regions INTEGER, bytes INTEGER,
  duration_ns INTEGER, ok INTEGER, failures INTEGER,
  p0_dseq INTEGER, p0_start INTEGER, p0_ticks INTEGER, p0_restore_ns INTEGER, p0_regions INTEGER,
  p0_bytes INTEGER, p0_skips INTEGER, p0_fidelity INTEGER,
  p1_dseq INTEGER, p1_start INTEGER, p1_ticks INTEGER, p1_restore_ns INTEGER, p1_regions INTEGER,
  p1_bytes INTEGER, p1_skips INTEGER, p1_fidelity INTEGER,
  s_store INTEGER, r1 INTEGER, rf INTEGER);
CREATE TABLE extra_passes(process INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, idx INTEGER NOT NULL,
  seq INTEGER, ts_ns INTEGER, start_tick INTEGER, end_tick INTEGER, restore_ns INTEGER, regions_restored INTEGER,
  bytes_restored INTEGER, skips INTEGER, fidelity INTEGER, PRIMARY KEY (process, dispatch_id, idx)) WITHOUT ROWID;
CREATE TABLE snapshot_failures(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER,
  dispatch_id INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, reason INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE restore_skips(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, dispatch_id INTEGER,
  pass_idx INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, reason INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE fidelity_mismatches(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER,
  dispatch_id INTEGER, pass_idx INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE async_copies(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, agent INTEGER,
  dst INTEGER, src INTEGER, size INTEGER, dispatch_id INTEGER, waited_ns INTEGER, outcome INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE warnings(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, code INTEGER,
  dispatch_id INTEGER, text_id INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE restore_failures(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER,
  dispatch_id INTEGER, pass_idx INTEGER, holds_pass_idx INTEGER, address INTEGER, size INTEGER,
  allocation_id INTEGER, kind INTEGER, attempts INTEGER, status INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE snapshot_store_rows(process INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, host_bytes INTEGER,
  device_bytes INTEGER, hash_ns INTEGER, total_chunks INTEGER, store INTEGER, hash_path INTEGER,
  host_pinned INTEGER, PRIMARY KEY (process, dispatch_id)) WITHOUT ROWID;
CREATE TABLE snapshot_placements(process INTEGER NOT NULL, dispatch INTEGER NOT NULL, address INTEGER,
  size INTEGER, store TEXT, seq INTEGER NOT NULL, ts_ns INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE restore_rows(process INTEGER NOT NULL, dispatch INTEGER NOT NULL, pass_index INTEGER NOT NULL,
  final INTEGER, restored_bytes_host INTEGER, restored_bytes_device INTEGER, hash_ns INTEGER,
  restore_ns INTEGER, regions_restored INTEGER, dirty_chunks INTEGER, total_chunks INTEGER,
  missed_chunks INTEGER, seq INTEGER, ts_ns INTEGER, PRIMARY KEY (process, dispatch, pass_index)) WITHOUT ROWID;
CREATE TABLE restore_misses(process INTEGER NOT NULL, dispatch INTEGER NOT NULL, pass_index INTEGER,
  address INTEGER, size INTEGER, allocation_id INTEGER, seq INTEGER NOT NULL, ts_ns INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE VIEW snapshot_stores AS
  SELECT process AS process, id AS dispatch_id, CASE WHEN s_store & 3 = 0 THEN bytes ELSE 0 END AS host_bytes,
         CASE WHEN s_store & 3 = 1 THEN bytes ELSE 0 END AS device_bytes, s_store >> 37 AS hash_ns,
         (s_store >> 5) & 4294967295 AS total_chunks, s_store & 3 AS store, (s_store >> 2) & 3 AS hash_path,
         1 - ((s_store >> 4) & 1) AS host_pinned
  FROM dispatch_rows WHERE s_store IS NOT NULL
  UNION ALL
  SELECT process, dispatch_id, host_bytes, device_bytes, hash_ns, total_chunks, store, hash_path, host_pinned
  FROM snapshot_store_rows;
CREATE VIEW restores AS
  SELECT process AS process, id AS dispatch, 1 AS pass_index, 0 AS final,
         CASE WHEN s_store & 3 = 0 THEN coalesce(p1_bytes, bytes) ELSE 0 END AS restored_bytes_host,
         CASE WHEN s_store & 3 = 1 THEN coalesce(p1_bytes, bytes) ELSE 0 END AS restored_bytes_device,
         r1 >> 32 AS hash_ns, p1_restore_ns AS restore_ns, coalesce(p1_regions, regions) AS regions_restored,
         r1 & 4294967295 AS dirty_chunks, (s_store >> 5) & 4294967295 AS total_chunks, 0 AS missed_chunks,
         seq + p1_dseq - 1 AS seq, NULL AS ts_ns
  FROM dispatch_rows WHERE r1 IS NOT NULL
  UNION ALL
  SELECT process, id, 2, 1, CASE WHEN s_store & 3 = 0 THEN coalesce(p1_bytes, bytes) ELSE 0 END,
         CASE WHEN s_store & 3 = 1 THEN coalesce(p1_bytes, bytes) ELSE 0 END, rf >> 31, rf & 2147483647,
         coalesce(p1_regions, regions), r1 & 4294967295, (s_store >> 5) & 4294967295, 0, seq + p1_dseq + 1, NULL
  FROM dispatch_rows WHERE rf IS NOT NULL
  UNION ALL
  SELECT process, dispatch, pass_index, final, restored_bytes_host, restored_bytes_device, hash_ns, restore_ns,
         regions_restored, dirty_chunks, total_chunks, missed_chunks, seq, ts_ns
  FROM restore_rows;
CREATE VIEW dispatches AS
  SELECT r.process AS process, r.id AS id, r.seq AS seq, r.ts_ns AS ts_ns, ha.handle AS agent,
         hq.handle AS queue, hk.handle AS kernel_object, r.kernel_name_id AS kernel_name_id, r.grid_x AS grid_x,
         r.grid_y AS grid_y, r.grid_z AS grid_z, r.workgroup_x AS workgroup_x, r.workgroup_y AS workgroup_y,
         r.workgroup_z AS workgroup_z, r.decision AS decision,
         CASE WHEN r.s_dseq IS NOT NULL THEN r.bytes END AS footprint,
         (SELECT e.name FROM enum_names e WHERE e.enum = 'snapshot_store' AND e.code =
            CASE WHEN r.s_store IS NOT NULL THEN r.s_store & 3 ELSE (SELECT x.store FROM snapshot_store_rows x
              WHERE x.process = r.process AND x.dispatch_id = r.id) END) AS store,
         (SELECT sum(v) FROM (
            SELECT CASE WHEN r.s_store & 3 = 0 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END AS v
              WHERE r.r1 IS NOT NULL
            UNION ALL SELECT CASE WHEN r.s_store & 3 = 0 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END
              WHERE r.rf IS NOT NULL
            UNION ALL SELECT x.restored_bytes_host FROM restore_rows x WHERE x.process = r.process
              AND x.dispatch = r.id)) AS restored_bytes_host,
         (SELECT sum(v) FROM (
            SELECT CASE WHEN r.s_store & 3 = 1 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END AS v
              WHERE r.r1 IS NOT NULL
            UNION ALL SELECT CASE WHEN r.s_store & 3 = 1 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END
              WHERE r.rf IS NOT NULL
            UNION ALL SELECT x.restored_bytes_device FROM restore_rows x WHERE x.process = r.process
              AND x.dispatch = r.id)) AS restored_bytes_device
  FROM dispatch_rows r LEFT JOIN handles ha ON ha.ref = r.agent_ref LEFT JOIN handles hq ON hq.ref = r.queue_ref
       LEFT JOIN handles hk ON hk.ref = r.kernel_ref
  WHERE r.decision IS NOT NULL;
CREATE VIEW snapshots AS
  SELECT r.process AS process, r.id AS dispatch_id, r.seq + r.s_dseq AS seq, r.ts_ns + r.s_dts AS ts_ns,
         h.handle AS agent, r.generation AS generation, r.regions AS regions, r.bytes AS bytes,
         r.duration_ns AS duration_ns, r.ok AS ok, r.failures AS failures,
         es.name AS store,
         CASE WHEN r.s_store IS NULL THEN x.host_bytes WHEN r.s_store & 3 = 0 THEN r.bytes ELSE 0 END AS host_bytes,
         CASE WHEN r.s_store IS NULL THEN x.device_bytes WHEN r.s_store & 3 = 1 THEN r.bytes ELSE 0 END
           AS device_bytes,
         CASE WHEN r.s_store IS NULL THEN x.host_pinned ELSE 1 - ((r.s_store >> 4) & 1) END AS host_pinned,
         eh.name AS hash_path, CASE WHEN r.s_store IS NULL THEN x.hash_ns ELSE r.s_store >> 37 END AS hash_ns,
         CASE WHEN r.s_store IS NULL THEN x.total_chunks ELSE (r.s_store >> 5) & 4294967295 END AS total_chunks
  FROM dispatch_rows r LEFT JOIN handles h ON h.ref = coalesce(r.s_agent_ref, r.agent_ref)
       LEFT JOIN snapshot_store_rows x ON r.s_store IS NULL AND x.process = r.process AND x.dispatch_id = r.id
       LEFT JOIN enum_names es ON es.enum = 'snapshot_store'
         AND es.code = CASE WHEN r.s_store IS NULL THEN x.store ELSE r.s_store & 3 END
       LEFT JOIN enum_names eh ON eh.enum = 'chunk_hash_path'
         AND eh.code = CASE WHEN r.s_store IS NULL THEN x.hash_path ELSE (r.s_store >> 2) & 3 END
  WHERE r.s_dseq IS NOT NULL;
CREATE VIEW passes AS
  SELECT p.process AS process, p.dispatch_id AS dispatch_id, p.idx AS idx, p.seq AS seq, p.ts_ns AS ts_ns,
         p.start_tick AS start_tick, p.end_tick AS end_tick, p.restore_ns AS restore_ns,
         p.regions_restored AS regions_restored, p.bytes_restored AS bytes_restored, p.skips AS skips,
         p.fidelity AS fidelity,
         CASE WHEN p.r1 IS NULL THEN x.restored_bytes_host WHEN p.s_store & 3 = 0 THEN p.bytes_restored ELSE 0 END
           AS restored_bytes_host,
         CASE WHEN p.r1 IS NULL THEN x.restored_bytes_device WHEN p.s_store & 3 = 1 THEN p.bytes_restored
           ELSE 0 END AS restored_bytes_device,
         CASE WHEN p.r1 IS NULL THEN x.dirty_chunks ELSE p.r1 & 4294967295 END AS dirty_chunks,
         CASE WHEN p.r1 IS NULL THEN x.total_chunks ELSE (p.s_store >> 5) & 4294967295 END AS total_chunks,
         CASE WHEN p.r1 IS NULL THEN x.hash_ns ELSE p.r1 >> 32 END AS hash_ns,
         CASE WHEN p.r1 IS NULL THEN x.missed_chunks ELSE 0 END AS missed_chunks
  FROM (
  SELECT process AS process, id AS dispatch_id, 0 AS idx, seq + p0_dseq AS seq, NULL AS ts_ns,
         p0_start AS start_tick, p0_start + p0_ticks AS end_tick, p0_restore_ns AS restore_ns,
         coalesce(p0_regions, regions) AS regions_restored, coalesce(p0_bytes, bytes) AS bytes_restored,
         p0_skips AS skips, coalesce(p0_fidelity, -1) AS fidelity, NULL AS r1, NULL AS s_store
  FROM dispatch_rows WHERE p0_dseq IS NOT NULL
  UNION ALL
  SELECT process, id, 1, seq + p1_dseq, NULL, coalesce(p0_start, 0) + p1_start,
         coalesce(p0_start, 0) + p1_start + p1_ticks, p1_restore_ns, coalesce(p1_regions, regions),
         coalesce(p1_bytes, bytes), p1_skips, coalesce(p1_fidelity, -1), r1, s_store
  FROM dispatch_rows WHERE p1_dseq IS NOT NULL
  UNION ALL
  SELECT process, dispatch_id, idx, seq, ts_ns, start_tick, end_tick, restore_ns, regions_restored,
         bytes_restored, skips, fidelity, NULL, NULL FROM extra_passes
  ) p LEFT JOIN restore_rows x ON p.r1 IS NULL AND x.process = p.process AND x.dispatch = p.dispatch_id
       AND x.pass_index = p.idx AND x.final = 0;
CREATE VIEW declines AS
  SELECT d.process AS process, d.id AS dispatch_id, d.seq AS seq, d.ts_ns AS ts_ns, d.decision AS reason_code,
         e.name AS reason
  FROM dispatches d JOIN enum_names e ON e.enum = 'decision' AND e.code = d.decision WHERE d.decision <> 0;
CREATE VIEW process_totals AS
  SELECT p.process AS process, p.pid AS pid,
         (SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775
            AND r.decision IS NOT NULL) AS dispatches,
         (SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775
            AND r.decision = 0) AS replayed,
         (SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775
            AND r.decision <> 0) AS declined,
         (SELECT coalesce(sum(r.bytes), 0) FROM dispatch_rows r
            WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775 AND r.s_dseq IS NOT NULL)
           AS snapshot_bytes,
         (SELECT count(r.p0_dseq) + count(r.p1_dseq) FROM dispatch_rows r
            WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775)
           + (SELECT count(*) FROM extra_passes x WHERE x.process = p.process) AS passes,
         p.events_stored AS events_stored, p.missing_events AS missing_events, p.complete AS complete,
         (SELECT coalesce(sum(r.bytes), 0) FROM dispatch_rows r
            WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775 AND r.s_dseq IS NOT NULL)
           AS footprint,
         (SELECT count(*) FROM restores x WHERE x.process = p.process) AS restores,
         (SELECT coalesce(sum(r.bytes), 0) FROM restores x JOIN dispatch_rows r
            ON r.key = (x.process << 40) + x.dispatch WHERE x.process = p.process) AS full_restore_bytes,
         (SELECT coalesce(sum(x.restored_bytes_host), 0) FROM restores x WHERE x.process = p.process)
           AS restored_bytes_host,
         (SELECT coalesce(sum(x.restored_bytes_device), 0) FROM restores x WHERE x.process = p.process)
           AS restored_bytes_device
  FROM processes p;
)sql";

/// Writes the enum_names rows of every list of vocabulary.h (records.hpp's kEnumTables); INSERT OR
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

constexpr const char* kIndexes = R"sql(
CREATE INDEX IF NOT EXISTS allocations_address ON allocations(process, address);
CREATE INDEX IF NOT EXISTS snapshot_failures_dispatch ON snapshot_failures(process, dispatch_id);
CREATE INDEX IF NOT EXISTS restore_skips_dispatch ON restore_skips(process, dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS fidelity_mismatches_dispatch ON fidelity_mismatches(process, dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS restore_failures_dispatch ON restore_failures(process, dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS warnings_dispatch ON warnings(process, dispatch_id);
CREATE INDEX IF NOT EXISTS snapshot_placements_dispatch ON snapshot_placements(process, dispatch);
CREATE INDEX IF NOT EXISTS restore_misses_dispatch ON restore_misses(process, dispatch, pass_index);
)sql";

/// Columns of dispatch_rows in insert order (the statement binds all of them).
constexpr int kRowColumns = 42;
/// Leading columns that hold the dispatch part (key .. decision).
constexpr int kDispatchColumns = 14;
/// dispatch_rows.key = process << kDispatchKeyShift | dispatch id: one rowid per (process, id), so the
/// table keeps SQLite's append-optimised rowid b-tree (`process` and `id` are virtual columns computed
/// from it). Dispatch ids are counters from 1 (a frame with an id of 2^40 or more is refused).
constexpr int kDispatchKeyShift = 40;
constexpr std::uint64_t kMaxDispatchId = (std::uint64_t{1} << kDispatchKeyShift) - 1;

/// Merges a (partial) row into an existing one: value columns keep what is known, the seq/ts deltas are
/// re-based when the dispatch part arrives and becomes the anchor, and a pass-1 start tick written
/// absolute (its pass 0 was flushed earlier) becomes an offset from pass 0.
constexpr const char* kRowUpsert =
    " ON CONFLICT(key) DO UPDATE SET"
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
    "p1_fidelity),"
    " s_store = coalesce(excluded.s_store, s_store), r1 = coalesce(excluded.r1, r1), rf = "
    "coalesce(excluded.rf, rf)";

struct InsertSql {
    EventType type;
    const char* sql;
};
// Parameter ?1 is the process of every statement.
constexpr InsertSql kInserts[] = {
    {EventType::session_start,
     "UPDATE processes SET protocol_version=?2, pid=?3, executable_id=?4, argv_id=?5, hostname_id=?6, "
     "engine_version_id=?7, configuration_id=?8, start_seq=?9, start_ns=?10, start_wall_ns=?11 "
     "WHERE process=?1"},
    {EventType::string, "INSERT OR IGNORE INTO strings VALUES (?1,?2,?3,?4,?5)"},
    {EventType::agent, "INSERT OR IGNORE INTO agents VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"},
    {EventType::allocation,
     "INSERT INTO "
     "allocations(process,id,alloc_seq,alloc_ns,address,size,agent,api,pool_flags,pointer_type,"
     "classification) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11) ON CONFLICT(process,id) DO UPDATE SET "
     "alloc_seq=?3, alloc_ns=?4, address=?5, size=?6, agent=?7, api=?8, pool_flags=?9, pointer_type=?10, "
     "classification=?11"},
    {EventType::free,
     "INSERT OR IGNORE INTO allocations(process,id,address,free_seq,free_ns) VALUES (?1,?2,?3,?4,?5)"},
    {EventType::executable_loaded, "INSERT OR IGNORE INTO executables VALUES (?1,?2,?3,?4,?5,?6,?7)"},
    {EventType::module_variable,
     "INSERT OR IGNORE INTO module_variables VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"},
    {EventType::inventory, "INSERT OR IGNORE INTO inventories VALUES (?1,?2,?3,?4,?5,?6,?7)"},
    {EventType::inventory_region,
     "INSERT OR IGNORE INTO inventory_regions VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"},
    {EventType::snapshot_failure, "INSERT OR IGNORE INTO snapshot_failures VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"},
    {EventType::pass, "INSERT OR IGNORE INTO extra_passes VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"},
    {EventType::restore_skip, "INSERT OR IGNORE INTO restore_skips VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"},
    {EventType::warning, "INSERT OR IGNORE INTO warnings VALUES (?1,?2,?3,?4,?5,?6)"},
    {EventType::session_end, "UPDATE processes SET end_seq=?2, end_ns=?3, spooled=?4, internal_errors=?5, "
                             "exit_status=coalesce(?6, exit_status) WHERE process=?1"},
    {EventType::fidelity_mismatch,
     "INSERT OR IGNORE INTO fidelity_mismatches VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"},
    {EventType::async_copy, "INSERT OR IGNORE INTO async_copies VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)"},
    {EventType::restore_failure,
     "INSERT OR IGNORE INTO restore_failures VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"},
    // The snapshot's store columns when they do not fold into its dispatch row (foldOrSpill).
    {EventType::snapshot, "INSERT OR REPLACE INTO snapshot_store_rows VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"},
    {EventType::snapshot_placement,
     "INSERT OR IGNORE INTO snapshot_placements VALUES (?1,?2,?3,?4,?5,?6,?7)"},
    {EventType::restore,
     "INSERT OR IGNORE INTO restore_rows VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)"},
    {EventType::restore_miss, "INSERT OR IGNORE INTO restore_misses VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"},
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

bool pathExists(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

/// Opens the regular file `path` as a session file to read (openRegularFile with the store's refusal).
int openRegularFile(const std::string& path, std::string& error) {
    struct stat identity {};
    return rs::ipc::openRegularFile(path, "not a session file (refused before reading)", identity, error);
}

/// Copies the regular file `from` to `to` (created 0600). False with `error` set.
bool copyFile(const std::string& from, const std::string& to, std::string& error) {
    const int in = openRegularFile(from, error);
    if (in < 0) {
        return false;
    }
    const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        error = to + ": cannot be created: " + std::strerror(errno);
        ::close(in);
        return false;
    }
    char buffer[1 << 16];
    bool ok = true;
    for (;;) {
        const ssize_t n = ::read(in, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        for (ssize_t done = 0; ok && done < n;) {
            const ssize_t w = ::write(out, buffer + done, static_cast<std::size_t>(n - done));
            if (w < 0 && errno == EINTR) {
                continue;
            }
            ok = w > 0;
            done += w > 0 ? w : 0;
        }
        if (!ok) {
            break;
        }
    }
    if (!ok) {
        error = to + ": copy of " + from + " failed: " + std::strerror(errno);
    }
    ::close(in);
    ::close(out);
    return ok;
}

/// Runs `sql` on `db` and returns its first column of the first row as integer and text; false (text =
/// SQLite's message) on error or no row.
bool scalar(sqlite3* db, const char* sql, sqlite3_int64& value, std::string& text) {
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

/// The checks of checkSessionFile after the header: SQLite opens `db_path` read-only (the name used in
/// messages is `path`).
SessionFileCheck checkDatabase(const std::string& path, const std::string& db_path, bool& cannot_open) {
    SessionFileCheck check;
    cannot_open = false;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        check.message = path + ": cannot be opened by SQLite: " + sqlite3_errmsg(db);
        cannot_open = true;
        sqlite3_close(db);
        return check;
    }
    sqlite3_int64 value = 0;
    std::string text;
    if (!scalar(db, "PRAGMA quick_check", value, text) || text != "ok") {
        const int code = sqlite3_extended_errcode(db) & 0xff;
        // A WAL that needs recovery in a directory this reader cannot write: not the file's fault.
        cannot_open = code == SQLITE_CANTOPEN || code == SQLITE_READONLY || code == SQLITE_BUSY;
        check.message = path + ": corrupt session file (SQLite integrity check: " + text + ")";
    } else if (!scalar(db, "PRAGMA application_id", value, text) || value != kSessionApplicationId) {
        check.message = path + ": foreign SQLite database (application_id " + std::to_string(value) +
                        ", not a ReplayScope session)";
    } else if (!scalar(db, "PRAGMA user_version", value, text)) {
        check.message = path + ": cannot read the session format version: " + text;
    } else {
        // user_version is a signed 32-bit value: reported as stored (-1 stays -1).
        check.format_version = static_cast<int>(static_cast<std::int32_t>(value));
        if (check.format_version > kSessionFormatVersion) {
            check.message = path + ": session format version " + std::to_string(check.format_version) +
                            " is newer than this ReplayScope supports (" +
                            std::to_string(kSessionFormatVersion) + "); use a newer ReplayScope";
        } else if (check.format_version < kOldestReadableFormatVersion) {
            check.message = path + ": session format version " + std::to_string(check.format_version) +
                            " is not valid (this ReplayScope reads versions " +
                            std::to_string(kOldestReadableFormatVersion) + " to " +
                            std::to_string(kSessionFormatVersion) + ")";
        } else {
            check.ok = true;
        }
    }
    sqlite3_close(db);
    return check;
}

} // namespace

SessionFileCheck checkSessionFile(const std::string& path) {
    SessionFileCheck check;
    const int fd = openRegularFile(path, check.message);
    if (fd < 0) {
        return check;
    }
    char magic[16] = {};
    ssize_t got = 0;
    while (got < 16) {
        const ssize_t n = ::read(fd, magic + got, sizeof magic - static_cast<std::size_t>(got));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += n;
    }
    ::close(fd);
    if (got < 16 || std::memcmp(magic, "SQLite format 3", 16) != 0) {
        check.message = path + ": not a SQLite database (foreign file), refusing to use it as a session file";
        return check;
    }
    // Whether a WAL lies beside it: then the database file alone says nothing about the content (its
    // header's page count may already be the checkpointed one, or not yet); SQLite judges.
    const bool has_wal = fileHasContent(path + "-wal");
    bool cannot_open = false;
    check = checkDatabase(path, path, cannot_open);
    check.has_wal = has_wal;
    if (!check.ok && cannot_open && has_wal) {
        std::string error;
        const std::string copy = openableSessionCopy(path, error);
        if (copy.empty()) {
            check.message += "; " + error;
            return check;
        }
        check = checkDatabase(path, copy, cannot_open);
        check.has_wal = has_wal;
        removeSessionCopy(path, copy);
    }
    return check;
}

std::string openableSessionCopy(const std::string& path, std::string& error, bool always_copy) {
    const int fd = openRegularFile(path, error);
    if (fd < 0) {
        return {};
    }
    ::close(fd);
    const bool has_wal = fileHasContent(path + "-wal");
    if (!has_wal) {
        return path;
    }
    // Can SQLite read it in place? (It can when it may create or use the -shm beside it.)
    if (!always_copy) {
        sqlite3* db = nullptr;
        sqlite3_int64 value = 0;
        std::string text;
        const bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
                        scalar(db, "SELECT count(*) FROM sqlite_master", value, text);
        sqlite3_close(db);
        if (ok) {
            return path;
        }
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/replayscope-copy-XXXXXX";
    if (::mkdtemp(dir.data()) == nullptr) {
        error = dir + ": cannot create a directory for a copy: " + std::strerror(errno);
        return {};
    }
    const std::string copy = dir + "/session.rsdb";
    if (!copyFile(path, copy, error) || !copyFile(path + "-wal", copy + "-wal", error)) {
        ::unlink(copy.c_str());
        ::unlink((copy + "-wal").c_str());
        ::rmdir(dir.c_str());
        return {};
    }
    // Recover and checkpoint the WAL into the copy, which is then a self-contained file.
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok) {
        error = path + ": the copy's write-ahead log cannot be recovered: " + sqlite3_errmsg(db);
    }
    sqlite3_close(db);
    if (!ok) {
        removeSessionCopy(path, copy);
        return {};
    }
    return copy;
}

void removeSessionCopy(const std::string& path, const std::string& copy) {
    if (copy.empty() || copy == path) {
        return;
    }
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        ::unlink((copy + suffix).c_str());
    }
    const auto slash = copy.rfind('/');
    if (slash != std::string::npos) {
        ::rmdir(copy.substr(0, slash).c_str());
    }
}

/// State of one process while writing: its sequence space and counts, with the committed values of
/// the counts (a failed commit returns to them).
struct SessionStore::ProcessState {
    std::int64_t index = 0;
    ProcessIdentity identity;
    SequenceSpace space;
    /// Sequence numbers stored in the open transaction (erased from `space` on rollback).
    std::vector<std::uint64_t> uncommitted;
    bool row_written = false; ///< its processes row exists (committed, or in the open transaction)
    bool row_in_txn = false;  ///< written in the open transaction
    bool dirty = false;       ///< counts changed since the last commit
    bool gaps_dirty = false;  ///< sequence_gaps rows differ from `space`
    bool saw_end = false;
    std::uint64_t end_last_sequence = 0; ///< session_end's last_sequence (0: none)
    std::uint64_t stored = 0, dispatches = 0, rejected = 0;
    struct Committed {
        bool saw_end = false;
        std::uint64_t end_last_sequence = 0, stored = 0, dispatches = 0, last_sequence = 0, missing = 0;
    } committed;
};

std::unique_ptr<SessionStore> SessionStore::open(const std::string& path, Mode mode, std::string& error) {
    const bool exists = fileHasContent(path);
    bool fresh = true;
    if (exists) {
        if (mode == Mode::create) {
            error = path + ": already exists (use --force to overwrite)";
            return nullptr;
        }
        if (mode == Mode::overwrite) {
            struct stat st {};
            if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
                error = path + ": " + fileKind(st.st_mode) + ", not overwritten";
                return nullptr;
            }
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
    } else {
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
            error = path + ": " + fileKind(st.st_mode) + ", not a session file";
            return nullptr;
        }
    }
    // What this call creates, it removes again when it fails (no 0-byte or schema-less file is left,
    // e.g. by a full disk before the start).
    const bool created = !pathExists(path);
    const bool created_wal = !pathExists(path + "-wal"), created_shm = !pathExists(path + "-shm");
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
    // One thread at a time uses the connection (the collector thread, then finish() after joining it):
    // no per-call SQLite mutex.
    if (sqlite3_open_v2(path.c_str(), &store->db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        return fail(path + ": cannot create: " + sqlite3_errmsg(store->db_));
    }
    // WAL + synchronous=NORMAL: the file is consistent after any crash, and every committed transaction
    // survives a crash of the writing process (an OS crash may roll back the last commits). Automatic
    // checkpoints (each syncs the WAL and the database file) every 64 MiB of WAL instead of SQLite's
    // 4 MiB default; finish() checkpoints and truncates the WAL.
    if (!store->exec("PRAGMA journal_mode=WAL") || !store->exec("PRAGMA synchronous=NORMAL") ||
        !store->exec("PRAGMA wal_autocheckpoint=16384") || !store->exec("PRAGMA cache_size=-16384")) {
        return fail(path + ": " + store->error_);
    }
    if (fresh) {
        char pragmas[128];
        std::snprintf(pragmas, sizeof pragmas, "PRAGMA application_id=%d; PRAGMA user_version=%d;",
                      kSessionApplicationId, kSessionFormatVersion);
        char row[160];
        std::snprintf(row, sizeof row,
                      "INSERT INTO session(id, format_version, created_wall_ns, process_count, "
                      "rejected_frames, missing_events) VALUES (1, %d, %lld, 0, 0, 0)",
                      kSessionFormatVersion, static_cast<long long>(wallClockNs()));
        if (!store->exec("BEGIN") || !store->exec(pragmas) || !store->exec(kSchema) || !store->exec(row) ||
            !insertEnumNames(store->db_, store->error_) || !store->exec("COMMIT")) {
            return fail(path + ": " + store->error_);
        }
    } else if (!insertEnumNames(store->db_, store->error_)) {
        return fail(path + ": " + store->error_);
    }
    if (!store->prepareAll() || (!fresh && !store->loadState())) {
        // An existing file was not created here: fail() removes only the -wal/-shm this call made.
        return fail(path + ": " + store->error_);
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
    for (auto* s : {free_update_, session_update_, process_update_, process_insert_, end_counts_, row_single_,
                    row_batch_, narrow_single_, narrow_batch_, handle_insert_}) {
        sqlite3_finalize(s);
    }
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
    // The session row: sums over the processes; its identity columns are those of process 1.
    static constexpr const char* kSessionUpdate = R"sql(
UPDATE session SET
  last_sequence = (SELECT coalesce(max(last_sequence), 0) FROM processes),
  events_stored = (SELECT coalesce(sum(events_stored), 0) FROM processes),
  missing_events = (SELECT coalesce(sum(missing_events), 0) FROM processes),
  process_count = (SELECT count(*) FROM processes),
  rejected_frames = ?1,
  spooled = (SELECT sum(spooled) FROM processes),
  internal_errors = (SELECT sum(internal_errors) FROM processes),
  (protocol_version, pid, executable_id, argv_id, hostname_id, engine_version_id, configuration_id,
   start_seq, start_ns, start_wall_ns, end_seq, end_ns) =
  (SELECT protocol_version, pid, executable_id, argv_id, hostname_id, engine_version_id, configuration_id,
          start_seq, start_ns, start_wall_ns, end_seq, end_ns FROM processes WHERE process = 1)
WHERE id = 1)sql";
    struct Extra {
        const char* sql;
        sqlite3_stmt** statement;
    };
    const Extra extras[] = {
        {"UPDATE allocations SET free_seq=?3, free_ns=?4 WHERE process=?1 AND id=?2", &free_update_},
        {kSessionUpdate, &session_update_},
        {"UPDATE processes SET pid=CASE WHEN ?2 <> 0 THEN ?2 ELSE pid END, "
         "parent_pid=CASE WHEN ?3 <> 0 THEN ?3 ELSE parent_pid END, last_sequence=?4, events_stored=?5, "
         "missing_events=?6, rejected_frames=?7, complete=?8 WHERE process=?1",
         &process_update_},
        {"INSERT OR IGNORE INTO processes(process, instance, pid, parent_pid) VALUES (?1, ?2, ?3, ?4)",
         &process_insert_},
        {"INSERT INTO event_counts(process,event_type,name,sent,stored) VALUES (?1,?2,?3,?4,0) "
         "ON CONFLICT(process,event_type) DO UPDATE SET sent=?4",
         &end_counts_},
        {"INSERT OR IGNORE INTO handles VALUES (?1, ?2)", &handle_insert_},
    };
    for (const Extra& extra : extras) {
        if (sqlite3_prepare_v3(db_, extra.sql, -1, SQLITE_PREPARE_PERSISTENT, extra.statement, nullptr) !=
            SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
            return false;
        }
    }
    // Wide: every column. Narrow: the dispatch part only (declined dispatches; fewer bindings).
    auto rowInsert = [](int rows, int columns) {
        std::string sql =
            columns == kRowColumns
                ? "INSERT INTO dispatch_rows(key, seq, ts_ns, agent_ref, queue_ref, kernel_ref, "
                  "kernel_name_id, "
                  "grid_x, grid_y, grid_z, workgroup_x, workgroup_y, workgroup_z, decision, s_dseq, s_dts, "
                  "s_agent_ref, generation, regions, bytes, duration_ns, ok, failures, p0_dseq, p0_start, "
                  "p0_ticks, p0_restore_ns, p0_regions, p0_bytes, p0_skips, p0_fidelity, p1_dseq, p1_start, "
                  "p1_ticks, p1_restore_ns, p1_regions, p1_bytes, p1_skips, p1_fidelity, s_store, r1, rf) "
                  "VALUES "
                : "INSERT INTO dispatch_rows(key, seq, ts_ns, agent_ref, queue_ref, kernel_ref, "
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
                           &narrow_batch_, nullptr) != SQLITE_OK) {
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
    new_refs_.push_back(handle);
    bindColumns(handle_insert_, 1, ref, handle);
    if (sqlite3_step(handle_insert_) != SQLITE_DONE) {
        error_ = sqlite3_errmsg(db_);
    }
    sqlite3_reset(handle_insert_);
    return ref;
}

SessionStore::PendingRow* SessionStore::findPendingRow(std::int64_t process, std::uint64_t dispatch_id) {
    const std::size_t n = pending_.size();
    for (std::size_t i = n; i > 0 && i + 64 > n; --i) {
        if (pending_[i - 1].id == dispatch_id && pending_[i - 1].process == process) {
            return &pending_[i - 1];
        }
    }
    return nullptr;
}

SessionStore::PendingRow& SessionStore::pendingRow(std::int64_t process, std::uint64_t dispatch_id) {
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
    signedValue(0, (r.process << kDispatchKeyShift) | static_cast<std::int64_t>(r.id));
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
    // Folded parts (foldOrSpill decided): the snapshot's store, the restore before pass 1, the final one.
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
}

bool SessionStore::foldOrSpill(PendingRow& r) {
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
            bindColumns(st, 1, r.process, x.dispatch_id, x.host_bytes, x.device_bytes, x.hash_ns,
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
        bindColumns(st, 1, r.process, e.dispatch_id, e.pass_index, e.final_restore ? 1 : 0,
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
    for (std::size_t k = 0; ok && k < n; ++k) {
        ok = foldOrSpill(pending_[k]);
    }
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
    // Processes and their sequence spaces: [1, last_sequence] less the recorded gaps (O(gaps), never a
    // walk over sequence numbers).
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_,
                           "SELECT process, instance, pid, parent_pid, last_sequence, events_stored, "
                           "rejected_frames, end_seq IS NOT NULL, "
                           "(SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND "
                           "(p.process << 40) + 1099511627775 AND r.decision IS NOT NULL) "
                           "FROM processes p ORDER BY process",
                           -1, &st, nullptr) != SQLITE_OK) {
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
        if (last > 0) {
            p->space.insertRange(1, last);
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
    if (sqlite3_prepare_v2(db_, "SELECT process, first_seq, last_seq FROM sequence_gaps", -1, &st, nullptr) !=
        SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        ProcessState* p = state(sqlite3_column_int64(st, 0));
        const auto first = static_cast<std::uint64_t>(sqlite3_column_int64(st, 1));
        const auto last = static_cast<std::uint64_t>(sqlite3_column_int64(st, 2));
        if (p != nullptr && first >= 1 && first <= last) {
            p->space.eraseRange(first, last);
        }
    }
    sqlite3_finalize(st);
    sqlite3_int64 rejected = 0;
    std::string text;
    if (scalar(db_, "SELECT coalesce(rejected_frames, 0) FROM session WHERE id=1", rejected, text)) {
        rejected_ = static_cast<std::uint64_t>(rejected);
        rejected_unauthenticated_ = rejected_ > process_rejected ? rejected_ - process_rejected : 0;
    }
    for (auto& p : processes_) {
        p->committed = {p->saw_end,    p->end_last_sequence, p->stored,
                        p->dispatches, spaceEnd(*p),         p->space.missing(spaceEnd(*p))};
    }
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

SessionStore::ProcessState* SessionStore::state(std::int64_t process) const {
    if (process < 1 || process > static_cast<std::int64_t>(processes_.size())) {
        return nullptr;
    }
    return processes_[static_cast<std::size_t>(process - 1)].get();
}

std::uint64_t SessionStore::spaceEnd(const ProcessState& p) {
    const std::uint64_t highest = p.space.highest();
    // A session_end may say that numbers after the highest received were sent (and lost): believed
    // only within the window, so a forged last_sequence cannot claim billions of missing events.
    if (p.saw_end && p.end_last_sequence > highest && p.end_last_sequence - highest <= kSequenceWindow) {
        return p.end_last_sequence;
    }
    return highest;
}

void SessionStore::markSequence(ProcessState& p, std::uint64_t sequence) {
    const std::uint64_t highest = p.space.highest();
    if (p.space.insert(sequence)) {
        p.uncommitted.push_back(sequence);
        ++p.stored;
        ++stored_;
        // Only the next number of an in-order stream leaves the set of gaps as it was.
        p.gaps_dirty = p.gaps_dirty || sequence != highest + 1;
        p.dirty = true;
    }
}

bool SessionStore::begin() {
    if (!in_transaction_) {
        if (!exec("BEGIN")) {
            return false;
        }
        in_transaction_ = true;
    }
    return persistProcesses();
}

bool SessionStore::persistProcesses() {
    for (auto& p : processes_) {
        if (p->row_written) {
            continue;
        }
        bindColumns(process_insert_, 1, p->index, p->identity.instance, p->identity.pid,
                    p->identity.parent_pid);
        if (!step(process_insert_)) {
            return false;
        }
        p->row_written = true;
        p->row_in_txn = true;
        p->dirty = true;
    }
    return true;
}

std::int64_t SessionStore::process(const ProcessIdentity& identity) {
    const auto it = by_instance_.find(identity.instance);
    if (it != by_instance_.end()) {
        ProcessState& p = *processes_[static_cast<std::size_t>(it->second - 1)];
        if (p.identity.pid == 0 && identity.pid != 0) {
            p.identity.pid = identity.pid;
            p.dirty = true;
        }
        if (p.identity.parent_pid == 0 && identity.parent_pid != 0) {
            p.identity.parent_pid = identity.parent_pid;
            p.dirty = true;
        }
        return it->second;
    }
    auto p = std::make_unique<ProcessState>();
    p->index = static_cast<std::int64_t>(processes_.size()) + 1;
    p->identity = identity;
    p->dirty = true;
    by_instance_.emplace(identity.instance, p->index);
    processes_.push_back(std::move(p));
    // The row is written with the open transaction, or the next one (commit() starts one for it).
    if (in_transaction_) {
        persistProcesses();
    }
    return static_cast<std::int64_t>(processes_.size());
}

SequenceVerdict SessionStore::checkSequence(std::int64_t process, std::uint64_t sequence) const {
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

void SessionStore::noteRejectedFrame(std::int64_t process) {
    ++rejected_;
    if (ProcessState* p = state(process)) {
        ++p->rejected;
        p->dirty = true;
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
        noteRejectedFrame(0);
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
    switch (checkSequence(process, r.sequence)) {
    case SequenceVerdict::duplicate:
        return true; // spool imported twice, or a frame both sent and spooled
    case SequenceVerdict::out_of_window:
        noteRejectedFrame(process);
        return true;
    case SequenceVerdict::fresh:
        break;
    }
    if (!begin()) {
        rollback();
        return false;
    }
    // A dispatch, its snapshot and its first two passes are assembled into one dispatch_rows row in
    // memory (same transaction); counted now, written at the latest before the commit.
    const bool inline_pass = r.type == EventType::pass && r.pass.index < 2;
    if (r.type == EventType::dispatch || r.type == EventType::snapshot || inline_pass) {
        const std::uint64_t id = r.type == EventType::dispatch   ? r.dispatch.id
                                 : r.type == EventType::snapshot ? r.snapshot.dispatch_id
                                                                 : r.pass.dispatch_id;
        if (id > kMaxDispatchId) { // no emitter counts that far: a forged id (it would not fit the key)
            noteRejectedFrame(process);
            return true;
        }
        if (r.type == EventType::dispatch) {
            PendingRow* row = &pendingRow(process, r.dispatch.id);
            if (row->has_dispatch) { // the same id again (not a duplicate sequence): merged by the upsert
                row = &pending_.emplace_back();
                row->process = process;
                row->id = r.dispatch.id;
            }
            row->has_dispatch = true;
            row->dispatch = r.dispatch;
            row->dispatch_seq = r.sequence;
            row->dispatch_ts = r.timestamp_ns;
            ++p->dispatches;
        } else if (r.type == EventType::snapshot) {
            PendingRow& row = pendingRow(process, r.snapshot.dispatch_id);
            row.has_snapshot = true;
            row.snapshot = r.snapshot;
            row.snapshot_seq = r.sequence;
            row.snapshot_ts = r.timestamp_ns;
        } else {
            PendingRow& row = pendingRow(process, r.pass.dispatch_id);
            const auto i = r.pass.index;
            row.has_pass[i] = true;
            row.pass[i] = r.pass;
            row.pass_seq[i] = r.sequence;
            row.pass_ts[i] = r.timestamp_ns;
        }
        markSequence(*p, r.sequence);
        if (pending_.size() < kMaxPendingRows || flushRows(false)) {
            return true;
        }
        rollback();
        return false;
    }
    if (r.type == EventType::restore) {
        // The restore before pass 1 and the final restore after pass 1 wait in their dispatch's pending
        // row (foldOrSpill decides at flush whether the row holds them); others go to restore_rows now.
        const auto& x = r.restore;
        const int slot = x.pass_index == 1 && !x.final_restore  ? 0
                         : x.pass_index == 2 && x.final_restore ? 1
                                                                : -1;
        PendingRow* row = slot < 0 ? nullptr : findPendingRow(process, x.dispatch_id);
        if (row != nullptr && !row->has_restore[slot]) {
            row->has_restore[slot] = true;
            row->restore[slot] = x;
            row->restore_seq[slot] = r.sequence;
            row->restore_ts[slot] = r.timestamp_ns;
            markSequence(*p, r.sequence);
            return true;
        }
    }
    sqlite3_stmt* s = statement(r.type);
    if (s == nullptr) {
        return true;
    }
    sqlite3_bind_int64(s, 1, process);
    const std::uint64_t seq = r.sequence, ts = r.timestamp_ns;
    switch (r.type) {
    case EventType::hello:
        break;
    case EventType::session_start: {
        const auto& x = r.session_start;
        bindColumns(s, 2, x.protocol_version, x.pid, x.executable, x.argv, x.hostname, x.engine_version,
                    x.configuration, seq, ts, x.wall_clock_ns);
        if (p->identity.pid == 0) {
            p->identity.pid = x.pid;
        }
        break;
    }
    case EventType::string:
        bindColumns(s, 2, r.string.id, r.string.view(), r.string.original_length, seq);
        break;
    case EventType::agent: {
        const auto& x = r.agent;
        bindColumns(s, 2, x.handle, seq, ts, x.name, x.isa, x.device_type, x.node);
        break;
    }
    case EventType::allocation: {
        const auto& x = r.allocation;
        bindColumns(s, 2, x.id, seq, ts, x.address, x.size, x.agent, x.api, x.pool_flags, x.pointer_type,
                    x.classification);
        break;
    }
    case EventType::free: {
        // Normally the allocation row exists: set its free sequence. Otherwise (its allocation event is
        // still to come, e.g. in a spool) a placeholder row keeps the free; the allocation upsert fills it.
        bindColumns(free_update_, 1, process, r.free.allocation_id, seq, ts);
        if (!step(free_update_)) {
            rollback();
            return false;
        }
        if (sqlite3_changes(db_) > 0) {
            markSequence(*p, seq);
            return true;
        }
        bindColumns(s, 2, r.free.allocation_id, r.free.address, seq, ts);
        break;
    }
    case EventType::executable_loaded: {
        const auto& x = r.executable;
        bindColumns(s, 2, seq, ts, x.executable, x.code_object, x.agent, x.uri);
        break;
    }
    case EventType::module_variable: {
        const auto& x = r.module_variable;
        bindColumns(s, 2, seq, ts, x.executable, x.agent, x.address, x.size, x.symbol, x.status);
        break;
    }
    case EventType::inventory: {
        const auto& x = r.inventory;
        bindColumns(s, 2, x.agent, x.generation, seq, ts, x.bytes, x.regions);
        break;
    }
    case EventType::inventory_region: {
        const auto& x = r.inventory_region;
        bindColumns(s, 2, x.agent, x.generation, x.index, seq, x.address, x.size, x.allocation_id, x.kind);
        break;
    }
    case EventType::snapshot_failure: {
        const auto& x = r.snapshot_failure;
        bindColumns(s, 2, seq, ts, x.dispatch_id, x.address, x.size, x.allocation_id, x.reason);
        break;
    }
    case EventType::dispatch:
    case EventType::snapshot:
        break; // assembled above
    case EventType::snapshot_placement: {
        const auto& x = r.snapshot_placement;
        bindColumns(s, 2, x.dispatch_id, x.address, x.size, enumName(x.store), seq, ts);
        break;
    }
    case EventType::restore: {
        const auto& x = r.restore;
        bindColumns(s, 2, x.dispatch_id, x.pass_index, x.final_restore ? 1 : 0, x.restored_bytes_host,
                    x.restored_bytes_device, x.hash_ns, x.restore_ns, x.regions_restored, x.dirty_chunks,
                    x.total_chunks, x.missed_chunks, seq, ts);
        break;
    }
    case EventType::restore_miss: {
        const auto& x = r.restore_miss;
        bindColumns(s, 2, x.dispatch_id, x.pass_index, x.address, x.size, x.allocation_id, seq, ts);
        break;
    }
    case EventType::pass: { // index >= 2
        const auto& x = r.pass;
        bindColumns(s, 2, x.dispatch_id, x.index, seq, ts, x.start_tick, x.end_tick, x.restore_ns,
                    x.regions_restored, x.bytes_restored, x.skips, x.fidelity);
        break;
    }
    case EventType::fidelity_mismatch: {
        const auto& x = r.fidelity_mismatch;
        bindColumns(s, 2, seq, ts, x.dispatch_id, x.pass_index, x.address, x.size, x.allocation_id);
        break;
    }
    case EventType::restore_failure: {
        const auto& x = r.restore_failure;
        bindColumns(s, 2, seq, ts, x.dispatch_id, x.pass_index, x.holds_pass_index, x.address, x.size,
                    x.allocation_id, x.kind, x.attempts, x.status);
        break;
    }
    case EventType::async_copy: {
        const auto& x = r.async_copy;
        bindColumns(s, 2, seq, ts, x.agent, x.dst, x.src, x.size, x.dispatch_id, x.waited_ns, x.outcome);
        break;
    }
    case EventType::restore_skip: {
        const auto& x = r.restore_skip;
        bindColumns(s, 2, seq, ts, x.dispatch_id, x.pass_index, x.address, x.size, x.allocation_id, x.reason);
        break;
    }
    case EventType::warning: {
        const auto& x = r.warning;
        bindColumns(s, 2, seq, ts, x.code, x.dispatch_id, x.text);
        break;
    }
    case EventType::session_end: {
        const auto& x = r.session_end;
        bindColumns(s, 2, seq, ts, x.spooled, x.internal_errors);
        if (x.exit_status >= 0 && x.exit_status <= 255) {
            sqlite3_bind_int(s, 6, x.exit_status);
        } else {
            sqlite3_bind_null(s, 6);
        }
        // Sent counts are kept for finish(); the row is written in event_counts there.
        bool ok = true;
        for (std::size_t i = 2; ok && i < kEventTypeSlots; ++i) {
            const auto name = eventTypeName(static_cast<EventType>(i));
            bindColumns(end_counts_, 1, process, static_cast<int>(i), name, x.counts[i]);
            ok = step(end_counts_);
        }
        if (!ok) {
            rollback();
            return false;
        }
        p->saw_end = true;
        p->end_last_sequence = x.last_sequence;
        p->gaps_dirty = true; // the end of the space may have moved
        break;
    }
    }
    if (!step(s)) { // every case binds every parameter: no clear_bindings needed
        rollback();
        return false;
    }
    markSequence(*p, seq);
    return true;
}

bool SessionStore::writeGaps(bool all) {
    sqlite3_stmt* del = nullptr;
    sqlite3_stmt* ins = nullptr;
    bool ok = sqlite3_prepare_v2(db_, "DELETE FROM sequence_gaps WHERE process=?1", -1, &del, nullptr) ==
                  SQLITE_OK &&
              sqlite3_prepare_v2(db_, "INSERT INTO sequence_gaps VALUES (?1, ?2, ?3)", -1, &ins, nullptr) ==
                  SQLITE_OK;
    for (auto& p : processes_) {
        // Between commits, a space broken into very many pieces (a hostile stream) is written at
        // finish() only; its gaps are bounded by what was received in any case.
        if (!ok || !p->gaps_dirty || (!all && p->space.intervals() > kGapsPerCommit)) {
            continue;
        }
        sqlite3_bind_int64(del, 1, p->index);
        ok = step(del);
        for (const auto& [first, last] : p->space.gaps(spaceEnd(*p))) {
            if (!ok) {
                break;
            }
            bindColumns(ins, 1, p->index, first, last);
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

bool SessionStore::updateProcessRows() {
    for (auto& p : processes_) {
        if (!p->dirty) {
            continue;
        }
        const std::uint64_t end = spaceEnd(*p);
        const std::uint64_t missing = p->space.missing(end);
        bindColumns(process_update_, 1, p->index, p->identity.pid, p->identity.parent_pid, end, p->stored,
                    missing, p->rejected, p->saw_end && missing == 0 ? 1 : 0);
        if (!step(process_update_)) {
            return false;
        }
    }
    bindColumns(session_update_, 1, rejected_);
    return step(session_update_);
}

bool SessionStore::commit() {
    bool pending_processes = false;
    for (const auto& p : processes_) {
        pending_processes = pending_processes || !p->row_written || p->dirty;
    }
    if (!in_transaction_ && !pending_processes) {
        return true;
    }
    if (!begin() || (!pending_.empty() && !flushRows(true)) || !writeGaps(false) || !updateProcessRows() ||
        !exec("COMMIT")) {
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
        const std::uint64_t end = spaceEnd(*p);
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
        for (const std::uint64_t s : p->uncommitted) {
            p->space.erase(s);
        }
        p->uncommitted.clear();
        p->gaps_dirty = true; // the transaction's sequence_gaps rows are gone too
        if (p->row_in_txn) {
            p->row_written = false;
            p->row_in_txn = false;
        }
        p->saw_end = p->committed.saw_end;
        p->end_last_sequence = p->committed.end_last_sequence;
        p->stored = p->committed.stored;
        p->dispatches = p->committed.dispatches;
        p->dirty = true; // rewritten (rejected counts, identity) by the next commit
    }
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> SessionStore::gaps(std::int64_t process) const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> result;
    for (const auto& p : processes_) {
        if (process == 0 || p->index == process) {
            const auto g = p->space.gaps(spaceEnd(*p));
            result.insert(result.end(), g.begin(), g.end());
        }
    }
    return result;
}

std::uint64_t SessionStore::lastSequence() const noexcept {
    std::uint64_t last = 0;
    for (const auto& p : processes_) {
        last = std::max(last, spaceEnd(*p));
    }
    return last;
}

bool SessionStore::sawSessionEnd() const noexcept {
    return std::any_of(processes_.begin(), processes_.end(), [](const auto& p) { return p->saw_end; });
}

bool SessionStore::allProcessesEnded() const noexcept {
    return !processes_.empty() &&
           std::all_of(processes_.begin(), processes_.end(), [](const auto& p) { return p->saw_end; });
}

std::vector<ProcessSummary> SessionStore::processes() const {
    std::vector<ProcessSummary> result;
    sqlite3_stmt* st = nullptr;
    // The command: the argv string of the process's session_start (NUL- or space-separated as sent).
    sqlite3_prepare_v2(db_,
                       "SELECT s.text FROM processes p JOIN strings s ON s.process = p.process AND "
                       "s.id = p.argv_id WHERE p.process = ?1",
                       -1, &st, nullptr);
    for (const auto& p : processes_) {
        ProcessSummary s;
        s.process = p->index;
        s.identity = p->identity;
        s.events_stored = p->committed.stored;
        s.dispatches = p->committed.dispatches;
        s.missing = p->committed.missing;
        s.rejected_frames = p->rejected;
        s.last_sequence = p->committed.last_sequence;
        s.complete = p->committed.saw_end && p->committed.missing == 0;
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

bool SessionStore::finish(const std::string& end_reason) {
    if (!begin() || (!pending_.empty() && !flushRows(true))) {
        const std::string why = error_;
        rollback();
        error_ = why;
        return false;
    }
    for (auto& p : processes_) {
        p->gaps_dirty = true; // every process's gaps written now, however many
    }
    // Stored counts, per process and event type, from the tables themselves.
    static constexpr const char* kStored = R"sql(
INSERT INTO event_counts(process, event_type, name, sent, stored)
SELECT ?1, t.code, '', NULL, t.n FROM (
  SELECT 2 AS code, (SELECT count(*) FROM processes WHERE process = ?1 AND start_seq IS NOT NULL) AS n
  UNION ALL SELECT 3, (SELECT count(*) FROM strings WHERE process = ?1)
  UNION ALL SELECT 4, (SELECT count(*) FROM agents WHERE process = ?1)
  UNION ALL SELECT 5, (SELECT count(*) FROM allocations WHERE process = ?1 AND alloc_seq IS NOT NULL)
  UNION ALL SELECT 6, (SELECT count(*) FROM allocations WHERE process = ?1 AND free_seq IS NOT NULL)
  UNION ALL SELECT 7, (SELECT count(*) FROM executables WHERE process = ?1)
  UNION ALL SELECT 8, (SELECT count(*) FROM module_variables WHERE process = ?1)
  UNION ALL SELECT 9, (SELECT count(*) FROM dispatch_rows WHERE key BETWEEN ?2 AND ?3 AND decision IS NOT NULL)
  UNION ALL SELECT 10, (SELECT count(*) FROM inventories WHERE process = ?1)
  UNION ALL SELECT 11, (SELECT count(*) FROM inventory_regions WHERE process = ?1)
  UNION ALL SELECT 12, (SELECT count(*) FROM dispatch_rows WHERE key BETWEEN ?2 AND ?3 AND s_dseq IS NOT NULL)
  UNION ALL SELECT 13, (SELECT count(*) FROM snapshot_failures WHERE process = ?1)
  UNION ALL SELECT 14, (SELECT count(p0_dseq) + count(p1_dseq) FROM dispatch_rows WHERE key BETWEEN ?2 AND ?3)
                       + (SELECT count(*) FROM extra_passes WHERE process = ?1)
  UNION ALL SELECT 15, (SELECT count(*) FROM restore_skips WHERE process = ?1)
  UNION ALL SELECT 16, (SELECT count(*) FROM warnings WHERE process = ?1)
  UNION ALL SELECT 17, (SELECT count(*) FROM processes WHERE process = ?1 AND end_seq IS NOT NULL)
  UNION ALL SELECT 18, (SELECT count(*) FROM fidelity_mismatches WHERE process = ?1)
  UNION ALL SELECT 19, (SELECT count(*) FROM async_copies WHERE process = ?1)
  UNION ALL SELECT 20, (SELECT count(*) FROM restore_failures WHERE process = ?1)
  UNION ALL SELECT 21, (SELECT count(*) FROM snapshot_placements WHERE process = ?1)
  UNION ALL SELECT 22, (SELECT count(*) FROM restores WHERE process = ?1)
  UNION ALL SELECT 23, (SELECT count(*) FROM restore_misses WHERE process = ?1)) AS t WHERE true
ON CONFLICT(process, event_type) DO UPDATE SET stored = excluded.stored;
)sql";
    sqlite3_stmt* st = nullptr;
    bool ok = sqlite3_prepare_v2(db_, kStored, -1, &st, nullptr) == SQLITE_OK;
    for (const auto& p : processes_) {
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
    ok = ok && sqlite3_prepare_v2(db_, "UPDATE event_counts SET name=?2 WHERE event_type=?1", -1, &st,
                                  nullptr) == SQLITE_OK;
    for (const EnumName& type : kEventTypeNames) {
        if (!ok) {
            break;
        }
        sqlite3_bind_int64(st, 1, type.code);
        sqlite3_bind_text(st, 2, type.name.data(), static_cast<int>(type.name.size()), SQLITE_STATIC);
        ok = step(st);
    }
    sqlite3_finalize(st);
    st = nullptr;
    // Per process: why it ended. The session: complete when it has processes and all are complete.
    ok = ok && sqlite3_prepare_v2(db_, "UPDATE processes SET end_reason=?2 WHERE process=?1", -1, &st,
                                  nullptr) == SQLITE_OK;
    bool complete = !processes_.empty();
    for (const auto& p : processes_) {
        if (!ok) {
            break;
        }
        const std::uint64_t missing = p->space.missing(spaceEnd(*p));
        complete = complete && p->saw_end && missing == 0;
        const std::string reason =
            !p->saw_end   ? "no session end"
            : missing > 0 ? "session end received, " + std::to_string(missing) + " events missing"
                          : "session end received";
        sqlite3_bind_int64(st, 1, p->index);
        sqlite3_bind_text(st, 2, reason.c_str(), -1, SQLITE_TRANSIENT);
        ok = step(st);
        p->dirty = true;
    }
    sqlite3_finalize(st);
    st = nullptr;
    ok = ok && sqlite3_prepare_v2(db_, "UPDATE session SET complete=?1, end_reason=?2 WHERE id=1", -1, &st,
                                  nullptr) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_int(st, 1, complete ? 1 : 0);
        sqlite3_bind_text(st, 2, end_reason.c_str(), -1, SQLITE_TRANSIENT);
        ok = step(st);
    }
    sqlite3_finalize(st);
    if (!ok) {
        if (error_.empty()) {
            error_ = sqlite3_errmsg(db_);
        }
        const std::string why = error_;
        rollback();
        error_ = why;
        return false;
    }
    if (!exec(kIndexes)) {
        const std::string why = error_;
        rollback();
        error_ = why;
        return false;
    }
    if (!writeGaps(true) || !commit()) {
        return false;
    }
    // One self-contained file: the WAL checkpointed into it, then a rollback journal, so that readers
    // (which open it read-only) create no -wal/-shm files next to it. A reader following the live
    // session makes the switch fail (SQLITE_BUSY): the file then stays in WAL mode, still valid.
    if (!exec("PRAGMA wal_checkpoint(TRUNCATE)")) {
        return false;
    }
    exec("PRAGMA journal_mode=DELETE");
    return true;
}

bool recordExitStatus(const std::string& path, std::uint32_t root_pid, int exit_status, int exit_signal,
                      std::string& error) {
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
    update("UPDATE session SET exit_status=?1, exit_signal=?2 WHERE id=1", false);
    if (check.format_version >= 3 && root_pid != 0) {
        // The latest process image of that pid (an exec'd program follows the shell that exec'd it).
        update("UPDATE processes SET exit_status=?1, exit_signal=?2 WHERE process = "
               "(SELECT max(process) FROM processes WHERE pid = ?3)",
               true);
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

bool readRestoreTotals(const std::string& path, RestoreTotals& totals, std::string& error) {
    totals = RestoreTotals{};
    const SessionFileCheck check = checkSessionFile(path);
    if (!check.ok) {
        error = check.message;
        return false;
    }
    totals.format_version = check.format_version;
    const std::string db_path = openableSessionCopy(path, error);
    if (db_path.empty()) {
        return false;
    }
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK;
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
        row("SELECT count(*), coalesce(sum(bytes), 0), coalesce(sum(store = 'host'), 0), "
            "coalesce(sum(store = 'device'), 0), coalesce(sum(store = 'mixed'), 0), "
            "coalesce(sum(host_bytes > 0 AND NOT host_pinned), 0) FROM snapshots",
            {&t.snapshots, &t.footprint_bytes, &t.host_snapshots, &t.device_snapshots, &t.mixed_snapshots,
             &t.pageable_snapshots});
        row("SELECT count(*), coalesce(sum(r.bytes), 0), coalesce(sum(x.restored_bytes_host), 0), "
            "coalesce(sum(x.restored_bytes_device), 0), coalesce(sum(x.dirty_chunks), 0), "
            "coalesce(sum(x.total_chunks), 0), coalesce(sum(x.missed_chunks), 0), coalesce(sum(x.hash_ns), "
            "0), "
            "coalesce(sum(x.restore_ns), 0) FROM restores x LEFT JOIN dispatch_rows r "
            "ON r.key = (x.process << 40) + x.dispatch AND r.s_dseq IS NOT NULL",
            {&t.restores, &t.full_restore_bytes, &t.restored_bytes_host, &t.restored_bytes_device,
             &t.dirty_chunks, &t.total_chunks, &t.missed_chunks, &t.hash_ns, &t.restore_ns});
    } else {
        // Before format 4 every snapshot went to pageable host memory and every restore copied all of it
        // back from there; the passes after the first name those restores.
        row("SELECT count(*), coalesce(sum(bytes), 0) FROM snapshots", {&t.snapshots, &t.footprint_bytes});
        t.host_snapshots = t.pageable_snapshots = t.snapshots;
        row(check.format_version >= 3
                ? "SELECT count(*), coalesce(sum(s.bytes), 0), coalesce(sum(p.bytes_restored), 0), "
                  "coalesce(sum(p.restore_ns), 0) FROM passes p LEFT JOIN snapshots s "
                  "ON s.process = p.process AND s.dispatch_id = p.dispatch_id WHERE p.idx >= 1"
                : "SELECT count(*), coalesce(sum(s.bytes), 0), coalesce(sum(p.bytes_restored), 0), "
                  "coalesce(sum(p.restore_ns), 0) FROM passes p LEFT JOIN snapshots s "
                  "ON s.dispatch_id = p.dispatch_id WHERE p.idx >= 1",
            {&t.restores, &t.full_restore_bytes, &t.restored_bytes_host, &t.restore_ns});
    }
    if (!ok) {
        error = path + ": cannot read the restore totals: " + sqlite3_errmsg(db);
    }
    sqlite3_close(db);
    removeSessionCopy(path, db_path);
    return ok;
}

bool recordExitStatus(const std::string& path, int exit_status, int exit_signal, std::string& error) {
    return recordExitStatus(path, 0, exit_status, exit_signal, error);
}

} // namespace rs::ipc
