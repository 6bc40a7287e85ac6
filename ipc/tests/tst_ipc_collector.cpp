// SPDX-License-Identifier: MIT
// The real emitter driving the real collector through the socket; the session file is then queried
// and every row asserted. Also: N events sent == N stored.
#include "test_support.h"

#include "replayscope/ipc/session_store.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rs::ipc;
using rs::test::SessionDb;

class CollectorTest : public QObject {
    Q_OBJECT
  private slots:
    void everyEventLandsInItsRow() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/s.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        // Socket in a private directory.
        struct stat st{};
        QCOMPARE(
            ::stat(QFileInfo(QString::fromStdString(collector->socket_path())).path().toLocal8Bit(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0700u);
        QCOMPARE(collector->token().size(), 64u);

        Emitter e;
        EmitterConfig config{collector->socket_path(), collector->token(), collector->spool_path(), 1024};
        QVERIFY(e.start(config));
        QVERIFY(!e.start(config)); // only once
        QVERIFY(e.emit_session_start("/bin/app", "app --x 1", "host1", "0.1.0", "REPLAYSCOPE_PASSES=3\n"));
        const StringId name = e.intern_string("gfx90a");
        QCOMPARE(e.intern_string("gfx90a"), name); // deduplicated
        const StringId isa = e.intern_string("amdgcn-amd-amdhsa--gfx90a");
        QVERIFY(e.emit_event(AgentRecord{0xa1, name, isa, DeviceType::gpu, 1}));
        QVERIFY(
            e.emit_event(AllocationRecord{1, 0x10000, 4096, 0xa1, 0x2, AllocationApi::memory_pool_allocate,
                                          PointerType::hsa, AllocationClass::tracked}));
        QVERIFY(e.emit_event(AllocationRecord{2, 0x20000, 256, 0xa1, 0x1, AllocationApi::memory_pool_allocate,
                                              PointerType::hsa, AllocationClass::excluded_kernarg}));
        QVERIFY(e.emit_event(FreeRecord{2, 0x20000}));
        const StringId uri = e.intern_string("file:///app#offset=0&size=100");
        QVERIFY(e.emit_event(ExecutableRecord{0xe1, 0xc1, 0xa1, uri}));
        const StringId sym = e.intern_string("counter");
        QVERIFY(e.emit_event(ModuleVariableRecord{0xe1, 0xa1, 0x30000, 4, sym, VariableStatus::captured}));
        const InventoryRegion regions[] = {{0x10000, 4096, 1, RegionKind::allocation},
                                           {0x30000, 4, 0, RegionKind::module_variable}};
        QVERIFY(e.emit_inventory(0xa1, 7, regions));
        QVERIFY(!e.emit_inventory(0xa1, 7, regions)); // unchanged generation: not sent again
        const StringId kernel = e.intern_string("accumulate(float*)");
        QVERIFY(e.emit_event(DispatchRecord{
            100, 0xa1, 0x51, 0xb1, kernel, {1024, 1, 1}, {256, 1, 1}, DispatchDecision::replayed}));
        QVERIFY(e.emit_event(SnapshotRecord{100, 0xa1, 7, 4100, 5000, 2, 0, true, 4100, 0, 0, 0,
                                            SnapshotStore::host, ChunkHashPath::none, true, 2500}));
        QVERIFY(e.emit_event(PassRecord{100, 10, 20, 0, 0, 0, 0, 0, kFidelityNotChecked}));
        QVERIFY(e.emit_event(PassRecord{100, 30, 45, 900, 4096, 1, 1, 1, kFidelityMatched}));
        QVERIFY(e.emit_event(RestoreSkipRecord{100, 0x30000, 4, 0, 1, RestoreSkipReason::freed}));
        QVERIFY(e.emit_event(PassRecord{100, 60, 80, 950, 4100, 2, 2, 0, kFidelityDiffered})); // extra_passes
        QVERIFY(e.emit_event(FidelityMismatchRecord{100, 2, 0x10000, 4096, 1}));
        QVERIFY(e.emit_event(
            RestoreFailureRecord{100, 0x10000, 4096, 1, 3, 2, 3, 0x1000, RegionKind::allocation}));
        // The engine's order: snapshot and passes first, the dispatch (with its decision) last.
        QVERIFY(e.emit_event(SnapshotRecord{102, 0xa1, 7, 4100, 6000, 2, 0, true, 0, 4100, 0, 0,
                                            SnapshotStore::device, ChunkHashPath::none, false, -1}));
        QVERIFY(e.emit_event(PassRecord{102, 1000, 1100, 0, 0, 0, 0, 0, kFidelityMatched}));
        QVERIFY(e.emit_event(PassRecord{102, 1500, 1620, 800, 4100, 1, 2, 0, kFidelityDiffered}));
        QVERIFY(e.emit_event(FidelityMismatchRecord{102, 1, 0x30000, 4, 0}));
        QVERIFY(e.emit_event(
            AsyncCopyRecord{0xa1, 0x10000, 0x90000, 4096, 102, 125000, AsyncCopyOutcome::waited}));
        QVERIFY(e.emit_event(DispatchRecord{
            102, 0xa1, 0x52, 0xb2, kernel, {64, 1, 1}, {64, 1, 1}, DispatchDecision::replayed}));
        QVERIFY(
            e.emit_event(AsyncCopyRecord{0xa1, 0x90000, 0x10000, 64, 0, 0, AsyncCopyOutcome::not_fenced}));
        QVERIFY(e.emit_event(AllocationRecord{3, 0x7f0000000000, 1 << 21, 0xa1, 0x1, AllocationApi::vmem_map,
                                              PointerType::hsa, AllocationClass::tracked}));
        QVERIFY(e.emit_event(FreeRecord{3, 0x7f0000000000}));
        QVERIFY(e.emit_event(DispatchRecord{101,
                                            0xa1,
                                            0x51,
                                            0xb1,
                                            kernel,
                                            {8, 1, 1},
                                            {8, 1, 1},
                                            DispatchDecision::declined_snapshot_incomplete}));
        QVERIFY(e.emit_event(SnapshotRecord{101, 0xa1, 7, 0, 10, 1, 1, false, 0, 0, 0, 0, SnapshotStore::host,
                                            ChunkHashPath::none, false, 0}));
        QVERIFY(
            e.emit_event(SnapshotFailureRecord{101, 0x10000, 4096, 1, SnapshotFailureReason::copy_failed}));
        QVERIFY(e.emit_warning(WarningCode::snapshot_incomplete, 101, "copy failed for 1 region"));
        QVERIFY(e.stop(std::chrono::seconds(5)));
        QVERIFY(!e.emit_event(FreeRecord{1, 0x10000})); // stopped
        const auto stats = e.stats();
        QCOMPARE(stats.lost, 0u);
        QCOMPARE(stats.spooled, 0u);
        QCOMPARE(stats.sent, stats.accepted);

        const auto summary = collector->finish(std::chrono::seconds(5));
        QVERIFY(summary.connected);
        QVERIFY(summary.complete);
        QCOMPARE(summary.end_reason, std::string("session end received"));
        QCOMPARE(summary.gaps, 0u);
        QCOMPARE(summary.events_stored, stats.accepted);
        QVERIFY(log.contains("connected"));

        SessionDb db(session);
        QVERIFY(db.ok());
        QCOMPARE(db.integer("PRAGMA application_id"), rs::session::kApplicationId);
        QCOMPARE(db.integer("PRAGMA user_version"), rs::session::kFormatVersion);
        QCOMPARE(db.text("PRAGMA journal_mode"), QString("delete")); // finished: one self-contained file
        auto str = [&](const char* column) {
            return db.text(std::string("SELECT s.text FROM session JOIN strings s ON s.id = session.") +
                           column);
        };
        QCOMPARE(str("executable_id"), QString("/bin/app"));
        QCOMPARE(str("argv_id"), QString("app --x 1"));
        QCOMPARE(str("hostname_id"), QString("host1"));
        QCOMPARE(str("engine_version_id"), QString("0.1.0"));
        QCOMPARE(str("configuration_id"), QString("REPLAYSCOPE_PASSES=3\n"));
        QCOMPARE(db.integer("SELECT pid FROM session"), static_cast<long long>(::getpid()));
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("SELECT last_sequence FROM session"), static_cast<long long>(stats.accepted));
        QCOMPARE(db.integer("SELECT events_stored FROM session"), static_cast<long long>(stats.accepted));
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 0);
        QCOMPARE(db.integer("SELECT count(*) FROM strings"), 11);

        QCOMPARE(
            db.query(
                "SELECT handle, n.text, i.text, device_type, node FROM agents JOIN strings n ON n.id=name_id "
                "JOIN strings i ON i.id=isa_id"),
            (std::vector<QStringList>{{"161", "gfx90a", "amdgcn-amd-amdhsa--gfx90a", "1", "1"}}));
        const auto allocs =
            db.query("SELECT id, address, size, agent, api, pool_flags, pointer_type, "
                     "e.name, alloc_seq IS NOT NULL, free_seq IS NOT NULL, free_seq > alloc_seq "
                     "FROM allocations JOIN enum_names e ON e.enum='classification' AND "
                     "e.code=classification ORDER BY id");
        QCOMPARE(allocs,
                 (std::vector<QStringList>{
                     {"1", "65536", "4096", "161", "0", "2", "1", "tracked", "1", "0", QString()},
                     {"2", "131072", "256", "161", "0", "1", "1", "kernarg", "1", "1", "1"},
                     {"3", "139637976727552", "2097152", "161", "2", "1", "1", "tracked", "1", "1", "1"}}));
        QCOMPARE(db.text("SELECT name FROM enum_names WHERE enum='api' AND code=2"),
                 QString("hsa_amd_vmem_map"));
        QCOMPARE(db.query("SELECT executable, code_object, agent, s.text FROM executables JOIN strings s ON "
                          "s.id=uri_id"),
                 (std::vector<QStringList>{{"225", "193", "161", "file:///app#offset=0&size=100"}}));
        QCOMPARE(db.query("SELECT executable, agent, address, size, s.text, status FROM module_variables "
                          "JOIN strings s ON s.id=symbol_id"),
                 (std::vector<QStringList>{{"225", "161", "196608", "4", "counter", "0"}}));
        QCOMPARE(db.query("SELECT agent, generation, bytes, region_count FROM inventories"),
                 (std::vector<QStringList>{{"161", "7", "4100", "2"}}));
        QCOMPARE(
            db.query("SELECT idx, address, size, allocation_id, kind FROM inventory_regions ORDER BY idx"),
            (std::vector<QStringList>{{"0", "65536", "4096", "1", "0"}, {"1", "196608", "4", "0", "1"}}));
        QCOMPARE(
            db.query(
                "SELECT dispatches.id, agent, queue, kernel_object, s.text, grid_x, grid_y, grid_z, "
                "workgroup_x, "
                "workgroup_y, workgroup_z, decision FROM dispatches JOIN strings s ON s.id=kernel_name_id "
                "ORDER BY dispatches.id"),
            (std::vector<QStringList>{
                {"100", "161", "81", "177", "accumulate(float*)", "1024", "1", "1", "256", "1", "1", "0"},
                {"101", "161", "81", "177", "accumulate(float*)", "8", "1", "1", "8", "1", "1", "3"},
                {"102", "161", "82", "178", "accumulate(float*)", "64", "1", "1", "64", "1", "1", "0"}}));
        QCOMPARE(db.query("SELECT dispatch_id, agent, generation, regions, bytes, duration_ns, ok, failures "
                          "FROM snapshots ORDER BY dispatch_id"),
                 (std::vector<QStringList>{{"100", "161", "7", "2", "4100", "5000", "1", "0"},
                                           {"101", "161", "7", "1", "0", "10", "0", "1"},
                                           {"102", "161", "7", "2", "4100", "6000", "1", "0"}}));
        // The fence wait as sent: measured (2500 ns, and 0 ns), and not measured (-1): NULL.
        QCOMPARE(db.query("SELECT dispatch_id, fence_wait_ns IS NULL, coalesce(fence_wait_ns, -7) FROM "
                          "snapshots ORDER BY dispatch_id"),
                 (std::vector<QStringList>{{"100", "0", "2500"}, {"101", "0", "0"}, {"102", "1", "-7"}}));
        QCOMPARE(db.query("SELECT dispatch_id, address, size, allocation_id, reason FROM snapshot_failures"),
                 (std::vector<QStringList>{{"101", "65536", "4096", "1", "1"}}));
        QCOMPARE(db.query("SELECT dispatch_id, idx, start_tick, end_tick, restore_ns, regions_restored, "
                          "bytes_restored, skips, fidelity FROM passes ORDER BY dispatch_id, idx"),
                 (std::vector<QStringList>{{"100", "0", "10", "20", "0", "0", "0", "0", "-1"},
                                           {"100", "1", "30", "45", "900", "1", "4096", "1", "1"},
                                           {"100", "2", "60", "80", "950", "2", "4100", "0", "0"},
                                           {"102", "0", "1000", "1100", "0", "0", "0", "0", "1"},
                                           {"102", "1", "1500", "1620", "800", "2", "4100", "0", "0"}}));
        QCOMPARE(
            db.query("SELECT dispatch_id, pass_idx, address, size, allocation_id FROM fidelity_mismatches "
                     "ORDER BY seq"),
            (std::vector<QStringList>{{"100", "2", "65536", "4096", "1"}, {"102", "1", "196608", "4", "0"}}));
        QCOMPARE(
            db.query("SELECT agent, dst, src, size, dispatch_id, waited_ns, e.name FROM async_copies JOIN "
                     "enum_names e ON e.enum='async_copy_outcome' AND e.code=outcome ORDER BY seq"),
            (std::vector<QStringList>{{"161", "65536", "589824", "4096", "102", "125000", "waited"},
                                      {"161", "589824", "65536", "64", "0", "0", "not-fenced"}}));
        // Sequence numbers of every part survive the compact layout: snapshot < passes < dispatch (102).
        QCOMPARE(db.integer("SELECT count(*) FROM snapshots s JOIN passes p ON p.dispatch_id = s.dispatch_id "
                            "JOIN dispatches d ON d.id = s.dispatch_id WHERE s.dispatch_id = 102 AND "
                            "s.seq < p.seq AND p.seq < d.seq"),
                 2);
        QVERIFY(db.integer("SELECT ts_ns FROM snapshots WHERE dispatch_id = 102") <=
                db.integer("SELECT ts_ns FROM dispatches WHERE id = 102"));
        QCOMPARE(
            db.query("SELECT dispatch_id, pass_idx, address, size, allocation_id, reason FROM restore_skips"),
            (std::vector<QStringList>{{"100", "1", "196608", "4", "0", "0"}}));
        QCOMPARE(
            db.query("SELECT dispatch_id, pass_idx, holds_pass_idx, address, size, allocation_id, e.name, "
                     "attempts, status FROM restore_failures JOIN enum_names e ON e.enum='region_kind' AND "
                     "e.code=kind"),
            (std::vector<QStringList>{{"100", "3", "2", "65536", "4096", "1", "allocation", "3", "4096"}}));
        QCOMPARE(db.query("SELECT dispatch_id, reason FROM declines"),
                 (std::vector<QStringList>{{"101", "snapshot-incomplete"}}));
        QCOMPARE(db.query("SELECT code, dispatch_id, s.text FROM warnings JOIN strings s ON s.id=text_id"),
                 (std::vector<QStringList>{{"2", "101", "copy failed for 1 region"}}));
        // Every event type: sent (from session end) == stored.
        QCOMPARE(db.integer("SELECT count(*) FROM event_counts WHERE sent IS NOT stored"), 0);
        QCOMPARE(db.integer("SELECT sent FROM event_counts WHERE name='dispatch'"), 3);
        QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE name='pass'"), 5);
        QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE name='async_copy'"), 2);
        QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE name='restore_failure'"), 1);
        QCOMPARE(db.integer("SELECT sent FROM event_counts WHERE name='inventory_region'"), 2);
        QCOMPARE(db.integer("SELECT count(*) FROM sqlite_master WHERE type='index' AND "
                            "name='fidelity_mismatches_dispatch'"),
                 1);
        // Timestamps are ns, increasing with sequence.
        QVERIFY(db.integer("SELECT min(ts_ns) FROM dispatches") >=
                db.integer("SELECT start_ns FROM session"));
    }

    void fiftyThousandSentFiftyThousandStored() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/n.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        Emitter e;
        QVERIFY(e.start({collector->socket_path(), collector->token(), collector->spool_path(), 4096}));
        constexpr std::uint64_t kN = 50000;
        for (std::uint64_t i = 1; i <= kN; ++i) {
            QVERIFY(e.emit_event(DispatchRecord{i,
                                                0xa1,
                                                0x51,
                                                0xb1,
                                                0,
                                                {static_cast<std::uint32_t>(i), 1, 1},
                                                {64, 1, 1},
                                                DispatchDecision::replayed}));
        }
        QVERIFY(e.stop(std::chrono::seconds(10)));
        const auto stats = e.stats();
        QCOMPARE(stats.accepted, kN + 1);
        QCOMPARE(stats.sent + stats.spooled, stats.accepted);
        auto summary = collector->finish(std::chrono::seconds(10));
        if (stats.spooled > 0) { // queue overflow: the rest is in the spool, imported as replayscope-run does
            const auto imported =
                SpoolImporter::import(rs::test::expandSpool(collector->spool_path()), session);
            QVERIFY2(imported.ok, imported.message.c_str());
            QCOMPARE(imported.events_stored, stats.spooled);
        } else {
            QVERIFY(summary.complete);
        }
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), static_cast<long long>(kN));
        QCOMPARE(db.integer("SELECT sum(grid_x) FROM dispatches"), static_cast<long long>(kN * (kN + 1) / 2));
        QCOMPARE(db.integer("SELECT sent FROM event_counts WHERE name='dispatch'"),
                 static_cast<long long>(kN));
        QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE name='dispatch'"),
                 static_cast<long long>(kN));
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 0);
    }

    void collectorAbsentGoesToSpool() {
        QTemporaryDir dir;
        const std::string spool = (dir.path() + "/x.spool").toStdString();
        Emitter e;
        QVERIFY(e.start({(dir.path() + "/nobody.sock").toStdString(), std::string(64, '0'), spool, 64}));
        for (std::uint64_t i = 1; i <= 500; ++i) {
            QVERIFY(e.emit_event(
                DispatchRecord{i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed}));
        }
        QVERIFY(e.stop(std::chrono::seconds(5)));
        QCOMPARE(e.stats().spooled, 501u);
        QCOMPARE(e.stats().sent, 0u);
        const std::string session = (dir.path() + "/fromspool.rsdb").toStdString();
        const auto imported = SpoolImporter::import(spool, session);
        QVERIFY2(imported.ok, imported.message.c_str());
        QVERIFY(imported.complete);
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 500);
        // Importing twice adds nothing.
        const auto again = SpoolImporter::import(spool, session);
        QVERIFY(again.ok);
        QCOMPARE(again.events_stored, 0u);
    }

    void forkedChildIsInert() {
        QTemporaryDir dir;
        const std::string spool = (dir.path() + "/f.spool").toStdString();
        Emitter e;
        QVERIFY(e.start({std::string(), std::string(), spool, 64}));
        QVERIFY(e.emit_event(FreeRecord{1, 2}));
        const pid_t child = ::fork();
        if (child == 0) {
            // The child: no lock held, no sender thread; emits refused; stop returns at once.
            const bool emitted = e.emit_event(FreeRecord{3, 4});
            const bool stopped = e.stop(std::chrono::milliseconds(100));
            ::_exit(!emitted && !stopped && !e.running() ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY(e.emit_event(FreeRecord{5, 6})); // the parent carries on
        QVERIFY(e.stop(std::chrono::seconds(2)));
        QCOMPARE(e.stats().spooled, 3u); // two frees + session end, none from the child
    }
};

QTEST_GUILESS_MAIN(CollectorTest)
#include "tst_ipc_collector.moc"
