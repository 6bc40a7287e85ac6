// SPDX-License-Identifier: MIT
// The failed-restore contract (docs/replay-failures.md#failed-restore) on the simulated runtime: the
// program engine_restore_regions (programs/restore_regions.cpp) dispatches bump_regions.kd once over
// four regions (three coarse-grained buffers and a `__device__` variable) and prints how many executions
// each region shows; HSA_SIM_FAIL_H2D_COPY makes chosen host-to-device copies of the engine's restores
// fail. The program's own three uploads are host-to-device copies 1-3, so the restore after pass k - 1
// (k = 1, 2, ...) makes copies 4 + 4(k-1) onwards, one per region in snapshot order, plus one per retry.
// The same cases run with the snapshot in the device store, where HSA_SIM_FAIL_D2D_COPY picks the
// device-to-device copies of its restores (the snapshot's own four copies come first).
// Each test asserts the program's per-region report, the session's rows, and the engine log line.
// HSA headers first: they name parameters `signals`, which Qt defines as a keyword macro.
#include <hsa.h>

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

namespace {

/// A finished run of engine_restore_regions and the executions it reported per region.
class RestoreRun : public rs::test::SessionRun {
  public:
    /// Region name ("a", "b", "c", "bumps") -> executions ("1", "2", "mixed").
    QMap<QString, QString> executions;
    /// Region address (as the session stores it, a signed 64-bit integer in text) -> region name.
    QMap<QString, QString> region_at;

    /// The restore_failures rows: pass_idx, holds_pass_idx, region name, size, allocation id (0 / not),
    /// kind name, attempts; ordered by pass and address.
    QList<QStringList> failures() const {
        QList<QStringList> out;
        for (QStringList r :
             rows("SELECT f.pass_idx, f.holds_pass_idx, f.address, f.size, f.allocation_id <> "
                  "0, e.name, f.attempts FROM restore_failures f JOIN enum_names e ON e.enum "
                  "= 'region_kind' AND e.code = f.kind ORDER BY f.pass_idx, f.address")) {
            r[2] = region_at.value(r[2], "unknown address " + r[2]);
            out << r;
        }
        return out;
    }
};

/// Where the run keeps its snapshot, and so which copies of the engine's restores the failures count.
enum class Store {
    /// --snapshot-store host: restores are host-to-device copies (HSA_SIM_FAIL_H2D_COPY); the program's
    /// three uploads are copies 1-3, the restore after pass k - 1 starts at copy 4 + 4(k-1).
    host,
    /// --snapshot-store device: snapshot and restores are device-to-device copies
    /// (HSA_SIM_FAIL_D2D_COPY); the program makes none, the snapshot's four region copies are 1-4, the
    /// restore after pass k - 1 starts at copy 5 + 4(k-1).
    device,
};

/// Runs engine_restore_regions under replayscope-run --simulate with `passes` passes, the restore copies
/// `failing` failing (counted as `store` says), and the engine's event log on stderr (REPLAYSCOPE_LOG is
/// passed through). `extra`: more replayscope-run options; `env`: more NAME=VALUE variables.
std::unique_ptr<RestoreRun> run(int passes, const QString& failing, Store store = Store::host,
                                const QStringList& extra = {}, const QStringList& env = {}) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("restore%1.rsdb").arg(++counter));
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(store == Store::host ? "HSA_SIM_FAIL_H2D_COPY" : "HSA_SIM_FAIL_D2D_COPY", failing);
    e.insert("REPLAYSCOPE_LOG", "1");
    for (const QString& kv : env) {
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    }
    auto r = std::make_unique<RestoreRun>();
    rs::test::run_and_open(*r, RS_RUNNER_PATH,
                           QStringList{"--simulate", "--no-progress", "-o", session, "--passes",
                                       QString::number(passes), "--snapshot-store",
                                       store == Store::host ? "host" : "device"} +
                               extra + QStringList{"--", RS_PROGRAM_DIR "/engine_restore_regions"},
                           e, session, 120000);
    static const QRegularExpression line(R"(^region (\w+) address 0x([0-9a-f]+) executions (\w+)$)",
                                         QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(r->stdout_text); it.hasNext();) {
        const auto m = it.next();
        r->executions[m.captured(1)] = m.captured(3);
        r->region_at[QString::number(static_cast<qint64>(m.captured(2).toULongLong(nullptr, 16)))] =
            m.captured(1);
    }
    return r;
}

using Executions = QMap<QString, QString>;

Executions once_each() {
    return {{"a", "1"}, {"b", "1"}, {"c", "1"}, {"bumps", "1"}};
}

} // namespace

Q_DECLARE_METATYPE(Store)

class TestRestoreContract : public QObject {
    Q_OBJECT
  private slots:
    /// A region copy that fails once is retried: the restore completes, every pass runs, the
    /// application's dispatch sees the pre-dispatch inputs (one execution in every region), and the
    /// session records no failure. Before the retry existed, one failed copy ended the replay
    /// (restore-failed, one pass).
    /// The same from the device store, whose restores (dirty runs with --restore dirty, whole regions
    /// with --restore full: here every chunk is dirty, so one run per region) are device-to-device copies.
    void regionFailingOnceIsRetried_data() {
        QTest::addColumn<int>("passes");
        QTest::addColumn<QString>("failing");
        QTest::addColumn<Store>("store");
        QTest::newRow("before pass 1, first region") << 2 << "4" << Store::host;
        QTest::newRow("before pass 2, last region") << 3 << "11" << Store::host;
        QTest::newRow("after the last pass, second region") << 2 << "9" << Store::host;
        QTest::newRow("device store, before pass 1, first region") << 2 << "5" << Store::device;
        QTest::newRow("device store, before pass 2, last region") << 3 << "12" << Store::device;
        QTest::newRow("device store, after the last pass, second region") << 2 << "10" << Store::device;
    }
    void regionFailingOnceIsRetried() {
        QFETCH(int, passes);
        QFETCH(QString, failing);
        QFETCH(Store, store);
        const auto r = run(passes, failing, store);
        QCOMPARE(r->rows("SELECT store FROM snapshots"),
                 QList<QStringList>{{store == Store::host ? "host" : "device"}});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("PASS"), qPrintable(r->describe()));
        QCOMPARE(r->executions, once_each());
        QCOMPARE(r->decisions(), QStringList{"bump_regions.kd:replayed"});
        QCOMPARE(r->passes(), passes);
        QCOMPARE(r->value("SELECT count(*) FROM restore_failures"), 0);
        QCOMPARE(r->value("SELECT count(*) FROM restore_skips"), 0);
        QCOMPARE(r->warnings("restore-failed"), QStringList{});
        QVERIFY2(!r->stderr_text.contains("replayscope: restore_failure"), qPrintable(r->stderr_text));
        QVERIFY(r->complete());
    }

    /// A region whose hsa_memory_copy fails three times and whose copy by the other path fails too
    /// (HSA_SIM_FAIL_ASYNC_COPY_BYTES=its size:1, the first asynchronous copy of that size: the engine's)
    /// is not restored: one restore_failure row names it (the restore before pass `pass_idx`, holding the
    /// output of pass `pass_idx - 1`, 4 attempts), every other region is still restored, no further pass
    /// runs (restore-failed), and the application's dispatch then runs once: the restored regions show one
    /// execution, the failed region two (the pass's and the application's). Before, restore stopped at the
    /// first failure and wrote nothing after it.
    void regionFailingThreeTimesIsRecorded_data() {
        QTest::addColumn<int>("passes");
        QTest::addColumn<QString>("failing");
        QTest::addColumn<int>("passes_run");
        QTest::addColumn<QStringList>("failure");
        QTest::addColumn<Executions>("executions");
        QTest::addColumn<Store>("store");
        // Snapshot order: the buffers by address (allocated a, b, c), then the variable.
        QTest::newRow("before pass 1, first region")
            << 3 << "4,5,6" << 1 << QStringList{"1", "0", "a", "8192", "1", "allocation", "4"}
            << Executions{{"a", "2"}, {"b", "1"}, {"c", "1"}, {"bumps", "1"}} << Store::host;
        QTest::newRow("before pass 2, the variable")
            << 3 << "11,12,13" << 2 << QStringList{"2", "1", "bumps", "4", "0", "module-variable", "4"}
            << Executions{{"a", "1"}, {"b", "1"}, {"c", "1"}, {"bumps", "2"}} << Store::host;
        QTest::newRow("after the last pass, third region")
            << 2 << "10,11,12" << 2 << QStringList{"2", "1", "c", "8192", "1", "allocation", "4"}
            << Executions{{"a", "1"}, {"b", "1"}, {"c", "2"}, {"bumps", "1"}} << Store::host;
        // From the device store: its copies are counted one later (the snapshot's are 1-4).
        QTest::newRow("device store, before pass 1, first region")
            << 3 << "5,6,7" << 1 << QStringList{"1", "0", "a", "8192", "1", "allocation", "4"}
            << Executions{{"a", "2"}, {"b", "1"}, {"c", "1"}, {"bumps", "1"}} << Store::device;
        QTest::newRow("device store, before pass 2, the variable")
            << 3 << "12,13,14" << 2 << QStringList{"2", "1", "bumps", "4", "0", "module-variable", "4"}
            << Executions{{"a", "1"}, {"b", "1"}, {"c", "1"}, {"bumps", "2"}} << Store::device;
        QTest::newRow("device store, after the last pass, third region")
            << 2 << "11,12,13" << 2 << QStringList{"2", "1", "c", "8192", "1", "allocation", "4"}
            << Executions{{"a", "1"}, {"b", "1"}, {"c", "2"}, {"bumps", "1"}} << Store::device;
    }
    void regionFailingThreeTimesIsRecorded() {
        QFETCH(int, passes);
        QFETCH(QString, failing);
        QFETCH(int, passes_run);
        QFETCH(QStringList, failure);
        QFETCH(Executions, executions);
        QFETCH(Store, store);
        const auto r =
            run(passes, failing, store, {}, {"HSA_SIM_FAIL_ASYNC_COPY_BYTES=" + failure[3] + ":1"});
        QCOMPARE(r->rows("SELECT store FROM snapshots"),
                 QList<QStringList>{{store == Store::host ? "host" : "device"}});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("MISMATCH"), qPrintable(r->describe()));
        QCOMPARE(r->executions, executions);
        QCOMPARE(r->failures(), QList<QStringList>{failure});
        QCOMPARE(r->decisions(), QStringList{"bump_regions.kd:restore-failed"});
        QCOMPARE(r->passes(), passes_run);
        QCOMPARE(r->value("SELECT count(*) FROM restore_skips"), 0);
        QCOMPARE(
            r->value("SELECT count(*) FROM restore_failures f JOIN dispatches d ON d.id = f.dispatch_id"), 1);
        // The failed region is the snapshot's region: same address and allocation id as its inventory row.
        QCOMPARE(r->value("SELECT count(*) FROM restore_failures f JOIN snapshots s ON s.dispatch_id = "
                          "f.dispatch_id JOIN inventory_regions i ON i.agent = s.agent AND i.generation = "
                          "s.generation AND i.address = f.address AND i.allocation_id = f.allocation_id"),
                 1);
        QCOMPARE(r->rows("SELECT sent, stored FROM event_counts WHERE name = 'restore_failure'"),
                 (QList<QStringList>{{"1", "1"}}));
        QCOMPARE(r->warnings("restore-failed").size(), 1);
        // The same event on the engine's log.
        const QRegularExpression log(QStringLiteral(R"(replayscope: restore_failure dispatch=\d+ pass=%1 )"
                                                    R"(holds_pass=%2 kind=%3 address=0x[0-9a-f]+ size=%4 )")
                                         .arg(failure[0], failure[1], failure[5], failure[3]));
        QVERIFY2(r->stderr_text.contains(log), qPrintable(r->stderr_text));
        QVERIFY(r->complete());
    }

    /// The same failures with the other path working: after three failed hsa_memory_copy calls the region
    /// is written by hsa_amd_memory_async_copy (from the host store, or inside the device from the device
    /// store). Nothing is given up: every pass runs, each region shows one execution, no restore_failure
    /// row, and one restore-recovered warning names the region's address and size.
    void regionFailingThreeTimesIsWrittenByTheOtherPath_data() { regionFailingThreeTimesIsRecorded_data(); }
    void regionFailingThreeTimesIsWrittenByTheOtherPath() {
        QFETCH(int, passes);
        QFETCH(QString, failing);
        QFETCH(QStringList, failure);
        QFETCH(Store, store);
        const auto r = run(passes, failing, store);
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("PASS"), qPrintable(r->describe()));
        QCOMPARE(r->executions, once_each());
        QCOMPARE(r->decisions(), QStringList{"bump_regions.kd:replayed"});
        QCOMPARE(r->passes(), passes);
        QCOMPARE(r->value("SELECT count(*) FROM restore_failures"), 0);
        QCOMPARE(r->warnings("restore-failed"), QStringList{});
        const QStringList recovered = r->warnings("restore-recovered");
        QVERIFY2(recovered.size() == 1, qPrintable(recovered.join('\n') + '\n' + r->describe()));
        const QString address = r->region_at.key(failure[2]);
        QVERIFY2(recovered[0].contains(QStringLiteral("0x%1 (%2 bytes, ")
                                           .arg(static_cast<quint64>(address.toLongLong()), 0, 16)
                                           .arg(failure[3])) &&
                     recovered[0].contains("hsa_amd_memory_async_copy wrote them"),
                 qPrintable(recovered[0]));
        QVERIFY(r->complete());
    }
};

QTEST_GUILESS_MAIN(TestRestoreContract)
#include "tst_restore_contract.moc"
