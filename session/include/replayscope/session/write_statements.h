// SPDX-License-Identifier: MIT
// Every SQL statement the session writer (ipc's SessionStore) prepares, and the physical layout they
// fill: the only place outside the schema files that names a storage table. Readers use the views and
// read_queries.h instead. Parameter ?1 of every per-record statement is the process index (1-based).
// Layout and meaning of every table: docs/session-schema.md.
#pragma once

#include <cstdint>
#include <string>

namespace rs::session {

// --- dispatch_rows: one row per dispatch (its snapshot, first two passes and folded restores included) ---

/// Columns of dispatch_rows in insert order (the wide statement binds all of them).
inline constexpr int kRowColumns = 43;
/// Leading columns that hold the dispatch part (key .. decision): what the narrow statement binds.
inline constexpr int kDispatchColumns = 14;
/// dispatch_rows.key = process << kDispatchKeyShift | dispatch id: one rowid per (process, id), so the
/// table keeps SQLite's append-optimised rowid b-tree (`process` and `id` are virtual columns computed
/// from it). Dispatch ids are counters from 1 (a frame with an id of 2^40 or more is refused).
inline constexpr int kDispatchKeyShift = 40;
/// Largest dispatch id a key holds.
inline constexpr std::uint64_t kMaxDispatchId = (std::uint64_t{1} << kDispatchKeyShift) - 1;

/// The INSERT of `rows` dispatch_rows rows at once (multi-row VALUES, positional `?` parameters, row after
/// row) with its upsert: a row merges into an existing one of the same key, value columns keep what is
/// known, the seq/ts deltas are re-based when the dispatch part arrives and becomes the anchor, and a pass-1
/// start tick written absolute (its pass 0 was flushed earlier) becomes an offset from pass 0.
/// `narrow`: the kDispatchColumns dispatch columns only (a declined dispatch); else all kRowColumns.
std::string dispatch_row_insert(int rows, bool narrow);

// --- per record type (SessionStore's insert of each event); ?1 = process ---

/// session_start: the process's identity columns (?2 protocol_version .. ?11 start_wall_ns).
inline constexpr const char* kUpdateProcessStart =
    "UPDATE processes SET protocol_version=?2, pid=?3, executable_id=?4, argv_id=?5, hostname_id=?6, "
    "engine_version_id=?7, configuration_id=?8, start_seq=?9, start_ns=?10, start_wall_ns=?11 "
    "WHERE process=?1";
/// string: (process, id, text, original_length, seq).
inline constexpr const char* kInsertString = "INSERT OR IGNORE INTO strings VALUES (?1,?2,?3,?4,?5)";
/// agent: the agents row.
inline constexpr const char* kInsertAgent = "INSERT OR IGNORE INTO agents VALUES (?1,?2,?3,?4,?5,?6,?7,?8)";
/// allocation: creates the allocations row, or completes the one a free seen first left.
inline constexpr const char* kUpsertAllocation =
    "INSERT INTO "
    "allocations(process,id,alloc_seq,alloc_ns,address,size,agent,api,pool_flags,pointer_type,"
    "classification) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11) ON CONFLICT(process,id) DO UPDATE SET "
    "alloc_seq=?3, alloc_ns=?4, address=?5, size=?6, agent=?7, api=?8, pool_flags=?9, pointer_type=?10, "
    "classification=?11";
/// free of an allocation not seen yet: a row holding the free only (?2 id, ?3 address, ?4 seq, ?5 ns).
inline constexpr const char* kInsertFree =
    "INSERT OR IGNORE INTO allocations(process,id,address,free_seq,free_ns) VALUES (?1,?2,?3,?4,?5)";
/// free of a known allocation (?2 id, ?3 seq, ?4 ns).
inline constexpr const char* kUpdateAllocationFree =
    "UPDATE allocations SET free_seq=?3, free_ns=?4 WHERE process=?1 AND id=?2";
/// executable_loaded: the executables row.
inline constexpr const char* kInsertExecutable =
    "INSERT OR IGNORE INTO executables VALUES (?1,?2,?3,?4,?5,?6,?7)";
/// module_variable: the module_variables row.
inline constexpr const char* kInsertModuleVariable =
    "INSERT OR IGNORE INTO module_variables VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)";
/// inventory: the inventories row.
inline constexpr const char* kInsertInventory =
    "INSERT OR IGNORE INTO inventories VALUES (?1,?2,?3,?4,?5,?6,?7)";
/// inventory_region: the inventory_regions row.
inline constexpr const char* kInsertInventoryRegion =
    "INSERT OR IGNORE INTO inventory_regions VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)";
/// snapshot_failure: the snapshot_failures row.
inline constexpr const char* kInsertSnapshotFailure =
    "INSERT OR IGNORE INTO snapshot_failures VALUES (?1,?2,?3,?4,?5,?6,?7,?8)";
/// pass with index 2 or more (passes 0 and 1 fold into dispatch_rows): the extra_passes row.
inline constexpr const char* kInsertExtraPass =
    "INSERT OR IGNORE INTO extra_passes VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)";
/// restore_skip: the restore_skips row.
inline constexpr const char* kInsertRestoreSkip =
    "INSERT OR IGNORE INTO restore_skips VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)";
/// warning: the warnings row.
inline constexpr const char* kInsertWarning = "INSERT OR IGNORE INTO warnings VALUES (?1,?2,?3,?4,?5,?6)";
/// session_end: the process's end columns (?6 exit status, NULL keeps the one recorded).
inline constexpr const char* kUpdateProcessEnd =
    "UPDATE processes SET end_seq=?2, end_ns=?3, spooled=?4, internal_errors=?5, "
    "exit_status=coalesce(?6, exit_status) WHERE process=?1";
/// fidelity_mismatch: the fidelity_mismatches row.
inline constexpr const char* kInsertFidelityMismatch =
    "INSERT OR IGNORE INTO fidelity_mismatches VALUES (?1,?2,?3,?4,?5,?6,?7,?8)";
/// async_copy: the async_copies row.
inline constexpr const char* kInsertAsyncCopy =
    "INSERT OR IGNORE INTO async_copies VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)";
/// restore_failure: the restore_failures row.
inline constexpr const char* kInsertRestoreFailure =
    "INSERT OR IGNORE INTO restore_failures VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)";
/// snapshot: its store columns when they do not fold into its dispatch row (snapshot_store_rows).
inline constexpr const char* kInsertSnapshotStore =
    "INSERT OR REPLACE INTO snapshot_store_rows VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)";
/// snapshot_placement: the snapshot_placements row.
inline constexpr const char* kInsertSnapshotPlacement =
    "INSERT OR IGNORE INTO snapshot_placements VALUES (?1,?2,?3,?4,?5,?6,?7)";
/// restore that does not fold into its dispatch row: the restore_rows row.
inline constexpr const char* kInsertRestore =
    "INSERT OR IGNORE INTO restore_rows VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)";
/// restore_miss: the restore_misses row.
inline constexpr const char* kInsertRestoreMiss =
    "INSERT OR IGNORE INTO restore_misses VALUES (?1,?2,?3,?4,?5,?6,?7,?8)";
/// counter_value: the pass_counters row (format 7).
inline constexpr const char* kInsertPassCounter =
    "INSERT OR IGNORE INTO pass_counters VALUES (?1,?2,?3,?4,?5,?6,?7)";
/// One counter of the catalogue (format 7; ?1 id, ?2 name, ?3 block, ?4 select value, ?5 unit, ?6
/// description), written when a file is created and completed when it is reopened.
inline constexpr const char* kInsertCounterDefinition =
    "INSERT OR IGNORE INTO counters VALUES (?1,?2,?3,?4,?5,?6)";
/// A new agent/queue/kernel-object handle's small ref (?1 ref, ?2 handle).
inline constexpr const char* kInsertHandle = "INSERT OR IGNORE INTO handles VALUES (?1, ?2)";

// --- session and process rows ---

/// The session row of a new file (printf format: %d format version, %lld creation wall clock in ns).
inline constexpr const char* kInsertSessionRowFormat =
    "INSERT INTO session(id, format_version, created_wall_ns, process_count, "
    "rejected_frames, missing_events) VALUES (1, %d, %lld, 0, 0, 0)";
/// The enum_names row (?1 enum, ?2 code, ?3 name); kept when present.
inline constexpr const char* kInsertEnumName =
    "INSERT OR IGNORE INTO enum_names(enum, code, name) VALUES (?1, ?2, ?3)";
/// A new process (?1 process, ?2 instance, ?3 pid, ?4 parent pid).
inline constexpr const char* kInsertProcess =
    "INSERT OR IGNORE INTO processes(process, instance, pid, parent_pid) VALUES (?1, ?2, ?3, ?4)";
/// A process's counts at a commit (?2 pid and ?3 parent pid replace 0 only, ?4 last sequence, ?5 events
/// stored, ?6 missing events, ?7 rejected frames, ?8 complete).
inline constexpr const char* kUpdateProcess =
    "UPDATE processes SET pid=CASE WHEN ?2 <> 0 THEN ?2 ELSE pid END, "
    "parent_pid=CASE WHEN ?3 <> 0 THEN ?3 ELSE parent_pid END, last_sequence=?4, events_stored=?5, "
    "missing_events=?6, rejected_frames=?7, complete=?8 WHERE process=?1";
/// The session row: sums over the processes (?1 rejected frames); its identity columns are process 1's.
inline constexpr const char* kUpdateSession = R"sql(
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
/// The sent count of one event type from a session_end (?2 event type, ?3 name, ?4 sent).
inline constexpr const char* kUpsertSentCount =
    "INSERT INTO event_counts(process,event_type,name,sent,stored) VALUES (?1,?2,?3,?4,0) "
    "ON CONFLICT(process,event_type) DO UPDATE SET sent=?4";
/// The stored counts of every event type of one process, counted from the tables (?2 and ?3: the process's
/// dispatch_rows key range, process << kDispatchKeyShift to that + kMaxDispatchId). Every count is a search
/// of the process's rows (a primary key or the key range), never a scan: dispatch_rows' `process` is a
/// generated column without an index, so the restores folded into it are counted by key range, not
/// through the `restores` view (which filtered by that column and scanned the whole table per process).
inline constexpr const char* kUpsertStoredCounts = R"sql(
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
  UNION ALL SELECT 22, (SELECT count(r1) + count(rf) FROM dispatch_rows WHERE key BETWEEN ?2 AND ?3)
                       + (SELECT count(*) FROM restore_rows WHERE process = ?1)
  UNION ALL SELECT 23, (SELECT count(*) FROM restore_misses WHERE process = ?1)
  UNION ALL SELECT 24, (SELECT count(*) FROM pass_counters WHERE process = ?1)) AS t WHERE true
ON CONFLICT(process, event_type) DO UPDATE SET stored = excluded.stored;
)sql";
/// The name of one event_counts row (?1 process, ?2 event type, ?3 name): a primary key search.
inline constexpr const char* kUpdateEventCountName =
    "UPDATE event_counts SET name=?3 WHERE process=?1 AND event_type=?2 AND name<>?3";
/// Processes no finish has ended (no end_reason yet): a writer appending to the file finishes them again.
inline constexpr const char* kSelectUnfinishedProcesses =
    "SELECT process FROM processes WHERE end_reason IS NULL";
/// Why a process ended (?2 reason).
inline constexpr const char* kUpdateProcessEndReason = "UPDATE processes SET end_reason=?2 WHERE process=?1";
/// The session's completeness and end reason (?1 complete 0/1, ?2 reason).
inline constexpr const char* kUpdateSessionEnd = "UPDATE session SET complete=?1, end_reason=?2 WHERE id=1";
/// The launched program's exit status and signal (?1, ?2; NULL: none) in the session row.
inline constexpr const char* kUpdateSessionExit =
    "UPDATE session SET exit_status=?1, exit_signal=?2 WHERE id=1";
/// The rank of the MPI/Slurm job process that recorded the session (?1; NULL: none), written by
/// replayscope-run.
inline constexpr const char* kUpdateSessionJobRank = "UPDATE session SET job_rank=?1 WHERE id=1";
/// Adds the `job_rank` column to the `session` row of a file created before it existed.
inline constexpr const char* kAddSessionJobRank = "ALTER TABLE session ADD COLUMN job_rank INTEGER";
/// The command line of the replayscope-run that recorded the session (its options whole: the engine's
/// settings string is cut at the protocol's string limit).
inline constexpr const char* kUpdateSessionRunnerCommand = "UPDATE session SET runner_command=?1 WHERE id=1";
/// Adds the `runner_command` column to the `session` row (added when a command is recorded).
inline constexpr const char* kAddSessionRunnerCommand = "ALTER TABLE session ADD COLUMN runner_command TEXT";
/// The same in the latest process image of pid ?3 (an exec'd program follows the shell that exec'd it).
inline constexpr const char* kUpdateProcessExit =
    "UPDATE processes SET exit_status=?1, exit_signal=?2 WHERE process = "
    "(SELECT max(process) FROM processes WHERE pid = ?3)";

// --- sequence gaps ---

/// Removes the sequence_gaps rows of a process.
inline constexpr const char* kDeleteGaps = "DELETE FROM sequence_gaps WHERE process=?1";
/// One missing range [?2, ?3] of a process.
inline constexpr const char* kInsertGap = "INSERT INTO sequence_gaps VALUES (?1, ?2, ?3)";

// --- the writer's state when it appends to an existing file (spool import) ---

/// Every process in order: process, instance, pid, parent_pid, last_sequence, events_stored,
/// rejected_frames, whether its session_end is stored, its dispatches.
inline constexpr const char* kSelectProcessStates =
    "SELECT process, instance, pid, parent_pid, last_sequence, events_stored, "
    "rejected_frames, end_seq IS NOT NULL, "
    "(SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND "
    "(p.process << 40) + 1099511627775 AND r.decision IS NOT NULL) "
    "FROM processes p ORDER BY process";
/// Every recorded gap: process, first_seq, last_seq.
inline constexpr const char* kSelectGaps = "SELECT process, first_seq, last_seq FROM sequence_gaps";
/// The session's rejected frames (one value).
inline constexpr const char* kSelectRejectedFrames =
    "SELECT coalesce(rejected_frames, 0) FROM session WHERE id=1";
/// The argv string of process ?1's session_start (one value; no row before its session_start).
inline constexpr const char* kSelectProcessCommand =
    "SELECT s.text FROM processes p JOIN strings s ON s.process = p.process AND "
    "s.id = p.argv_id WHERE p.process = ?1";
/// Every handle ref: ref, handle.
inline constexpr const char* kSelectHandles = "SELECT ref, handle FROM handles";

} // namespace rs::session
