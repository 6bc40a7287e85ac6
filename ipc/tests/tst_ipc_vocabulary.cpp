// SPDX-License-Identifier: MIT
// The one vocabulary (vocabulary.h): every enum value has a name, frame validation accepts exactly the
// listed values, and the session file's enum_names table is the list, row for row.
#include "test_support.h"

#include "replayscope/ipc/frame_decoder.h"
#include "replayscope/ipc/frame_encoder.h"
#include "replayscope/ipc/session_store.h"

#include <flatbuffers/flatbuffers.h>
#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <string>
#include <tuple>

using namespace rs::ipc;

namespace {

/// Rows (enum, code, name) of a session file's enum_names table.
std::set<std::tuple<std::string, long long, std::string>> enumRows(const QString& path) {
    std::set<std::tuple<std::string, long long, std::string>> rows;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toLocal8Bit().constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return rows;
    }
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT enum, code, name FROM enum_names", -1, &st, nullptr);
    while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
        rows.emplace(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), sqlite3_column_int64(st, 1),
                     reinterpret_cast<const char*>(sqlite3_column_text(st, 2)));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

void execSql(const QString& path, const char* statement) {
    sqlite3* db = nullptr;
    sqlite3_open(path.toLocal8Bit().constData(), &db);
    sqlite3_exec(db, statement, nullptr, nullptr, nullptr);
    sqlite3_close(db);
}

/// First column of the first row of `query`, as text ("" when none).
QString scalarText(const QString& path, const char* query) {
    QString out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toLocal8Bit().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, query, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
            sqlite3_column_text(st, 0) != nullptr) {
            out = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
}

/// Encodes `r` as a frame and decodes it again.
FrameError roundTrip(const Record& r, Record& decoded) {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<std::uint8_t> bytes;
    append_frame(r, builder, bytes);
    FrameHeader header{};
    std::size_t used = 0;
    return decode_frame(bytes.data(), bytes.size(), kMaxPayloadBytes, decoded, header, used);
}

/// Names are lower case, digits, '-' or '_' (the HSA entry points of AllocationApi), never empty.
bool wellFormed(std::string_view name) {
    if (name.empty()) {
        return false;
    }
    for (char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
            return false;
        }
    }
    return true;
}

} // namespace

class VocabularyTest : public QObject {
    Q_OBJECT
  private slots:
    void everyValueHasADistinctName() {
        std::set<std::string_view> tables;
        for (const EnumTable& t : kEnumTables) {
            QVERIFY2(tables.insert(t.table).second, t.table.data());
            QVERIFY(t.count >= 2);
            std::set<std::string_view> names;
            for (std::size_t i = 0; i < t.count; ++i) {
                QVERIFY2(wellFormed(t.names[i].name), t.table.data());
                QVERIFY2(t.names[i].name != "unknown" || t.table == "pointer_type", t.table.data());
                QVERIFY2(names.insert(t.names[i].name).second, t.names[i].name.data());
            }
        }
        QCOMPARE(tables.size(), std::size(kEnumTables));
    }
    void namesOfTheNewValues() {
        QCOMPARE(enum_max<DispatchDecision>(), 18u);
        QCOMPARE(enum_name(DispatchDecision::declined_pass_timeout), std::string_view("pass-timeout"));
        QCOMPARE(enum_name(DispatchDecision::declined_no_private_queue),
                 std::string_view("no-private-queue"));
        QCOMPARE(enum_name(DispatchDecision::declined_out_of_memory), std::string_view("out-of-memory"));
        QCOMPARE(enum_name(DispatchDecision::declined_signal_unavailable),
                 std::string_view("signal-unavailable"));
        QCOMPARE(static_cast<int>(DispatchDecision::declined_signal_unavailable), 13);
        QCOMPARE(enum_name(DispatchDecision::declined_internal_error), std::string_view("internal-error"));
        QCOMPARE(static_cast<int>(DispatchDecision::declined_abandoned), 15);
        QCOMPARE(enum_name(DispatchDecision::declined_abandoned), std::string_view("abandoned"));
        QCOMPARE(static_cast<int>(DispatchDecision::declined_pass_failed), 16);
        QCOMPARE(enum_name(DispatchDecision::declined_pass_failed), std::string_view("pass-failed"));
        QCOMPARE(static_cast<int>(DispatchDecision::declined_peer_memory), 17);
        QCOMPARE(enum_name(DispatchDecision::declined_peer_memory), std::string_view("peer-memory"));
        QCOMPARE(static_cast<int>(DispatchDecision::declined_iteration_range), 18);
        QCOMPARE(enum_name(DispatchDecision::declined_iteration_range), std::string_view("iteration-range"));
        QCOMPARE(enum_max<AsyncCopyOutcome>(), 3u);
        QCOMPARE(enum_name(AsyncCopyOutcome::held), std::string_view("held"));
        QCOMPARE(enum_max<WarningCode>(), 28u);
        QCOMPARE(enum_name(WarningCode::device_store_reclaimed), std::string_view("device-store-reclaimed"));
        QCOMPARE(enum_name(WarningCode::internal_error), std::string_view("internal-error"));
        QCOMPARE(enum_name(WarningCode::pinned_host_store_unavailable),
                 std::string_view("pinned-host-store-unavailable"));
        QCOMPARE(enum_name(WarningCode::device_hash_unavailable),
                 std::string_view("device-hash-unavailable"));
        QCOMPARE(static_cast<int>(WarningCode::restore_missed_chunk), 17);
        QCOMPARE(enum_name(WarningCode::restore_missed_chunk), std::string_view("restore-missed-chunk"));
        QCOMPARE(static_cast<int>(WarningCode::device_store_short), 19);
        QCOMPARE(enum_name(WarningCode::device_store_short), std::string_view("device-store-short"));
        QCOMPARE(static_cast<int>(WarningCode::restore_not_verified), 20);
        QCOMPARE(enum_name(WarningCode::restore_not_verified), std::string_view("restore-not-verified"));
        QCOMPARE(static_cast<int>(WarningCode::abandoned), 21);
        QCOMPARE(enum_name(WarningCode::abandoned), std::string_view("abandoned"));
        QCOMPARE(static_cast<int>(WarningCode::pass_failed), 22);
        QCOMPARE(enum_name(WarningCode::pass_failed), std::string_view("pass-failed"));
        QCOMPARE(static_cast<int>(WarningCode::restore_recovered), 23);
        QCOMPARE(enum_name(WarningCode::restore_recovered), std::string_view("restore-recovered"));
        QCOMPARE(static_cast<int>(WarningCode::unrestorable_memory_written), 24);
        QCOMPARE(enum_name(WarningCode::unrestorable_memory_written),
                 std::string_view("unrestorable-memory-written"));
        QCOMPARE(static_cast<int>(WarningCode::unrestorable_memory_unchecked), 25);
        QCOMPARE(enum_name(WarningCode::unrestorable_memory_unchecked),
                 std::string_view("unrestorable-memory-unchecked"));
        QCOMPARE(static_cast<int>(WarningCode::counters_unavailable), 26);
        QCOMPARE(enum_name(WarningCode::counters_unavailable), std::string_view("counters-unavailable"));
        QCOMPARE(static_cast<int>(WarningCode::counter_read_failed), 27);
        QCOMPARE(enum_name(WarningCode::counter_read_failed), std::string_view("counter-read-failed"));
        QCOMPARE(static_cast<int>(WarningCode::counter_mismatch), 28);
        QCOMPARE(enum_name(WarningCode::counter_mismatch), std::string_view("counter-mismatch"));
        QCOMPARE(enum_max<SnapshotStore>(), 2u);
        QCOMPARE(enum_name(SnapshotStore::mixed), std::string_view("mixed"));
        QCOMPARE(enum_name(SnapshotStore::device), std::string_view("device"));
        QCOMPARE(enum_max<ChunkHashPath>(), 2u);
        QCOMPARE(enum_name(ChunkHashPath::none), std::string_view("none"));
        QCOMPARE(enum_name(ChunkHashPath::host), std::string_view("host"));
        QCOMPARE(enum_name(WarningCode::queue_intercept_failed), std::string_view("queue-intercept-failed"));
        // Outside the list (e.g. a value from a newer build).
        QCOMPARE(enum_name(static_cast<DispatchDecision>(19)), std::string_view("unknown"));
        QCOMPARE(enum_name(static_cast<WarningCode>(200)), std::string_view("unknown"));
    }
    void existingNamesAreStable() {
        // Session files written by earlier builds hold these codes; their names never change.
        QCOMPARE(enum_name(DispatchDecision::declined_drain_timeout), std::string_view("drain-timeout"));
        QCOMPARE(static_cast<int>(DispatchDecision::declined_drain_timeout), 5);
        QCOMPARE(enum_name(DispatchDecision::declined_unrestorable_memory),
                 std::string_view("unrestorable-memory"));
        QCOMPARE(enum_name(AllocationClass::excluded_unknown_pointer), std::string_view("unknown-pointer"));
        QCOMPARE(enum_name(AllocationApi::vmem_map), std::string_view("hsa_amd_vmem_map"));
        // Host memory locked by hsa_amd_memory_lock(_to_pool) (hipHostRegister), freed by its unlock.
        QCOMPARE(static_cast<int>(AllocationApi::memory_lock), 3);
        QCOMPARE(enum_name(AllocationApi::memory_lock), std::string_view("hsa_amd_memory_lock"));
        QCOMPARE(static_cast<int>(AllocationApi::memory_lock_to_pool), 4);
        QCOMPARE(enum_name(AllocationApi::memory_lock_to_pool),
                 std::string_view("hsa_amd_memory_lock_to_pool"));
        QCOMPARE(enum_max<AllocationApi>(), 4u);
        QCOMPARE(enum_name(WarningCode::general), std::string_view("general"));
        // Reserved (never sent): the value keeps its name and is never reused.
        QCOMPARE(enum_name(WarningCode::retired_emitter), std::string_view("emitter"));
        QCOMPARE(static_cast<int>(WarningCode::retired_emitter), 6);
        QCOMPARE(enum_name(AsyncCopyOutcome::timed_out), std::string_view("timed-out"));
    }
    void eventTypesComeFromTheList() {
        QCOMPARE(kEventTypeSlots, std::size_t{25});
        QCOMPARE(static_cast<int>(EventType::counter_value), 24);
        QCOMPARE(static_cast<int>(EventType::snapshot_placement), 21);
        QCOMPARE(event_type_name(EventType::restore), std::string_view("restore"));
        QCOMPARE(static_cast<int>(EventType::restore_miss), 23);
        QCOMPARE(event_type_name(EventType::hello), std::string_view("hello"));
        QCOMPARE(event_type_name(EventType::restore_failure), std::string_view("restore_failure"));
        QCOMPARE(static_cast<int>(EventType::restore_failure), 20);
        QCOMPARE(event_type_name(static_cast<EventType>(0)), std::string_view("unknown"));
        QCOMPARE(event_type_name(static_cast<EventType>(kEventTypeSlots)), std::string_view("unknown"));
        std::set<std::string_view> names;
        for (const EnumName& n : kEventTypeNames) {
            QVERIFY(wellFormed(n.name));
            QVERIFY(names.insert(n.name).second);
        }
    }
    void frameValidationAcceptsExactlyTheList() {
        Record r = rs::test::dispatchRecord(1, 7);
        Record out{};
        r.dispatch.decision = DispatchDecision::declined_signal_unavailable;
        QCOMPARE(roundTrip(r, out), FrameError::none);
        QCOMPARE(out.dispatch.decision, DispatchDecision::declined_signal_unavailable);
        r.dispatch.decision = static_cast<DispatchDecision>(enum_max<DispatchDecision>() + 1);
        QCOMPARE(roundTrip(r, out), FrameError::invalid_payload);

        Record w{};
        w.type = EventType::warning;
        w.sequence = 2;
        w.warning = {7, 0, WarningCode::internal_error};
        QCOMPARE(roundTrip(w, out), FrameError::none);
        QCOMPARE(out.warning.code, WarningCode::internal_error);
        w.warning.code = static_cast<WarningCode>(enum_max<WarningCode>() + 1);
        QCOMPARE(roundTrip(w, out), FrameError::invalid_payload);

        Record c{};
        c.type = EventType::async_copy;
        c.sequence = 3;
        c.async_copy = {1, 2, 3, 4, 5, 6, AsyncCopyOutcome::held};
        QCOMPARE(roundTrip(c, out), FrameError::none);
        QCOMPARE(out.async_copy.outcome, AsyncCopyOutcome::held);
        c.async_copy.outcome = static_cast<AsyncCopyOutcome>(4);
        QCOMPARE(roundTrip(c, out), FrameError::invalid_payload);
    }
    void sessionFileTablesAreTheList() {
        QTemporaryDir dir;
        const QString path = dir.path() + "/v.rsdb";
        std::string error;
        {
            auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::create, error);
            QVERIFY2(store, error.c_str());
            store->insert(rs::test::dispatchRecord(1, 1));
            QVERIFY(store->finish("test"));
        }
        std::set<std::tuple<std::string, long long, std::string>> expected;
        for (const EnumTable& t : kEnumTables) {
            for (std::size_t i = 0; i < t.count; ++i) {
                expected.emplace(std::string(t.table), t.names[i].code, std::string(t.names[i].name));
            }
        }
        const auto rows = enumRows(path);
        QCOMPARE(rows.size(), expected.size());
        QVERIFY(rows == expected);
        QVERIFY(rows.count({"decision", 11, "no-private-queue"}) == 1);
        // event_counts: one row per type the file can hold, named as the list names it.
        std::set<std::tuple<std::string, long long, std::string>> counted;
        sqlite3* db = nullptr;
        sqlite3_open_v2(path.toLocal8Bit().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT event_type, name FROM event_counts", -1, &st, nullptr);
        while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
            const auto type = static_cast<EventType>(sqlite3_column_int(st, 0));
            QCOMPARE(std::string_view(reinterpret_cast<const char*>(sqlite3_column_text(st, 1))),
                     event_type_name(type));
            counted.emplace("", sqlite3_column_int(st, 0), "");
        }
        sqlite3_finalize(st);
        sqlite3_close(db);
        QCOMPARE(counted.size(), kEventTypeSlots - 2); // every type but hello

        QVERIFY(rows.count({"fidelity", -1, "not-checked"}) == 1);

        // A file written before the new values existed gains them when it is opened for appending.
        execSql(path, "DELETE FROM enum_names WHERE (enum='decision' AND code>=10) OR enum='warning'");
        QCOMPARE(enumRows(path).size(), expected.size() - (enum_max<DispatchDecision>() - 9) -
                                            std::size(EnumVocabulary<WarningCode>::names));
        {
            auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::append, error);
            QVERIFY2(store, error.c_str());
        }
        QVERIFY(enumRows(path) == expected);
    }
    void sessionEndCarriesInternalErrors() {
        Record end{};
        end.type = EventType::session_end;
        end.sequence = 2;
        end.session_end.counts[static_cast<std::size_t>(EventType::dispatch)] = 1;
        end.session_end.counts[static_cast<std::size_t>(EventType::session_end)] = 1;
        end.session_end.last_sequence = 2;
        end.session_end.internal_errors = 7;
        Record out{};
        QCOMPARE(roundTrip(end, out), FrameError::none);
        QCOMPARE(out.session_end.internal_errors, std::uint64_t{7});
        QVERIFY(records_equal(end, out));

        QTemporaryDir dir;
        const QString path = dir.path() + "/e.rsdb";
        std::string error;
        {
            auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::create, error);
            QVERIFY2(store, error.c_str());
            store->insert(rs::test::dispatchRecord(1, 1));
            store->insert(end);
            QVERIFY(store->finish("session end received"));
        }
        QCOMPARE(scalarText(path, "SELECT internal_errors FROM session"), QString("7"));

        // Per process too (session format 3: the session row sums its processes).
        QCOMPARE(scalarText(path, "SELECT internal_errors FROM processes WHERE process = 1"), QString("7"));
    }
};

QTEST_GUILESS_MAIN(VocabularyTest)
#include "tst_ipc_vocabulary.moc"
