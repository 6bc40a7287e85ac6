// SPDX-License-Identifier: MIT
// Bad input on the socket: each refused with its logged message, nothing valid before it lost.
#include "test_support.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <cstddef>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rs::ipc;
using rs::test::connectTo;
using rs::test::sendBytes;
using rs::test::SessionDb;

namespace {

/// Hello + `n` valid dispatch frames (sequences 1..n).
std::vector<std::uint8_t> validPrefix(const std::string& token, std::uint64_t n) {
    std::vector<Record> records{rs::test::hello_record(token)};
    for (std::uint64_t i = 1; i <= n; ++i) {
        records.push_back(rs::test::dispatchRecord(i, i));
    }
    return rs::test::frames(records);
}

/// A bare frame header of `type` with `sequence` and `length` (no payload bytes appended), its checksum
/// that of the header alone: right for length 0; a caller that appends a payload reseals the frame.
std::vector<std::uint8_t> headerOnly(EventType type, std::uint64_t sequence, std::uint32_t length) {
    const FrameHeader header{kFrameMagic, kProtocolVersion, static_cast<std::uint16_t>(type), length,
                             0,           sequence};
    std::vector<std::uint8_t> bytes(kFrameHeaderBytes);
    std::memcpy(bytes.data(), &header, kFrameHeaderBytes);
    seal_frame(bytes.data(), kFrameHeaderBytes);
    return bytes;
}

void put16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v) {
    std::memcpy(b.data() + at, &v, 2);
}
void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    std::memcpy(b.data() + at, &v, 4);
}
void put64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
    std::memcpy(b.data() + at, &v, 8);
}

/// A SessionEnd payload built by hand whose `counts` vector has its length field at payload offset 24
/// (8-aligned), so its uint64 elements start at offset 28: 4- but not 8-aligned. The FlatBuffers 2.0
/// verifier accepts it (it aligns a vector's length field to 4 only); FlatBufferBuilder never writes it.
/// Layout: root offset -> table at 12; vtable at 4 (size 8, table size 8, ts absent, counts at +4);
/// table: soffset 8 (to the vtable), uoffset 8 (16 -> 24); vector: length 3, then 3 x uint64.
std::vector<std::uint8_t> misalignedSessionEndPayload(const std::uint64_t (&counts)[3]) {
    std::vector<std::uint8_t> p(56, 0);
    put32(p, 0, 12);       // root table offset
    put16(p, 4, 8);        // vtable bytes: itself (2 + 2) + 2 field slots
    put16(p, 6, 8);        // table bytes: soffset + one uoffset
    put16(p, 8, 0);        // field 0 (ts): absent
    put16(p, 10, 4);       // field 1 (counts): at table + 4
    put32(p, 12, 12 - 4);  // soffset: table - vtable
    put32(p, 16, 24 - 16); // uoffset of the counts vector, relative to this field
    put32(p, 24, 3);       // vector length
    for (std::size_t i = 0; i < 3; ++i) {
        put64(p, 28 + 8 * i, counts[i]);
    }
    return p;
}

/// What decode_frame made of one frame.
struct Decoded {
    FrameError error = FrameError::none;
    Record record{};
    FrameHeader header{};
    std::size_t consumed = 0;
};

/// Decodes `frame` copied to `shift` bytes past an 8-aligned address (an address that is not 8-aligned
/// takes the decoder's copy to an aligned buffer).
Decoded decodeAt(const std::vector<std::uint8_t>& frame, std::size_t shift) {
    std::vector<std::uint64_t> storage((frame.size() + shift) / 8 + 1, 0);
    auto* at = reinterpret_cast<std::uint8_t*>(storage.data()) + shift;
    std::memcpy(at, frame.data(), frame.size());
    Decoded d;
    d.error = decode_frame(at, frame.size(), kMaxPayloadBytes, d.record, d.header, d.consumed);
    return d;
}

/// Runs one session: `feed(collector)` talks to the socket; returns the session path after finish.
struct Session {
    QTemporaryDir dir;
    rs::test::LogCapture log;
    std::unique_ptr<Collector> collector;
    std::string path;
    CollectorSummary summary;
    Session() {
        path = (dir.path() + "/bad.rsdb").toStdString();
        std::string error;
        collector = Collector::create({path, false, log.function(), kMaxPayloadBytes}, error);
        if (collector) {
            collector->start();
        }
    }
    void finish() { summary = collector->finish(std::chrono::seconds(5)); }
    long long dispatches() const { return SessionDb(path).integer("SELECT count(*) FROM dispatches"); }
};

} // namespace

class BadInputTest : public QObject {
    Q_OBJECT
  private:
    /// Sends the valid prefix (5 dispatches) then `bad`, and checks the message and the 5 rows.
    void refusedAfterValidPrefix(const std::vector<std::uint8_t>& bad, const QString& message,
                                 bool close_after) {
        Session s;
        QVERIFY(s.collector);
        const int fd = connectTo(s.collector->socket_path());
        QVERIFY(fd >= 0);
        auto bytes = validPrefix(s.collector->token(), 5);
        bytes.insert(bytes.end(), bad.begin(), bad.end());
        QVERIFY(sendBytes(fd, bytes));
        if (close_after) {
            ::close(fd);
        } else {
            // The collector closes the connection itself: we see end of stream.
            char c;
            QVERIFY(::recv(fd, &c, 1, 0) <= 0); // closed by the collector (EOF or reset)
            ::close(fd);
        }
        s.finish();
        QVERIFY2(s.log.contains(message), qPrintable(s.log.lines().join('\n')));
        QCOMPARE(s.dispatches(), 5);
        QCOMPARE(s.summary.events_stored, 5u);
        SessionDb db(s.path);
        QCOMPARE(db.integer("SELECT complete FROM session"), 0);
        QCOMPARE(db.integer("SELECT last_sequence FROM session"), 5);
        QVERIFY(!db.text("SELECT end_reason FROM session").isEmpty());
    }

  private slots:
    void truncatedFrame() {
        auto frame = rs::test::frames({rs::test::dispatchRecord(6, 6)});
        frame.resize(frame.size() / 2);
        refusedAfterValidPrefix(frame, "truncated frame", true);
    }
    void wrongMagic() {
        auto frame = rs::test::frames({rs::test::dispatchRecord(6, 6)});
        frame[0] = 'Z';
        refusedAfterValidPrefix(frame, "wrong magic", false);
    }
    void oversizedLength() {
        auto frame = rs::test::frames({rs::test::dispatchRecord(6, 6)});
        const std::uint32_t huge = 512u << 20;
        std::memcpy(frame.data() + 8, &huge, 4);
        refusedAfterValidPrefix(frame, "oversized frame: length 536870912", false);
    }
    void garbagePayload() {
        auto frame = rs::test::frames({rs::test::dispatchRecord(6, 6)});
        for (std::size_t i = kFrameHeaderBytes; i < frame.size(); ++i) {
            frame[i] = static_cast<std::uint8_t>(0xA5 ^ i);
        }
        rs::test::resealFrame(frame); // as a sender wrote it: the verifier, not the checksum, refuses it
        refusedAfterValidPrefix(frame, "invalid dispatch payload", false);
    }
    void checksumMismatchOnTheSocket() {
        // One payload bit flipped: on the socket the connection ends (no resynchronisation: a stream
        // socket does not damage bytes, so this is a broken or hostile sender), the 5 rows before it kept.
        auto frame = rs::test::frames({rs::test::dispatchRecord(6, 6)});
        frame[kFrameHeaderBytes + 8] ^= 0x10;
        refusedAfterValidPrefix(frame, "checksum mismatch: dispatch frame (protocol 6", false);
    }
    // --- frame decoder: undefined behaviour (UBSan, asan preset) and header rules -------------------
    void zeroLengthPayloadRefusedAtAnyAlignment() {
        // A frame with an empty payload, once at an 8-aligned and once at an odd address: the odd one goes
        // through the copy to an aligned buffer, which for 0 bytes was memcpy(nullptr, p, 0).
        for (std::uint16_t type = 1; type < kEventTypeSlots; ++type) {
            const auto frame = headerOnly(static_cast<EventType>(type),
                                          type == static_cast<std::uint16_t>(EventType::hello) ? 0 : 1, 0);
            for (const std::size_t shift : {std::size_t{0}, std::size_t{1}, std::size_t{4}}) {
                const Decoded d = decodeAt(frame, shift);
                QCOMPARE(d.error, FrameError::invalid_payload);
                QCOMPARE(d.consumed, std::size_t{0});
            }
        }
    }
    void zeroLengthPayloadOnTheSocket() {
        refusedAfterValidPrefix(headerOnly(EventType::dispatch, 6, 0), "invalid dispatch payload (0 bytes",
                                false);
    }
    void sessionEndCountsAtFourByteAlignment() {
        const std::uint64_t counts[3] = {0x1122334455667788ull, 7, 0xFFFFFFFFFFFFFFFFull};
        const auto payload = misalignedSessionEndPayload(counts);
        auto frame = headerOnly(EventType::session_end, 9, static_cast<std::uint32_t>(payload.size()));
        frame.insert(frame.end(), payload.begin(), payload.end());
        rs::test::resealFrame(frame);
        // At an 8-aligned address (decoded in place) and at an odd one (copied to an aligned buffer first):
        // either way the elements sit at payload offset 28, 4 mod 8.
        for (const std::size_t shift : {std::size_t{0}, std::size_t{3}}) {
            const Decoded d = decodeAt(frame, shift);
            const Record& r = d.record;
            QVERIFY2(d.error == FrameError::none, describe(d.error, d.header).c_str());
            QCOMPARE(d.consumed, frame.size());
            QCOMPARE(r.type, EventType::session_end);
            QCOMPARE(r.sequence, 9ull);
            QCOMPARE(r.session_end.counts[0], 0x1122334455667788ull);
            QCOMPARE(r.session_end.counts[1], 7ull);
            QCOMPARE(r.session_end.counts[2], 0xFFFFFFFFFFFFFFFFull);
            for (std::size_t i = 3; i < kEventTypeSlots; ++i) {
                QCOMPARE(r.session_end.counts[i], 0ull);
            }
            QCOMPARE(r.session_end.last_sequence, 0ull);
        }
    }
    void headerRules_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<quint64>("sequence");
        QTest::addColumn<int>("version");
        QTest::addColumn<quint32>("checksum_word"); // of a frame before protocol 6
        QTest::addColumn<bool>("accepted");
        const int hello = static_cast<int>(EventType::hello);
        const int dispatch = static_cast<int>(EventType::dispatch);
        const int now = kProtocolVersion;
        QTest::newRow("hello 0") << hello << quint64{0} << now << quint32{0} << true;
        QTest::newRow("hello 1") << hello << quint64{1} << now << quint32{0} << false;
        QTest::newRow("dispatch 0") << dispatch << quint64{0} << now << quint32{0} << false;
        QTest::newRow("dispatch 1") << dispatch << quint64{1} << now << quint32{0} << true;
        QTest::newRow("dispatch 2^48-1")
            << dispatch << quint64{kMaxSequence - 1} << now << quint32{0} << true;
        QTest::newRow("dispatch 2^48") << dispatch << quint64{kMaxSequence} << now << quint32{0} << false;
        QTest::newRow("dispatch 2^62") << dispatch << (quint64{1} << 62) << now << quint32{0} << false;
        QTest::newRow("dispatch 2^64-1") << dispatch << ~quint64{0} << now << quint32{0} << false;
        QTest::newRow("protocol 5, word 0") << dispatch << quint64{1} << 5 << quint32{0} << true;
        QTest::newRow("protocol 5, word 1") << dispatch << quint64{1} << 5 << quint32{1} << false;
        QTest::newRow("protocol 4 hello, word") << hello << quint64{0} << 4 << quint32{0x80000000u} << false;
    }
    void headerRules() {
        QFETCH(int, type);
        QFETCH(quint64, sequence);
        QFETCH(int, version);
        QFETCH(quint32, checksum_word);
        QFETCH(bool, accepted);
        Record record = type == static_cast<int>(EventType::hello)
                            ? rs::test::hello_record(std::string(64, 'a'))
                            : rs::test::dispatchRecord(1, 1);
        auto frame = rs::test::frames({record});
        std::memcpy(frame.data() + offsetof(FrameHeader, sequence), &sequence, 8);
        rs::test::setFrameVersion(frame, static_cast<std::uint16_t>(version)); // checksum of the change
        if (checksum_word != 0) {
            std::memcpy(frame.data() + offsetof(FrameHeader, checksum), &checksum_word, 4);
        }
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        const FrameError err = decode_frame(frame.data(), frame.size(), kMaxPayloadBytes, r, h, n);
        QCOMPARE(err, accepted ? FrameError::none : FrameError::bad_header);
        if (accepted) {
            QCOMPARE(r.sequence, sequence);
        } else {
            const QString text = QString::fromStdString(describe(err, h));
            QVERIFY2(text.startsWith("bad frame header: ") && text.contains(QString::number(sequence)),
                     qPrintable(text));
        }
        // The header alone decides: a bad header is refused even before the payload has arrived.
        const FrameError head_only = decode_frame(frame.data(), kFrameHeaderBytes, kMaxPayloadBytes, r, h, n);
        QCOMPARE(head_only, accepted ? FrameError::incomplete : FrameError::bad_header);
    }
    void hugeSequenceOnTheSocket() {
        // The sequence a frame claims is never used before the header check: 2^62 ends the connection with
        // the five rows before it kept (it used to grow the gap bitmap to 2^56 words).
        auto frame = rs::test::frames({rs::test::dispatchRecord(std::uint64_t{1} << 62, 6)});
        refusedAfterValidPrefix(frame, "bad frame header: dispatch frame with sequence 4611686018427387904",
                                false);
    }
    void wrongToken() {
        Session s;
        const int fd = connectTo(s.collector->socket_path());
        QVERIFY(fd >= 0);
        auto bytes = validPrefix(std::string(64, 'f'), 3);
        QVERIFY(sendBytes(fd, bytes));
        char c;
        QVERIFY(::recv(fd, &c, 1, 0) <= 0); // closed by the collector (EOF or reset)
        ::close(fd);
        s.finish();
        QVERIFY(s.log.contains("wrong session token"));
        QCOMPARE(s.dispatches(), 0);
        QVERIFY(!s.summary.connected);
    }
    void firstFrameMustBeHello() {
        Session s;
        const int fd = connectTo(s.collector->socket_path());
        QVERIFY(sendBytes(fd, rs::test::frames({rs::test::dispatchRecord(1, 1)})));
        char c;
        QVERIFY(::recv(fd, &c, 1, 0) <= 0); // closed by the collector (EOF or reset)
        ::close(fd);
        s.finish();
        QVERIFY(s.log.contains("the first frame must be hello"));
        QCOMPARE(s.dispatches(), 0);
    }
    void earlyBadClientsTakeNothing() {
        // A silent client and a wrong-token client connect before the target: neither counts (no slot, no
        // process, no wait at finish) and the target loses nothing.
        Session s;
        const int silent = connectTo(s.collector->socket_path());
        QVERIFY(silent >= 0);
        const int impostor = connectTo(s.collector->socket_path());
        QVERIFY(impostor >= 0);
        QVERIFY(sendBytes(impostor, validPrefix(std::string(64, 'f'), 3)));
        const int target = connectTo(s.collector->socket_path());
        QVERIFY(target >= 0);
        QVERIFY(sendBytes(target, validPrefix(s.collector->token(), 200)));
        ::close(target);
        QTRY_VERIFY(s.log.contains("wrong session token"));
        QElapsedTimer timer;
        timer.start();
        s.finish(); // the silent client is still connected: it must not hold the finish up
        QVERIFY2(timer.elapsed() < 2500, qPrintable(QString::number(timer.elapsed())));
        ::close(silent);
        ::close(impostor);
        QCOMPARE(s.dispatches(), 200);
        QCOMPARE(s.summary.events_stored, 200u);
        QCOMPARE(SessionDb(s.path).integer("SELECT count(*) FROM processes"), 1);
    }
    void secondConnectionIsAnotherProcess() {
        // Two authenticated connections of two emitter instances: both stored, each in its own process and
        // sequence space (both count from 1).
        Session s;
        std::vector<int> fds;
        for (const std::uint64_t instance : {0x1111ull, 0x2222ull}) {
            Record hello = rs::test::hello_record(s.collector->token());
            hello.hello.instance = instance;
            std::vector<Record> records{hello};
            for (std::uint64_t i = 1; i <= 4; ++i) {
                records.push_back(rs::test::dispatchRecord(i, i));
            }
            fds.push_back(connectTo(s.collector->socket_path()));
            QVERIFY(fds.back() >= 0);
            QVERIFY(sendBytes(fds.back(), rs::test::frames(records)));
        }
        for (const int fd : fds) {
            ::close(fd);
        }
        s.finish();
        QCOMPARE(s.dispatches(), 8);
        SessionDb db(s.path);
        QCOMPARE(db.integer("SELECT count(*) FROM processes"), 2);
        QCOMPARE(db.integer("SELECT count(*) FROM processes WHERE last_sequence = 4"), 2);
        QCOMPARE(db.integer("SELECT count(DISTINCT process) FROM dispatches"), 2);
    }
    void anotherUidRefused() {
        if (::geteuid() != 0) {
            QSKIP("connecting as another uid needs root (setuid); the SO_PEERCRED check is exercised only as "
                  "root");
        }
        Session s;
        // Open the private directory so that the other uid reaches SO_PEERCRED (normally 0700 stops it
        // first).
        const std::string path = s.collector->socket_path();
        const std::string directory = path.substr(0, path.rfind('/'));
        QCOMPARE(::chmod(directory.c_str(), 0755), 0);
        QCOMPARE(::chmod(path.c_str(), 0777), 0);
        const auto hello = validPrefix(s.collector->token(), 2);
        const pid_t child = ::fork();
        if (child == 0) {
            if (::setgid(65534) != 0 || ::setuid(65534) != 0) {
                ::_exit(3);
            }
            const int fd = connectTo(path);
            if (fd < 0) {
                ::_exit(4);
            }
            (void)::send(fd, hello.data(), hello.size(), MSG_NOSIGNAL);
            char c;
            const ssize_t n = ::recv(fd, &c, 1, 0);
            ::_exit(n <= 0 ? 0 : 5); // closed by the collector
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QCOMPARE(WEXITSTATUS(status), 0);
        s.finish();
        QVERIFY2(s.log.contains("uid 65534 is not the session's uid"), qPrintable(s.log.lines().join('\n')));
        QCOMPARE(s.dispatches(), 0);
    }
};

QTEST_GUILESS_MAIN(BadInputTest)
#include "tst_ipc_bad_input.moc"
