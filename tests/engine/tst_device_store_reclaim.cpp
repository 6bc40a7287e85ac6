// The device snapshot store given back to the application (docs/replay-window.md, "Snapshot stores"),
// end to end under `replayscope-run --simulate` with 64 MiB of device memory: workloads/
// allocate_during_kernel's kernel holds 16 MiB of tracked buffers and asks for a 40 MiB block from inside
// every run. While a window holds the device store (16 MiB more) the block does not fit: the request
// made by each pass is refused after the reclaim waited its bounded 1000 ms for the window (no deadlock:
// the window completes), and the application's own dispatch, after the window, gets its block because
// the wrapper frees the store and retries. With the host store the block fits every time.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "session_file.hpp"

namespace {

/// A finished run under replayscope-run --simulate with 64 MiB of device memory and the engine
/// variables `engine_env` given to the workload (through env(1): the launcher sets its own).
std::unique_ptr<rs::test::SessionRun> run(const QStringList& engine_env) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("reclaim%1.rsdb").arg(++counter));
    auto r = std::make_unique<rs::test::SessionRun>();
    const QStringList command =
        QStringList{"/usr/bin/env"} + engine_env +
        QStringList{QStringLiteral(RS_WORKLOAD_DIR "/allocate_during_kernel"), "8", "40"};
    if (!rs::test::run_and_open(*r, RS_RUNNER_PATH,
                                QStringList{"--simulate", "--no-progress", "-o", session, "--"} + command,
                                rs::test::environment_with({"HSA_SIM_DEVICE_MEMORY=64M"}), session, 240000))
        return nullptr;
    return r;
}

struct Call {
    uint32_t status;
    int ms;
};

QList<Call> calls(const QString& out) {
    QList<Call> list;
    static const QRegularExpression line(QStringLiteral("call \\d+: status 0x([0-9a-f]+) after (\\d+) ms"));
    for (auto it = line.globalMatch(out); it.hasNext();) {
        const auto m = it.next();
        list.push_back({m.captured(1).toUInt(nullptr, 16), m.captured(2).toInt()});
    }
    return list;
}

constexpr uint32_t kOutOfResources = 0x1008; // HSA_STATUS_ERROR_OUT_OF_RESOURCES

} // namespace

class TestDeviceStoreReclaim : public QObject {
    Q_OBJECT
  private slots:
    /// Device store (8 MiB reserve): both passes' requests refused after about 1000 ms each, the
    /// application's own request served at once; the snapshot was on the device.
    void storeGivenBackToTheApplication() {
        const auto r = run({"REPLAYSCOPE_SNAPSHOT_STORE=device", "REPLAYSCOPE_DEVICE_STORE_RESERVE=8388608"});
        QVERIFY(r);
        QVERIFY2(r->exit_code == 0 &&
                     r->stdout_text.contains("the last one got its 40 MiB block; output correct"),
                 qPrintable(r->describe()));
        QCOMPARE(r->decisions(), QStringList{"free_during_kernel.kd:replayed"});
        QCOMPARE(r->passes(), 2);
        QCOMPARE(r->value("SELECT device_bytes FROM snapshots"), 16ll << 20);
        QCOMPARE(r->value("SELECT host_bytes FROM snapshots"), 0);
        const QList<Call> c = calls(r->stdout_text);
        QCOMPARE(c.size(), 3);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(c[i].status, kOutOfResources);
            QVERIFY2(c[i].ms >= 950 && c[i].ms < 5000, qPrintable(QString::number(c[i].ms)));
        }
        QCOMPARE(c[2].status, 0u);
        QVERIFY2(c[2].ms < 500, qPrintable(QString::number(c[2].ms)));
    }

    /// Host store: the device holds only the application's buffers, every request is served at once.
    void hostStoreLeavesTheDeviceAlone() {
        const auto r = run({"REPLAYSCOPE_SNAPSHOT_STORE=host"});
        QVERIFY(r);
        QVERIFY2(r->exit_code == 0, qPrintable(r->describe()));
        QCOMPARE(r->decisions(), QStringList{"free_during_kernel.kd:replayed"});
        QCOMPARE(r->value("SELECT device_bytes FROM snapshots"), 0);
        QCOMPARE(r->value("SELECT host_bytes FROM snapshots"), 16ll << 20);
        const QList<Call> c = calls(r->stdout_text);
        QCOMPARE(c.size(), 3);
        for (const Call& call : c) {
            QCOMPARE(call.status, 0u);
            QVERIFY2(call.ms < 500, qPrintable(QString::number(call.ms)));
        }
    }
};

QTEST_GUILESS_MAIN(TestDeviceStoreReclaim)
#include "tst_device_store_reclaim.moc"
