// SPDX-License-Identifier: MIT
// Crash consistency: the sender killed with SIGKILL mid-stream, and the collector killed mid-stream.
#include "test_support.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace rs::ipc;
using rs::test::SessionDb;

class CrashTest : public QObject {
    Q_OBJECT
  private slots:
    void senderKilledMidStream() {
        QTemporaryDir dir;
        const std::string session = (dir.path() + "/killed.rsdb").toStdString();
        rs::test::LogCapture log;
        std::string error;
        auto collector = Collector::create({session, false, log.function(), kMaxPayloadBytes}, error);
        QVERIFY2(collector, error.c_str());
        QVERIFY(collector->start());
        rs::test::ChildProcess sender;
        // The no-hole checks below hold only while the sender's queue never overflows: an overflowing
        // record goes to the spool while older ones are still queued, and SIGKILL loses those. On a loaded
        // machine the collector fell 16384 records behind a sender pacing 500,000 records/s (a hole at
        // 41517 of 43951), so the sender paces 100,000/s and has room for 262,144 records.
        QVERIFY(sender.start(
            RS_TEST_SENDER, {"100000000", "1000"}, // would run for minutes
            {"REPLAYSCOPE_QUEUE_CAPACITY=262144", "REPLAYSCOPE_SOCKET=" + collector->socket_path(),
             "REPLAYSCOPE_TOKEN=" + collector->token(), "REPLAYSCOPE_SPOOL=" + collector->spool_path()}));
        QTRY_VERIFY_WITH_TIMEOUT(collector->events_stored() >= 3000, 15000);
        ::kill(sender.pid(), SIGKILL);
        const int status = sender.wait();
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(WTERMSIG(status), SIGKILL);
        const auto summary = collector->finish(std::chrono::seconds(5));
        QVERIFY(!summary.complete);
        QVERIFY(summary.events_stored >= 3000);

        SessionDb db(session);
        QVERIFY(db.ok());
        QCOMPARE(db.text("PRAGMA integrity_check"), QString("ok"));
        QCOMPARE(db.integer("SELECT complete FROM session"), 0);
        // Killed between frames, or inside one (a truncated last frame is dropped, everything before kept).
        const QString reason = db.text("SELECT end_reason FROM session");
        QVERIFY2(reason == "connection closed without session end" ||
                     reason == "truncated frame at end of stream",
                 qPrintable(reason));
        // Every event received is stored, in order, with no hole: dispatches 1..K, sequence 1..last.
        const long long dispatches = db.integer("SELECT count(*) FROM dispatches");
        // The spool file is created by the first record that overflows the queue.
        QVERIFY2(
            !QFileInfo::exists(
                QString::fromStdString(collector->spool_path()).replace("%p", QString::number(sender.pid()))),
            "the sender's queue overflowed into the spool: the no-hole checks do not apply");
        QVERIFY(dispatches >= 2990);
        QCOMPARE(db.integer("SELECT max(id) FROM dispatches"), dispatches);
        QCOMPARE(db.integer("SELECT last_sequence FROM session"),
                 static_cast<long long>(summary.last_sequence));
        QCOMPARE(db.integer("SELECT events_stored FROM session"),
                 static_cast<long long>(summary.events_stored));
        QCOMPARE(static_cast<std::uint64_t>(db.integer("SELECT last_sequence FROM session")),
                 summary.events_stored);
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 0);
    }

    void collectorKilledMidStream() {
        QTemporaryDir dir;
        // A private runtime directory: a collector that another suite starts at the same time would
        // rightly remove the killed collector's socket directory before this test looks for it.
        QTemporaryDir runtime;
        const QByteArray saved_runtime = qgetenv("XDG_RUNTIME_DIR");
        const bool had_runtime = qEnvironmentVariableIsSet("XDG_RUNTIME_DIR");
        qputenv("XDG_RUNTIME_DIR", runtime.path().toLocal8Bit());
        const auto restore_runtime = qScopeGuard([&] {
            if (had_runtime) {
                qputenv("XDG_RUNTIME_DIR", saved_runtime);
            } else {
                qunsetenv("XDG_RUNTIME_DIR");
            }
        });
        const QString session = dir.path() + "/collector-killed.rsdb";
        rs::test::ChildProcess collector;
        QVERIFY(collector.start(RS_TEST_COLLECTOR, {session.toStdString()}));
        QString socket, token, spool;
        while (spool.isEmpty()) {
            const QString line = QString::fromStdString(collector.readLine(10000));
            QVERIFY(!line.isEmpty());
            if (line.startsWith("SOCKET ")) {
                socket = line.mid(7);
            }
            if (line.startsWith("TOKEN ")) {
                token = line.mid(6);
            }
            if (line.startsWith("SPOOL ")) {
                spool = line.mid(6);
            }
        }
        // The emitter of this process replaces %p by its pid.
        spool = QString::fromStdString(rs::test::expandSpool(spool.toStdString()));
        Emitter e;
        std::string error;
        QVERIFY(e.start({socket.toStdString(), token.toStdString(), spool.toStdString(), 1024}));
        for (std::uint64_t i = 1; i <= 1000; ++i) {
            QVERIFY(e.emit_event(
                DispatchRecord{i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed}));
        }
        // Wait until the collector has committed the first 1000, then kill it.
        QTRY_VERIFY_WITH_TIMEOUT(
            SessionDb(session.toStdString()).integer("SELECT count(*) FROM dispatches") == 1000, 10000);
        ::kill(collector.pid(), SIGKILL);
        QVERIFY(WIFSIGNALED(collector.wait()));
        // The sender process (this one) carries on normally; the rest goes to the spool.
        for (std::uint64_t i = 1001; i <= 2000; ++i) {
            QVERIFY(e.emit_event(
                DispatchRecord{i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, DispatchDecision::replayed}));
        }
        QVERIFY(e.stop(std::chrono::seconds(5)));
        const auto stats = e.stats();
        QCOMPARE(stats.lost, 0u);
        QCOMPARE(stats.sent + stats.spooled, stats.accepted);
        QCOMPARE(stats.spooled, 1001u); // dispatches 1001..2000 and session end
        QVERIFY(QFileInfo(spool).size() > 0);
        // The killed collector's file opens, incomplete; replayscope-run --import-spool completes it.
        SessionDb before(session.toStdString());
        QCOMPARE(before.integer("SELECT complete FROM session"), 0);
        rs::test::ChildProcess import;
        QVERIFY(import.start(RS_REPLAYSCOPE_RUN,
                             {"--import-spool", spool.toStdString(), "-o", session.toStdString()}));
        const QString output = QString::fromStdString(import.readAll(20000));
        const int status = import.wait();
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY2(output.contains("imported 1001 frames"), qPrintable(output));
        SessionDb db(session.toStdString());
        QCOMPARE(db.integer("SELECT count(*) FROM dispatches"), 2000);
        QCOMPARE(db.integer("SELECT complete FROM session"), 1);
        QCOMPARE(db.integer("SELECT count(*) FROM sequence_gaps"), 0);
        QCOMPARE(db.integer("SELECT sent FROM event_counts WHERE name='dispatch'"), 2000);
        QCOMPARE(db.integer("SELECT stored FROM event_counts WHERE name='dispatch'"), 2000);
        // The killed collector left its socket directory; the next collector removes it.
        const QString directory = QFileInfo(socket).path();
        QVERIFY2(directory.startsWith(runtime.path()), qPrintable(directory));
        QVERIFY(QFileInfo::exists(directory));
        QVERIFY(QFileInfo::exists(directory + "/collector.pid"));
        auto next = Collector::create(
            {(dir.path() + "/next.rsdb").toStdString(), false, {}, kMaxPayloadBytes}, error);
        QVERIFY2(next, error.c_str());
        QVERIFY(!QFileInfo::exists(directory));
        QVERIFY(QFileInfo::exists(QString::fromStdString(next->socket_path())));
    }
};

QTEST_GUILESS_MAIN(CrashTest)
#include "tst_ipc_crash.moc"
