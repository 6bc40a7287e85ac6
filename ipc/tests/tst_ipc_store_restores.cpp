// SPDX-License-Identifier: MIT
// Session format 4: where snapshots live and what restores moved. Every protocol-5 record goes through
// the frame codec and the session store, and the views return it (snapshots.store, passes.restored_*,
// dispatches.footprint, process_totals); read_restore_totals sums it for the terminal summary, and reads
// files of formats 2 and 3 (written by earlier builds) with zero device bytes and no chunks.
#include "test_support.h"

#include "replayscope/ipc/session_store.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace rs::ipc;

namespace {

/// Appends a record of `type` with the next sequence number and returns its payload to fill.
struct Builder {
    std::vector<Record> records;
    Record& add(EventType type) {
        Record r{};
        r.type = type;
        r.sequence = records.size() + 1;
        r.timestamp_ns = 5'000'000 + records.size() * 100;
        records.push_back(r);
        return records.back();
    }
    void dispatch(std::uint64_t id) {
        auto& d = add(EventType::dispatch).dispatch;
        d = {id, 0xa1, 0x9a, 0xdead, 0, {64, 1, 1}, {64, 1, 1}, DispatchDecision::replayed};
    }
    void snapshot(std::uint64_t id, std::uint64_t host, std::uint64_t device, SnapshotStore store,
                  std::uint32_t chunks, bool pinned) {
        auto& s = add(EventType::snapshot).snapshot;
        s.dispatch_id = id;
        s.agent = 0xa1;
        s.generation = 1;
        s.bytes = host + device;
        s.duration_ns = 7000;
        s.regions = 2;
        s.ok = true;
        s.host_bytes = host;
        s.device_bytes = device;
        s.hash_ns = 321;
        s.total_chunks = chunks;
        s.store = store;
        s.hash_path = ChunkHashPath::device;
        s.host_pinned = pinned;
    }
    void pass(std::uint64_t id, std::uint32_t index, std::uint64_t bytes) {
        add(EventType::pass).pass = {id, 100 + index * 10,   105 + index * 10, 40, bytes, index, 1,
                                     0,  kFidelityNotChecked};
    }
    void restore(std::uint64_t id, std::uint32_t pass, bool final, std::uint64_t host, std::uint64_t device,
                 std::uint32_t dirty, std::uint32_t total, std::uint32_t missed = 0) {
        add(EventType::restore).restore = {id, host,  device, 200 + pass, 900 + pass, pass,
                                           1,  dirty, total,  missed,     final};
    }
};

/// The records of two replayed dispatches: 1 (device store, 3 passes, one missed chunk before pass 2)
/// and 2 (mixed: 64 KiB on the device, 8 KiB in a pinned host store, 2 passes), then the session end.
std::vector<Record> twoDispatches() {
    Builder b;
    b.dispatch(1);
    b.snapshot(1, 0, 262144, SnapshotStore::device, 4, false);
    b.pass(1, 0, 0);
    b.restore(1, 1, false, 0, 65536, 1, 4);
    b.pass(1, 1, 65536);
    b.restore(1, 2, false, 0, 131072, 2, 4, 1);
    b.add(EventType::restore_miss).restore_miss = {1, 0x7f0000010000, 65536, 7, 2};
    b.pass(1, 2, 131072);
    b.restore(1, 3, true, 0, 65536, 1, 4);
    b.dispatch(2);
    b.snapshot(2, 8192, 65536, SnapshotStore::mixed, 3, true);
    b.add(EventType::snapshot_placement).snapshot_placement = {2, 0x7f0000100000, 65536,
                                                               SnapshotStore::device};
    b.add(EventType::snapshot_placement).snapshot_placement = {2, 0x7f0000200000, 8192, SnapshotStore::host};
    b.pass(2, 0, 0);
    b.restore(2, 1, false, 4096, 0, 1, 3);
    b.pass(2, 1, 4096);
    b.restore(2, 2, true, 4096, 65536, 2, 3);
    auto& end = b.add(EventType::session_end).session_end;
    for (const Record& r : b.records) {
        ++end.counts[static_cast<std::size_t>(r.type)];
    }
    ++end.counts[static_cast<std::size_t>(EventType::session_end)];
    end.last_sequence = b.records.size();
    end.exit_status = 0;
    return b.records;
}

} // namespace

class StoreRestoresTest : public QObject {
    Q_OBJECT
  private slots:
    /// Format 7: counter values go through the codec into pass_counters; the catalogue is in `counters`
    /// and pass_counter_values joins them; a counter id beyond the catalogue is refused by the decoder.
    void counterValuesReachTheView() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/counters.rsdb").toStdString();
        Builder b;
        b.dispatch(1);
        b.pass(1, 0, 0);
        b.add(EventType::counter_value).counter_value = {1, 12, 0, 0}; // SQ_WAVES in pass 0
        b.pass(1, 1, 0);
        b.add(EventType::counter_value).counter_value = {1, 4096, 1, 22};       // GRBM_COUNT in pass 1
        b.add(EventType::counter_value).counter_value = {1, 1ull << 63, 1, 24}; // TCC_REQ, beyond int64
        const auto bytes = rs::test::frames(b.records);
        std::vector<Record> received;
        for (std::size_t offset = 0; offset < bytes.size();) {
            Record r{};
            FrameHeader h{};
            std::size_t n = 0;
            QCOMPARE(decode_frame(bytes.data() + offset, bytes.size() - offset, kMaxPayloadBytes, r, h, n),
                     FrameError::none);
            QVERIFY(records_equal(b.records[received.size()], r));
            received.push_back(r);
            offset += n;
        }
        std::string error;
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        for (const Record& r : received) {
            QVERIFY2(store->insert(r), store->last_error().c_str());
        }
        QVERIFY2(store->finish("test"), store->last_error().c_str());
        store.reset();
        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM counters"), 34);
        using Rows = std::vector<QStringList>;
        QCOMPARE(
            db.query("SELECT name, block, event, unit FROM counters WHERE id IN (0, 22, 24) ORDER BY id"),
            (Rows{{"SQ_WAVES", "SQ", "4", "waves"},
                  {"GRBM_COUNT", "GRBM", "0", "cycles"},
                  {"TCC_REQ", "TCC", "3", "requests"}}));
        QCOMPARE(
            db.query("SELECT dispatch, pass_index, counter, block, value FROM pass_counter_values ORDER BY "
                     "pass_index, counter"),
            (Rows{{"1", "0", "SQ_WAVES", "SQ", "12"},
                  {"1", "1", "GRBM_COUNT", "GRBM", "4096"},
                  {"1", "1", "TCC_REQ", "TCC", QString::number(std::numeric_limits<qint64>::min())}}));
        QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE event_type = 24"), 3);

        // An id the catalogue does not have: an invalid payload.
        Builder bad;
        bad.add(EventType::counter_value).counter_value = {1, 1, 0, 100000};
        const auto frame = rs::test::frames(bad.records);
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        QVERIFY(decode_frame(frame.data(), frame.size(), kMaxPayloadBytes, r, h, n) != FrameError::none);
    }

    void recordsReachTheViews() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/restores.rsdb").toStdString();
        const auto sent = twoDispatches();
        // Through the codec: what the store receives is what the frames carried.
        const auto bytes = rs::test::frames(sent);
        std::vector<Record> received;
        for (std::size_t offset = 0; offset < bytes.size();) {
            Record r{};
            FrameHeader h{};
            std::size_t n = 0;
            const auto err =
                decode_frame(bytes.data() + offset, bytes.size() - offset, kMaxPayloadBytes, r, h, n);
            QVERIFY2(err == FrameError::none, describe(err, h).c_str());
            QVERIFY2(records_equal(sent[received.size()], r), std::string(event_type_name(r.type)).c_str());
            received.push_back(r);
            offset += n;
        }
        std::string error;
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        for (const Record& r : received) {
            QVERIFY2(store->insert(r), store->last_error().c_str());
        }
        QVERIFY2(store->finish("test"), store->last_error().c_str());
        store.reset();

        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("PRAGMA user_version"), 7);
        // snapshots: store by name, the byte split, pinning, hash path and chunks.
        using Rows = std::vector<QStringList>;
        QCOMPARE(
            db.query("SELECT dispatch_id, bytes, store, host_bytes, device_bytes, host_pinned, hash_path, "
                     "hash_ns, total_chunks FROM snapshots ORDER BY dispatch_id"),
            (Rows{{"1", "262144", "device", "0", "262144", "0", "device", "321", "4"},
                  {"2", "73728", "mixed", "8192", "65536", "1", "device", "321", "3"}}));
        QCOMPARE(db.query("SELECT dispatch, address, size, store FROM snapshot_placements ORDER BY seq"),
                 (Rows{{"2", QString::number(0x7f0000100000), "65536", "device"},
                       {"2", QString::number(0x7f0000200000), "8192", "host"}}));
        // passes: the restore before each pass; none before pass 0.
        QCOMPARE(
            db.query("SELECT dispatch_id, idx, restored_bytes_host, restored_bytes_device, dirty_chunks, "
                     "total_chunks, hash_ns, missed_chunks FROM passes ORDER BY dispatch_id, idx"),
            (Rows{{"1", "0", QString(), QString(), QString(), QString(), QString(), QString()},
                  {"1", "1", "0", "65536", "1", "4", "201", "0"},
                  {"1", "2", "0", "131072", "2", "4", "202", "1"},
                  {"2", "0", QString(), QString(), QString(), QString(), QString(), QString()},
                  {"2", "1", "4096", "0", "1", "3", "201", "0"}}));
        // restores: every one, the final ones included.
        QCOMPARE(db.query("SELECT dispatch, pass_index, final, restore_ns, regions_restored FROM restores "
                          "ORDER BY dispatch, pass_index"),
                 (Rows{{"1", "1", "0", "901", "1"},
                       {"1", "2", "0", "902", "1"},
                       {"1", "3", "1", "903", "1"},
                       {"2", "1", "0", "901", "1"},
                       {"2", "2", "1", "902", "1"}}));
        QCOMPARE(db.query("SELECT dispatch, pass_index, address, size, allocation_id FROM restore_misses"),
                 (Rows{{"1", "2", QString::number(0x7f0000010000), "65536", "7"}}));
        // dispatches: footprint, store and the sums over every restore of the dispatch.
        QCOMPARE(db.query("SELECT id, footprint, store, restored_bytes_host, restored_bytes_device FROM "
                          "dispatches ORDER BY id"),
                 (Rows{{"1", "262144", "device", "0", "262144"}, {"2", "73728", "mixed", "8192", "65536"}}));
        QCOMPARE(
            db.query("SELECT footprint, restores, full_restore_bytes, restored_bytes_host, "
                     "restored_bytes_device, snapshot_bytes FROM process_totals"),
            (Rows{{"335872", "5", QString::number(3 * 262144 + 2 * 73728), "8192", "327680", "335872"}}));
        // Every new type counted as sent and as stored.
        QCOMPARE(db.query("SELECT event_type, name, sent, stored FROM event_counts WHERE event_type >= 21 "
                          "ORDER BY event_type"),
                 (Rows{{"21", "snapshot_placement", "2", "2"},
                       {"22", "restore", "5", "5"},
                       {"23", "restore_miss", "1", "1"},
                       {"24", "counter_value", "0", "0"}}));
        QCOMPARE(db.query("SELECT code, name FROM enum_names WHERE enum = 'snapshot_store' ORDER BY code"),
                 (Rows{{"0", "host"}, {"1", "device"}, {"2", "mixed"}}));
        QCOMPARE(db.integer("SELECT count(*) FROM enum_names WHERE enum = 'chunk_hash_path'"), 3);

        RestoreTotals t;
        QVERIFY2(read_restore_totals(path, t, error), error.c_str());
        QCOMPARE(t.format_version, 7);
        QCOMPARE(t.snapshots, 2u);
        QCOMPARE(t.footprint_bytes, 335872u);
        QCOMPARE(t.restores, 5u);
        QCOMPARE(t.full_restore_bytes, std::uint64_t{3 * 262144 + 2 * 73728});
        QCOMPARE(t.restored_bytes_host, 8192u);
        QCOMPARE(t.restored_bytes_device, 327680u);
        QCOMPARE(t.dirty_chunks, 7u);
        QCOMPARE(t.total_chunks, 18u);
        QCOMPARE(t.missed_chunks, 1u);
        QCOMPARE(t.hash_ns, std::uint64_t{201 + 202 + 203 + 201 + 202});
        QCOMPARE(t.restore_ns, std::uint64_t{901 + 902 + 903 + 901 + 902});
        QCOMPARE(t.device_snapshots, 1u);
        QCOMPARE(t.mixed_snapshots, 1u);
        QCOMPARE(t.host_snapshots, 0u);
        QCOMPARE(t.pageable_snapshots, 0u); // the only host bytes were pinned
    }

    /// The common replayed dispatch (2 passes; the restore before pass 1 is what pass 1 names, the final
    /// restore moves the same) is one dispatch_rows row: its snapshot store and both restores fold into
    /// it, and the snapshot_stores and restores views read them back with the values sent. A restore
    /// that is not what the row implies (here: a warning between pass 1 and the final restore, a final
    /// restore that moved other bytes) goes to restore_rows and reads the same way.
    void foldedRestoresReadAsRows() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/folded.rsdb").toStdString();
        Builder b;
        auto restore = [&](std::uint64_t id, std::uint32_t pass, bool final, std::uint64_t host,
                           std::uint64_t device, std::uint64_t hash_ns, std::uint64_t restore_ns,
                           std::uint32_t dirty, std::uint32_t total) {
            b.add(EventType::restore).restore = {id, host,  device, hash_ns, restore_ns, pass,
                                                 1,  dirty, total,  0,       final};
        };
        // 1: host store, pinned, not hashed, full restores (40 ns, as pass 1 names).
        b.dispatch(1);
        b.snapshot(1, 4096, 0, SnapshotStore::host, 0, true);
        b.records.back().snapshot.hash_ns = 0;
        b.pass(1, 0, 0);
        restore(1, 1, false, 4096, 0, 0, 40, 0, 0);
        b.pass(1, 1, 4096);
        restore(1, 2, true, 4096, 0, 0, 77, 0, 0);
        // 2: device store, hashed (4 chunks), dirty restores of 1 chunk.
        b.dispatch(2);
        b.snapshot(2, 0, 262144, SnapshotStore::device, 4, false);
        b.pass(2, 0, 0);
        restore(2, 1, false, 0, 65536, 12345, 40, 1, 4);
        b.pass(2, 1, 65536);
        restore(2, 2, true, 0, 65536, 23456, 30000, 1, 4);
        // 3: like 2, but a warning before the final restore and a final restore of 2 chunks.
        b.dispatch(3);
        b.snapshot(3, 0, 262144, SnapshotStore::device, 4, false);
        b.pass(3, 0, 0);
        restore(3, 1, false, 0, 65536, 111, 40, 1, 4);
        b.pass(3, 1, 65536);
        b.add(EventType::warning).warning = {3, 0, WarningCode::fidelity_mismatch};
        restore(3, 2, true, 0, 131072, 222, 50000, 2, 4);
        std::string error;
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        for (const Record& r : b.records) {
            QVERIFY2(store->insert(r), store->last_error().c_str());
        }
        QVERIFY2(store->finish("test"), store->last_error().c_str());
        store.reset();
        rs::test::SessionDb db(path);
        using Rows = std::vector<QStringList>;
        // Physically: three rows, no snapshot_store_rows; restore_rows holds dispatch 3's final restore only.
        QCOMPARE(db.integer("SELECT count(*) FROM dispatch_rows WHERE s_store IS NOT NULL"), 3);
        QCOMPARE(db.integer("SELECT count(*) FROM snapshot_store_rows"), 0);
        QCOMPARE(db.query("SELECT dispatch, pass_index, seq, ts_ns FROM restore_rows"),
                 (Rows{{"3", "2", "19", "5001800"}}));
        QCOMPARE(
            db.query("SELECT dispatch_id, host_bytes, device_bytes, hash_ns, total_chunks, store, hash_path, "
                     "host_pinned FROM snapshot_stores ORDER BY dispatch_id"),
            (Rows{{"1", "4096", "0", "0", "0", "0", "1", "1"},
                  {"2", "0", "262144", "321", "4", "1", "1", "0"},
                  {"3", "0", "262144", "321", "4", "1", "1", "0"}}));
        QCOMPARE(db.query("SELECT dispatch, pass_index, final, restored_bytes_host, restored_bytes_device, "
                          "hash_ns, restore_ns, regions_restored, dirty_chunks, total_chunks, missed_chunks, "
                          "seq FROM restores ORDER BY dispatch, pass_index"),
                 (Rows{{"1", "1", "0", "4096", "0", "0", "40", "1", "0", "0", "0", "4"},
                       {"1", "2", "1", "4096", "0", "0", "77", "1", "0", "0", "0", "6"},
                       {"2", "1", "0", "0", "65536", "12345", "40", "1", "1", "4", "0", "10"},
                       {"2", "2", "1", "0", "65536", "23456", "30000", "1", "1", "4", "0", "12"},
                       {"3", "1", "0", "0", "65536", "111", "40", "1", "1", "4", "0", "16"},
                       {"3", "2", "1", "0", "131072", "222", "50000", "1", "2", "4", "0", "19"}}));
        QCOMPARE(
            db.query("SELECT dispatch_id, idx, restored_bytes_host, restored_bytes_device, dirty_chunks, "
                     "total_chunks, hash_ns, missed_chunks FROM passes WHERE idx = 1 ORDER BY dispatch_id"),
            (Rows{{"1", "1", "4096", "0", "0", "0", "0", "0"},
                  {"2", "1", "0", "65536", "1", "4", "12345", "0"},
                  {"3", "1", "0", "65536", "1", "4", "111", "0"}}));
        QCOMPARE(db.query("SELECT id, footprint, store, restored_bytes_host, restored_bytes_device FROM "
                          "dispatches ORDER BY id"),
                 (Rows{{"1", "4096", "host", "8192", "0"},
                       {"2", "262144", "device", "0", "131072"},
                       {"3", "262144", "device", "0", "196608"}}));
        QCOMPARE(
            db.query("SELECT dispatch_id, store, host_pinned, hash_path FROM snapshots ORDER BY dispatch_id"),
            (Rows{{"1", "host", "1", "device"},
                  {"2", "device", "0", "device"},
                  {"3", "device", "0", "device"}}));
        QCOMPARE(db.query("SELECT event_type, sent IS NULL, stored FROM event_counts WHERE event_type = 22"),
                 (Rows{{"22", "1", "6"}}));
        RestoreTotals t;
        QVERIFY2(read_restore_totals(path, t, error), error.c_str());
        QCOMPARE(t.restores, 6u);
        QCOMPARE(t.restored_bytes_host, 8192u);
        QCOMPARE(t.restored_bytes_device, 327680u);
        QCOMPARE(t.dirty_chunks, 5u);
        QCOMPARE(t.hash_ns, std::uint64_t{12345 + 23456 + 111 + 222});
        QCOMPARE(t.restore_ns, std::uint64_t{40 + 77 + 40 + 30000 + 40 + 50000});
    }

    /// A protocol-4 snapshot frame (an older engine's spool) is stored as a host snapshot of all its
    /// bytes, pageable, not hashed.
    void olderSnapshotFrameIsAHostSnapshot() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/old.rsdb").toStdString();
        Builder b;
        b.dispatch(1);
        b.snapshot(1, 0, 0, SnapshotStore::host, 0, false);
        b.records.back().snapshot.bytes = 4096;
        auto bytes = rs::test::frames({b.records.back()});
        rs::test::setFrameVersion(bytes, 4); // as a protocol-4 engine wrote it
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
        std::string error;
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        QVERIFY(store->insert(b.records.front()));
        QVERIFY(store->insert(r));
        QVERIFY2(store->finish("test"), store->last_error().c_str());
        store.reset();
        rs::test::SessionDb db(path);
        QCOMPARE(db.query("SELECT store, host_bytes, device_bytes, host_pinned, hash_path, total_chunks FROM "
                          "snapshots"),
                 (std::vector<QStringList>{{"host", "4096", "0", "0", "none", "0"}}));
    }

    /// A file written by the format-3 build (tests/sessions/data/format3.rsdb: accumulate_n 4 with three
    /// passes on the simulator) is read, not appended to, and totals its restores as host bytes.
    void formatThreeFileReads() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/format3.rsdb";
        QVERIFY(QFile::copy(QStringLiteral(RS_SESSIONS_TEST_DATA "/format3.rsdb"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        const auto check = rs::session::check_session_file(path.toStdString());
        QVERIFY2(check.ok, check.message.c_str());
        QCOMPARE(check.format_version, 3);
        std::string error;
        QVERIFY(!SessionStore::open(path.toStdString(), SessionStore::Mode::append, error));
        QVERIFY2(QString::fromStdString(error).contains("version 3 can be read but not appended to"),
                 error.c_str());
        RestoreTotals t;
        QVERIFY2(read_restore_totals(path.toStdString(), t, error), error.c_str());
        QCOMPARE(t.format_version, 3);
        QCOMPARE(t.snapshots, 4u);
        QCOMPARE(t.footprint_bytes, 4096u);
        QCOMPARE(t.restores, 8u); // passes 1 and 2 of each of the 4 dispatches
        QCOMPARE(t.full_restore_bytes, 8192u);
        QCOMPARE(t.restored_bytes_host, 8192u);
        QCOMPARE(t.restored_bytes_device, 0u);
        QCOMPARE(t.dirty_chunks, 0u);
        QCOMPARE(t.total_chunks, 0u);
        QCOMPARE(t.restore_ns, 2060u);
        QCOMPARE(t.host_snapshots, 4u);
        QCOMPARE(t.pageable_snapshots, 4u);
        QCOMPARE(t.device_snapshots, 0u);
        // Its views are the format-3 ones: no store column.
        rs::test::SessionDb db(path.toStdString());
        QCOMPARE(db.integer("SELECT count(*) FROM pragma_table_info('snapshots') WHERE name = 'store'"), 0);
        QCOMPARE(db.integer("SELECT count(*) FROM passes"), 12);
    }

    /// The format-2 file of the inspector's tests (one process, no process column) totals as well.
    void formatTwoFileReads() {
        RestoreTotals t;
        std::string error;
        QVERIFY2(read_restore_totals(RS_APP_TEST_DATA "/format2.rsdb", t, error), error.c_str());
        QCOMPARE(t.format_version, 2);
        QCOMPARE(t.snapshots, 51u);
        QCOMPARE(t.footprint_bytes, 2104531200u);
        QCOMPARE(t.restores, 102u);
        QCOMPARE(t.restored_bytes_host, 4209062400u);
        QCOMPARE(t.restored_bytes_device, 0u);
    }

    void foreignFileIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/not.rsdb";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("definitely not SQLite, just text long enough to be looked at\n");
        f.close();
        RestoreTotals t;
        std::string error;
        QVERIFY(!read_restore_totals(path.toStdString(), t, error));
        QVERIFY2(QString::fromStdString(error).contains("not a SQLite database"), error.c_str());
    }
};

QTEST_GUILESS_MAIN(StoreRestoresTest)
#include "tst_ipc_store_restores.moc"
