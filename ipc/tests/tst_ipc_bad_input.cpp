// Bad input on the socket: each refused with its logged message, nothing valid before it lost.
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rs::ipc;
using rs::test::SessionDb;

namespace {

int connectTo(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool sendBytes(int fd, const std::vector<std::uint8_t>& bytes) {
    return ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

/// Hello + `n` valid dispatch frames (sequences 1..n).
std::vector<std::uint8_t> validPrefix(const std::string& token, std::uint64_t n) {
    std::vector<Record> records{rs::test::helloRecord(token)};
    for (std::uint64_t i = 1; i <= n; ++i) {
        records.push_back(rs::test::dispatchRecord(i, i));
    }
    return rs::test::frames(records);
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
        const int fd = connectTo(s.collector->socketPath());
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
        refusedAfterValidPrefix(frame, "invalid dispatch payload", false);
    }
    void wrongToken() {
        Session s;
        const int fd = connectTo(s.collector->socketPath());
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
        const int fd = connectTo(s.collector->socketPath());
        QVERIFY(sendBytes(fd, rs::test::frames({rs::test::dispatchRecord(1, 1)})));
        char c;
        QVERIFY(::recv(fd, &c, 1, 0) <= 0); // closed by the collector (EOF or reset)
        ::close(fd);
        s.finish();
        QVERIFY(s.log.contains("the first frame must be hello"));
        QCOMPARE(s.dispatches(), 0);
    }
    void secondConnectionRefused() {
        Session s;
        const int first = connectTo(s.collector->socketPath());
        QVERIFY(sendBytes(first, validPrefix(s.collector->token(), 4)));
        QTRY_VERIFY(s.log.contains("connected"));
        const int second = connectTo(s.collector->socketPath());
        QVERIFY(second >= 0);
        char c;
        QVERIFY(::recv(second, &c, 1, 0) <= 0); // closed by the collector
        ::close(second);
        QVERIFY(s.log.contains("refused second connection"));
        QVERIFY(
            sendBytes(first, rs::test::frames({rs::test::dispatchRecord(5, 5)}))); // the first keeps working
        ::close(first);
        s.finish();
        QCOMPARE(s.dispatches(), 5);
    }
    void anotherUidRefused() {
        if (::geteuid() != 0) {
            QSKIP("connecting as another uid needs root (setuid); the SO_PEERCRED check is exercised only as "
                  "root");
        }
        Session s;
        // Open the private directory so that the other uid reaches SO_PEERCRED (normally 0700 stops it
        // first).
        const std::string path = s.collector->socketPath();
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
