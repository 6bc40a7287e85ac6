// SPDX-License-Identifier: MIT
// The session store's sequence spaces and processes: a sequence number a frame merely claims costs
// nothing (2^62 and 2^34 are refused as out of the window, in bounded time and memory, with no absurd
// missing count), processes with the same sequence numbers stay apart, gaps and completeness are per
// process, and a failed commit leaves the counts at what the file holds.
#include "test_support.h"

#include "replayscope/ipc/collector.h"
#include "replayscope/ipc/session_store.h"
#include "sequence_space.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

using namespace rs::ipc;

namespace {

/// Peak resident set of this process, in KiB.
long peakRssKiB() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

class StoreSequencesTest : public QObject {
    Q_OBJECT
  private slots:
    void sequenceSpaceIsIntervals() {
        SequenceSpace space;
        QVERIFY(space.insert(1));
        QVERIFY(space.insert(2));
        QVERIFY(!space.insert(2));
        QVERIFY(space.insert(5));
        QVERIFY(space.insert(4));
        QCOMPARE(space.intervals(), std::size_t{2}); // [1,2] [4,5]
        QCOMPARE(space.count(), std::uint64_t{4});
        QCOMPARE(space.highest(), std::uint64_t{5});
        using Gaps = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
        QCOMPARE(space.gaps(0), (Gaps{{3, 3}}));
        QCOMPARE(space.gaps(8), (Gaps{{3, 3}, {6, 8}}));
        QCOMPARE(space.missing(8), std::uint64_t{4});
        QVERIFY(space.insert(3));
        QCOMPARE(space.intervals(), std::size_t{1});
        QVERIFY(space.erase(3));
        QVERIFY(!space.erase(3));
        QCOMPARE(space.gaps(0), (Gaps{{3, 3}}));
        space.insert_range(1, 100);
        QCOMPARE(space.intervals(), std::size_t{1});
        QCOMPARE(space.count(), std::uint64_t{100});
        space.erase_range(10, 19);
        space.erase_range(50, 200);
        QCOMPARE(space.gaps(0), (Gaps{{10, 19}}));
        QCOMPARE(space.highest(), std::uint64_t{49});
        QCOMPARE(space.count(), std::uint64_t{39});
        // A far number is one more interval, not 2^62 bits.
        QVERIFY(space.insert(std::uint64_t{1} << 62));
        QCOMPARE(space.intervals(), std::size_t{3});
        QCOMPARE(space.missing(0), (std::uint64_t{1} << 62) - 40);
    }

    /// Frames whose sequence was rewritten to 2^62 or 2^34: refused as out of the window, counted as
    /// rejected frames, nothing sized after them. The session is complete, nothing is missing.
    void claimedSequenceCostsNothing_data() {
        QTest::addColumn<quint64>("sequence");
        QTest::newRow("2^62") << (quint64{1} << 62);
        QTest::newRow("2^34") << (quint64{1} << 34);
        QTest::newRow("3 + window + 1") << quint64{3 + kSequenceWindow + 1}; // highest received is 3
    }
    void claimedSequenceCostsNothing() {
        QFETCH(quint64, sequence);
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/huge.rsdb").toStdString();
        std::string error;
        const long rss_before = peakRssKiB();
        QElapsedTimer timer;
        timer.start();
        {
            auto store = SessionStore::open(path, SessionStore::Mode::create, error);
            QVERIFY2(store, error.c_str());
            const auto p = store->process({7, 100, 1});
            for (std::uint64_t s = 1; s <= 3; ++s) {
                QVERIFY(store->insert(p, rs::test::dispatchRecord(s, s)));
            }
            QCOMPARE(store->check_sequence(p, sequence), SequenceVerdict::out_of_window);
            QCOMPARE(store->check_sequence(p, 0), SequenceVerdict::out_of_window);
            QCOMPARE(store->check_sequence(p, 2), SequenceVerdict::duplicate);
            QCOMPARE(store->check_sequence(p, 4), SequenceVerdict::fresh);
            QCOMPARE(store->check_sequence(p, 3 + kSequenceWindow), SequenceVerdict::fresh);
            QCOMPARE(store->check_sequence(99, 4), SequenceVerdict::out_of_window); // no such process
            // insert() checks too: the compatibility path (the spool importer) cannot be sized either.
            QVERIFY(store->insert(p, rs::test::dispatchRecord(sequence, 4)));
            QVERIFY(store->insert(rs::test::dispatchRecord(sequence, 5)));
            QVERIFY(store->insert(p, rs::test::sessionEndRecord(4, 4)));
            QCOMPARE(store->rejected_frames(), std::uint64_t{2});
            QCOMPARE(store->last_sequence(), std::uint64_t{4});
            QVERIFY(store->finish("session end received"));
            const auto processes = store->processes();
            QCOMPARE(processes.size(), std::size_t{1}); // insert(record) made no instance-0 process for
                                                        // a frame it refused
            QCOMPARE(processes[0].missing, std::uint64_t{0});
            QCOMPARE(processes[0].rejected_frames, std::uint64_t{1});
            QVERIFY(processes[0].complete);
        }
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(peakRssKiB() - rss_before < 64 * 1024,
                 qPrintable(QString::number(peakRssKiB() - rss_before)));
        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 0);
        QCOMPARE(db.integer("SELECT missing_events FROM session"), 0);
        QCOMPARE(db.integer("SELECT rejected_frames FROM session"), 2);
        QCOMPARE(db.integer("SELECT rejected_frames FROM processes WHERE instance = 7"), 1);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 3);
    }

    /// The same through the spool importer, from a file: frames with a claimed sequence number are
    /// not stored and the import ends in bounded time with no absurd missing count.
    void claimedSequenceInSpool() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/spool.rsdb").toStdString();
        const std::string spool = session + ".spool";
        std::vector<Record> records;
        for (std::uint64_t s = 1; s <= 100; ++s) {
            records.push_back(rs::test::dispatchRecord(s, s));
        }
        records.push_back(rs::test::dispatchRecord(std::uint64_t{1} << 34, 101));
        records.push_back(rs::test::sessionEndRecord(101, 101));
        const auto bytes = rs::test::frames(records);
        QFile f(QString::fromStdString(spool));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()));
        f.close();
        QElapsedTimer timer;
        timer.start();
        const auto result = SpoolImporter::import(spool, session);
        QVERIFY2(result.ok, result.message.c_str());
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        rs::test::SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 100);
        QCOMPARE(db.integer("SELECT missing_events FROM session"), 0);
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("SELECT coalesce(sum(last_seq - first_seq + 1), 0) FROM sequence_gaps"), 0);
        QCOMPARE(db.text("PRAGMA journal_mode"), QString("delete")); // imports end like finished runs
    }

    /// A session_end's last_sequence extends the space only within the window of what was received.
    void sessionEndExtendsOnlyWithinWindow() {
        QTemporaryDir dir;
        std::string error;
        const std::string path = (dir.path() + "/end.rsdb").toStdString();
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        const auto near = store->process({1, 10, 1});
        const auto far = store->process({2, 11, 1});
        for (std::uint64_t s = 1; s <= 5; ++s) {
            QVERIFY(store->insert(near, rs::test::dispatchRecord(s, s)));
            QVERIFY(store->insert(far, rs::test::dispatchRecord(s, s)));
        }
        QVERIFY(store->insert(near, rs::test::sessionEndRecord(6, 16))); // 10 sent and lost
        QVERIFY(store->insert(far, rs::test::sessionEndRecord(6, std::uint64_t{1} << 34))); // a forged claim
        QVERIFY(store->finish("test"));
        const auto processes = store->processes();
        QCOMPARE(processes.size(), std::size_t{2});
        QCOMPARE(processes[0].missing, std::uint64_t{10});
        QVERIFY(!processes[0].complete);
        QCOMPARE(processes[0].last_sequence, std::uint64_t{16});
        QCOMPARE(processes[1].missing, std::uint64_t{0});
        QCOMPARE(processes[1].last_sequence, std::uint64_t{6});
        QVERIFY(processes[1].complete);
        rs::test::SessionDb db(path);
        QCOMPARE(db.query("SELECT process, first_seq, last_seq FROM sequence_gaps").size(), std::size_t{1});
        QCOMPARE(db.text("SELECT process || ':' || first_seq || '-' || last_seq FROM sequence_gaps"),
                 QString("1:7-16"));
        QCOMPARE(db.integer("SELECT complete FROM session"), 0);
        QCOMPARE(db.integer("SELECT missing_events FROM session"), 10);
    }

    /// Two processes counting from 1, interleaved: every event of each is stored under its process,
    /// per-process counts equal what each sent, the session is complete.
    void processesWithTheSameSequencesStayApart() {
        QTemporaryDir dir;
        std::string error;
        const std::string path = (dir.path() + "/two.rsdb").toStdString();
        const std::uint64_t sizes[2] = {1000, 3000};
        {
            auto store = SessionStore::open(path, SessionStore::Mode::create, error);
            QVERIFY2(store, error.c_str());
            const std::int64_t p[2] = {store->process({0xaaaa, 200, 100}),
                                       store->process({0xbbbb, 201, 200})};
            QCOMPARE(p[0], 1);
            QCOMPARE(p[1], 2);
            QCOMPARE(store->process({0xaaaa, 0, 0}), 1); // known instance: the same process
            for (std::uint64_t s = 1; s <= sizes[1]; ++s) {
                for (int i = 0; i < 2; ++i) {
                    if (s <= sizes[i]) {
                        QCOMPARE(store->check_sequence(p[i], s), SequenceVerdict::fresh);
                        QVERIFY(store->insert(p[i], rs::test::dispatchRecord(s, s)));
                    }
                }
                if (s % 500 == 0) {
                    QVERIFY(store->commit());
                }
            }
            for (int i = 0; i < 2; ++i) {
                QVERIFY(store->insert(p[i], rs::test::sessionEndRecord(sizes[i] + 1, sizes[i] + 1)));
            }
            QVERIFY(store->finish("session end received"));
            QCOMPARE(store->committed_events(), sizes[0] + sizes[1] + 2);
            const auto processes = store->processes();
            QCOMPARE(processes.size(), std::size_t{2});
            for (int i = 0; i < 2; ++i) {
                QCOMPARE(processes[i].events_stored, sizes[i] + 1);
                QCOMPARE(processes[i].dispatches, sizes[i]);
                QCOMPARE(processes[i].missing, std::uint64_t{0});
                QVERIFY(processes[i].complete);
            }
            QCOMPARE(processes[1].identity.parent_pid, 200u);
        }
        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE process = 1"), 1000);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE process = 2"), 3000);
        QCOMPARE(db.integer("SELECT dispatches FROM process_totals WHERE process = 2"), 3000);
        QCOMPARE(db.integer("SELECT replayed FROM process_totals WHERE process = 1"), 1000);
        QCOMPARE(db.integer("SELECT events_stored FROM process_totals WHERE process = 2"), 3001);
        QCOMPARE(db.integer("SELECT process_count FROM session"), 2);
        QCOMPARE(db.integer("SELECT events_stored FROM session"), 4002);
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("SELECT pid FROM session"), 200); // the session row describes process 1
        QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE process = 2 AND event_type = 9"), 3000);
        QCOMPARE(db.integer("SELECT count(*) FROM processes WHERE complete = 1"), 2);
    }

    /// A gap in one process makes that process, and so the session, incomplete; the other stays complete.
    void gapsArePerProcess() {
        QTemporaryDir dir;
        std::string error;
        const std::string path = (dir.path() + "/gap.rsdb").toStdString();
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        const auto a = store->process({1, 1, 0});
        const auto b = store->process({2, 2, 0});
        for (std::uint64_t s = 1; s <= 20; ++s) {
            if (s < 5 || s > 9) {
                QVERIFY(store->insert(a, rs::test::dispatchRecord(s, s)));
            }
            QVERIFY(store->insert(b, rs::test::dispatchRecord(s, s)));
        }
        QVERIFY(store->insert(a, rs::test::sessionEndRecord(21, 21)));
        QVERIFY(store->insert(b, rs::test::sessionEndRecord(21, 21)));
        QVERIFY(store->finish("test"));
        using Gaps = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
        QCOMPARE(store->gaps(a), (Gaps{{5, 9}}));
        QCOMPARE(store->gaps(b), Gaps{});
        rs::test::SessionDb db(path);
        QCOMPARE(
            db.text("SELECT group_concat(complete) FROM (SELECT complete FROM processes ORDER BY process)"),
            QString("0,1"));
        QCOMPARE(db.integer("SELECT missing_events FROM processes WHERE process = 1"), 5);
        QCOMPARE(db.integer("SELECT complete FROM session"), 0);
        QCOMPARE(db.text("SELECT end_reason FROM processes WHERE process = 1"),
                 QString("session end received, 5 events missing"));
    }

    /// Appending (spool import) continues every process's space from the file: the recorded gaps are
    /// filled by the spooled events, the file knows the processes by instance.
    void appendContinuesTheProcesses() {
        QTemporaryDir dir;
        std::string error;
        const std::string path = (dir.path() + "/append.rsdb").toStdString();
        {
            auto store = SessionStore::open(path, SessionStore::Mode::create, error);
            QVERIFY2(store, error.c_str());
            const auto a = store->process({5, 50, 1});
            const auto b = store->process({6, 60, 1});
            for (std::uint64_t s = 1; s <= 10; ++s) {
                if (s != 4) {
                    QVERIFY(store->insert(a, rs::test::dispatchRecord(s, s)));
                }
                QVERIFY(store->insert(b, rs::test::dispatchRecord(s, s)));
            }
            QVERIFY(store->finish("connection closed without session end"));
        }
        {
            auto store = SessionStore::open(path, SessionStore::Mode::append, error);
            QVERIFY2(store, error.c_str());
            const auto b = store->process({6, 0, 0});
            const auto a = store->process({5, 0, 0});
            QCOMPARE(a, 1);
            QCOMPARE(b, 2);
            QCOMPARE(store->check_sequence(a, 4), SequenceVerdict::fresh);
            QCOMPARE(store->check_sequence(a, 5), SequenceVerdict::duplicate);
            QVERIFY(store->insert(a, rs::test::dispatchRecord(4, 4)));
            QVERIFY(store->insert(a, rs::test::dispatchRecord(5, 5))); // duplicate: skipped
            QVERIFY(store->insert(a, rs::test::sessionEndRecord(11, 11)));
            QVERIFY(store->insert(b, rs::test::sessionEndRecord(11, 11)));
            QCOMPARE(store->events_stored(), std::uint64_t{3});
            QVERIFY(store->finish("session end received"));
        }
        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM processes"), 2);
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 0);
        QCOMPARE(db.integer("SELECT events_stored FROM session"), 22);
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE process = 1"), 10);
    }

    /// A commit that fails (here: another writer holds the lock) rolls back: the store's counts return
    /// to what the file holds, the lost numbers become a gap, later commits go on.
    void failedCommitRollsTheCountsBack() {
        QTemporaryDir dir;
        std::string error;
        const std::string path = (dir.path() + "/busy.rsdb").toStdString();
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        const auto p = store->process({9, 90, 1});
        for (std::uint64_t s = 1; s <= 100; ++s) {
            QVERIFY(store->insert(p, rs::test::dispatchRecord(s, s)));
        }
        QVERIFY(store->commit());
        QCOMPARE(store->committed_events(), std::uint64_t{100});
        sqlite3* other = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
        QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
        for (std::uint64_t s = 101; s <= 150; ++s) {
            store->insert(p, rs::test::dispatchRecord(s, s)); // buffered: may succeed
        }
        QVERIFY(!store->commit());
        QCOMPARE(store->committed_events(), std::uint64_t{100});
        QCOMPARE(store->events_stored(), std::uint64_t{100});
        QCOMPARE(store->processes()[0].events_stored, std::uint64_t{100});
        QCOMPARE(store->processes()[0].dispatches, std::uint64_t{100});
        QCOMPARE(sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(other);
        for (std::uint64_t s = 151; s <= 200; ++s) {
            QVERIFY(store->insert(p, rs::test::dispatchRecord(s, s)));
        }
        QVERIFY(store->insert(p, rs::test::sessionEndRecord(201, 201)));
        QVERIFY(store->finish("session end received"));
        QCOMPARE(store->committed_events(), std::uint64_t{151});
        const auto processes = store->processes();
        QCOMPARE(processes[0].events_stored, std::uint64_t{151});
        QCOMPARE(processes[0].missing, std::uint64_t{50});
        QVERIFY(!processes[0].complete);
        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 150);
        QCOMPARE(db.integer("SELECT events_stored FROM session"), 151);
        QCOMPARE(db.text("SELECT first_seq || '-' || last_seq FROM sequence_gaps"), QString("101-150"));
    }

    /// A hostile stream of every other number: memory and the gap table follow what was received.
    void scatteredStreamIsBounded() {
        QTemporaryDir dir;
        std::string error;
        const std::string path = (dir.path() + "/scatter.rsdb").toStdString();
        auto store = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        const auto p = store->process({3, 30, 1});
        for (std::uint64_t s = 1; s <= 20000; s += 2) {
            QVERIFY(store->insert(p, rs::test::dispatchRecord(s, s)));
        }
        QVERIFY(store->finish("test"));
        QCOMPARE(store->processes()[0].missing, std::uint64_t{9999});
        rs::test::SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 9999);
    }
};

QTEST_GUILESS_MAIN(StoreSequencesTest)
#include "tst_ipc_store_sequences.moc"
