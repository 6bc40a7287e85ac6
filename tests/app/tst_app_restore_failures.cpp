// SPDX-License-Identifier: MIT
// The inspector's audit view of a failed restore (docs/replay-failures.md#failed-restore), on a real
// session: the accumulate workload under replayscope-run --simulate with 3 passes and the restore before
// pass 1 failing three times (host-to-device copies 2-4; copy 1 is the program's upload): a full restore
// from the host store, so that the restore is those host-to-device copies (from the device store it would
// copy device-to-device). The region is
// given up, holds pass 0's output, and the application's own dispatch then adds its execution: the
// program sees two and says so. The session's restore_failures row appears in the dispatch's region
// list and in the decline/skip reasons chart.
#include "app_test_support.h"

#include "model/ChartSeriesBuilder.h"
#include "model/ModelRoles.h"
#include "model/RestoreSkipTableModel.h"
#include "model/SessionLoader.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>

using namespace rs::app;

class AppRestoreFailuresTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void failedRegionListedWithItsState() {
        const QString path = dir_.filePath(QStringLiteral("restore.rsdb"));
        const test::RunResult run = test::runPipeline(
            {QStringLiteral("--simulate"), QStringLiteral("--no-progress"), QStringLiteral("--passes"),
             QStringLiteral("3"), QStringLiteral("--snapshot-store"), QStringLiteral("host"),
             QStringLiteral("--restore"), QStringLiteral("full"), QStringLiteral("-o"), path,
             QStringLiteral("--"), QStringLiteral(RS_WORKLOAD_DIR "/accumulate")},
            {QStringLiteral("HSA_SIM_FAIL_H2D_COPY=2-4"),
             QStringLiteral("HSA_SIM_FAIL_ASYNC_COPY_BYTES=16384:1")});
        // Three hsa_memory_copy attempts and the asynchronous copy tried after them all fail: the region the
        // restore could not write kept pass 0's update; the program's dispatch added one.
        QVERIFY2(run.exitCode == 1 && run.output.contains(QStringLiteral("more than once")),
                 qPrintable(run.output));
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(path, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(int(s->dispatches.size()), 1);
        QCOMPARE(s.enumName(QStringLiteral("decision"), s->dispatches[0].decision),
                 QStringLiteral("restore-failed"));

        RestoreSkipTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDispatch(s, 0);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("1"));
        QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("16.0 KiB"));
        QCOMPARE(model.index(0, 4).data().toString(),
                 QStringLiteral("not restored after 4 copies: holds the output of pass 0"));
        QCOMPARE(model.index(0, 4).data(CodeRole).toInt(), -2);

        QStringList bars;
        for (const ChartSeriesBuilder::Bar& b : ChartSeriesBuilder(s).declineAndSkipReasons()) {
            bars << b.label + QLatin1Char('=') + QString::number(b.value);
        }
        QCOMPARE(bars, (QStringList{QStringLiteral("declined: restore-failed=1"),
                                    QStringLiteral("restore failure: allocation=1")}));
    }
};

QTEST_MAIN(AppRestoreFailuresTest)
#include "tst_app_restore_failures.moc"
