// SPDX-License-Identifier: MIT
// Two sessions compared kernel by kernel (SessionComparison, ComparisonTableModel, ComparePage,
// `replayscope --compare`), on sessions the engine recorded under replayscope-run --simulate: a session
// against itself (no difference), --passes 2 against --passes 3 of the HIP demo (the pass counts and the
// times, against the files' own rows by SQL), two different workloads (accumulate, free_during_kernel:
// kernels of one side only), a format-2 file (read, not refused), and the headless command with its charts
// and its errors. Kernel time against its noise band: simulated sessions of --passes 2 and 3 never call it a
// change; a synthetic GPU pair twice as slow does, one of other random noise does not. Hardware counters:
// synthetic sessions whose SQ_INSTS_VALU differs, every median against the file's pass_counter_values.
#include "app_test_support.h"

#include "model/ComparisonTableModel.h"
#include "model/CounterComparisonModel.h"
#include "model/KernelName.h"
#include "model/ModelRoles.h"
#include "model/SessionComparison.h"
#include "model/SessionLoader.h"
#include "ui/ChartAdapter.h"
#include "ui/ComparePage.h"
#include "ui/MainWindow.h"
#include "ui/SessionView.h"
#include "ui/TablePanel.h"

#include <replayscope/ipc/records.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace rs::app;

namespace {

/// Per kernel name of `path`, read by SQL from the file's own tables: dispatches, replayed, passes, and the
/// snapshot and restore time (ns) of its replayed dispatches (restores: format 4's one row per restore).
struct SqlKernel {
    qint64 dispatches = 0, replayed = 0, passes = 0;
    qint64 snapshotNs = 0, restoreNs = 0;
};
QHash<QString, SqlKernel> sqlKernels(const QString& path) {
    QHash<QString, SqlKernel> out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("cmp"));
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            // The stored decision code of "replayed", from the session vocabulary, not a literal.
            const int replayed = int(rs::ipc::DispatchDecision::replayed);
            q.exec(QStringLiteral(
                       "SELECT s.text, count(*), sum(d.decision = %1), (SELECT count(*) FROM passes p "
                       "JOIN dispatches e ON e.process = p.process AND e.id = p.dispatch_id JOIN "
                       "strings t ON t.process = e.process AND t.id = e.kernel_name_id WHERE t.text = "
                       "s.text AND e.decision = %1) FROM dispatches d JOIN strings s ON s.process = "
                       "d.process AND s.id = d.kernel_name_id GROUP BY s.text")
                       .arg(replayed));
            while (q.next()) {
                out.insert(kernelDisplayName(q.value(0).toString()),
                           {q.value(1).toLongLong(), q.value(2).toLongLong(), q.value(3).toLongLong(), 0, 0});
            }
            // The dispatch key is `dispatch_id` in `snapshots` and `dispatch` in `restores`
            // (session-schema.md).
            for (const auto& [table, key, column, field] :
                 {std::tuple{"snapshots", "dispatch_id", "duration_ns", &SqlKernel::snapshotNs},
                  std::tuple{"restores", "dispatch", "restore_ns", &SqlKernel::restoreNs}}) {
                q.exec(QStringLiteral("SELECT t.text, sum(x.%2) FROM %1 x JOIN dispatches e ON e.process = "
                                      "x.process AND e.id = x.%3 JOIN strings t ON t.process = "
                                      "e.process AND t.id = e.kernel_name_id GROUP BY t.text")
                           .arg(QLatin1String(table), QLatin1String(column), QLatin1String(key)));
                while (q.next()) {
                    out[kernelDisplayName(q.value(0).toString())].*field = q.value(1).toLongLong();
                }
            }
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("cmp"));
    return out;
}

/// Per kernel name of `path`: the widest pass spread of one dispatch (slowest / fastest timed pass - 1, the
/// passes' end_tick - start_tick read by SQL), -1 when no dispatch has two timed passes.
QHash<QString, double> sqlWidestPassSpread(const QString& path) {
    QHash<QString, double> out;
    const auto rows = test::sqlRows(
        path, QStringLiteral("SELECT s.text, min(p.end_tick - p.start_tick), max(p.end_tick - p.start_tick), "
                             "count(*) FROM passes p JOIN dispatches d ON d.process = p.process AND d.id = "
                             "p.dispatch_id JOIN strings s ON s.process = d.process AND s.id = "
                             "d.kernel_name_id WHERE p.end_tick >= p.start_tick AND p.end_tick > 0 "
                             "GROUP BY d.process, d.id"));
    for (const QVariantList& r : rows) {
        const QString kernel = kernelDisplayName(r[0].toString());
        if (!out.contains(kernel)) {
            out.insert(kernel, -1);
        }
        if (r[3].toLongLong() >= 2 && r[1].toLongLong() > 0) {
            out[kernel] = std::max(out[kernel], r[2].toDouble() / r[1].toDouble() - 1.0);
        }
    }
    return out;
}

/// Per (kernel name, counter) of `path`: the median of the values in pass_counter_values (of an even count
/// the mean of the middle two), read by SQL.
QMap<QPair<QString, QString>, double> sqlCounterMedians(const QString& path) {
    QMap<QPair<QString, QString>, std::vector<double>> values;
    const auto rows = test::sqlRows(
        path, QStringLiteral("SELECT s.text, v.counter, v.value FROM pass_counter_values v JOIN dispatches d "
                             "ON d.process = v.process AND d.id = v.dispatch JOIN strings s ON s.process = "
                             "d.process AND s.id = d.kernel_name_id"));
    for (const QVariantList& r : rows) {
        values[{kernelDisplayName(r[0].toString()), r[1].toString()}].push_back(r[2].toDouble());
    }
    QMap<QPair<QString, QString>, double> out;
    for (auto it = values.begin(); it != values.end(); ++it) {
        std::vector<double>& v = it.value();
        std::sort(v.begin(), v.end());
        out.insert(it.key(), (v[(v.size() - 1) / 2] + v[v.size() / 2]) / 2);
    }
    return out;
}

} // namespace

class AppCompareTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString two_, three_, other_, demoTwo_, demoThree_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        two_ = test::simulatedSession(dir_.path(), QStringLiteral("acc-2.rsdb"), QStringLiteral("accumulate"),
                                      2);
        other_ = test::simulatedSession(dir_.path(), QStringLiteral("free-during-kernel.rsdb"),
                                        QStringLiteral("free_during_kernel"), 2);
        three_ = test::simulatedSession(dir_.path(), QStringLiteral("acc-3.rsdb"),
                                        QStringLiteral("accumulate"), 3);
        QVERIFY(!two_.isEmpty() && !other_.isEmpty() && !three_.isEmpty());
#ifdef RS_DEMO
        demoTwo_ = test::demoSession(dir_.path(), QStringLiteral("demo-2.rsdb"), 2);
        demoThree_ = test::demoSession(dir_.path(), QStringLiteral("demo-3.rsdb"), 3);
        QVERIFY(!demoTwo_.isEmpty() && !demoThree_.isEmpty());
#endif
    }

    void init() {
        const QByteArray name = QTest::currentTestFunction();
        if (demoTwo_.isEmpty() &&
            (name == "twoPassesAgainstThree" || name == "headless" || name == "comparePage" ||
             name == "screenshots" || name == "firstPhaseComparison")) {
            QSKIP("this build has no HIP demo (no hipcc)");
        }
    }

    /// A session against itself: every kernel on both sides, every difference zero, nothing "changed".
    void selfHasNoDifference() {
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(two_, two_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        const auto kernels = sqlKernels(two_);
        QCOMPARE(int(c.kernels().size()), kernels.size());
        QVERIFY(!c.kernels().empty());
        QCOMPARE(c.count(SessionComparison::Side::baseOnly), 0);
        QCOMPARE(c.count(SessionComparison::Side::newOnly), 0);
        QCOMPARE(c.changedKernels(), 0);
        for (const auto& k : c.kernels()) {
            QCOMPARE(k.side, SessionComparison::Side::both);
            for (const auto& m : k.metrics) {
                if (m.comparable()) {
                    QCOMPARE(m.difference(), 0.0);
                    QCOMPARE(m.percent(), 0.0);
                    QCOMPARE(SessionComparison::differenceText(m), QStringLiteral("0"));
                }
            }
            QCOMPARE(k.metric(SessionComparison::kDispatches)->base,
                     double(kernels.value(k.name).dispatches));
        }
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(c);
        QVERIFY(model.rowCount() > 0);
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString status = model.index(r, ComparisonTableModel::Status).data().toString();
            const QString metric = model.index(r, ComparisonTableModel::Metric).data().toString();
            if (metric == SessionComparison::kKernelMedian || metric == SessionComparison::kKernelSpread) {
                QCOMPARE(status, QStringLiteral("simulated time")); // a simulated session: never "same" time
                continue;
            }
            QVERIFY2(status == QStringLiteral("same") || status == QStringLiteral("not recorded"),
                     qPrintable(status));
        }
        model.setChangedOnly(true);
        QCOMPARE(model.rowCount(), 0);
    }

    /// --passes 2 against --passes 3 of the demo: 2 against 3 passes per replayed dispatch, the same
    /// dispatches, snapshot and restore times equal to the files' own sums, and times that differ.
    void twoPassesAgainstThree() {
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(demoTwo_, demoThree_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        const auto base = sqlKernels(demoTwo_), now = sqlKernels(demoThree_);
        QCOMPARE(c.count(SessionComparison::Side::both), base.size());
        QCOMPARE(c.count(SessionComparison::Side::baseOnly), 0);
        QCOMPARE(c.count(SessionComparison::Side::newOnly), 0);
        int replayedKernels = 0, timeChanged = 0;
        for (const auto& k : c.kernels()) {
            const auto* dispatches = k.metric(SessionComparison::kDispatches);
            const auto* replayed = k.metric(SessionComparison::kReplayed);
            const auto* passes = k.metric(SessionComparison::kPasses);
            QCOMPARE(dispatches->base, double(base.value(k.name).dispatches));
            QCOMPARE(dispatches->now, double(now.value(k.name).dispatches));
            QCOMPARE(replayed->base, double(base.value(k.name).replayed));
            QCOMPARE(replayed->now, double(now.value(k.name).replayed));
            QCOMPARE(passes->base, double(base.value(k.name).passes));
            QCOMPARE(passes->now, double(now.value(k.name).passes));
            QCOMPARE(k.metric(SessionComparison::kSnapshotTime)->base, double(base.value(k.name).snapshotNs));
            QCOMPARE(k.metric(SessionComparison::kSnapshotTime)->now, double(now.value(k.name).snapshotNs));
            QCOMPARE(k.metric(SessionComparison::kRestoreTime)->base, double(base.value(k.name).restoreNs));
            QCOMPARE(k.metric(SessionComparison::kRestoreTime)->now, double(now.value(k.name).restoreNs));
            // Recorded without --fidelity-check: not a figure either side has.
            QVERIFY(!k.metric(SessionComparison::kMismatches)->comparable());
            if (replayed->base > 0) {
                ++replayedKernels;
                QCOMPARE(passes->base, 2 * replayed->base);
                QCOMPARE(passes->now, 3 * replayed->now);
                const auto* per = k.metric(SessionComparison::kPassesPerReplayed);
                QVERIFY(per->comparable());
                QCOMPARE(per->base, 2.0);
                QCOMPARE(per->now, 3.0);
                QCOMPARE(per->difference(), 1.0);
                QCOMPARE(per->percent(), 50.0);
                QVERIFY(passes->changed());
                // The demo ran on the simulated runtime: its kernel time is never a change.
                QVERIFY(!k.metric(SessionComparison::kKernelMedian)->changed());
                for (const QString& t : {SessionComparison::kRestoreTime, SessionComparison::kSnapshotTime,
                                         SessionComparison::kKernelMedian}) {
                    const auto* m = k.metric(t);
                    timeChanged += m && m->comparable() && m->difference() != 0;
                }
            }
        }
        QVERIFY(replayedKernels > 0);
        QVERIFY(timeChanged > 0);
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(c);
        const int all = model.rowCount();
        model.setChangedOnly(true);
        QVERIFY(model.rowCount() > 0 && model.rowCount() < all);
        bool sawPasses = false;
        for (int r = 0; r < model.rowCount(); ++r) {
            QCOMPARE(model.index(r, ComparisonTableModel::Status).data().toString(),
                     QStringLiteral("changed"));
            if (model.index(r, ComparisonTableModel::Metric).data().toString() ==
                SessionComparison::kPassesPerReplayed) {
                sawPasses = true;
                QCOMPARE(model.index(r, ComparisonTableModel::Base).data().toString(), QStringLiteral("2"));
                QCOMPARE(model.index(r, ComparisonTableModel::New).data().toString(), QStringLiteral("3"));
                QCOMPARE(model.index(r, ComparisonTableModel::DifferencePercent).data(SortRole).toDouble(),
                         50.0);
            }
        }
        QVERIFY(sawPasses);
    }

    /// Two different workloads: kernels of one side only are listed as such.
    void kernelsOfOneSide() {
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(two_, other_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        const auto base = sqlKernels(two_), now = sqlKernels(other_);
        QSet<QString> baseOnly, newOnly, both;
        for (auto it = base.cbegin(); it != base.cend(); ++it) {
            (now.contains(it.key()) ? both : baseOnly).insert(it.key());
        }
        for (auto it = now.cbegin(); it != now.cend(); ++it) {
            if (!base.contains(it.key())) {
                newOnly.insert(it.key());
            }
        }
        QVERIFY(!baseOnly.isEmpty() || !newOnly.isEmpty()); // the workloads run different kernels
        QCOMPARE(c.count(SessionComparison::Side::baseOnly), baseOnly.size());
        QCOMPARE(c.count(SessionComparison::Side::newOnly), newOnly.size());
        QCOMPARE(c.count(SessionComparison::Side::both), both.size());
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(c);
        for (const auto& k : c.kernels()) {
            if (k.side == SessionComparison::Side::baseOnly) {
                QVERIFY(baseOnly.contains(k.name));
                QVERIFY(!k.metric(SessionComparison::kDispatches)->newRecorded);
                QCOMPARE(k.metric(SessionComparison::kDispatches)->base,
                         double(base.value(k.name).dispatches));
            } else if (k.side == SessionComparison::Side::newOnly) {
                QVERIFY(newOnly.contains(k.name));
                QVERIFY(!k.metric(SessionComparison::kDispatches)->baseRecorded);
            }
        }
        int baseRows = 0, newRows = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString status = model.index(r, ComparisonTableModel::Status).data().toString();
            baseRows += status == QStringLiteral("only in base");
            newRows += status == QStringLiteral("only in new");
            if (status.startsWith(QStringLiteral("only"))) {
                QCOMPARE(model.index(r, ComparisonTableModel::Difference).data().toString(),
                         QStringLiteral("—"));
            }
        }
        QCOMPARE(baseRows > 0, !baseOnly.isEmpty());
        QCOMPARE(newRows > 0, !newOnly.isEmpty());
    }

    /// --passes 2 against --passes 3 of one program on the simulated runtime: the passes changed, the kernel
    /// time never does (simulated time, with the band of the widest pass spread of either file by SQL).
    void simulatedKernelTimeIsNotAChange() {
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(two_, three_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QVERIFY(c.simulated());
        QCOMPARE(c.baseSimulatedProcesses(), 1);
        QCOMPARE(c.newSimulatedProcesses(), 1);
        const auto spreadBase = sqlWidestPassSpread(two_), spreadNew = sqlWidestPassSpread(three_);
        int timed = 0;
        for (const auto& k : c.kernels()) {
            QCOMPARE(k.side, SessionComparison::Side::both);
            const auto* t = k.metric(SessionComparison::kKernelMedian);
            QVERIFY(t);
            if (!t->comparable()) {
                continue;
            }
            ++timed;
            QVERIFY(t->simulatedTime);
            QVERIFY(!t->changed());
            QCOMPARE(t->verdict(), SessionComparison::Verdict::simulated);
            QCOMPARE(t->bandBasis, SessionComparison::BandBasis::passSpread);
            const double band = std::max(spreadBase.value(k.name, -1), spreadNew.value(k.name, -1));
            QVERIFY(band >= 0);
            QVERIFY2(std::abs(t->noiseBand - band) < 1e-12,
                     qPrintable(QStringLiteral("%1 against %2").arg(t->noiseBand).arg(band)));
            QVERIFY(!k.metric(SessionComparison::kKernelSpread)->changed());
            QCOMPARE(k.metric(SessionComparison::kPassesPerReplayed)->base, 2.0);
            QCOMPARE(k.metric(SessionComparison::kPassesPerReplayed)->now, 3.0);
            QVERIFY(k.metric(SessionComparison::kPassesPerReplayed)->changed());
        }
        QVERIFY(timed > 0);
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(c);
        int simulatedRows = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, ComparisonTableModel::Metric).data().toString() ==
                SessionComparison::kKernelMedian) {
                ++simulatedRows;
                QCOMPARE(model.index(r, ComparisonTableModel::Status).data().toString(),
                         QStringLiteral("simulated time"));
                QVERIFY(model.index(r, ComparisonTableModel::Status)
                            .data(Qt::ToolTipRole)
                            .toString()
                            .contains(QStringLiteral("widest pass spread")));
            }
        }
        QCOMPARE(simulatedRows, timed);
        model.setChangedOnly(true);
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString metric = model.index(r, ComparisonTableModel::Metric).data().toString();
            QVERIFY2(metric != SessionComparison::kKernelMedian && metric != SessionComparison::kKernelSpread,
                     qPrintable(metric));
        }
        const test::RunResult out = test::runInspector({QStringLiteral("--compare"), two_, three_});
        QCOMPARE(out.exitCode, 0);
        QVERIFY2(
            out.output.contains(QStringLiteral("runtime: base simulated runtime, new simulated runtime")),
            qPrintable(out.output));
        QVERIFY(out.output.contains(QStringLiteral("noise band s: the widest pass spread")));
        const QRegularExpression timeLine(QStringLiteral("kernel time median .* simulated, ±"));
        QVERIFY2(timeLine.match(out.output).hasMatch(), qPrintable(out.output));
        QVERIFY(!out.output.contains(QStringLiteral("faster")) &&
                !out.output.contains(QStringLiteral("slower")));
        for (const QString& line : out.output.split(QLatin1Char('\n'))) {
            QVERIFY2(line.size() <= 110, qPrintable(line));
        }
    }

    /// Synthetic GPU sessions (not simulated) of one program: twice the kernel time is "slower", far outside
    /// the band of the widest pass spread (by SQL); another random seed is noise inside it.
    void gpuKernelTimeAgainstBand() {
        SyntheticSession::Options o;
        o.dispatches = 280;
        const QString base = test::synthetic(dir_.path(), QStringLiteral("gpu-base.rsdb"), o);
        o.kernelTimeScale = 2.0;
        const QString slow = test::synthetic(dir_.path(), QStringLiteral("gpu-slow.rsdb"), o);
        o.kernelTimeScale = 1.0;
        o.seed = 7;
        const QString noise = test::synthetic(dir_.path(), QStringLiteral("gpu-noise.rsdb"), o);
        QVERIFY(!base.isEmpty() && !slow.isEmpty() && !noise.isEmpty());
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(base, slow, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QVERIFY(!c.simulated());
        const auto spreadBase = sqlWidestPassSpread(base), spreadSlow = sqlWidestPassSpread(slow);
        int slower = 0;
        for (const auto& k : c.kernels()) {
            const auto* t = k.metric(SessionComparison::kKernelMedian);
            if (!t || !t->comparable()) {
                continue;
            }
            ++slower;
            QVERIFY(!t->simulatedTime);
            const double band = std::max(spreadBase.value(k.name), spreadSlow.value(k.name));
            QVERIFY(band > 0 && band < 0.5);
            QVERIFY(std::abs(t->noiseBand - band) < 1e-12);
            QVERIFY2(std::abs(t->now / t->base - 2.0) < 0.001, qPrintable(QString::number(t->now / t->base)));
            QVERIFY(t->changed());
            QCOMPARE(t->verdict(), SessionComparison::Verdict::slower);
            QCOMPARE(SessionComparison::statusText(*t), QStringLiteral("slower, ±") +
                                                            QString::number(band * 100, 'f', 1) +
                                                            QStringLiteral(" %"));
        }
        QCOMPARE(slower, 6); // the synthetic session's seven kernels, the filtered fill kernel never timed
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(c);
        model.setChangedOnly(true);
        int slowerRows = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            slowerRows +=
                model.index(r, ComparisonTableModel::Status).data().toString() == QStringLiteral("slower");
        }
        QCOMPARE(slowerRows, 6);

        const SessionComparison n = SessionComparison::compareFiles(base, noise, e);
        QVERIFY(!e.isError());
        int inBand = 0;
        for (const auto& k : n.kernels()) {
            const auto* t = k.metric(SessionComparison::kKernelMedian);
            if (t && t->comparable()) {
                ++inBand;
                QVERIFY(t->now != t->base);
                QCOMPARE(t->verdict(), SessionComparison::Verdict::withinNoise);
                QVERIFY(!t->changed());
            }
        }
        QCOMPARE(inBand, 6);
    }

    /// Synthetic simulated sessions whose SQ_INSTS_VALU differs (SQ_WAVES the same): the counters table, the
    /// terminal and the charts show the medians of pass_counter_values by SQL and their exact difference.
    void countersCompared() {
        SyntheticSession::Options o;
        o.dispatches = 140;
        o.simulatedRuntime = true;
        o.counters = {{"SQ_INSTS_VALU", 1000}, {"SQ_WAVES", 64}};
        const QString base = test::synthetic(dir_.path(), QStringLiteral("cnt-base.rsdb"), o);
        o.counters = {{"SQ_INSTS_VALU", 1100}, {"SQ_WAVES", 64}};
        const QString now = test::synthetic(dir_.path(), QStringLiteral("cnt-new.rsdb"), o);
        QVERIFY(!base.isEmpty() && !now.isEmpty());
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(base, now, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QVERIFY(c.simulated());
        const auto b = sqlCounterMedians(base), n = sqlCounterMedians(now);
        QCOMPARE(int(c.counters().size()), b.size());
        QCOMPARE(b.size(), 12); // six replayed kernels, two counters
        QCOMPARE(c.oneSidedCounters(), 0);
        QCOMPARE(c.changedCounters(), 6);
        for (const auto& counter : c.counters()) {
            const QPair<QString, QString> key{counter.kernel, counter.counter};
            QCOMPARE(counter.baseMedian, b.value(key));
            QCOMPARE(counter.newMedian, n.value(key));
            QCOMPARE(
                counter.baseDispatches,
                test::sqlCount(base, QStringLiteral("SELECT count(*) FROM pass_counter_values v JOIN "
                                                    "dispatches d ON d.process = v.process AND d.id = "
                                                    "v.dispatch JOIN strings s ON s.process = d.process "
                                                    "AND s.id = d.kernel_name_id WHERE s.text = '%1' AND "
                                                    "v.counter = '%2'")
                                         .arg(counter.kernel, counter.counter)));
            if (counter.counter == QStringLiteral("SQ_WAVES")) {
                QVERIFY(!counter.changed());
                QCOMPARE(SessionComparison::counterDifferenceText(counter), QStringLiteral("0"));
            } else {
                QCOMPARE(counter.counter, QStringLiteral("SQ_INSTS_VALU"));
                QVERIFY(counter.changed());
                QCOMPARE(counter.unit, QStringLiteral("instructions"));
                // Kernel k counts 1000 (k + 1) + i % 4 in base and 1100 (k + 1) + i % 4 in new, the same i.
                const double perKernel = counter.newMedian - counter.baseMedian;
                QVERIFY(perKernel >= 100 && std::fmod(perKernel, 100) == 0);
                QCOMPARE(SessionComparison::counterDifferenceText(counter),
                         QStringLiteral("+") + QString::number(perKernel, 'f', 0));
                QCOMPARE(counter.ratio(), counter.newMedian / counter.baseMedian);
            }
        }
        CounterComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(c);
        QCOMPARE(model.rowCount(), 12);
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto& counter = c.counters()[std::size_t(r)];
            QCOMPARE(model.index(r, CounterComparisonModel::Kernel).data().toString(), counter.kernel);
            QCOMPARE(model.index(r, CounterComparisonModel::BaseMedian).data(SortRole).toDouble(),
                     b.value({counter.kernel, counter.counter}));
            QCOMPARE(model.index(r, CounterComparisonModel::NewMedian).data(SortRole).toDouble(),
                     n.value({counter.kernel, counter.counter}));
            QCOMPARE(model.index(r, CounterComparisonModel::Status).data().toString(),
                     counter.changed() ? QStringLiteral("changed") : QStringLiteral("same"));
        }
        // The first kernel in name order, ApplyMaterialPropertiesForElems (k = 4): its medians exactly.
        const auto& first = c.counters().front();
        QCOMPARE(first.kernel, QStringLiteral("ApplyMaterialPropertiesForElems"));
        QCOMPARE(first.counter, QStringLiteral("SQ_INSTS_VALU"));
        QCOMPARE(model.index(0, CounterComparisonModel::BaseMedian).data().toString(), first.baseMedianText);
        QVERIFY(first.baseMedian >= 5000 && first.baseMedian <= 5003);
        QCOMPARE(first.newMedian - first.baseMedian, 500.0);
        QCOMPARE(model.index(0, CounterComparisonModel::Difference).data().toString(),
                 QStringLiteral("+500"));
        QCOMPARE(model.index(0, CounterComparisonModel::Ratio).data().toString(),
                 QString::number(first.newMedian / first.baseMedian, 'f', 4) + QStringLiteral("×"));
        model.setChangedOnly(true);
        QCOMPARE(model.rowCount(), 6);

        const QString charts = dir_.filePath(QStringLiteral("counter-charts"));
        const test::RunResult out = test::runInspector(
            {QStringLiteral("--compare"), QStringLiteral("--export-charts"), base, now, charts});
        QCOMPARE(out.exitCode, 0);
        QVERIFY2(out.output.contains(QStringLiteral("counters: 12 compared (6 changed), 0 collected in one "
                                                    "session only")),
                 qPrintable(out.output));
        const QRegularExpression valuLine(QStringLiteral("SQ_INSTS_VALU\\s+%1\\s+%2\\s+\\+500\\s+%3× changed")
                                              .arg(first.baseMedianText, first.newMedianText,
                                                   QRegularExpression::escape(QString::number(
                                                       first.newMedian / first.baseMedian, 'f', 4))));
        QVERIFY2(valuLine.match(out.output).hasMatch(), qPrintable(out.output));
        const QStringList pngs = QDir(charts).entryList({QStringLiteral("compare-*.png")});
        QCOMPARE(pngs.size(), SessionComparison::chartMetrics().size() + 2);
        QVERIFY(pngs.contains(QStringLiteral("compare-8-counter-SQ_INSTS_VALU.png")));
        QVERIFY(pngs.contains(QStringLiteral("compare-9-counter-SQ_WAVES.png")));
        const auto bars = c.differenceBars(SessionComparison::counterMetric(QStringLiteral("SQ_INSTS_VALU")));
        QCOMPARE(bars.size(), 6);
        for (const auto& bar : bars) {
            QVERIFY(bar.value > 9.9 && bar.value < 10.01); // 100 (k + 1) more of about 1000 (k + 1)
        }

        ComparePage page;
        page.setComparison(c);
        QVERIFY(!page.counterPanel()->isHidden());
        QCOMPARE(page.counterModel()->rowCount(), 12);
        QVERIFY(page.chartMetric()->findText(SessionComparison::counterMetric(QStringLiteral("SQ_WAVES"))) >=
                0);
    }

    /// A file of format 2 compares through the reader: its restore figures are not recorded, the rest is.
    void olderFormatCompares() {
        const QString old = QStringLiteral(RS_APP_TEST_DATA "/format2.rsdb");
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(old, two_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(c.baseFormat(), 2);
        QVERIFY(c.newFormat() >= 4);
        QVERIFY(!c.kernels().empty());
        qint64 dispatches = 0;
        for (const auto& k : c.kernels()) {
            const auto* d = k.metric(SessionComparison::kDispatches);
            if (d->baseRecorded) {
                dispatches += qint64(d->base);
                QVERIFY(
                    !k.metric(SessionComparison::kMovedHost)->baseRecorded); // no restore records before 4
            }
        }
        QCOMPARE(dispatches, test::sqlCount(old, QStringLiteral("SELECT count(*) FROM dispatches")));
        QVERIFY(dispatches > 0);
    }

    /// `replayscope --compare`: the table on stdout within 110 columns, exit 0; charts with --export-charts;
    /// a missing or foreign file: one error line, exit 1.
    void headless() {
        const test::RunResult r = test::runInspector({QStringLiteral("--compare"), demoTwo_, demoThree_});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.output.contains(QStringLiteral("kernels: ")));
        for (const QString& name : sqlKernels(demoTwo_).keys()) {
            QVERIFY2(r.output.contains(name.left(100)), qPrintable(name));
        }
        QVERIFY(r.output.contains(SessionComparison::kPassesPerReplayed));
        for (const QString& line : r.output.split(QLatin1Char('\n'))) {
            QVERIFY2(line.size() <= 110, qPrintable(line));
        }
        // The passes-per-replayed line reads 2 against 3, +1, +50 %.
        QRegularExpression perLine(QStringLiteral("passes per replayed\\s+2\\s+3\\s+\\+1\\s+\\+50(\\.0)? %"));
        QVERIFY2(perLine.match(r.output).hasMatch(), qPrintable(r.output));

        const QString charts = dir_.filePath(QStringLiteral("charts"));
        const test::RunResult c = test::runInspector(
            {QStringLiteral("--compare"), QStringLiteral("--export-charts"), demoTwo_, demoThree_, charts});
        QCOMPARE(c.exitCode, 0);
        const QStringList pngs = QDir(charts).entryList({QStringLiteral("compare-*.png")});
        QCOMPARE(pngs.size(), SessionComparison::chartMetrics().size());
        for (const QString& f : pngs) {
            QVERIFY(QFileInfo(QDir(charts).filePath(f)).size() > 1000);
        }

        const QString missing = dir_.filePath(QStringLiteral("missing.rsdb"));
        const test::RunResult m = test::runInspector({QStringLiteral("--compare"), two_, missing});
        QCOMPARE(m.exitCode, 1);
        QVERIFY2(m.output.contains(QStringLiteral("File not found")) && m.output.contains(missing),
                 qPrintable(m.output));
        QVERIFY(!m.output.contains(QStringLiteral("kernels: ")));
        const QString foreign = dir_.filePath(QStringLiteral("foreign.rsdb"));
        {
            QFile f(foreign);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, 'x'));
        }
        const test::RunResult x = test::runInspector({QStringLiteral("--compare"), foreign, two_});
        QCOMPARE(x.exitCode, 1);
        QVERIFY2(x.output.contains(QStringLiteral("Not a ReplayScope session")), qPrintable(x.output));
        const test::RunResult u = test::runInspector({QStringLiteral("--compare"), two_});
        QCOMPARE(u.exitCode, 2);
    }

    /// The loader's first phase (model/SessionLoader.h) has every figure a comparison needs, the restore
    /// records included: a comparison of first phases is a full load's, every metric of every kernel,
    /// with restore figures recorded. Two real files: `--passes 2` and `--passes 3` of the demo.
    void firstPhaseComparison() {
        auto firstPhase = [](const QString& path) {
            SessionLoader loader(path);
            auto* data = new SessionData;
            SessionSnapshot s(data);
            if (loader.open().isError() || loader.load(*data).isError()) {
                return SessionSnapshot();
            }
            return s;
        };
        const SessionSnapshot b1 = firstPhase(demoTwo_), n1 = firstPhase(demoThree_);
        QVERIFY(!b1.isNull() && !n1.isNull());
        QVERIFY(b1->hasRestoreRecords && !b1->detailsLoaded && !b1->regionsLoaded);
        QVERIFY(!b1->restores.empty());
        const SessionComparison early = SessionComparison::compare(b1, n1);
        SessionError e;
        const SessionComparison full = SessionComparison::compareFiles(demoTwo_, demoThree_, e);
        QVERIFY(!e.isError());
        QCOMPARE(early.kernels().size(), full.kernels().size());
        QVERIFY(!early.kernels().empty());
        int restoreFigures = 0;
        for (std::size_t k = 0; k < early.kernels().size(); ++k) {
            const SessionComparison::Kernel& a = early.kernels()[k];
            const SessionComparison::Kernel& b = full.kernels()[k];
            QCOMPARE(a.name, b.name);
            QCOMPARE(a.metrics.size(), b.metrics.size());
            for (std::size_t m = 0; m < a.metrics.size(); ++m) {
                QCOMPARE(a.metrics[m].name, b.metrics[m].name);
                QCOMPARE(a.metrics[m].comparable(), b.metrics[m].comparable());
                QCOMPARE(a.metrics[m].base, b.metrics[m].base);
                QCOMPARE(a.metrics[m].now, b.metrics[m].now);
            }
            for (const QString& m : {SessionComparison::kRestoreTime, SessionComparison::kMovedHost,
                                     SessionComparison::kMovedDevice}) {
                restoreFigures += a.metric(m) && a.metric(m)->comparable() ? 1 : 0;
            }
        }
        QVERIFY(restoreFigures > 0);
    }

    /// `replayscope --screenshots SESSION BASELINE RANK... DIR`: every page as a PNG, the compare page
    /// (against the baseline) and the job view (of the rank files) included, each a real picture.
    void screenshots() {
        const QString shots = dir_.filePath(QStringLiteral("shots"));
        const test::RunResult r = test::runInspector(
            {QStringLiteral("--screenshots"), demoThree_, demoTwo_, demoTwo_, demoThree_, shots}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        for (const QString& page :
             {QStringLiteral("summary"), QStringLiteral("dispatches"), QStringLiteral("audit"),
              QStringLiteral("charts"), QStringLiteral("timeline"), QStringLiteral("compare"),
              QStringLiteral("job")}) {
            const QImage image(QDir(shots).filePath(page + QStringLiteral(".png")));
            QVERIFY2(!image.isNull(), qPrintable(page));
            QVERIFY(image.width() >= 800 && image.height() >= 500);
            // A page, not an empty window: many colours (text, charts, table lines).
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7) {
                for (int x = 0; x < image.width(); x += 7) {
                    colours.insert(image.pixel(x, y));
                }
            }
            QVERIFY2(colours.size() > 20,
                     qPrintable(QStringLiteral("%1: %2 colours").arg(page).arg(colours.size())));
        }
        QCOMPARE(test::runInspector({QStringLiteral("--screenshots"), demoThree_}).exitCode, 2);
    }

    /// The compare page: table, "changed only" and the difference chart; File > Compare with… through
    /// MainWindow::compareWith on the current session tab.
    void comparePage() {
        SessionError e;
        const SessionComparison c = SessionComparison::compareFiles(demoTwo_, demoThree_, e);
        QVERIFY(!e.isError());
        ComparePage page;
        page.setComparison(c);
        const int all = page.model()->rowCount();
        int expected = 0;
        for (const auto& k : c.kernels()) {
            expected += int(k.metrics.size());
        }
        QCOMPARE(all, expected);
        // Kernel and metric names are shown whole (they are up to 48 characters in these files).
        const QTableView* table = page.findChild<QTableView*>(QStringLiteral("comparisonView"));
        QVERIFY(table);
        for (int column : {0, 1}) {
            int widest = 0;
            for (int r = 0; r < all; ++r) {
                widest = std::max(widest, table->fontMetrics().horizontalAdvance(
                                              page.model()->index(r, column).data().toString()));
            }
            QVERIFY(widest > 0);
            QVERIFY2(table->columnWidth(column) >= widest,
                     qPrintable(QStringLiteral("column %1: %2 px for %3 px of text")
                                    .arg(column)
                                    .arg(table->columnWidth(column))
                                    .arg(widest)));
        }
        page.changedOnly()->setChecked(true);
        QVERIFY(page.model()->rowCount() < all);
        QVERIFY(page.model()->rowCount() > 0);
        page.chartMetric()->setCurrentText(SessionComparison::kReplayed);
        QVERIFY(c.differenceBars(SessionComparison::kReplayed).size() ==
                c.count(SessionComparison::Side::both));
        for (const auto& b : c.differenceBars(SessionComparison::kReplayed)) {
            QCOMPARE(b.value, 0.0); // the same program replays the same dispatches
        }

        MainWindow window;
        window.setInteractive(false);
        SessionView* view = window.openSession(demoTwo_);
        QElapsedTimer t;
        t.start();
        while (view->snapshot().isNull() && t.elapsed() < 30000) {
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        QVERIFY(!view->snapshot().isNull());
        ComparePage* fromWindow = window.compareWith(demoThree_);
        QVERIFY(fromWindow);
        QSignalSpy compared(fromWindow, &ComparePage::compared);
        QCOMPARE(window.tabs()->currentWidget(), fromWindow);
        QVERIFY(window.tabs()->tabText(window.tabs()->currentIndex()).startsWith(QStringLiteral("Compare")));
        // Both files are read on reader threads, then compared once, every figure in.
        QTRY_VERIFY_WITH_TIMEOUT(!compared.isEmpty(), 60000);
        QCOMPARE(compared.size(), 1);
        QCOMPARE(fromWindow->model()->rowCount(), all);
        QVERIFY(!window.compareWith(dir_.filePath(QStringLiteral("missing.rsdb"))));
    }
};

QTEST_MAIN(AppCompareTest)
#include "tst_app_compare.moc"
