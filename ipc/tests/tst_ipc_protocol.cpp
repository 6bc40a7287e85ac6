// SPDX-License-Identifier: MIT
// Round trip of every event type through the frame codec, and frame-header checks.
#include "test_support.h"

#include <QTest>

using namespace rs::ipc;

namespace {

/// One record of every type with distinctive, non-default field values.
std::vector<Record> everyType() {
    std::vector<Record> v;
    auto add = [&](EventType t) -> Record& {
        Record r{};
        r.type = t;
        r.sequence = v.size() + 1;
        r.timestamp_ns = 1'700'000'000'000'000'000ull + v.size() * 17;
        v.push_back(r);
        return v.back();
    };
    std::memset(add(EventType::hello).hello.token, 'a', 64);
    v.back().sequence = 0;
    v.back().timestamp_ns = 0;
    v.back().hello.pid = 77;
    v.back().hello.ppid = 76;
    v.back().hello.instance = 0x8000'0000'dead'beefull;
    v.back().hello.protocol_version = kProtocolVersion;
    add(EventType::session_start).session_start = {1234, kProtocolVersion, 99'000'000'000ull, 1, 2, 3, 4, 5};
    auto& s = add(EventType::string).string;
    s.id = 9;
    s.original_length = 1000;
    s.length = static_cast<std::uint16_t>(kMaxStringBytes);
    std::memset(s.text, 'k', kMaxStringBytes);
    add(EventType::agent).agent = {0xfeed, 3, 4, DeviceType::gpu, 2};
    add(EventType::allocation).allocation = {11,
                                             0x7f0000001000,
                                             4096,
                                             0xfeed,
                                             0x5,
                                             AllocationApi::memory_allocate,
                                             PointerType::hsa,
                                             AllocationClass::excluded_fine_grained};
    add(EventType::free).free = {11, 0x7f0000001000};
    add(EventType::executable_loaded).executable = {0xe1, 0xc1, 0xfeed, 6};
    add(EventType::module_variable).module_variable = {0xe1, 0xfeed, 0x9000,
                                                       8,    7,      VariableStatus::skipped_too_large};
    add(EventType::dispatch).dispatch = {
        42, 0xfeed, 0x9a, 0xdead, 8, {1024, 2, 3}, {256, 4, 1}, DispatchDecision::declined_drain_timeout};
    add(EventType::inventory).inventory = {0xfeed, 5, 8192, 2};
    add(EventType::inventory_region).inventory_region = {
        0xfeed, 5, 0x7f0000002000, 4096, 12, 1, RegionKind::module_variable};
    auto& snap = add(EventType::snapshot).snapshot;
    snap.dispatch_id = 42;
    snap.agent = 0xfeed;
    snap.generation = 5;
    snap.bytes = 8192;
    snap.duration_ns = 3500;
    snap.regions = 2;
    snap.failures = 1;
    snap.ok = false;
    snap.host_bytes = 4096;
    snap.device_bytes = 4096;
    snap.hash_ns = 1234;
    snap.total_chunks = 3;
    snap.store = SnapshotStore::mixed;
    snap.hash_path = ChunkHashPath::device;
    snap.host_pinned = true;
    snap.fence_wait_ns = 56789;
    add(EventType::snapshot_failure).snapshot_failure = {42, 0x7f0000002000, 4096, 12,
                                                         SnapshotFailureReason::symbol_enumeration};
    add(EventType::pass).pass = {42, 100, 250, 777, 8192, 1, 2, 1, kFidelityDiffered};
    add(EventType::restore_skip).restore_skip = {
        42, 0x7f0000002000, 4096, 12, 1, RestoreSkipReason::reallocated};
    add(EventType::warning).warning = {42, 10, WarningCode::fidelity_mismatch};
    add(EventType::fidelity_mismatch).fidelity_mismatch = {42, 1, 0x7f0000002000, 4096, 12};
    add(EventType::async_copy).async_copy = {
        0xfeed, 0x7f0000003000, 0x7f0000004000, 65536, 42, 125000, AsyncCopyOutcome::timed_out};
    add(EventType::restore_failure).restore_failure = {42,     0x7f0000002000,        4096, 12, 2, 1, 3,
                                                       0x1000, RegionKind::allocation};
    add(EventType::snapshot_placement).snapshot_placement = {42, 0x7f0000002000, 4096, SnapshotStore::device};
    add(EventType::restore).restore = {42, 65536, 131072, 900, 4000, 2, 3, 5, 40, 1, true};
    add(EventType::restore_miss).restore_miss = {42, 0x7f0000012000, 65536, 12, 2};
    add(EventType::counter_value).counter_value = {42, 0xfedcba9876543210, 3, 5};
    auto& e = add(EventType::session_end).session_end;
    for (std::size_t i = 0; i < kEventTypeSlots; ++i) {
        e.counts[i] = i * 3;
    }
    e.spooled = 5;
    e.last_sequence = 17;
    e.exit_status = 3;
    return v;
}

} // namespace

class ProtocolTest : public QObject {
    Q_OBJECT
  private slots:
    void roundTripEveryEventType() {
        const auto records = everyType();
        QCOMPARE(records.size(), kEventTypeSlots - 1); // every EventType value 1..24
        const auto bytes = rs::test::frames(records);
        std::size_t offset = 0;
        for (const auto& expected : records) {
            Record got{};
            FrameHeader header{};
            std::size_t n = 0;
            const auto err =
                decode_frame(bytes.data() + offset, bytes.size() - offset, kMaxPayloadBytes, got, header, n);
            QVERIFY2(err == FrameError::none, describe(err, header).c_str());
            QCOMPARE(header.magic, kFrameMagic);
            QCOMPARE(header.version, kProtocolVersion);
            QCOMPARE(header.type, static_cast<std::uint16_t>(expected.type));
            QCOMPARE(header.sequence, expected.sequence);
            QCOMPARE(header.length % 8, 0u);
            QVERIFY2(records_equal(expected, got), std::string(event_type_name(expected.type)).c_str());
            offset += n;
        }
        QCOMPARE(offset, bytes.size());
    }

    void recordsEqualDetectsADifferentField() {
        auto records = everyType();
        Record changed = records[8]; // dispatch
        changed.dispatch.workgroup[2] = 9;
        QVERIFY(!records_equal(records[8], changed));
    }

    void truncatedFrameIsIncomplete() {
        const auto bytes = rs::test::frames({rs::test::dispatchRecord(1, 1)});
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        QCOMPARE(decode_frame(bytes.data(), 10, kMaxPayloadBytes, r, h, n), FrameError::incomplete);
        QCOMPARE(decode_frame(bytes.data(), bytes.size() - 1, kMaxPayloadBytes, r, h, n),
                 FrameError::incomplete);
    }

    void headerErrorsAreNamed() {
        auto bytes = rs::test::frames({rs::test::dispatchRecord(1, 1)});
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        auto bad = bytes;
        bad[0] = 'X';
        QCOMPARE(decode_frame(bad.data(), bad.size(), kMaxPayloadBytes, r, h, n), FrameError::bad_magic);
        QVERIFY(QString::fromStdString(describe(FrameError::bad_magic, h)).contains("wrong magic"));
        bad = bytes;
        bad[4] = 99; // version
        QCOMPARE(decode_frame(bad.data(), bad.size(), kMaxPayloadBytes, r, h, n), FrameError::bad_version);
        bad = bytes;
        const std::uint32_t huge = 1u << 30;
        std::memcpy(bad.data() + 8, &huge, 4);
        QCOMPARE(decode_frame(bad.data(), bad.size(), kMaxPayloadBytes, r, h, n), FrameError::oversized);
        QVERIFY(QString::fromStdString(describe(FrameError::oversized, h)).contains("oversized"));
        bad = bytes;
        bad[6] = 200; // type
        QCOMPARE(decode_frame(bad.data(), bad.size(), kMaxPayloadBytes, r, h, n), FrameError::unknown_type);
        bad = bytes;
        for (std::size_t i = kFrameHeaderBytes; i < bad.size(); ++i) {
            bad[i] = 0xff;
        }
        QCOMPARE(decode_frame(bad.data(), bad.size(), kMaxPayloadBytes, r, h, n), FrameError::bad_checksum);
        QVERIFY(QString::fromStdString(describe(FrameError::bad_checksum, h)).contains("checksum mismatch"));
        rs::test::resealFrame(bad); // as a sender wrote it: the verifier refuses it
        QCOMPARE(decode_frame(bad.data(), bad.size(), kMaxPayloadBytes, r, h, n),
                 FrameError::invalid_payload);
    }

    void vmemMapAllocationRoundTrips() {
        Record rec{};
        rec.type = EventType::allocation;
        rec.sequence = 3;
        rec.allocation = {7,   0x7f0000100000,          1 << 21,          0xfeed,
                          0x1, AllocationApi::vmem_map, PointerType::hsa, AllocationClass::tracked};
        const auto bytes = rs::test::frames({rec});
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
        QCOMPARE(r.allocation.api, AllocationApi::vmem_map);
        QVERIFY(records_equal(rec, r));
    }

    /// Protocol 4: Hello names the process (ppid, instance), SessionEnd carries the exit status; frames
    /// without these fields (protocol 3 and older) decode as ppid 0, instance 0 and exit status -1.
    void processIdentityRoundTrips() {
        Record hello{};
        hello.type = EventType::hello;
        std::memset(hello.hello.token, 'b', HelloRecord::kTokenBytes);
        hello.hello.pid = 100;
        hello.hello.ppid = 99;
        hello.hello.instance = 0xfedc'ba98'7654'3210ull;
        hello.hello.protocol_version = kProtocolVersion;
        Record end{};
        end.type = EventType::session_end;
        end.sequence = 12;
        end.session_end.exit_status = 255;
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        auto bytes = rs::test::frames({hello});
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
        QCOMPARE(r.hello.ppid, 99u);
        QCOMPARE(r.hello.instance, 0xfedc'ba98'7654'3210ull);
        Record other = hello;
        other.hello.instance = 1;
        QVERIFY(!records_equal(hello, other));
        bytes = rs::test::frames({end});
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
        QCOMPARE(r.session_end.exit_status, 255);
        // A protocol-3 sender wrote neither field: the payload is the one of the defaults.
        hello.hello.ppid = 0;
        hello.hello.instance = 0;
        end.session_end.exit_status = -1;
        for (Record* old : {&hello, &end}) {
            bytes = rs::test::frames({*old});
            rs::test::setFrameVersion(bytes, 3); // as a protocol-3 sender wrote it
            QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
            QVERIFY(records_equal(r, *old));
        }
        QCOMPARE(r.session_end.exit_status, -1);
    }

    /// Protocol-1 frames (an older spool) still decode: a Pass without fidelity reads as "not checked";
    /// the protocol-2 types are unknown in a version-1 frame.
    void protocolOneFramesDecode() {
        Record pass{};
        pass.type = EventType::pass;
        pass.sequence = 4;
        pass.pass = {42, 100, 250, 0, 0, 0, 0, 0, kFidelityNotChecked};
        auto bytes = rs::test::frames({pass});
        rs::test::setFrameVersion(bytes, 1); // as a protocol-1 sender wrote it
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
        QCOMPARE(r.pass.fidelity, kFidelityNotChecked);
        Record copy{};
        copy.type = EventType::async_copy;
        copy.sequence = 5;
        copy.async_copy = {1, 2, 3, 4, 0, 0, AsyncCopyOutcome::not_fenced};
        bytes = rs::test::frames({copy});
        rs::test::setFrameVersion(bytes, 1);
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n),
                 FrameError::unknown_type);
    }

    /// Protocol 5: the store, chunk and restore records. Their fields survive the codec one by one; the
    /// new types are unknown in a version-4 frame; a version-4 Snapshot (an engine that copied every
    /// region into pageable host memory and hashed nothing) decodes as a host snapshot of all its bytes;
    /// a placement names one store (never mixed) and a restore or a miss follows a pass.
    void storeAndRestoreRecordsValidated() {
        const auto all = everyType();
        const auto find = [&](EventType t) {
            return *std::find_if(all.begin(), all.end(), [t](const Record& x) { return x.type == t; });
        };
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        const auto decode = [&](const Record& rec, std::uint8_t version = kProtocolVersion) {
            auto b = rs::test::frames({rec});
            rs::test::setFrameVersion(b, version);
            return decode_frame(b.data(), b.size(), kMaxPayloadBytes, r, h, n);
        };
        const Record restore = find(EventType::restore);
        QCOMPARE(decode(restore), FrameError::none);
        QCOMPARE(r.restore.restored_bytes_host, 65536u);
        QCOMPARE(r.restore.restored_bytes_device, 131072u);
        QCOMPARE(r.restore.hash_ns, 900u);
        QCOMPARE(r.restore.restore_ns, 4000u);
        QCOMPARE(r.restore.pass_index, 2u);
        QCOMPARE(r.restore.regions_restored, 3u);
        QCOMPARE(r.restore.dirty_chunks, 5u);
        QCOMPARE(r.restore.total_chunks, 40u);
        QCOMPARE(r.restore.missed_chunks, 1u);
        QVERIFY(r.restore.final_restore);
        for (const EventType t :
             {EventType::snapshot_placement, EventType::restore, EventType::restore_miss}) {
            QCOMPARE(decode(find(t), 4), FrameError::unknown_type);
        }
        const Record snap = find(EventType::snapshot);
        QCOMPARE(decode(snap), FrameError::none);
        QCOMPARE(r.snapshot.store, SnapshotStore::mixed);
        QCOMPARE(r.snapshot.hash_path, ChunkHashPath::device);
        QCOMPARE(r.snapshot.total_chunks, 3u);
        QVERIFY(r.snapshot.host_pinned);
        QCOMPARE(r.snapshot.fence_wait_ns, 56789);
        // Not measured (-1): the field is left out of the payload, as an engine that never had it sends
        // the table, and reads back as -1, not 0.
        Record unmeasured = snap;
        unmeasured.snapshot.fence_wait_ns = -1;
        QVERIFY(rs::test::frames({unmeasured}).size() < rs::test::frames({snap}).size());
        QCOMPARE(decode(unmeasured), FrameError::none);
        QCOMPARE(r.snapshot.fence_wait_ns, -1);
        unmeasured.snapshot.fence_wait_ns = 0; // measured as 0 ns is a value, not "not recorded"
        QCOMPARE(decode(unmeasured), FrameError::none);
        QCOMPARE(r.snapshot.fence_wait_ns, 0);
        QCOMPARE(decode(snap, 4), FrameError::none);
        QCOMPARE(r.snapshot.bytes, 8192u);
        QCOMPARE(r.snapshot.host_bytes, 8192u);
        QCOMPARE(r.snapshot.device_bytes, 0u);
        QCOMPARE(r.snapshot.store, SnapshotStore::host);
        QCOMPARE(r.snapshot.hash_path, ChunkHashPath::none);
        QVERIFY(!r.snapshot.host_pinned);

        Record bad = snap;
        bad.snapshot.store = static_cast<SnapshotStore>(3);
        QCOMPARE(decode(bad), FrameError::invalid_payload);
        bad = snap;
        bad.snapshot.hash_path = static_cast<ChunkHashPath>(3);
        QCOMPARE(decode(bad), FrameError::invalid_payload);
        bad = find(EventType::snapshot_placement);
        bad.snapshot_placement.store = SnapshotStore::mixed;
        QCOMPARE(decode(bad), FrameError::invalid_payload);
        bad.snapshot_placement.store = SnapshotStore::host;
        QCOMPARE(decode(bad), FrameError::none);
        bad = restore;
        bad.restore.pass_index = 0;
        QCOMPARE(decode(bad), FrameError::invalid_payload);
        bad = find(EventType::restore_miss);
        bad.restore_miss.pass_index = 0;
        QCOMPARE(decode(bad), FrameError::invalid_payload);
        // records_equal sees every new field.
        Record other = restore;
        other.restore.missed_chunks = 0;
        QVERIFY(!records_equal(restore, other));
        other = snap;
        other.snapshot.host_pinned = false;
        QVERIFY(!records_equal(snap, other));
        other = snap;
        other.snapshot.fence_wait_ns = 56788;
        QVERIFY(!records_equal(snap, other));
    }

    /// A restore_failure must name a restore after a pass (pass_index >= 1), the pass before it as the
    /// state the region holds, at least one copy and a known region kind; it is a protocol-3 type.
    void restoreFailureValidated() {
        Record good{};
        good.type = EventType::restore_failure;
        good.sequence = 6;
        good.restore_failure = {42, 0x7f0000002000, 4, 0, 3, 2, 3, 0x1000, RegionKind::module_variable};
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        auto bytes = rs::test::frames({good});
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
        QVERIFY(records_equal(good, r));
        rs::test::setFrameVersion(bytes, 2); // the type did not exist yet
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n),
                 FrameError::unknown_type);
        const auto invalid = [&](void (*spoil)(RestoreFailureRecord&)) {
            Record bad = good;
            spoil(bad.restore_failure);
            const auto b = rs::test::frames({bad});
            return decode_frame(b.data(), b.size(), kMaxPayloadBytes, r, h, n) == FrameError::invalid_payload;
        };
        QVERIFY(invalid([](RestoreFailureRecord& f) { f.pass_index = 0, f.holds_pass_index = 0; }));
        QVERIFY(invalid([](RestoreFailureRecord& f) { f.holds_pass_index = 1; }));
        QVERIFY(invalid([](RestoreFailureRecord& f) { f.attempts = 0; }));
        QVERIFY(invalid([](RestoreFailureRecord& f) { f.kind = static_cast<RegionKind>(2); }));
    }

    void outOfRangeEnumIsInvalid() {
        auto rec = rs::test::dispatchRecord(1, 1);
        rec.dispatch.decision = static_cast<DispatchDecision>(200);
        const auto bytes = rs::test::frames({rec});
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        QCOMPARE(decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, r, h, n),
                 FrameError::invalid_payload);
    }
};

QTEST_GUILESS_MAIN(ProtocolTest)
#include "tst_ipc_protocol.moc"
