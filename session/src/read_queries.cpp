// SPDX-License-Identifier: MIT
// The SQL queries a reader of a session file runs (read_queries.h). The texts are the inspector's, moved
// here unchanged but for the process column and the dispatch order, which the layout fills in.
#include "replayscope/session/read_queries.h"

#include <algorithm>
#include <cstdlib>

namespace rs::session {

namespace {

/// `{p}` is the row's process (the column, or the constant 1 in formats 1-2); `{order}` the rowid order
/// of `dispatch_rows`: in format 3 its rowid `key` = process << 40 | id (docs/session-schema.md), so
/// ordering by it needs no sort; format 2: the rowid `id`.
std::string expand(std::string_view sql, const FileLayout& layout) {
    const std::string_view process = layout.per_process() ? "process" : "1";
    const std::string_view order = layout.per_process() ? "key" : "id";
    std::string out;
    out.reserve(sql.size() + 16);
    for (std::size_t i = 0; i < sql.size();) {
        if (sql.compare(i, 3, "{p}") == 0) {
            out += process;
            i += 3;
        } else if (sql.compare(i, 7, "{order}") == 0) {
            out += order;
            i += 7;
        } else {
            out += sql[i++];
        }
    }
    return out;
}

std::string_view dispatch_column(DispatchKey key) {
    return key == DispatchKey::dispatch_id ? "dispatch_id" : "dispatch";
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// The dispatch column of a format-4 table: `dispatch_id` as in every other table (`dispatch` accepted
/// too).
DispatchKey dispatch_key_of(const std::vector<std::string>& columns) {
    return contains(columns, "dispatch_id") ? DispatchKey::dispatch_id : DispatchKey::dispatch;
}

std::vector<std::string> columns_of(const FirstColumnQuery& run, std::string_view table) {
    return run("SELECT name FROM pragma_table_info('" + std::string(table) + "')");
}

} // namespace

FileLayout detect_file_layout(int format_version, const FirstColumnQuery& run) {
    FileLayout layout;
    layout.format_version = format_version;
    const std::vector<std::string> session_version = run("SELECT format_version FROM session WHERE id = 1");
    if (!session_version.empty()) {
        layout.session_format_version = std::atoi(session_version.front().c_str());
    }
    // session.internal_errors exists in files of protocol-3 builds only (docs/session-schema.md).
    layout.session_internal_errors = contains(columns_of(run, "session"), "internal_errors");
    // Regions a restore gave up (protocol 3; absent from files of earlier builds).
    layout.restore_failures = !columns_of(run, "restore_failures").empty();
    // Format 4 (docs/session-schema.md): the snapshot's stores and chunks, one `restores` row per
    // restore, `restore_misses` and `snapshot_placements`, found by their columns, so that a file
    // without them (formats 1-3) reads as before. The `snapshot_stores` rows (codes) when the file has
    // them, else the `snapshots` view (names).
    const std::vector<std::string> stores = columns_of(run, "snapshot_stores");
    const std::vector<std::string> snap = stores.empty() ? columns_of(run, "snapshots") : stores;
    if (contains(snap, "store") && contains(snap, "host_bytes")) {
        layout.store_source = stores.empty() ? StoreSource::snapshots : StoreSource::snapshot_stores;
        layout.store_dispatch_key = dispatch_key_of(snap);
    }
    const std::vector<std::string> restores = columns_of(run, "restores");
    layout.restores = !restores.empty();
    layout.restore_dispatch_key = dispatch_key_of(restores);
    layout.restores_final_named_final = contains(restores, "final");
    const std::vector<std::string> misses = columns_of(run, "restore_misses");
    layout.restore_misses = !misses.empty();
    layout.miss_dispatch_key = dispatch_key_of(misses);
    const std::vector<std::string> placements = columns_of(run, "snapshot_placements");
    layout.snapshot_placements = !placements.empty();
    layout.placement_dispatch_key = dispatch_key_of(placements);
    // Format 5: the window's fence wait, a column of the snapshots view (dispatch_rows.s_fence_ns).
    layout.fence_wait = contains(columns_of(run, "snapshots"), "fence_wait_ns");
    // Format 7: hardware counters per pass.
    layout.pass_counters = contains(columns_of(run, "pass_counter_values"), "counter");
    // Format 4's folded parts: the packed columns of dispatch_rows and the two tables of the rest.
    const std::vector<std::string> rows = columns_of(run, "dispatch_rows");
    layout.folded_parts = contains(rows, "s_store") && contains(rows, "r1") && contains(rows, "rf") &&
                          contains(columns_of(run, "snapshot_store_rows"), "host_pinned") &&
                          contains(columns_of(run, "restore_rows"), "missed_chunks") &&
                          layout.store_source == StoreSource::snapshot_stores && layout.restores;
    return layout;
}

std::vector<std::string_view> required_tables(int format_version) {
    // Format 2 provides dispatches, snapshots and passes as views over compact rows.
    std::vector<std::string_view> required{
        "session",           "strings",     "enum_names",        "agents",     "allocations",
        "module_variables",  "inventories", "inventory_regions", "dispatches", "snapshots",
        "snapshot_failures", "passes",      "restore_skips",     "warnings"};
    if (format_version >= 2) {
        required.insert(required.end(),
                        {"fidelity_mismatches", "async_copies", "dispatch_rows", "handles", "extra_passes"});
    }
    if (format_version >= 3) {
        required.emplace_back("processes");
    }
    return required;
}

std::string layout_mismatch(const FileLayout& layout) {
    const std::string format = "format " + std::to_string(layout.format_version) + " requires ";
    if (layout.format_version >= 5 && !layout.folded_parts) {
        return format + "the folded restore layout (dispatch_rows.s_store, r1, rf; snapshot_store_rows; "
                        "restore_rows with missed_chunks; the snapshot_stores and restores views)";
    }
    if (layout.format_version >= 5 && !layout.fence_wait) {
        return format + "the column fence_wait_ns of the snapshots view";
    }
    if (layout.format_version >= 5 && (!layout.restore_misses || !layout.snapshot_placements)) {
        return format + "the tables restore_misses and snapshot_placements with their dispatch columns";
    }
    if (layout.format_version >= 7 && !layout.pass_counters) {
        return format + "the pass_counter_values view with its counter column";
    }
    return {};
}

std::string_view application_id_query() {
    return "PRAGMA application_id";
}

std::string_view user_version_query() {
    return "PRAGMA user_version";
}

std::string_view data_version_query() {
    return "PRAGMA data_version";
}

std::string_view quick_check_query() {
    return "PRAGMA quick_check";
}

std::string_view begin_read() {
    return "BEGIN";
}

std::string_view end_read() {
    return "COMMIT";
}

std::string enum_names_query(const FileLayout& layout) {
    return expand("SELECT enum, code, name FROM enum_names", layout);
}

std::string strings_query(const FileLayout& layout) {
    return expand("SELECT {p}, id, text FROM strings", layout);
}

std::string session_query(const FileLayout& layout) {
    return expand("SELECT format_version, created_wall_ns, pid, executable_id, argv_id, hostname_id, "
                  "engine_version_id, configuration_id, start_ns, start_wall_ns, end_seq, end_ns, spooled, "
                  "complete, "
                  "last_sequence, events_stored, end_reason FROM session WHERE id = 1",
                  layout);
}

std::string exit_status_query(const FileLayout& layout) {
    return layout.compact() ? std::string("SELECT exit_status, exit_signal FROM session WHERE id = 1")
                            : std::string();
}

std::string internal_errors_query(const FileLayout& layout) {
    return layout.session_internal_errors ? std::string("SELECT internal_errors FROM session WHERE id = 1")
                                          : std::string();
}

std::string sequence_gaps_query(const FileLayout& layout) {
    return expand(
        "SELECT {p}, count(*), coalesce(sum(last_seq - first_seq + 1), 0) FROM sequence_gaps GROUP BY "
        "1",
        layout);
}

std::string session_counts_query(const FileLayout& layout) {
    return layout.per_process()
               ? std::string(
                     "SELECT process_count, rejected_frames, missing_events FROM session WHERE id = 1")
               : std::string();
}

std::string processes_query(const FileLayout& layout) {
    return layout.per_process()
               ? std::string(
                     "SELECT process, instance, pid, parent_pid, executable_id, argv_id, hostname_id, "
                     "engine_version_id, configuration_id, start_ns, start_wall_ns, end_seq, end_ns, "
                     "spooled, "
                     "internal_errors, exit_status, exit_signal, last_sequence, events_stored, "
                     "missing_events, "
                     "rejected_frames, complete, end_reason FROM processes ORDER BY process")
               : std::string();
}

std::string agents_query(const FileLayout& layout) {
    return expand("SELECT {p}, handle, name_id, isa_id, device_type, node FROM agents ORDER BY {p}, seq",
                  layout);
}

std::string handles_query(const FileLayout& layout) {
    return layout.compact() ? std::string("SELECT ref, handle FROM handles") : std::string();
}

std::string dispatches_query(const FileLayout& layout) {
    // Format 2: read the compact rows directly (a dispatch, its snapshot and passes 0-1 in one row;
    // handles through `handles`), which is several times faster than joining the documented views;
    // passes 2+ come from `extra_passes`. Format 1: the views, the folded-pass columns NULL. The fence
    // wait last: s_fence_ns from format 5, else NULL.
    const std::string fence = layout.compact() && layout.fence_wait ? ", s_fence_ns" : ", NULL";
    // The folded parts, decoded as the snapshot_stores and restores views decode them (views.sql; the
    // bits are the writer's, docs/session-schema.md).
    const std::string folded = layout.compact() && layout.folded_parts
                                   ? ", s_store & 3, (s_store >> 2) & 3, 1 - ((s_store >> 4) & 1), "
                                     "(s_store >> 5) & 4294967295, s_store >> 37, r1 >> 32, "
                                     "r1 & 4294967295, rf >> 31, rf & 2147483647 "
                                   : ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL ";
    // How long the window held the dispatch (the `dispatches.window_ns` of format 6, from the columns format
    // 5 already stores); NULL without a snapshot or before format 5.
    const std::string window =
        layout.compact() && layout.fence_wait
            ? ", CASE WHEN s_dseq IS NOT NULL THEN duration_ns + coalesce(s_fence_ns, 0) "
              "- s_dts END "
            : ", NULL ";
    return expand(
        layout.compact()
            ? "SELECT id, seq, ts_ns, agent_ref, queue_ref, kernel_ref, kernel_name_id, grid_x, grid_y, "
              "grid_z, "
              "workgroup_x, workgroup_y, workgroup_z, decision, s_dseq, generation, regions, bytes, "
              "duration_ns, "
              "ok, failures, "
              "p0_dseq, ts_ns, p0_start, p0_start + p0_ticks, p0_restore_ns, coalesce(p0_bytes, bytes), "
              "coalesce(p0_regions, regions), p0_skips, coalesce(p0_fidelity, -1), "
              "p1_dseq, ts_ns, coalesce(p0_start, 0) + p1_start, coalesce(p0_start, 0) + p1_start + "
              "p1_ticks, "
              "p1_restore_ns, coalesce(p1_bytes, bytes), coalesce(p1_regions, regions), p1_skips, "
              "coalesce(p1_fidelity, -1), {p}" +
                  fence + folded + window + "FROM dispatch_rows WHERE decision IS NOT NULL ORDER BY {order}"
            : "SELECT d.id, d.seq, d.ts_ns, d.agent, d.queue, d.kernel_object, d.kernel_name_id, d.grid_x, "
              "d.grid_y, d.grid_z, d.workgroup_x, d.workgroup_y, d.workgroup_z, d.decision, s.dispatch_id, "
              "s.generation, s.regions, s.bytes, s.duration_ns, s.ok, s.failures, "
              "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
              "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1, NULL, "
              "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL "
              "FROM dispatches d LEFT JOIN snapshots s ON s.dispatch_id = d.id ORDER BY d.id",
        layout);
}

std::string passes_query(const FileLayout& layout) {
    return expand(
        layout.compact()
            ? "SELECT {p}, dispatch_id, idx, ts_ns, start_tick, end_tick, restore_ns, regions_restored, "
              "bytes_restored, skips, fidelity FROM extra_passes"
            : "SELECT {p}, dispatch_id, idx, ts_ns, start_tick, end_tick, restore_ns, regions_restored, "
              "bytes_restored, skips, -1 FROM passes",
        layout);
}

std::string restore_skips_query(const FileLayout& layout) {
    return expand(
        "SELECT {p}, dispatch_id, pass_idx, address, size, allocation_id, reason FROM restore_skips", layout);
}

std::string snapshot_failures_query(const FileLayout& layout) {
    return expand("SELECT {p}, dispatch_id, address, size, allocation_id, reason FROM snapshot_failures",
                  layout);
}

std::string restore_failures_query(const FileLayout& layout) {
    return layout.restore_failures
               ? expand(
                     "SELECT {p}, dispatch_id, pass_idx, address, size, allocation_id, kind, attempts FROM "
                     "restore_failures",
                     layout)
               : std::string();
}

std::string fidelity_mismatches_query(const FileLayout& layout) {
    return layout.compact() ? expand("SELECT {p}, dispatch_id, pass_idx, address, size, allocation_id FROM "
                                     "fidelity_mismatches",
                                     layout)
                            : std::string();
}

std::string snapshot_stores_query(const FileLayout& layout) {
    if (layout.store_source == StoreSource::none) {
        return {};
    }
    return expand("SELECT {p}, ", layout) + std::string(dispatch_column(layout.store_dispatch_key)) +
           ", host_bytes, device_bytes, hash_ns, total_chunks, store, hash_path, host_pinned FROM " +
           (layout.store_source == StoreSource::snapshots ? "snapshots" : "snapshot_stores");
}

std::string spilled_snapshot_stores_query(const FileLayout& layout) {
    return layout.folded_parts
               ? "SELECT process, dispatch_id, host_bytes, device_bytes, hash_ns, total_chunks, "
                 "store, hash_path, host_pinned FROM snapshot_store_rows"
               : snapshot_stores_query(layout);
}

std::string spilled_restores_query(const FileLayout& layout) {
    return layout.folded_parts
               ? "SELECT process, dispatch, pass_index, final, restored_bytes_host, "
                 "restored_bytes_device, hash_ns, restore_ns, regions_restored, dirty_chunks, "
                 "total_chunks, missed_chunks FROM restore_rows"
               : restores_query(layout);
}

std::string restores_query(const FileLayout& layout) {
    if (!layout.restores) {
        return {};
    }
    return expand("SELECT {p}, ", layout) + std::string(dispatch_column(layout.restore_dispatch_key)) +
           ", pass_index, " + (layout.restores_final_named_final ? "\"final\"" : "final_restore") +
           ", restored_bytes_host, restored_bytes_device, hash_ns, "
           "restore_ns, regions_restored, dirty_chunks, total_chunks, missed_chunks FROM restores";
}

std::string restore_misses_query(const FileLayout& layout) {
    if (!layout.restore_misses) {
        return {};
    }
    return expand("SELECT {p}, ", layout) + std::string(dispatch_column(layout.miss_dispatch_key)) +
           ", pass_index, address, size, allocation_id FROM restore_misses";
}

std::string counter_values_query(const FileLayout& layout) {
    if (!layout.pass_counters) {
        return {};
    }
    return "SELECT v.process, v.dispatch, v.pass_index, s.text, v.counter, v.unit, v.value "
           "FROM pass_counter_values v LEFT JOIN dispatches d ON d.process = v.process AND d.id = v.dispatch "
           "LEFT JOIN strings s ON s.process = d.process AND s.id = d.kernel_name_id "
           "ORDER BY s.text, v.counter, v.process, v.dispatch";
}

std::string snapshot_placements_query(const FileLayout& layout) {
    if (!layout.snapshot_placements) {
        return {};
    }
    return expand("SELECT {p}, ", layout) + std::string(dispatch_column(layout.placement_dispatch_key)) +
           ", address, size, store FROM snapshot_placements";
}

std::string allocations_query(const FileLayout& layout) {
    return expand("SELECT {p}, id, alloc_seq, alloc_ns, address, size, agent, api, pool_flags, pointer_type, "
                  "classification, free_seq, free_ns FROM allocations ORDER BY {p}, id",
                  layout);
}

std::string module_variables_query(const FileLayout& layout) {
    return expand("SELECT {p}, seq, ts_ns, executable, agent, address, size, symbol_id, status FROM "
                  "module_variables ORDER BY {p}, seq",
                  layout);
}

std::string warnings_query(const FileLayout& layout) {
    return expand("SELECT {p}, seq, ts_ns, dispatch_id, code, text_id FROM warnings ORDER BY {p}, seq",
                  layout);
}

std::string async_copies_query(const FileLayout& layout) {
    return layout.compact() ? expand("SELECT {p}, seq, ts_ns, agent, dst, src, size, dispatch_id, waited_ns, "
                                     "outcome FROM async_copies ORDER BY {p}, seq",
                                     layout)
                            : std::string();
}

std::string inventory_region_count_query(const FileLayout& /*layout*/) {
    return "SELECT count(*) FROM inventory_regions";
}

std::string inventory_regions_query(const FileLayout& layout, bool with_process) {
    return std::string("SELECT ") + (with_process ? "process, " : "") +
           "agent, generation, idx, address, size, allocation_id, kind FROM "
           "inventory_regions ORDER BY " +
           (layout.per_process() ? "process, agent, generation, idx" : "agent, generation, idx");
}

std::string snapshot_totals_query(const FileLayout& layout) {
    return layout.format_version >= 4
               ? "SELECT count(*), coalesce(sum(bytes), 0), coalesce(sum(store = 'host'), 0), "
                 "coalesce(sum(store = 'device'), 0), coalesce(sum(store = 'mixed'), 0), "
                 "coalesce(sum(host_bytes > 0 AND NOT host_pinned), 0) FROM snapshots"
               : "SELECT count(*), coalesce(sum(bytes), 0) FROM snapshots";
}

std::string restore_totals_query(const FileLayout& layout) {
    if (layout.format_version >= 4) {
        return "SELECT count(*), coalesce(sum(r.bytes), 0), coalesce(sum(x.restored_bytes_host), 0), "
               "coalesce(sum(x.restored_bytes_device), 0), coalesce(sum(x.dirty_chunks), 0), "
               "coalesce(sum(x.total_chunks), 0), coalesce(sum(x.missed_chunks), 0), "
               "coalesce(sum(x.hash_ns), "
               "0), "
               "coalesce(sum(x.restore_ns), 0) FROM restores x LEFT JOIN dispatch_rows r "
               "ON r.key = (x.process << 40) + x.dispatch AND r.s_dseq IS NOT NULL";
    }
    return layout.format_version >= 3
               ? "SELECT count(*), coalesce(sum(s.bytes), 0), coalesce(sum(p.bytes_restored), 0), "
                 "coalesce(sum(p.restore_ns), 0) FROM passes p LEFT JOIN snapshots s "
                 "ON s.process = p.process AND s.dispatch_id = p.dispatch_id WHERE p.idx >= 1"
               : "SELECT count(*), coalesce(sum(s.bytes), 0), coalesce(sum(p.bytes_restored), 0), "
                 "coalesce(sum(p.restore_ns), 0) FROM passes p LEFT JOIN snapshots s "
                 "ON s.dispatch_id = p.dispatch_id WHERE p.idx >= 1";
}

std::string row_count_query(CountedRows rows) {
    switch (rows) {
    case CountedRows::dispatches:
        return "SELECT count(*) FROM dispatches";
    case CountedRows::inventory_regions:
        return "SELECT count(*) FROM inventory_regions";
    case CountedRows::passes:
        return "SELECT count(*) FROM passes";
    }
    return {};
}

} // namespace rs::session
