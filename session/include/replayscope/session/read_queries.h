// SPDX-License-Identifier: MIT
// The SQL queries a reader of a session file runs, per page, and the layout probe that chooses them.
//
// A reader (the inspector's loader, `replayscope --summary`, a sqlite3 tool) names no table or view of
// the session file itself: it probes the file's layout once per read (detect_file_layout), asks this
// header for each page's query text and reads the result columns by the query's column enum. The texts
// are what the inspector ran before they moved here, including its direct reads of the compact
// `dispatch_rows` storage of formats 2 to 4, which are several times faster than joining the views
// (docs/session-schema.md, "Physical layout of dispatches"; docs/performance.md, "Inspector").
//
// Every query is forward-only and returns its rows in the order a reader needs (ORDER BY where the
// reader relies on it). Formats 1-2 have no `process` column: their queries select the constant 1 in
// its place, so every row names a process (1-based).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rs::session {

/// How an optional format-4 table names the dispatch a row belongs to: `dispatch_id`, as every older
/// table does, or `dispatch` (the name the records use, found in files written while format 4 was
/// changed in place).
enum class DispatchKey : int { dispatch_id, dispatch };

/// Where a file keeps the store columns of its snapshots (format 4): nowhere (formats 1-3), the
/// `snapshot_stores` view (codes), or only as columns of the `snapshots` view (names).
enum class StoreSource : int { none, snapshot_stores, snapshots };

/// What a session file offers a reader: its format version and which optional tables and columns exist.
/// Found by detect_file_layout(); every query function below takes it. Plain data, cheap to copy.
struct FileLayout {
    int format_version = 0; ///< `PRAGMA user_version` as stored (1 to 6)
    /// The `session` row's own `format_version` column (0 when unread): a file whose row says 2 or more
    /// is read with the version-2 queries even if its user_version says less.
    int session_format_version = 0;
    /// `session.internal_errors` exists (files of protocol-3 builds and later).
    bool session_internal_errors = false;
    /// The `restore_failures` table exists (protocol 3 and later).
    bool restore_failures = false;
    StoreSource store_source = StoreSource::none;
    DispatchKey store_dispatch_key = DispatchKey::dispatch_id;
    /// The `restores` table or view exists (format 4); its final-restore column is `final` or, in early
    /// format-4 files, `final_restore`.
    bool restores = false;
    DispatchKey restore_dispatch_key = DispatchKey::dispatch_id;
    bool restores_final_named_final = true;
    bool restore_misses = false; ///< the `restore_misses` table exists (format 4)
    DispatchKey miss_dispatch_key = DispatchKey::dispatch_id;
    bool snapshot_placements = false; ///< the `snapshot_placements` table exists (format 4)
    DispatchKey placement_dispatch_key = DispatchKey::dispatch_id;
    /// `snapshots.fence_wait_ns` exists (format 5: the window's fence wait, `dispatch_rows.s_fence_ns`).
    bool fence_wait = false;
    /// The `pass_counter_values` view exists (format 7: hardware counters per pass, docs/counters.md).
    bool pass_counters = false;
    /// `dispatch_rows` folds the snapshot's store, the restore before pass 1 and the final restore into
    /// its packed `s_store`, `r1` and `rf` columns, and keeps the rest apart in `snapshot_store_rows` and
    /// `restore_rows` (format 4 and later). The dispatch query then decodes the folded parts
    /// (DispatchColumn::folded_store onwards), and spilled_snapshot_stores_query() /
    /// spilled_restores_query() return only the rows kept apart, so that no reader scans `dispatch_rows`
    /// twice more through the `snapshot_stores` and `restores` views.
    bool folded_parts = false;

    /// Rows carry their process (format 3 and later); else every row is process 1.
    bool per_process() const { return format_version >= 3; }
    /// Dispatches in compact rows with handles by reference and passes 2+ apart, fidelity results,
    /// async copies and the exit status (format 2 and later).
    bool compact() const { return format_version >= 2 || session_format_version >= 2; }
};

/// Runs one SQL statement on the caller's connection and returns the first column of every row as
/// text; empty when the statement fails or returns no row. The reader's own database access (Qt SQL,
/// sqlite3) behind one signature, so that the probe below serves every reader.
using FirstColumnQuery = std::function<std::vector<std::string>(const std::string& sql)>;

/// The probe: runs a handful of catalogue queries (`pragma_table_info`) through `run` and says which
/// optional tables and columns the file has. `format_version` is the file's `PRAGMA user_version`. Never
/// fails: a query that fails counts as "absent". Run it inside the read transaction, once per read.
FileLayout detect_file_layout(int format_version, const FirstColumnQuery& run);

/// Tables and views every file of `format_version` has; a file lacking one is corrupt or incomplete.
std::vector<std::string_view> required_tables(int format_version);

/// Whether `layout` (detect_file_layout's probe) has what the file's declared format version requires, so
/// that a file is never read as an older format than it declares: empty when it does, else the clause
/// saying what is missing ("format 5 requires the folded restore layout (...)").
std::string layout_mismatch(const FileLayout& layout);

/// Connection-level statements: `PRAGMA application_id`, `PRAGMA user_version`, `PRAGMA data_version`
/// (changes whenever another connection commits), `PRAGMA quick_check` ("ok" or the first problem), and
/// the read transaction that gives one consistent picture while a collector keeps writing.
std::string_view application_id_query();
std::string_view user_version_query();
std::string_view data_version_query();
std::string_view quick_check_query();
std::string_view begin_read();
std::string_view end_read();

// ---- The queries, one per page's data. A function returns an empty string when the file has no such
// data (the reader then reads nothing and shows "not recorded"). Columns: the enum beside it. ----

/// `enum_names`: every stored enum's code and name.
enum class EnumNameColumn : int { kind, code, name };
std::string enum_names_query(const FileLayout& layout);

/// `strings`: interned texts (ids are per process from format 3).
enum class StringColumn : int { process, id, text };
std::string strings_query(const FileLayout& layout);

/// The `session` row (one row; none in a file that was never completely created). Texts are string ids.
enum class SessionColumn : int {
    format_version,
    created_wall_ns,
    pid,
    executable_id,
    argv_id,
    hostname_id,
    engine_version_id,
    configuration_id,
    start_ns,
    start_wall_ns,
    end_seq,
    end_ns,
    spooled,
    complete,
    last_sequence,
    events_stored,
    end_reason
};
std::string session_query(const FileLayout& layout);

/// The exit status `replayscope-run` stored in the session row (format 2; NULL while unknown).
enum class ExitStatusColumn : int { exit_status, exit_signal };
std::string exit_status_query(const FileLayout& layout);

/// 1 when the `session` row has the `job_rank` column (files written since it was added, or given a
/// rank by replayscope-run), else 0.
inline constexpr const char* kSessionHasJobRankQuery =
    "SELECT count(*) FROM pragma_table_info('session') WHERE name = 'job_rank'";
/// The distinct texts of the `configuration` warnings, in the order first recorded (replayscope-run's
/// report).
inline constexpr const char* kConfigurationWarningsQuery =
    "SELECT s.text FROM warnings w JOIN enum_names e ON e.enum = 'warning' AND e.code = w.code JOIN strings "
    "s "
    "ON s.process = w.process AND s.id = w.text_id WHERE e.name = 'configuration' GROUP BY s.text "
    "ORDER BY min(w.process), min(w.seq)";

/// 1 when the `session` row has the `runner_command` column (a command was recorded), else 0.
inline constexpr const char* kSessionHasRunnerCommandQuery =
    "SELECT count(*) FROM pragma_table_info('session') WHERE name = 'runner_command'";
/// The replayscope-run command line that recorded the session (NULL: none recorded).
inline constexpr const char* kSessionRunnerCommandQuery = "SELECT runner_command FROM session WHERE id = 1";

/// The rank of the MPI/Slurm job process that recorded the session (NULL: none recorded).
inline constexpr const char* kSessionJobRankQuery = "SELECT job_rank FROM session WHERE id = 1";

/// `session.internal_errors` (NULL while no session end was received).
enum class InternalErrorsColumn : int { internal_errors };
std::string internal_errors_query(const FileLayout& layout);

/// Missing sequence ranges per process: ranges and the sequence numbers they cover.
enum class SequenceGapColumn : int { process, ranges, missing };
std::string sequence_gaps_query(const FileLayout& layout);

/// The session row's counts over every process (format 3).
enum class SessionCountColumn : int { process_count, rejected_frames, missing_events };
std::string session_counts_query(const FileLayout& layout);

/// `processes`, by process (format 3). Texts are string ids of the process.
enum class ProcessColumn : int {
    process,
    instance,
    pid,
    parent_pid,
    executable_id,
    argv_id,
    hostname_id,
    engine_version_id,
    configuration_id,
    start_ns,
    start_wall_ns,
    end_seq,
    end_ns,
    spooled,
    internal_errors,
    exit_status,
    exit_signal,
    last_sequence,
    events_stored,
    missing_events,
    rejected_frames,
    complete,
    end_reason
};
std::string processes_query(const FileLayout& layout);

/// `agents`, by process and sequence.
enum class AgentColumn : int { process, handle, name_id, isa_id, device_type, node };
std::string agents_query(const FileLayout& layout);

/// The handle references of the compact dispatch rows (format 2): ref -> agent, queue or kernel-object
/// handle.
enum class HandleColumn : int { ref, handle };
std::string handles_query(const FileLayout& layout);

/// One pass folded into a dispatch row (format 2: passes 0 and 1), relative to DispatchColumn::pass0 or
/// ::pass1. `dseq` NULL: the pass is absent. Ticks are agent timestamp ticks, absolute.
enum class FoldedPassColumn : int {
    dseq,
    ts_ns,
    start_tick,
    end_tick,
    restore_ns,
    bytes_restored,
    regions_restored,
    skips,
    fidelity,
    count ///< columns per folded pass
};

/// Dispatches with their snapshots, by process and dispatch id. Format 2 and later: the compact rows,
/// agent/queue/kernel as handle references (handles_query), passes 0 and 1 folded in; format 1: the
/// `dispatches` view joined with `snapshots`, handles as stored, no folded pass (those columns NULL).
/// `snapshot` NULL: the dispatch has no snapshot. `decision`: DispatchDecision code.
enum class DispatchColumn : int {
    id,
    seq,
    ts_ns,
    agent,
    queue,
    kernel_object,
    kernel_name_id,
    grid_x,
    grid_y,
    grid_z,
    workgroup_x,
    workgroup_y,
    workgroup_z,
    decision,
    snapshot,
    generation,
    regions,
    bytes,
    duration_ns,
    ok,
    failures,
    pass0,                                                     ///< first FoldedPassColumn of pass 0
    pass1 = pass0 + static_cast<int>(FoldedPassColumn::count), ///< first FoldedPassColumn of pass 1
    process = pass1 + static_cast<int>(FoldedPassColumn::count),
    /// The window's fence wait in ns (format 5); NULL: not recorded (no snapshot, an older engine, or a
    /// file of format 4 or older).
    fence_wait_ns,
    /// The snapshot's store folded into the row (FileLayout::folded_parts; NULL otherwise, or when the
    /// store is a `snapshot_store_rows` row): SnapshotStore and ChunkHashPath codes, 1 when the host
    /// store was page-locked, the chunks hashed, the hashing time in ns. The bytes went wholly to the
    /// store `folded_store` names (host 0 or device 1): a mixed store never folds.
    folded_store,
    folded_hash_path,
    folded_host_pinned,
    folded_total_chunks,
    folded_hash_ns,
    /// The restore before pass 1 folded into the row (NULL: none, or a `restore_rows` row): its hashing
    /// time in ns and dirty chunks. The rest is pass 1's (restore_ns, bytes and regions restored, in
    /// the folded store) and the snapshot's (total chunks); it missed no chunk.
    folded_restore_hash_ns,
    folded_restore_dirty_chunks,
    /// The final restore folded into the row (NULL: none, or a `restore_rows` row), recorded as pass
    /// index 2: its hashing and restore time in ns. Bytes, regions and dirty chunks are the restore
    /// before pass 1's.
    folded_final_hash_ns,
    folded_final_restore_ns,
    /// How long the replay window held the dispatch from its first packet to the release, ns (the
    /// `dispatches.window_ns` of format 6, computed from the columns of format 5); NULL without a snapshot
    /// or in a file of format 4 or older.
    window_ns
};
std::string dispatches_query(const FileLayout& layout);

/// Passes not folded into the dispatch rows: format 2 and later the passes with index >= 2, format 1
/// every pass (fidelity -1). Not ordered.
enum class PassColumn : int {
    process,
    dispatch_id,
    idx,
    ts_ns,
    start_tick,
    end_tick,
    restore_ns,
    regions_restored,
    bytes_restored,
    skips,
    fidelity
};
std::string passes_query(const FileLayout& layout);

/// Regions not restored before a pass (`reason`: RestoreSkipReason code). Not ordered.
enum class RestoreSkipColumn : int { process, dispatch_id, pass_idx, address, size, allocation_id, reason };
std::string restore_skips_query(const FileLayout& layout);

/// Regions a snapshot could not take (`reason`: SnapshotFailureReason code). Not ordered.
enum class SnapshotFailureColumn : int { process, dispatch_id, address, size, allocation_id, reason };
std::string snapshot_failures_query(const FileLayout& layout);

/// Regions a restore could not write back (protocol 3; `kind`: RegionKind code). Not ordered.
enum class RestoreFailureColumn : int {
    process,
    dispatch_id,
    pass_idx,
    address,
    size,
    allocation_id,
    kind,
    attempts
};
std::string restore_failures_query(const FileLayout& layout);

/// Regions whose hash after a pass differed from pass 1 (format 2). Not ordered.
enum class FidelityMismatchColumn : int { process, dispatch_id, pass_idx, address, size, allocation_id };
std::string fidelity_mismatches_query(const FileLayout& layout);

/// The store columns of each snapshot (format 4). `store`/`hash_path`: SnapshotStore / ChunkHashPath,
/// as a code (snapshot_stores) or a name (the snapshots view); NULL: not recorded. Not ordered.
enum class SnapshotStoreColumn : int {
    process,
    dispatch_id,
    host_bytes,
    device_bytes,
    hash_ns,
    total_chunks,
    store,
    hash_path,
    host_pinned
};
std::string snapshot_stores_query(const FileLayout& layout);
/// snapshot_stores_query()'s rows less those the dispatch query decodes (FileLayout::folded_parts: the
/// `snapshot_store_rows` table alone); without folded parts, snapshot_stores_query(). Same columns.
std::string spilled_snapshot_stores_query(const FileLayout& layout);

/// One row per restore (format 4): before pass `pass_index`, or the final one after the last pass.
/// Bytes copied back from the host and the device store; nanoseconds; chunk counts. Not ordered.
enum class RestoreColumn : int {
    process,
    dispatch_id,
    pass_index,
    final_restore,
    restored_bytes_host,
    restored_bytes_device,
    hash_ns,
    restore_ns,
    regions_restored,
    dirty_chunks,
    total_chunks,
    missed_chunks
};
std::string restores_query(const FileLayout& layout);
/// restores_query()'s rows less those the dispatch query decodes (FileLayout::folded_parts: the
/// `restore_rows` table alone); without folded parts, restores_query(). Same columns.
std::string spilled_restores_query(const FileLayout& layout);

/// Chunks a dirty restore missed (format 4), in the table's storage order (the order they were recorded in;
/// the reader orders them by process, dispatch, pass and address: an SQL ORDER BY sorted them in a
/// temporary B-tree, the slowest part of loading a large session).
enum class RestoreMissColumn : int { process, dispatch_id, pass_index, address, size, allocation_id };
std::string restore_misses_query(const FileLayout& layout);

/// Hardware counter values (format 7), one row per dispatch, pass and counter, with the dispatch's kernel
/// name (NULL when unknown) and the counter's catalogue name and unit; ordered by kernel name, counter,
/// process and dispatch. Empty without FileLayout::pass_counters.
enum class CounterValueColumn : int { process, dispatch_id, pass_index, kernel, counter, unit, value };
std::string counter_values_query(const FileLayout& layout);

/// Regions of mixed snapshots and their store (format 4; `store` a SnapshotStore name or code), in storage
/// order (the reader orders them by process, dispatch and address, see restore_misses_query).
enum class PlacementColumn : int { process, dispatch_id, address, size, store };
std::string snapshot_placements_query(const FileLayout& layout);

/// `allocations`, by process and id (`api`, `pointer_type`, `classification`: AllocationApi,
/// PointerType, AllocationClass codes; `free_*` NULL while live).
enum class AllocationColumn : int {
    process,
    id,
    alloc_seq,
    alloc_ns,
    address,
    size,
    agent,
    api,
    pool_flags,
    pointer_type,
    classification,
    free_seq,
    free_ns
};
std::string allocations_query(const FileLayout& layout);

/// `module_variables`, by process and sequence (`status`: VariableStatus code; symbol as a string id).
enum class ModuleVariableColumn : int {
    process,
    seq,
    ts_ns,
    executable,
    agent,
    address,
    size,
    symbol_id,
    status
};
std::string module_variables_query(const FileLayout& layout);

/// `warnings`, by process and sequence (`code`: WarningCode; text as a string id).
enum class WarningColumn : int { process, seq, ts_ns, dispatch_id, code, text_id };
std::string warnings_query(const FileLayout& layout);

/// Async copies that met a replay window (format 2), by process and sequence (`outcome`:
/// AsyncCopyOutcome code; `waited_ns` nanoseconds).
enum class AsyncCopyColumn : int {
    process,
    seq,
    ts_ns,
    agent,
    dst,
    src,
    size,
    dispatch_id,
    waited_ns,
    outcome
};
std::string async_copies_query(const FileLayout& layout);

/// Number of inventory region rows (to reserve memory before inventory_regions_query).
std::string inventory_region_count_query(const FileLayout& layout);

/// Inventory regions by process, agent, generation and index. With `with_process` (format 3 only) the
/// first column is the process and the RegionColumn columns follow one place later (region_column());
/// without it every region is process 1's: a million rows then fetch one value fewer each.
enum class RegionColumn : int { agent, generation, idx, address, size, allocation_id, kind };
std::string inventory_regions_query(const FileLayout& layout, bool with_process);
/// Result column of `column` in inventory_regions_query(layout, with_process).
constexpr int region_column(RegionColumn column, bool with_process) {
    return static_cast<int>(column) + (with_process ? 1 : 0);
}

/// Session-wide snapshot totals (replayscope-run's report; one row). Format 4: the counts by store and the
/// host or mixed snapshots whose host store was pageable; older formats: the first two columns only.
enum class SnapshotTotalColumn : int {
    snapshots,
    footprint_bytes,
    host_snapshots,
    device_snapshots,
    mixed_snapshots,
    pageable_snapshots
};
std::string snapshot_totals_query(const FileLayout& layout);

/// Session-wide restore totals (one row), format 4: over the restores, each with its snapshot's bytes
/// (what a full restore would have moved).
enum class RestoreTotalColumn : int {
    restores,
    full_restore_bytes,
    restored_bytes_host,
    restored_bytes_device,
    dirty_chunks,
    total_chunks,
    missed_chunks,
    hash_ns,
    restore_ns
};
/// Before format 4 the restores are the passes after the first (each copied its snapshot back from
/// pageable host memory): RestoreTotalColumn's restores, full_restore_bytes, restored_bytes_host and
/// restore_ns at the places of PassRestoreTotalColumn.
enum class PassRestoreTotalColumn : int { restores, full_restore_bytes, restored_bytes_host, restore_ns };
/// Format 4: RestoreTotalColumn; older formats: PassRestoreTotalColumn.
std::string restore_totals_query(const FileLayout& layout);

/// What row_count_query() counts (the benchmark's description of a session).
enum class CountedRows : int { dispatches, inventory_regions, passes };
/// `SELECT count(*)` of the documented table or view behind `rows`.
std::string row_count_query(CountedRows rows);

} // namespace rs::session
