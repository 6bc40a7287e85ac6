// SPDX-License-Identifier: MIT
// Processes as a dimension of the session pipeline: several emitters (threads of this process, and
// separate processes) into one collector, clients that connect before the target with a wrong token or
// say nothing, frames whose sequence number lies far outside the sender's window (live and in a spool),
// special files given as a spool, and the socket directory a killed collector leaves.
#include "test_support.h"

#include "replayscope/ipc/session_store.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <map>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>

using namespace rs::ipc;
using rs::test::connectTo;
using rs::test::sendBytes;
using rs::test::SessionDb;

namespace {

/// True when the peer closed `fd` within `timeout_ms` (recv returns 0 or an error).
bool closedByPeer(int fd, int timeout_ms) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) {
        return false;
    }
    char c;
    return ::recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

Record hello(const std::string& token, std::uint64_t instance, std::uint32_t pid) {
    Record r = rs::test::hello_record(token);
    r.hello.instance = instance;
    r.hello.pid = pid;
    r.hello.ppid = 1;
    return r;
}

/// Emits session_start and `n` dispatches through `e`, then stops it.
void emitDispatches(Emitter& e, std::uint64_t n, const std::string& command) {
    e.emit_session_start("/bin/test", command, "host", "test", "");
    for (std::uint64_t i = 1; i <= n; ++i) {
        e.emit_event(DispatchRecord{
            i, 1, 2, 3, 0, {static_cast<std::uint32_t>(i), 1, 1}, {1, 1, 1}, DispatchDecision::replayed});
    }
    e.stop(std::chrono::seconds(20), 0, 0);
}

/// A whole stream of one process: hello (instance, pid), `n` dispatches, session_end.
std::vector<std::uint8_t> processStream(const std::string& token, std::uint64_t instance, std::uint32_t pid,
                                        std::uint64_t n) {
    std::vector<Record> records{hello(token, instance, pid)};
    for (std::uint64_t i = 1; i <= n; ++i) {
        records.push_back(rs::test::dispatchRecord(i, i));
    }
    Record end{};
    end.type = EventType::session_end;
    end.sequence = n + 1;
    end.timestamp_ns = 1000 + n + 1;
    end.session_end.last_sequence = n + 1;
    end.session_end.counts[static_cast<std::size_t>(EventType::dispatch)] = n;
    end.session_end.counts[static_cast<std::size_t>(EventType::session_end)] = 1;
    end.session_end.exit_status = 0;
    records.push_back(end);
    return rs::test::frames(records);
}

/// Forks one child per stream that connects to `path`, sends its stream, half-closes and waits for the
/// collector to close; the children only make system calls (the streams are built before the fork; a
/// Hello encoded with rs::test::kChildPidPlaceholder gets the child's pid, as the collector wants).
/// Returns the children's pids.
std::vector<pid_t> forkClients(const std::string& path, std::vector<std::vector<std::uint8_t>> streams) {
    std::vector<pid_t> pids;
    for (auto& stream : streams) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            rs::test::setHelloPid(stream, static_cast<std::uint32_t>(::getpid()));
            const int fd = connectTo(path);
            const bool ok = fd >= 0 && sendBytes(fd, stream);
            if (ok) {
                ::shutdown(fd, SHUT_WR);
                char c;
                while (::read(fd, &c, 1) > 0) {
                }
            }
            ::_exit(ok ? 0 : 1);
        }
        pids.push_back(pid);
    }
    return pids;
}

/// Per-process rows of the session: pid -> (dispatches, events_stored, complete).
struct ProcessRow {
    long long dispatches, events, complete, missing;
};

/// Keyed by `key`: "pid" or "instance" (processes of one test process share its pid).
std::map<long long, ProcessRow> processRows(const SessionDb& db, const std::string& key = "pid") {
    std::map<long long, ProcessRow> rows;
    for (const auto& r : db.query("SELECT p." + key +
                                  ", (SELECT count(*) FROM dispatches d WHERE d.process = p.process), "
                                  "p.events_stored, p.complete, p.missing_events FROM processes p")) {
        rows[r[0].toLongLong()] = {r[1].toLongLong(), r[2].toLongLong(), r[3].toLongLong(),
                                   r[4].toLongLong()};
    }
    return rows;
}

/// A spool of one emitter (socket-less) with `n` dispatches; returns its path.
std::string writeSpool(const QTemporaryDir& dir, const std::string& name, std::uint64_t n) {
    const std::string spool = (dir.path() + "/" + QString::fromStdString(name)).toStdString();
    Emitter e;
    if (!e.start({std::string(), std::string(), spool, 64})) {
        return {};
    }
    emitDispatches(e, n, name);
    return spool;
}

/// Byte offsets of the frames of type `type` in `bytes`, in file order. Tests that damage a frame of a
/// given kind pick it here: where other frames (strings, statistics) fall among the dispatches depends on
/// the emitter's timing, so a position alone does not name a kind.
std::vector<std::size_t> frameOffsetsOfType(const std::vector<std::uint8_t>& bytes, EventType type) {
    std::vector<std::size_t> offsets;
    for (const std::size_t at : rs::test::frameOffsets(bytes)) {
        FrameHeader h{};
        std::memcpy(&h, bytes.data() + at, kFrameHeaderBytes);
        if (h.type == static_cast<std::uint16_t>(type)) {
            offsets.push_back(at);
        }
    }
    return offsets;
}

std::vector<std::uint8_t> readFile(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray data = f.readAll();
    return {data.begin(), data.end()};
}

bool writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size())) ==
               static_cast<qint64>(bytes.size());
}

long maxRssKb() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

class ProcessesTest : public QObject {
    Q_OBJECT
  private slots:
    /// A same-uid client with a wrong token, and one that stays silent, connect before the target: they
    /// take no slot, the target's emitter loses nothing, and finish() is not delayed by them.
    void earlyClientsCostTheTargetNothing() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/early.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        const int wrong = connectTo(collector->socket_path());
        const int silent = connectTo(collector->socket_path());
        QVERIFY(wrong >= 0 && silent >= 0);
        QVERIFY(sendBytes(wrong, rs::test::frames({hello(std::string(64, 'f'), 77, 777)})));
        Emitter e;
        const std::string spool = (dir.path() + "/early.spool").toStdString();
        QVERIFY(e.start({collector->socket_path(), collector->token(), spool, 1 << 16}));
        emitDispatches(e, 200000, "target");
        const auto stats = e.stats();
        QCOMPARE(stats.lost, 0u);
        QCOMPARE(stats.sent + stats.spooled, stats.accepted);
        QVERIFY(stats.sent > 0); // the target's connection was served, not refused
        QVERIFY(closedByPeer(wrong, 2000));
        // Once the target's stream is read, ending the session waits for nothing the clients hold.
        QTRY_VERIFY_WITH_TIMEOUT(collector->events_stored() >= stats.sent, 60000);
        QElapsedTimer timer;
        timer.start();
        const auto summary = collector->finish(std::chrono::seconds(10));
        // Waiting for the clients would last the whole 10 s drain; finishing the 200,000 rows' session
        // file (indexes, last commit) took up to 2.3 s on a loaded machine.
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(summary.processes.size(), std::size_t{1});
        QCOMPARE(summary.processes[0].identity.instance, e.instance());
        QCOMPARE(summary.refused_connections, 2u);
        if (stats.spooled > 0) { // queue overflow (a slow machine): the rest is in the spool
            const auto imported = SpoolImporter::import(spool, session);
            QVERIFY2(imported.ok, imported.message.c_str());
            QCOMPARE(imported.events_stored, stats.spooled);
            QVERIFY(imported.complete);
        } else {
            QVERIFY(summary.complete);
            QCOMPARE(summary.events_stored, stats.accepted);
            QCOMPARE(summary.processes[0].dispatches, 200000u);
        }
        QVERIFY(log.contains("wrong session token"));
        QVERIFY(closedByPeer(silent, 1000));
        ::close(wrong);
        ::close(silent);
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 200000);
        QCOMPARE(db.integer("SELECT count(*) FROM processes"), 1);
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
    }

    /// A silent client is closed after kHelloTimeout even while the session goes on.
    void silentClientClosedAfterTwoSeconds() {
        QTemporaryDir dir;
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create(
            {(dir.path() + "/silent.rsdb").toStdString(), false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        const int silent = connectTo(collector->socket_path());
        QVERIFY(silent >= 0);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(closedByPeer(silent, 5000));
        QVERIFY2(timer.elapsed() >= 1900 && timer.elapsed() < 4000,
                 qPrintable(QString::number(timer.elapsed())));
        ::close(silent);
        QVERIFY(log.contains("no valid hello"));
        const auto summary = collector->finish(std::chrono::seconds(1));
        QVERIFY(!summary.connected);
        QCOMPARE(summary.processes.size(), std::size_t{0});
    }

    /// 150 processes connect at once (more than a round's accepts and the pending limit): every one is
    /// read and stored, none is dropped before its hello was read.
    void manyConcurrentProcessesAllStored() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/flock.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        constexpr std::uint64_t kClients = 150;
        std::vector<std::vector<std::uint8_t>> streams;
        for (std::uint64_t i = 0; i < kClients; ++i) {
            streams.push_back(
                processStream(collector->token(), 1000 + i, rs::test::kChildPidPlaceholder, 10 + 3 * i));
        }
        const auto pids = forkClients(collector->socket_path(), streams);
        int failed = 0;
        for (const pid_t pid : pids) {
            int status = 0;
            ::waitpid(pid, &status, 0);
            failed += WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
        }
        QCOMPARE(failed, 0);
        const auto summary = collector->finish(std::chrono::seconds(10));
        QCOMPARE(summary.refused_connections, 0u);
        QCOMPARE(summary.processes.size(), std::size_t{kClients});
        QVERIFY(summary.complete);
        QVERIFY(!log.contains("dropped"));
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM processes WHERE complete = 1"),
                 static_cast<long long>(kClients));
        for (std::uint64_t i = 0; i < kClients; ++i) {
            QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE process = (SELECT process FROM "
                                "processes WHERE instance = " +
                                std::to_string(1000 + i) + ")"),
                     static_cast<long long>(10 + 3 * i));
        }
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
    }

    /// A Hello without a process instance, or of protocol 3, is refused (counted, logged): it would
    /// merge into another process's sequence space. The target next to it is recorded whole.
    void helloWithoutInstanceOrOldProtocolRefused_data() {
        QTest::addColumn<quint64>("instance");
        QTest::addColumn<int>("protocol");
        QTest::newRow("instance 0") << quint64{0} << int{kProtocolVersion};
        QTest::newRow("protocol 3") << quint64{0x77} << 3;
    }
    void helloWithoutInstanceOrOldProtocolRefused() {
        QFETCH(quint64, instance);
        QFETCH(int, protocol);
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/old.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        Emitter good;
        QVERIFY(good.start({collector->socket_path(), collector->token(), std::string(), 1 << 16}));
        std::vector<Record> records{hello(collector->token(), instance, 555)};
        records[0].hello.protocol_version = static_cast<std::uint16_t>(protocol);
        for (std::uint64_t i = 1; i <= 100; ++i) {
            records.push_back(rs::test::dispatchRecord(i, i));
        }
        const int old = connectTo(collector->socket_path());
        QVERIFY(old >= 0);
        QVERIFY(sendBytes(old, rs::test::frames(records)));
        QVERIFY(closedByPeer(old, 3000));
        ::close(old);
        emitDispatches(good, 300, "good");
        const auto summary = collector->finish(std::chrono::seconds(10));
        QCOMPARE(summary.refused_connections, 1u);
        QCOMPARE(summary.processes.size(), std::size_t{1});
        QCOMPARE(summary.processes[0].identity.instance, good.instance());
        QVERIFY(summary.complete);
        QVERIFY(log.contains(instance == 0 ? "without a process instance" : "protocol version 3"));
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 300);
        QCOMPARE(db.integer("SELECT count(*) FROM processes WHERE pid = 555"), 0);
    }

    /// A process instance already authenticated by one peer is refused to another pid (SO_PEERCRED): its
    /// events would otherwise be dropped as the first's duplicates.
    void knownInstanceFromAnotherPidRefused() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/twin.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        const int first = connectTo(collector->socket_path());
        QVERIFY(first >= 0);
        QVERIFY(sendBytes(
            first, processStream(collector->token(), 0xabcd, static_cast<std::uint32_t>(::getpid()), 50)));
        QTRY_VERIFY_WITH_TIMEOUT(collector->events_stored() >= 51, 5000);
        const auto pids =
            forkClients(collector->socket_path(),
                        {processStream(collector->token(), 0xabcd, rs::test::kChildPidPlaceholder, 80)});
        int status = 0;
        ::waitpid(pids[0], &status, 0);
        QVERIFY(WIFEXITED(status));
        ::shutdown(first, SHUT_WR);
        QVERIFY(closedByPeer(first, 3000));
        ::close(first);
        const auto summary = collector->finish(std::chrono::seconds(10));
        QCOMPARE(summary.refused_connections, 1u);
        QCOMPARE(summary.processes.size(), std::size_t{1});
        QVERIFY(log.contains("belongs to pid " + QString::number(::getpid())));
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 50);
        QCOMPARE(db.integer("SELECT complete FROM processes"), 1);
    }

    /// Spools without a Hello (protocol 1-3 writers) are each a process of their own, never merged into
    /// the session's first process or into each other; importing one again adds nothing.
    void spoolWithoutHelloIsItsOwnProcess() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/legacy.rsdb").toStdString();
        const std::string live = writeSpool(dir, "live.spool", 400);
        QVERIFY(SpoolImporter::import(live, session).ok);
        for (const auto& [name, n] : {std::pair{"old1.spool", 700}, std::pair{"old2.spool", 200}}) {
            const std::string spool = writeSpool(dir, name, n);
            auto bytes = readFile(spool);
            const auto offsets = rs::test::frameOffsets(bytes);
            QVERIFY(offsets.size() > 2);
            QCOMPARE(frameOffsetsOfType(bytes, EventType::hello), std::vector<std::size_t>{0});
            bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offsets[1])); // the Hello
            QVERIFY(writeFile(spool, bytes));
            const auto result = SpoolImporter::import(spool, session);
            QVERIFY2(result.ok, result.message.c_str());
            QCOMPARE(result.events_stored, static_cast<std::uint64_t>(n + 7));
            QCOMPARE(SpoolImporter::import(spool, session).events_stored, 0u);
        }
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM processes"), 3);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 1300);
        QCOMPARE(db.integer("SELECT count(*) FROM processes WHERE complete = 1"), 3);
    }

    /// A spool write cut short (the file size limit here, as a full disk that later clears) leaves no
    /// torn frame: the writer truncates back to the last complete frame, so that everything written
    /// after the error cleared imports (before, the import stopped at the torn frame).
    void shortSpoolWriteLeavesNoTornFrame() {
        QTemporaryDir dir;
        const std::string spool = (dir.path() + "/short.spool").toStdString();
        const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit saved{};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
        Emitter e;
        QVERIFY(e.start({std::string(), std::string(), spool, 64}));
        e.emit_session_start("/bin/short", "short", "host", "test", "");
        rlimit small = saved;
        small.rlim_cur = 50000; // not a multiple of any frame size: the write at the limit is short
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        std::uint64_t id = 0;
        QElapsedTimer timer;
        timer.start();
        while (e.stats().lost == 0 && timer.elapsed() < 5000) {
            ++id;
            e.emit_event(DispatchRecord{id, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed});
        }
        for (int i = 0; i < 100; ++i) { // more that fail while the limit holds
            ++id;
            e.emit_event(DispatchRecord{id, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed});
        }
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &saved) == 0);
        std::signal(SIGXFSZ, old_handler);
        QVERIFY(e.stats().lost > 0);
        for (int i = 0; i < 3000; ++i) {
            ++id;
            e.emit_event(DispatchRecord{id, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed});
        }
        e.stop(std::chrono::seconds(5), 0, 0);
        const auto stats = e.stats();
        QVERIFY(stats.lost > 0 && stats.spooled > 3000);
        const std::string session = (dir.path() + "/short.rsdb").toStdString();
        const auto result = SpoolImporter::import(spool, session);
        QVERIFY2(result.ok, result.message.c_str());
        QCOMPARE(result.skipped_bytes, 0u);
        QCOMPARE(result.rejected_frames, 0u);
        QVERIFY2(result.message.empty(), result.message.c_str());
        QCOMPARE(result.events_stored, stats.spooled);
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT max(id) FROM dispatches"), static_cast<long long>(id));
        QCOMPARE(db.integer("SELECT missing_events FROM processes"), static_cast<long long>(stats.lost));
    }

    /// The importer resynchronises after bytes that are no frame (damage, or a torn frame of an older
    /// writer): it skips to the next frame magic, counts the bytes skipped, and imports the rest.
    void importerResynchronisesAfterGarbage() {
        QTemporaryDir dir;
        const std::string spool = writeSpool(dir, "garbage.spool", 2000);
        auto bytes = readFile(spool);
        const auto offsets = rs::test::frameOffsets(bytes);
        QVERIFY(offsets.size() > 1500);
        // Cut a dispatch frame near the middle short after 30 bytes (a torn frame), as an old writer left
        // it; the frames' order in the spool depends on the overflow path, so their ids are read.
        auto dispatchId = [&](std::size_t index) -> long long {
            Record r;
            FrameHeader h{};
            std::size_t used = 0;
            return decode_frame(bytes.data() + offsets[index], bytes.size() - offsets[index],
                                kMaxPayloadBytes, r, h, used) == FrameError::none &&
                           r.type == EventType::dispatch
                       ? static_cast<long long>(r.dispatch.id)
                       : -1;
        };
        std::size_t index = 1000;
        while (dispatchId(index) < 0 || dispatchId(index + 1) < 0) {
            ++index;
        }
        const long long torn_id = dispatchId(index), swallowed_id = dispatchId(index + 1);
        const std::size_t torn = offsets[index];
        const std::size_t next = offsets[index + 1];
        bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(torn + 30),
                    bytes.begin() + static_cast<std::ptrdiff_t>(next));
        QVERIFY(writeFile(spool, bytes));
        const std::string session = (dir.path() + "/garbage.rsdb").toStdString();
        const auto result = SpoolImporter::import(spool, session);
        QVERIFY2(result.ok, result.message.c_str());
        QCOMPARE(result.skipped_bytes, 30u);
        QVERIFY2(result.message.find("skipped") != std::string::npos, result.message.c_str());
        SessionDb db(session);
        // The torn frame's checksum fails (its length would take the start of the next frame with it):
        // the import resynchronises at the next frame, its 30 bytes skipped; every other frame is stored
        // (the import once stopped here and lost the last 999 dispatches, then lost the next one too).
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 1999);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE id = " + std::to_string(torn_id)), 0);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE id = " + std::to_string(swallowed_id)), 1);
        QCOMPARE(db.integer("SELECT missing_events FROM processes"), 1);
        QCOMPARE(result.rejected_frames, 1u);
    }

    /// A spool whose writer still lives reports so (the runner leaves it for later instead of importing
    /// and removing what is still growing); once the writer has stopped it does not.
    void liveSpoolWriterSeen() {
        QTemporaryDir dir;
        const std::string spool = (dir.path() + "/live.spool").toStdString();
        auto e = std::make_unique<Emitter>();
        QVERIFY(e->start({std::string(), std::string(), spool, 64}));
        e->emit_session_start("/bin/live", "live", "host", "test", "");
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(QString::fromStdString(spool)).size() > 0, 5000);
        QVERIFY(SpoolImporter::writer_alive(spool));
        e->stop(std::chrono::seconds(5), 0, 0);
        e.reset();
        QVERIFY(!SpoolImporter::writer_alive(spool));
        QVERIFY(!SpoolImporter::writer_alive(spool + ".none"));
    }

    /// Two and three emitters at once (sequence numbers overlap: each counts from 1), of different sizes,
    /// into one collector: every event of every process stored under its process, counts equal, the
    /// session complete.
    void concurrentEmittersEachRecorded_data() {
        QTest::addColumn<QList<int>>("sizes_list");
        QTest::newRow("two") << QList<int>{1000, 3000};
        QTest::newRow("three") << QList<int>{1000, 30000, 300};
    }
    void concurrentEmittersEachRecorded() {
        QFETCH(QList<int>, sizes_list);
        const std::vector<int> sizes(sizes_list.begin(), sizes_list.end()); // read by the threads
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/many.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        std::vector<std::unique_ptr<Emitter>> emitters;
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            emitters.push_back(std::make_unique<Emitter>());
            QVERIFY(emitters.back()->start({collector->socket_path(), collector->token(),
                                            (dir.path() + "/e" + QString::number(i) + ".spool").toStdString(),
                                            1 << 16}));
        }
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            threads.emplace_back(
                [&, i] { emitDispatches(*emitters[i], sizes[i], "emitter " + std::to_string(i)); });
        }
        for (auto& t : threads) {
            t.join();
        }
        auto summary = collector->finish(std::chrono::seconds(10));
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            QCOMPARE(emitters[i]->stats().lost, 0u);
            if (emitters[i]->stats().spooled > 0) { // queue overflow: imported as replayscope-run does
                const auto imported = SpoolImporter::import(
                    (dir.path() + "/e" + QString::number(i) + ".spool").toStdString(), session);
                QVERIFY2(imported.ok, imported.message.c_str());
            }
        }
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM processes"), static_cast<long long>(sizes.size()));
        QCOMPARE(db.integer("SELECT count(DISTINCT instance) FROM processes"),
                 static_cast<long long>(sizes.size()));
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const std::string where =
                " WHERE instance = " + std::to_string(static_cast<long long>(emitters[i]->instance()));
            QCOMPARE(
                db.integer("SELECT count(*) FROM dispatches WHERE process = (SELECT process FROM processes" +
                           where + ")"),
                static_cast<long long>(sizes[i]));
            // session_start, one string per interned text (5), the dispatches, session_end.
            QCOMPARE(db.integer("SELECT events_stored FROM processes" + where),
                     static_cast<long long>(emitters[i]->stats().accepted));
            QCOMPARE(db.integer("SELECT complete FROM processes" + where), 1);
            QCOMPARE(db.integer("SELECT missing_events FROM processes" + where), 0);
            QCOMPARE(db.integer("SELECT sent FROM event_counts WHERE name = 'dispatch' AND process = "
                                "(SELECT process FROM processes" +
                                where + ")"),
                     static_cast<long long>(sizes[i]));
        }
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("SELECT process_count FROM session"), static_cast<long long>(sizes.size()));
        if (std::none_of(emitters.begin(), emitters.end(),
                         [](const auto& e) { return e->stats().spooled > 0; })) {
            QVERIFY(summary.complete);
            QCOMPARE(summary.processes.size(), static_cast<std::size_t>(sizes.size()));
        }
    }

    /// Separate processes (the crash-test sender, started twice at once) into one collector.
    void separateProcessesEachRecorded() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/procs.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        const std::vector<std::string> env{"REPLAYSCOPE_SOCKET=" + collector->socket_path(),
                                           "REPLAYSCOPE_TOKEN=" + collector->token(),
                                           "REPLAYSCOPE_SPOOL=" + (dir.path() + "/p.spool.%p").toStdString()};
        rs::test::ChildProcess a, b;
        QVERIFY(a.start(RS_TEST_SENDER, {"2000", "0"}, env));
        QVERIFY(b.start(RS_TEST_SENDER, {"7000", "0"}, env));
        a.readAll(20000);
        b.readAll(20000);
        QCOMPARE(a.wait(), 0);
        QCOMPARE(b.wait(), 0);
        const auto summary = collector->finish(std::chrono::seconds(10));
        for (const QString& spool : QDir(dir.path()).entryList({"p.spool.*"})) {
            QVERIFY(SpoolImporter::import((dir.path() + "/" + spool).toStdString(), session).ok);
        }
        SessionDb db(session);
        const auto rows = processRows(db);
        QCOMPARE(rows.size(), std::size_t{2});
        QCOMPARE(rows.at(a.pid()).dispatches, 2000);
        QCOMPARE(rows.at(b.pid()).dispatches, 7000);
        QCOMPARE(rows.at(a.pid()).complete, 1);
        QCOMPARE(rows.at(b.pid()).complete, 1);
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(
            db.integer("SELECT count(*) FROM processes WHERE parent_pid = " + std::to_string(::getpid())), 2);
        QVERIFY(summary.connected);
    }

    /// A live frame whose sequence is 2^62 (a bad header) or 2^34 (beyond the window) closes only its
    /// connection: counted as rejected, the events before it kept, the other process unharmed.
    void outOfWindowSequenceClosesOnlyItsConnection_data() {
        QTest::addColumn<quint64>("sequence");
        QTest::newRow("2^62") << (quint64{1} << 62);
        QTest::newRow("2^34") << (quint64{1} << 34);
    }
    void outOfWindowSequenceClosesOnlyItsConnection() {
        QFETCH(quint64, sequence);
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/bad.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        Emitter good;
        QVERIFY(good.start({collector->socket_path(), collector->token(), std::string(), 1 << 16}));
        const int bad = connectTo(collector->socket_path());
        QVERIFY(bad >= 0);
        std::vector<Record> records{
            hello(collector->token(), 0x1234, static_cast<std::uint32_t>(::getpid()))};
        for (std::uint64_t i = 1; i <= 10; ++i) {
            records.push_back(rs::test::dispatchRecord(i, i));
        }
        records.push_back(rs::test::dispatchRecord(sequence, 11));
        records.push_back(rs::test::dispatchRecord(12, 12));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(sendBytes(bad, rs::test::frames(records)));
        QVERIFY(closedByPeer(bad, 5000));
        ::close(bad);
        emitDispatches(good, 5000, "good");
        const auto summary = collector->finish(std::chrono::seconds(10));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(summary.rejected_frames, 1u);
        QCOMPARE(summary.processes.size(), std::size_t{2});
        QVERIFY(!summary.complete);
        SessionDb db(session);
        const auto rows = processRows(db, "instance"); // both processes are this test's pid
        QCOMPARE(rows.at(0x1234).dispatches, 10);      // before the bad frame: kept; after it: never read
        QCOMPARE(rows.at(0x1234).complete, 0);
        QVERIFY(rows.at(0x1234).missing < 100); // never a number the frame claims
        QCOMPARE(rows.at(static_cast<long long>(good.instance())).dispatches, 5000);
        QCOMPARE(rows.at(static_cast<long long>(good.instance())).complete, 1);
        QCOMPARE(db.integer("SELECT rejected_frames FROM processes WHERE instance = 4660"), 1);
        QCOMPARE(db.integer("SELECT rejected_frames FROM session"), 1);
    }

    /// A spool with one frame's sequence rewritten to 2^62 or 2^34 imports in bounded time and memory:
    /// that frame is skipped and counted, every other one stored, one event missing (not 2^34).
    void rewrittenSpoolSequenceBounded_data() {
        QTest::addColumn<int>("shift");
        QTest::newRow("2^62") << 62;
        QTest::newRow("2^34") << 34;
    }
    void rewrittenSpoolSequenceBounded() {
        QFETCH(int, shift);
        QTemporaryDir dir;
        const std::string spool = writeSpool(dir, "r.spool", 1000);
        QVERIFY(!spool.empty());
        auto bytes = readFile(spool);
        // Rewrite the middle dispatch frame (chosen by type: other frames fall among them by timing).
        const auto dispatches = frameOffsetsOfType(bytes, EventType::dispatch);
        QCOMPARE(dispatches.size(), std::size_t{1000});
        const std::size_t victim = dispatches[dispatches.size() / 2];
        const std::uint64_t huge = std::uint64_t{1} << shift;
        std::memcpy(bytes.data() + victim + offsetof(FrameHeader, sequence), &huge, sizeof huge);
        QVERIFY(writeFile(spool, bytes));
        const std::string session = (dir.path() + "/r.rsdb").toStdString();
        const long rss_before = maxRssKb();
        QElapsedTimer timer;
        timer.start();
        const auto result = SpoolImporter::import(spool, session);
        QVERIFY2(result.ok, result.message.c_str());
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(maxRssKb() - rss_before < 200 * 1024); // far below what 2^34 numbers would need
        // 2^62 breaks a header rule; 2^34 fails the frame's checksum and is resynchronised over.
        QCOMPARE(result.rejected_frames, 1u);
        QVERIFY(!result.complete);
        QCOMPARE(result.processes.size(), std::size_t{1});
        QCOMPARE(result.processes[0].missing, 1u);
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 999);
        QCOMPARE(db.integer("SELECT rejected_frames FROM session"), 1);
        QCOMPARE(db.integer("SELECT missing_events FROM session"), 1);
        QCOMPARE(db.text("PRAGMA journal_mode"), QString("delete"));
    }

    /// Two emitters given one spool path (as a program image exec'd in the same pid is): the second never
    /// opens the file the first created, it creates `PATH.1`; the two spools imported together (one
    /// import, one finish) attribute each frame to its process through the hello frames.
    void sharedSpoolAttributedPerProcess() {
        QTemporaryDir dir;
        const std::string spool = (dir.path() + "/shared.spool").toStdString();
        Emitter a, b;
        QVERIFY(a.start({std::string(), std::string(), spool, 64}));
        QVERIFY(b.start({std::string(), std::string(), spool, 64}));
        a.emit_session_start("/bin/a", "a", "host", "test", "");
        b.emit_session_start("/bin/b", "b", "host", "test", "");
        for (std::uint64_t i = 1; i <= 3000; ++i) {
            a.emit_event(DispatchRecord{i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed});
            if (i <= 1000) {
                b.emit_event(DispatchRecord{i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed});
            }
        }
        a.stop(std::chrono::seconds(5), 0, 0);
        b.stop(std::chrono::seconds(5), 0, 7);
        const std::string session = (dir.path() + "/shared.rsdb").toStdString();
        QVERIFY(QFileInfo(QString::fromStdString(spool + ".1")).size() > 0);
        const auto result = SpoolImporter::import_all({spool, spool + ".1"}, session);
        QVERIFY2(result.ok, result.message.c_str());
        QVERIFY(result.complete);
        QCOMPARE(result.rejected_frames, 0u);
        QCOMPARE(result.spools.size(), std::size_t{2});
        QVERIFY(result.spools[0].ok && result.spools[1].ok);
        QCOMPARE(result.spools[0].events_stored + result.spools[1].events_stored, result.events_stored);
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM processes"), 2);
        for (const auto& [emitter, n] : {std::pair{&a, 3000}, std::pair{&b, 1000}}) {
            const std::string process = "(SELECT process FROM processes WHERE instance = " +
                                        std::to_string(static_cast<long long>(emitter->instance())) + ")";
            QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE process = " + process), n);
            QCOMPARE(db.integer("SELECT complete FROM processes WHERE process = " + process), 1);
        }
        // The exit status each emitter's session end carried.
        QCOMPARE(db.integer("SELECT exit_status FROM processes WHERE instance = " +
                            std::to_string(static_cast<long long>(b.instance()))),
                 7);
        QCOMPARE(db.text("PRAGMA journal_mode"), QString("delete"));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(session + "-wal")));
    }

    /// The sender's window rule: while its peer does not read, the overflow path spools a long run of
    /// sequence numbers; the records queued after that would jump the socket stream past the window, so
    /// the sender writes them, and everything after, to the spool and closes the socket. Nothing is lost
    /// and no frame on the socket is more than the window past the highest one before it.
    void senderNeverJumpsTheWindow() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/raw.sock").toStdString();
        const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
        QCOMPARE(::bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
        QCOMPARE(::listen(listener, 1), 0);
        const std::string spool = (dir.path() + "/w.spool").toStdString();
        EmitterConfig config{path, std::string(64, 'a'), spool, 64};
        config.sequence_window = 1000;
        Emitter e;
        QVERIFY(e.start(config));
        const int peer = ::accept(listener, nullptr, nullptr);
        QVERIFY(peer >= 0);
        // Phase 1: nobody reads; the socket buffer fills, the queue fills, the rest is spooled.
        for (std::uint64_t i = 1; i <= 200000; ++i) {
            QVERIFY(e.emit_event(
                DispatchRecord{i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed}));
        }
        QVERIFY(e.stats().spooled > 100000);
        // Phase 2: the peer reads; new records have sequence numbers far past what the socket carried.
        std::vector<std::uint8_t> stream;
        std::thread reader([&] {
            std::uint8_t chunk[65536];
            for (;;) {
                const ssize_t n = ::recv(peer, chunk, sizeof chunk, 0);
                if (n <= 0) {
                    break;
                }
                stream.insert(stream.end(), chunk, chunk + n);
            }
        });
        for (std::uint64_t i = 200001; i <= 201000; ++i) {
            QVERIFY(e.emit_event(
                DispatchRecord{i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed}));
        }
        QVERIFY(e.stop(std::chrono::seconds(10)));
        reader.join();
        ::close(peer);
        ::close(listener);
        const auto stats = e.stats();
        QCOMPARE(stats.lost, 0u);
        QCOMPARE(stats.sent + stats.spooled, stats.accepted);
        QVERIFY(!stats.connected);
        // The socket stream: hello, then frames each within the window of the highest before it.
        std::uint64_t highest = 0, frames_on_socket = 0, last_on_socket = 0;
        for (const std::size_t at : rs::test::frameOffsets(stream)) {
            FrameHeader h{};
            std::memcpy(&h, stream.data() + at, kFrameHeaderBytes);
            if (h.type == static_cast<std::uint16_t>(EventType::hello)) {
                continue;
            }
            QVERIFY2(h.sequence <= highest + 1000,
                     qPrintable(QString("%1 after %2").arg(h.sequence).arg(highest)));
            highest = std::max<std::uint64_t>(highest, h.sequence);
            last_on_socket = h.sequence;
            ++frames_on_socket;
        }
        QCOMPARE(frames_on_socket, stats.sent);
        QVERIFY(last_on_socket < 200000); // the phase-2 records and the session end went to the spool
        // Socket stream and spool together: every record, one process, complete.
        QVERIFY(writeFile((dir.path() + "/socket.frames").toStdString(), stream));
        const std::string session = (dir.path() + "/w.rsdb").toStdString();
        QVERIFY(SpoolImporter::import((dir.path() + "/socket.frames").toStdString(), session).ok);
        const auto imported = SpoolImporter::import(spool, session);
        QVERIFY2(imported.ok, imported.message.c_str());
        QVERIFY(imported.complete);
        QCOMPARE(imported.processes.size(), std::size_t{1});
        QCOMPARE(imported.processes[0].dispatches, 201000u);
    }

    /// '%p' in the spool path becomes the emitter's pid.
    void spoolPathExpandsPid() {
        QTemporaryDir dir;
        Emitter e;
        QVERIFY(e.start({std::string(), std::string(), (dir.path() + "/x.spool.%p").toStdString(), 64}));
        QVERIFY(e.emit_event(FreeRecord{1, 2}));
        QVERIFY(e.stop(std::chrono::seconds(2)));
        QVERIFY(QFileInfo::exists(dir.path() + "/x.spool." + QString::number(::getpid())));
        QVERIFY(!QFileInfo::exists(dir.path() + "/x.spool.%p"));
    }

    /// A FIFO (or another special file) given as a spool is refused at once, never opened for reading
    /// (which would wait for a writer forever).
    void fifoSpoolRefusedAtOnce() {
        QTemporaryDir dir;
        const std::string fifo = (dir.path() + "/fifo.spool").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QElapsedTimer timer;
        timer.start();
        const auto result = SpoolImporter::import(fifo, (dir.path() + "/f.rsdb").toStdString());
        QVERIFY(!result.ok);
        QVERIFY2(result.message.find("not a regular file") != std::string::npos, result.message.c_str());
        QVERIFY(timer.elapsed() < 1000);
        QVERIFY(!QFileInfo::exists(dir.path() + "/f.rsdb"));
        const auto device = SpoolImporter::import("/dev/zero", (dir.path() + "/z.rsdb").toStdString());
        QVERIFY(!device.ok);
        QVERIFY2(device.message.find("a character device") != std::string::npos, device.message.c_str());
        // replayscope-run --import-spool too: exits 125 at once instead of hanging.
        rs::test::ChildProcess run;
        QVERIFY(run.start(RS_REPLAYSCOPE_RUN,
                          {"--import-spool", fifo, "-o", (dir.path() + "/g.rsdb").toStdString()}));
        const std::string output = run.readAll(5000);
        const int status = run.wait();
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 125);
        QVERIFY2(output.find("not a regular file") != std::string::npos, output.c_str());
        QVERIFY(timer.elapsed() < 5000);
    }

    /// A directory left by a killed collector (its collector.pid names a dead process) is removed when
    /// the next socket is created; a live collector's, another name's, or one without a pid file stay.
    void staleSocketDirectoriesRemoved() {
        QTemporaryDir base;
        const QString stale = base.path() + "/replayscope-stale1";
        const QString live = base.path() + "/replayscope-live01";
        const QString nopid = base.path() + "/replayscope-nopid1";
        const QString other = base.path() + "/unrelated-dir";
        for (const QString& d : {stale, live, nopid, other}) {
            QVERIFY(QDir().mkdir(d));
        }
        // A pid that is surely dead: a child that exited and was reaped.
        const pid_t dead = ::fork();
        if (dead == 0) {
            ::_exit(0);
        }
        ::waitpid(dead, nullptr, 0);
        auto writePid = [](const QString& directory, pid_t pid) {
            QFile f(directory + "/collector.pid");
            return f.open(QIODevice::WriteOnly) && f.write(QByteArray::number(pid) + "\n") > 0;
        };
        QVERIFY(writePid(stale, dead));
        QVERIFY(writePid(other, dead));
        QVERIFY(writePid(live, ::getpid()));
        // A collector in another pid namespace: its pid means nothing here (a dead one), but it holds
        // the pid file's lock.
        const QString foreign = base.path() + "/replayscope-netns1";
        QVERIFY(QDir().mkdir(foreign));
        QVERIFY(writePid(foreign, dead));
        const int foreign_lock = ::open((foreign + "/collector.pid").toLocal8Bit().constData(), O_RDONLY);
        QVERIFY(foreign_lock >= 0 && ::flock(foreign_lock, LOCK_EX) == 0);
        QFile leftover(stale + "/session.sock");
        QVERIFY(leftover.open(QIODevice::WriteOnly));
        leftover.close();
        QCOMPARE(SessionSocket::remove_stale_socket_directories(base.path().toStdString()), std::size_t{1});
        QVERIFY(!QFileInfo::exists(stale));
        QVERIFY(QFileInfo::exists(live));
        QVERIFY(QFileInfo::exists(nopid));
        QVERIFY(QFileInfo::exists(other));
        QVERIFY(QFileInfo::exists(foreign));
        ::close(foreign_lock);
        QCOMPARE(SessionSocket::remove_stale_socket_directories(base.path().toStdString()), std::size_t{1});
        QVERIFY(!QFileInfo::exists(foreign));
        // A real socket directory carries the pid file and is gone with its socket.
        std::string error;
        auto socket = SessionSocket::create(error);
        QVERIFY2(socket, error.c_str());
        // The socket lies directly in its directory.
        const QString directory = QFileInfo(QString::fromStdString(socket->path())).absolutePath();
        QFile pid(directory + "/collector.pid");
        QVERIFY(pid.open(QIODevice::ReadOnly));
        QCOMPARE(pid.readAll().trimmed().toLongLong(), static_cast<long long>(::getpid()));
        pid.close();
        {
            // Its pid file is locked while the socket lives.
            const int probe = ::open((directory + "/collector.pid").toLocal8Bit().constData(), O_RDONLY);
            QVERIFY(probe >= 0);
            QVERIFY(::flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK);
            ::close(probe);
        }
        socket.reset();
        QVERIFY(!QFileInfo::exists(directory));
    }
};

QTEST_GUILESS_MAIN(ProcessesTest)
#include "tst_ipc_processes.moc"
