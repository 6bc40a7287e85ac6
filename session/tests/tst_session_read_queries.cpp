// SPDX-License-Identifier: MIT
// The readers' queries against the schemas they read: the layout probe finds what each schema has, every
// query of that layout prepares on it and returns exactly the columns of its column enum, and the tables a
// reader requires are the ones the writer creates. Databases are made with sqlite3 from the module's own
// schema text (format 4), from a format-1 layout, and from an early format-4 layout (`dispatch_id` and
// `final_restore` columns), so a change on either side of the contract fails here first.
#include "replayscope/session/format.h"
#include "replayscope/session/read_queries.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <vector>

using namespace rs::session;

namespace {

/// One sqlite3 connection on a file of the test's directory.
class Database {
  public:
    explicit Database(const std::string& path) { sqlite3_open(path.c_str(), &db_); }
    ~Database() { sqlite3_close(db_); }
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    bool exec(std::string_view sql) {
        char* message = nullptr;
        const std::string text(sql);
        const bool ok = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) == SQLITE_OK;
        if (!ok) {
            qWarning("%s: %s", message ? message : "?", text.c_str());
        }
        sqlite3_free(message);
        return ok;
    }
    /// The probe's callback: the first column of every row as text.
    std::vector<std::string> first_column(const std::string& sql) {
        std::vector<std::string> out;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                const auto* t = sqlite3_column_text(st, 0);
                out.emplace_back(t ? reinterpret_cast<const char*>(t) : "");
            }
        }
        sqlite3_finalize(st);
        return out;
    }
    FileLayout layout(int format_version) {
        return detect_file_layout(format_version,
                                  [this](const std::string& sql) { return first_column(sql); });
    }
    /// Result columns of `sql`, -1 when it does not prepare (the message is printed).
    int columns(const std::string& sql) {
        sqlite3_stmt* st = nullptr;
        int n = -1;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
            n = sqlite3_column_count(st);
        } else {
            qWarning("%s: %s", sqlite3_errmsg(db_), sql.c_str());
        }
        sqlite3_finalize(st);
        return n;
    }
    bool has_table(std::string_view name) {
        return !first_column("SELECT name FROM sqlite_master WHERE name = '" + std::string(name) + "'")
                    .empty();
    }

  private:
    sqlite3* db_ = nullptr;
};

template <typename Column>
constexpr int count(Column last) {
    return static_cast<int>(last) + 1;
}

/// Every query of `layout` with the column count its enum says (0: the layout has no such data).
struct Expected {
    std::string sql;
    int columns;
};
std::vector<Expected> every_query(const FileLayout& layout, bool with_process) {
    return {
        {enum_names_query(layout), count(EnumNameColumn::name)},
        {strings_query(layout), count(StringColumn::text)},
        {session_query(layout), count(SessionColumn::end_reason)},
        {exit_status_query(layout), count(ExitStatusColumn::exit_signal)},
        {internal_errors_query(layout), count(InternalErrorsColumn::internal_errors)},
        {sequence_gaps_query(layout), count(SequenceGapColumn::missing)},
        {session_counts_query(layout), count(SessionCountColumn::missing_events)},
        {processes_query(layout), count(ProcessColumn::end_reason)},
        {agents_query(layout), count(AgentColumn::node)},
        {handles_query(layout), count(HandleColumn::handle)},
        {dispatches_query(layout), count(DispatchColumn::window_ns)},
        {passes_query(layout), count(PassColumn::fidelity)},
        {restore_skips_query(layout), count(RestoreSkipColumn::reason)},
        {snapshot_failures_query(layout), count(SnapshotFailureColumn::reason)},
        {restore_failures_query(layout), count(RestoreFailureColumn::attempts)},
        {fidelity_mismatches_query(layout), count(FidelityMismatchColumn::allocation_id)},
        {snapshot_stores_query(layout), count(SnapshotStoreColumn::host_pinned)},
        {restores_query(layout), count(RestoreColumn::missed_chunks)},
        {spilled_snapshot_stores_query(layout), count(SnapshotStoreColumn::host_pinned)},
        {spilled_restores_query(layout), count(RestoreColumn::missed_chunks)},
        {restore_misses_query(layout), count(RestoreMissColumn::allocation_id)},
        {counter_values_query(layout), count(CounterValueColumn::value)},
        {snapshot_placements_query(layout), count(PlacementColumn::store)},
        {allocations_query(layout), count(AllocationColumn::free_ns)},
        {module_variables_query(layout), count(ModuleVariableColumn::status)},
        {warnings_query(layout), count(WarningColumn::text_id)},
        {async_copies_query(layout), count(AsyncCopyColumn::outcome)},
        {inventory_region_count_query(layout), 1},
        {snapshot_totals_query(layout), layout.format_version >= 4
                                            ? count(SnapshotTotalColumn::pageable_snapshots)
                                            : count(SnapshotTotalColumn::footprint_bytes)},
        {restore_totals_query(layout), layout.format_version >= 4
                                           ? count(RestoreTotalColumn::restore_ns)
                                           : count(PassRestoreTotalColumn::restore_ns)},
        {inventory_regions_query(layout, with_process), region_column(RegionColumn::kind, with_process) + 1},
    };
}

/// The format-1 tables (documented tables were real tables then), as tests/app's format-1 file has them.
const char* const kFormatOne[] = {
    "PRAGMA user_version = 1",
    "CREATE TABLE session(id INTEGER PRIMARY KEY, format_version, created_wall_ns, protocol_version, pid, "
    "executable_id, argv_id, hostname_id, engine_version_id, configuration_id, start_seq, start_ns, "
    "start_wall_ns, end_seq, end_ns, spooled, complete, last_sequence, events_stored, end_reason)",
    "INSERT INTO session(id, format_version) VALUES (1, 1)",
    "CREATE TABLE sequence_gaps(first_seq, last_seq)",
    "CREATE TABLE enum_names(enum, code, name)",
    "CREATE TABLE strings(id INTEGER PRIMARY KEY, text, original_length, seq)",
    "CREATE TABLE agents(handle, seq, ts_ns, name_id, isa_id, device_type, node)",
    "CREATE TABLE allocations(id, alloc_seq, alloc_ns, address, size, agent, api, pool_flags, pointer_type, "
    "classification, free_seq, free_ns)",
    "CREATE TABLE module_variables(seq, ts_ns, executable, agent, address, size, symbol_id, status)",
    "CREATE TABLE inventories(agent, generation, seq, ts_ns, bytes, region_count)",
    "CREATE TABLE inventory_regions(agent, generation, idx, seq, address, size, allocation_id, kind)",
    "CREATE TABLE dispatches(id INTEGER PRIMARY KEY, seq, ts_ns, agent, queue, kernel_object, "
    "kernel_name_id, "
    "grid_x, grid_y, grid_z, workgroup_x, workgroup_y, workgroup_z, decision)",
    "CREATE TABLE snapshots(dispatch_id, seq, ts_ns, agent, generation, regions, bytes, duration_ns, ok, "
    "failures)",
    "CREATE TABLE snapshot_failures(seq, ts_ns, dispatch_id, address, size, allocation_id, reason)",
    "CREATE TABLE passes(dispatch_id, idx, seq, ts_ns, start_tick, end_tick, restore_ns, regions_restored, "
    "bytes_restored, skips)",
    "CREATE TABLE restore_skips(seq, ts_ns, dispatch_id, pass_idx, address, size, allocation_id, reason)",
    "CREATE TABLE warnings(seq, ts_ns, code, dispatch_id, text_id)",
};

} // namespace

class TestSessionReadQueries : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string path(const char* name) const {
        return dir_.filePath(QString::fromLatin1(name)).toStdString();
    }

  private slots:
    /// The schema this build writes: every optional part present, each found under its column names.
    void formatSevenLayout() {
        Database db(path("v7.rsdb"));
        QVERIFY(db.exec(tables_sql()));
        QVERIFY(db.exec(views_sql()));
        QVERIFY(db.exec(
            "INSERT INTO session(id, format_version, created_wall_ns, process_count, rejected_frames, "
            "missing_events) VALUES (1, 7, 0, 0, 0, 0)"));
        const FileLayout layout = db.layout(kFormatVersion);
        QCOMPARE(layout.format_version, 7);
        QCOMPARE(layout.session_format_version, 7);
        QVERIFY(layout.fence_wait);
        QVERIFY(layout.pass_counters);
        QVERIFY(dispatches_query(layout).find("s_fence_ns") != std::string::npos);
        // The folded parts come with the dispatch scan; the stores and restores queries read the rest.
        QVERIFY(layout.folded_parts);
        QVERIFY(dispatches_query(layout).find("r1 >> 32") != std::string::npos);
        QVERIFY(spilled_restores_query(layout).find("FROM restore_rows") != std::string::npos);
        QVERIFY(spilled_snapshot_stores_query(layout).find("FROM snapshot_store_rows") != std::string::npos);
        QVERIFY(layout.per_process());
        QVERIFY(layout.compact());
        QVERIFY(layout.session_internal_errors);
        QVERIFY(layout.restore_failures);
        QCOMPARE(int(layout.store_source), int(StoreSource::snapshot_stores));
        QCOMPARE(int(layout.store_dispatch_key), int(DispatchKey::dispatch_id));
        QVERIFY(layout.restores);
        QCOMPARE(int(layout.restore_dispatch_key), int(DispatchKey::dispatch));
        QVERIFY(layout.restores_final_named_final);
        QVERIFY(layout.restore_misses);
        QCOMPARE(int(layout.miss_dispatch_key), int(DispatchKey::dispatch));
        QVERIFY(layout.snapshot_placements);
        QCOMPARE(int(layout.placement_dispatch_key), int(DispatchKey::dispatch));
        for (const bool with_process : {false, true}) {
            for (const Expected& q : every_query(layout, with_process)) {
                QVERIFY2(!q.sql.empty(), "format 7 has every part");
                QCOMPARE(db.columns(q.sql), q.columns);
            }
        }
        // The dispatch order is the rowid of the compact rows: no sort.
        QVERIFY(dispatches_query(layout).find("ORDER BY key") != std::string::npos);
        // What a reader requires, the writer creates.
        for (const std::string_view table : required_tables(kFormatVersion)) {
            QVERIFY2(db.has_table(table), std::string(table).c_str());
        }
    }

    /// Format 1: one process, no compact rows, no format-2 data; the queries read the documented tables.
    void formatOneLayout() {
        Database db(path("v1.rsdb"));
        for (const char* sql : kFormatOne) {
            QVERIFY(db.exec(sql));
        }
        const FileLayout layout = db.layout(1);
        QCOMPARE(layout.session_format_version, 1);
        QVERIFY(!layout.per_process());
        QVERIFY(!layout.compact());
        QVERIFY(!layout.session_internal_errors);
        QVERIFY(!layout.restore_failures);
        QCOMPARE(int(layout.store_source), int(StoreSource::none));
        QVERIFY(!layout.restores && !layout.restore_misses && !layout.snapshot_placements);
        QVERIFY(!layout.fence_wait);
        QVERIFY(!layout.folded_parts);
        int empty = 0;
        for (const Expected& q : every_query(layout, false)) {
            if (q.sql.empty()) {
                ++empty;
                continue;
            }
            QCOMPARE(db.columns(q.sql), q.columns);
            QVERIFY2(q.sql.find("process") == std::string::npos, q.sql.c_str()); // every row is process 1
        }
        // exit status, internal errors, session counts, processes, handles, restore failures, fidelity
        // mismatches, stores, restores (both ways), misses, placements, async copies, counter values.
        QCOMPARE(empty, 15);
        for (const std::string_view table : required_tables(1)) {
            QVERIFY2(db.has_table(table), std::string(table).c_str());
        }
        // A session row of format 2 in a file whose user_version says 1 reads with the format-2 queries.
        QVERIFY(db.exec("UPDATE session SET format_version = 2 WHERE id = 1"));
        QVERIFY(db.layout(1).compact());
    }

    /// Files written while format 4 was changed in place: `dispatch_id` in the restore tables, the final
    /// restore as `final_restore`, the store columns only in the snapshots view (names, not codes).
    void earlyFormatFourLayout() {
        Database db(path("v4-early.rsdb"));
        QVERIFY(db.exec("CREATE TABLE snapshots(process, dispatch_id, store TEXT, host_bytes, device_bytes, "
                        "hash_ns, total_chunks, hash_path TEXT, host_pinned)"));
        QVERIFY(db.exec("CREATE TABLE restores(process, dispatch_id, pass_index, final_restore, "
                        "restored_bytes_host, restored_bytes_device, hash_ns, restore_ns, regions_restored, "
                        "dirty_chunks, total_chunks, missed_chunks)"));
        QVERIFY(db.exec("CREATE TABLE restore_misses(process, dispatch_id, pass_index, address, size, "
                        "allocation_id)"));
        QVERIFY(db.exec("CREATE TABLE snapshot_placements(process, dispatch_id, address, size, store)"));
        const FileLayout layout = db.layout(4);
        QCOMPARE(int(layout.store_source), int(StoreSource::snapshots));
        QCOMPARE(int(layout.store_dispatch_key), int(DispatchKey::dispatch_id));
        QCOMPARE(int(layout.restore_dispatch_key), int(DispatchKey::dispatch_id));
        QVERIFY(!layout.restores_final_named_final);
        QVERIFY(!layout.fence_wait);   // format 4 had no fence wait
        QVERIFY(!layout.folded_parts); // nor, then, folded parts: the stores and restores are the tables
        QCOMPARE(spilled_restores_query(layout), restores_query(layout));
        QCOMPARE(spilled_snapshot_stores_query(layout), snapshot_stores_query(layout));
        QCOMPARE(int(layout.miss_dispatch_key), int(DispatchKey::dispatch_id));
        QCOMPARE(int(layout.placement_dispatch_key), int(DispatchKey::dispatch_id));
        QCOMPARE(db.columns(snapshot_stores_query(layout)), count(SnapshotStoreColumn::host_pinned));
        QCOMPARE(db.columns(restores_query(layout)), count(RestoreColumn::missed_chunks));
        QCOMPARE(db.columns(restore_misses_query(layout)), count(RestoreMissColumn::allocation_id));
        QCOMPARE(db.columns(snapshot_placements_query(layout)), count(PlacementColumn::store));
        // A snapshots view without the store columns (format 3) has no store source.
        Database three(path("v3.rsdb"));
        QVERIFY(three.exec("CREATE TABLE snapshots(process, dispatch_id, bytes)"));
        QCOMPARE(int(three.layout(3).store_source), int(StoreSource::none));
        QVERIFY(snapshot_stores_query(three.layout(3)).empty());
    }

    void connectionStatements() {
        Database db(path("pragmas.rsdb"));
        QCOMPARE(db.first_column(std::string(application_id_query())), std::vector<std::string>{"0"});
        QCOMPARE(db.first_column(std::string(user_version_query())), std::vector<std::string>{"0"});
        QCOMPARE(db.first_column(std::string(quick_check_query())), std::vector<std::string>{"ok"});
        QCOMPARE(db.first_column(std::string(data_version_query())).size(), std::size_t(1));
        QVERIFY(db.exec(begin_read()));
        QVERIFY(db.exec(end_read()));
        QVERIFY(db.exec(tables_sql()));
        QVERIFY(db.exec(views_sql()));
        for (const CountedRows rows :
             {CountedRows::dispatches, CountedRows::inventory_regions, CountedRows::passes}) {
            QCOMPARE(db.first_column(row_count_query(rows)), std::vector<std::string>{"0"});
        }
    }
};

QTEST_GUILESS_MAIN(TestSessionReadQueries)
#include "tst_session_read_queries.moc"
