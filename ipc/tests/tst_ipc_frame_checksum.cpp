// SPDX-License-Identifier: MIT
// Frame checksums (protocol 6): the value, the decoder's verdicts, resynchronisation after damaged frames
// in spools (nothing valid lost, the damaged frame exactly one missing event) and the Hello's pid checked
// against the peer's credentials (docs/reliability.md, "Frames", "Spool files", "Connections").
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstddef>
#include <cstring>

#include <sched.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rs::ipc;
using rs::test::SessionDb;

namespace {

/// Frames of one spool: Hello (token all '0', as spools carry), dispatches 1..n, session_end n + 1.
std::vector<std::uint8_t> spoolBytes(std::uint64_t n) {
    std::vector<Record> records{rs::test::hello_record(std::string(64, '0'))};
    for (std::uint64_t i = 1; i <= n; ++i) {
        records.push_back(rs::test::dispatchRecord(i, i));
    }
    records.push_back(rs::test::sessionEndRecord(n + 1, n + 1));
    return rs::test::frames(records);
}

bool writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::WriteOnly) &&
           f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size())) ==
               static_cast<qint64>(bytes.size());
}

/// Imports `bytes` as a spool into a new session in `dir`.
SpoolImporter::Result importBytes(const QTemporaryDir& dir, const std::vector<std::uint8_t>& bytes,
                                  std::string& session) {
    const std::string spool = (dir.path() + "/damaged.spool").toStdString();
    session = (dir.path() + "/damaged.rsdb").toStdString();
    if (!writeFile(spool, bytes)) {
        return {};
    }
    return SpoolImporter::import(spool, session);
}

constexpr std::uint64_t kDispatches = 1000;
/// Frame index of dispatch `sequence` in spoolBytes (the Hello is frame 0).
constexpr std::size_t frameOf(std::uint64_t sequence) {
    return static_cast<std::size_t>(sequence);
}

} // namespace

class FrameChecksumTest : public QObject {
    Q_OBJECT
  private:
    /// The import of a 1000-dispatch spool in which dispatch `damaged` alone was damaged: the 999 others
    /// and the session_end are stored, exactly that one is missing, the damage is one rejected frame.
    void onlyTheDamagedFrameIsLost(const SpoolImporter::Result& result, const std::string& session,
                                   std::uint64_t damaged) {
        QVERIFY2(result.ok, result.message.c_str());
        QCOMPARE(result.processes.size(), std::size_t{1});
        SessionDb db(session);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), static_cast<long long>(kDispatches - 1));
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches WHERE id = " + std::to_string(damaged)), 0);
        QCOMPARE(result.processes[0].last_sequence, kDispatches + 1); // the session_end was read
        QCOMPARE(result.processes[0].missing, 1u);
        QVERIFY(!result.complete);
        QCOMPARE(result.rejected_frames, 1u);
    }

  private slots:
    /// The checksum is XXH3-64's low 32 bits over the header (checksum 0) and the payload, the same in
    /// one pass (encoder) and streamed (decoder); any single flipped bit of a frame is refused.
    void checksumCoversEveryBit() {
        const auto frame = rs::test::frames({rs::test::dispatchRecord(77, 7)});
        FrameHeader header{};
        std::memcpy(&header, frame.data(), kFrameHeaderBytes);
        QCOMPARE(header.version, std::uint16_t{6});
        auto zeroed = frame;
        std::memset(zeroed.data() + kFrameChecksumOffset, 0, 4);
        const auto expected = static_cast<std::uint32_t>(XXH3_64bits(zeroed.data(), zeroed.size()));
        QCOMPARE(header.checksum, expected);
        QCOMPARE(frame_checksum(header, frame.data() + kFrameHeaderBytes, header.length), expected);
        QVERIFY(header.checksum != 0);
        // Small frames are hashed from a copy in one pass, larger ones streamed: one value either way.
        for (const std::size_t length : {0, 8, 976, 1000, 1008, 4096, 65536}) {
            std::vector<std::uint8_t> whole(kFrameHeaderBytes + length);
            for (std::size_t i = 0; i < whole.size(); ++i) {
                whole[i] = static_cast<std::uint8_t>(i * 131 + length);
            }
            std::memset(whole.data() + kFrameChecksumOffset, 0, 4);
            const auto one_pass = static_cast<std::uint32_t>(XXH3_64bits(whole.data(), whole.size()));
            seal_frame(whole.data(), whole.size());
            FrameHeader h{};
            std::memcpy(&h, whole.data(), kFrameHeaderBytes);
            QCOMPARE(h.checksum, one_pass);
            QCOMPARE(frame_checksum(h, whole.data() + kFrameHeaderBytes, length), one_pass);
        }
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        QCOMPARE(decode_frame(frame.data(), frame.size(), kMaxPayloadBytes, r, h, n), FrameError::none);
        int refused = 0, by_checksum = 0;
        for (std::size_t bit = 0; bit < frame.size() * 8; ++bit) {
            auto flipped = frame;
            flipped[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
            const FrameError err = decode_frame(flipped.data(), flipped.size(), kMaxPayloadBytes, r, h, n);
            refused += err != FrameError::none ? 1 : 0;
            by_checksum += err == FrameError::bad_checksum ? 1 : 0;
        }
        QCOMPARE(refused, static_cast<int>(frame.size() * 8));
        // Every flip that leaves magic, version, length, type and sequence rules intact is the checksum's.
        QVERIFY2(by_checksum > static_cast<int>(frame.size() * 8) * 3 / 4,
                 qPrintable(QString::number(by_checksum)));
    }

    /// find_frame passes over damage to the next frame with magic and checksum, never trusting a length;
    /// only a frame whose checksum matched delimits itself.
    void resynchronisationFindsTheNextFrame() {
        const auto bytes = spoolBytes(10);
        const auto offsets = rs::test::frameOffsets(bytes);
        auto damaged = bytes;
        const std::uint32_t length = 60000; // covers every later frame
        std::memcpy(damaged.data() + offsets[3] + offsetof(FrameHeader, length), &length, 4);
        Record r{};
        FrameHeader h{};
        std::size_t n = 0;
        const std::size_t rest = damaged.size() - offsets[3];
        QCOMPARE(decode_frame(damaged.data() + offsets[3], rest, kMaxPayloadBytes, r, h, n),
                 FrameError::incomplete);
        // The scan starts after the damaged frame's first byte and stops at the next frame (checksum
        // right), not where the damaged length points.
        FrameScan scan = find_frame(damaged.data() + offsets[3], rest, 1, true, kMaxPayloadBytes);
        QVERIFY(scan.found);
        QCOMPARE(scan.offset, offsets[4] - offsets[3]);
        // Frame 4 cut short: while more may come (a socket, a file still read) the scan waits there; at the
        // end of the stream a frame that runs past it is no frame, and nothing else follows.
        const std::size_t cut = offsets[5] - offsets[3] - 1;
        scan = find_frame(damaged.data() + offsets[3], cut, 1, false, kMaxPayloadBytes);
        QVERIFY(!scan.found);
        QVERIFY(scan.need_more);
        QCOMPARE(scan.offset, offsets[4] - offsets[3]);
        scan = find_frame(damaged.data() + offsets[3], cut, 1, true, kMaxPayloadBytes);
        QVERIFY(!scan.found);
        QVERIFY(!scan.need_more);
        QCOMPARE(scan.offset, cut);
        QVERIFY(!frame_bounds_trusted(FrameError::incomplete, h));
        // Garbage only: nothing found, every byte belongs to no frame.
        const std::vector<std::uint8_t> garbage(300, 0x52);
        scan = find_frame(garbage.data(), garbage.size(), 0, true, kMaxPayloadBytes);
        QVERIFY(!scan.found);
        QCOMPARE(scan.offset, garbage.size());
        // A frame as its sender wrote it (checksum right) but with a payload the verifier refuses
        // delimits itself; a checksum mismatch does not.
        auto bad_payload = rs::test::frames({rs::test::dispatchRecord(1, 1)});
        std::memset(bad_payload.data() + kFrameHeaderBytes, 0xff, bad_payload.size() - kFrameHeaderBytes);
        QCOMPARE(decode_frame(bad_payload.data(), bad_payload.size(), kMaxPayloadBytes, r, h, n),
                 FrameError::bad_checksum);
        QVERIFY(!frame_bounds_trusted(FrameError::bad_checksum, h));
        rs::test::resealFrame(bad_payload);
        QCOMPARE(decode_frame(bad_payload.data(), bad_payload.size(), kMaxPayloadBytes, r, h, n),
                 FrameError::invalid_payload);
        QVERIFY(frame_bounds_trusted(FrameError::invalid_payload, h));
        rs::test::setFrameVersion(bad_payload, 5); // no checksum: its length is never proven
        QCOMPARE(decode_frame(bad_payload.data(), bad_payload.size(), kMaxPayloadBytes, r, h, n),
                 FrameError::invalid_payload);
        QVERIFY(!frame_bounds_trusted(FrameError::invalid_payload, h));
    }

    /// A frame's length rewritten to 65,536 (the largest accepted) within the last 64 KiB of the spool:
    /// the frame runs past the end of the file. The frames after it are read all the same (the import
    /// used to end there and report nothing missing).
    void maximumLengthNearTheEnd() {
        QTemporaryDir dir;
        auto bytes = spoolBytes(kDispatches);
        const auto offsets = rs::test::frameOffsets(bytes);
        const std::uint64_t damaged = 990;
        const std::size_t at = offsets[frameOf(damaged)];
        QVERIFY(bytes.size() - at < kFrameHeaderBytes + kMaxPayloadBytes);
        const std::uint32_t length = 65536;
        std::memcpy(bytes.data() + at + offsetof(FrameHeader, length), &length, 4);
        std::string session;
        const auto result = importBytes(dir, bytes, session);
        QVERIFY2(result.ok, result.message.c_str());
        QCOMPARE(SessionDb(session).integer("SELECT count(*) FROM dispatches"),
                 static_cast<long long>(kDispatches - 1));
        onlyTheDamagedFrameIsLost(result, session, damaged);
    }

    /// The same length earlier in the file covers the next 512 valid frames: every one of them is stored
    /// (they used to be skipped with the damaged frame).
    void maximumLengthEarlierSwallowsNothing() {
        QTemporaryDir dir;
        auto bytes = spoolBytes(kDispatches);
        const auto offsets = rs::test::frameOffsets(bytes);
        const std::uint64_t damaged = 100;
        const std::size_t at = offsets[frameOf(damaged)];
        const std::uint32_t length = 65536;
        std::memcpy(bytes.data() + at + offsetof(FrameHeader, length), &length, 4);
        std::size_t covered = 0; // whole frames inside the length the damaged header claims
        for (std::size_t i = frameOf(damaged) + 1; i + 1 < offsets.size(); ++i) {
            covered += offsets[i + 1] <= at + kFrameHeaderBytes + length ? 1 : 0;
        }
        QVERIFY2(covered >= 512, qPrintable(QString::number(covered)));
        std::string session;
        const auto result = importBytes(dir, bytes, session);
        onlyTheDamagedFrameIsLost(result, session, damaged);
    }

    /// One flipped bit in a sequence number (bit 19: 2^19 past the highest number) costs that one event,
    /// not 524,261 "missing" ones.
    void flippedSequenceBitIsOneMissing() {
        QTemporaryDir dir;
        auto bytes = spoolBytes(kDispatches);
        const auto offsets = rs::test::frameOffsets(bytes);
        const std::uint64_t damaged = 27;
        bytes[offsets[frameOf(damaged)] + offsetof(FrameHeader, sequence) + 2] ^= 0x08; // bit 19
        std::uint64_t sequence = 0;
        std::memcpy(&sequence, bytes.data() + offsets[frameOf(damaged)] + offsetof(FrameHeader, sequence), 8);
        QCOMPARE(sequence, damaged + (1u << 19));
        std::string session;
        const auto result = importBytes(dir, bytes, session);
        onlyTheDamagedFrameIsLost(result, session, damaged);
        QCOMPARE(SessionDb(session).integer("SELECT max(seq) FROM dispatches"),
                 static_cast<long long>(kDispatches));
    }

    /// One flipped bit inside a payload (the kernel object of a dispatch) no longer stores a wrong value:
    /// the frame is refused and counted missing.
    void payloadBitFlipIsRefused() {
        QTemporaryDir dir;
        auto bytes = spoolBytes(kDispatches);
        const auto offsets = rs::test::frameOffsets(bytes);
        const std::uint64_t damaged = 500;
        const std::uint64_t kernel_object = 0x3000 + damaged; // dispatchRecord's
        const std::size_t begin = offsets[frameOf(damaged)] + kFrameHeaderBytes;
        const std::size_t end = offsets[frameOf(damaged) + 1];
        std::size_t field = 0;
        for (std::size_t at = begin; at + 8 <= end; at += 4) {
            std::uint64_t value = 0;
            std::memcpy(&value, bytes.data() + at, 8);
            field = value == kernel_object ? at : field;
        }
        QVERIFY(field != 0);
        bytes[field + 5] ^= 0x01; // bit 40: a kernel object no dispatch of the spool has
        std::string session;
        const auto result = importBytes(dir, bytes, session);
        onlyTheDamagedFrameIsLost(result, session, damaged);
        QCOMPARE(SessionDb(session).integer("SELECT count(*) FROM dispatches WHERE kernel_object = " +
                                            std::to_string(kernel_object ^ (std::uint64_t{1} << 40))),
                 0);
    }

    /// A spool of a protocol-5 build (no checksums: the word is 0) is imported whole.
    void protocolFiveSpoolImports() {
        QTemporaryDir dir;
        auto bytes = spoolBytes(200);
        for (const std::size_t at : rs::test::frameOffsets(bytes)) {
            rs::test::setFrameVersion(bytes, 5, at);
        }
        std::string session;
        const auto result = importBytes(dir, bytes, session);
        QVERIFY2(result.ok, result.message.c_str());
        QCOMPARE(result.rejected_frames, 0u);
        QCOMPARE(SessionDb(session).integer("SELECT count(*) FROM dispatches"), 200);
        QVERIFY(result.complete);
    }

    /// A Hello whose pid is not the peer's (SO_PEERCRED) is refused and counted like a wrong token; the
    /// same stream with the peer's own pid is recorded.
    void helloPidMismatchRefused() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/pid.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({path, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        const auto stream = [&](std::uint32_t pid, std::uint64_t instance) {
            Record hello = rs::test::hello_record(collector->token());
            hello.hello.pid = pid;
            hello.hello.instance = instance;
            std::vector<Record> records{hello};
            for (std::uint64_t i = 1; i <= 20; ++i) {
                records.push_back(rs::test::dispatchRecord(i, i));
            }
            records.push_back(rs::test::sessionEndRecord(21, 21));
            return rs::test::frames(records);
        };
        // The parent's pid: a live process of the same namespace, but not the one connected.
        const auto forged = static_cast<std::uint32_t>(::getppid());
        const int liar = rs::test::connectTo(collector->socket_path());
        QVERIFY(liar >= 0);
        QVERIFY(rs::test::sendBytes(liar, stream(forged, 0x5151)));
        char c;
        QVERIFY(::recv(liar, &c, 1, 0) <= 0); // closed by the collector
        ::close(liar);
        const int honest = rs::test::connectTo(collector->socket_path());
        QVERIFY(honest >= 0);
        QVERIFY(rs::test::sendBytes(honest, stream(static_cast<std::uint32_t>(::getpid()), 0x5252)));
        ::shutdown(honest, SHUT_WR);
        QVERIFY(::recv(honest, &c, 1, 0) <= 0);
        ::close(honest);
        const auto summary = collector->finish(std::chrono::seconds(5));
        QCOMPARE(summary.refused_connections, 1u);
        QVERIFY2(log.contains("refused connection from pid " + QString::number(::getpid()) +
                              ": its hello claims pid " + QString::number(forged)),
                 qPrintable(log.lines().join('\n')));
        std::uint64_t mismatches = 0;
        for (const auto& [reason, count] : summary.log_counts) {
            mismatches += reason == "hello pid mismatch" ? count : 0;
        }
        QCOMPARE(mismatches, 1u);
        QCOMPARE(summary.processes.size(), std::size_t{1});
        QCOMPARE(summary.processes[0].identity.instance, 0x5252u);
        QCOMPARE(summary.processes[0].identity.pid, static_cast<std::uint32_t>(::getpid()));
        QVERIFY(summary.complete);
        SessionDb db(path);
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 20);
        QCOMPARE(db.integer("SELECT count(*) FROM processes WHERE pid = " + std::to_string(forged)), 0);
    }

    /// A peer in a child pid namespace (a container) knows itself as pid 1 there; SO_PEERCRED gives its
    /// pid here. Its Hello (pid 1) is its own pid and is accepted (needs CAP_SYS_ADMIN for CLONE_NEWPID).
    void helloPidOfAChildNamespaceAccepted() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/ns.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({path, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        Record hello = rs::test::hello_record(collector->token());
        hello.hello.pid = 1; // the first process of a new pid namespace
        hello.hello.instance = 0x6161;
        std::vector<Record> records{hello};
        for (std::uint64_t i = 1; i <= 5; ++i) {
            records.push_back(rs::test::dispatchRecord(i, i));
        }
        records.push_back(rs::test::sessionEndRecord(6, 6));
        const auto bytes = rs::test::frames(records);
        const std::string socket_path = collector->socket_path();
        const pid_t child = ::fork();
        if (child == 0) {
            if (::unshare(CLONE_NEWPID) != 0) {
                ::_exit(77);
            }
            const pid_t inner = ::fork(); // pid 1 of the new namespace
            if (inner == 0) {
                const int fd = rs::test::connectTo(socket_path);
                const bool ok = fd >= 0 && rs::test::sendBytes(fd, bytes);
                if (ok) {
                    ::shutdown(fd, SHUT_WR);
                    char c;
                    while (::read(fd, &c, 1) > 0) {
                    }
                }
                ::_exit(ok ? 0 : 1);
            }
            int status = 0;
            ::waitpid(inner, &status, 0);
            ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        if (WEXITSTATUS(status) == 77) {
            collector->finish(std::chrono::seconds(1));
            QSKIP("unshare(CLONE_NEWPID) not permitted here");
        }
        QCOMPARE(WEXITSTATUS(status), 0);
        const auto summary = collector->finish(std::chrono::seconds(5));
        QCOMPARE(summary.refused_connections, 0u);
        QCOMPARE(summary.processes.size(), std::size_t{1});
        QCOMPARE(summary.processes[0].identity.pid, 1u);
        QVERIFY(summary.complete);
        QCOMPARE(SessionDb(path).integer("SELECT count(*) FROM dispatches"), 5);
    }
};

QTEST_GUILESS_MAIN(FrameChecksumTest)
#include "tst_ipc_frame_checksum.moc"
