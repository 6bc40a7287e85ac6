// SPDX-License-Identifier: MIT
// The charts page after the chart polish: nice axis ticks (1/2/5 x 10^n) and axis units; the pass-to-pass
// spread of kernel time (PassSpreadModel, histogram, threshold list) on a session recorded by the engine
// (replayscope-run --simulate of workloads/accumulate_n 40, 3 passes), with the expected spreads computed
// here from the pass rows read back; tooltips that carry full addresses; the main window's geometry saved and
// restored through QSettings in a temporary directory (never the user's settings).
#include "app_test_support.h"

#include "model/AllocationTableModel.h"
#include "model/ChartSeriesBuilder.h"
#include "model/DispatchTableModel.h"
#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ModuleVariableTableModel.h"
#include "model/NiceTicks.h"
#include "model/PassSpreadModel.h"
#include "model/RegionTableModel.h"
#include "model/SessionLoader.h"
#include "ui/ChartAdapter.h"
#include "ui/ChartsPage.h"
#include "ui/DispatchesPage.h"
#include "ui/MainWindow.h"
#include "ui/PassSpreadPanel.h"
#include "ui/SessionView.h"
#include "ui/TablePanel.h"
#include "ui/WindowState.h"

#include <QAbstractItemModelTester>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

using namespace rs::app;

namespace {

/// The spread histogram's upper bin edges in percent, as docs/inspector.md gives them (the last bin, from
/// 100 %, is open), and the bin of a spread (a fraction) by them: how many edges it reaches.
const QVector<double> kSpreadEdgesPercent{0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100};
int expectedBin(double spread) {
    int bin = 0;
    for (const double edge : kSpreadEdgesPercent) {
        bin += spread * 100.0 >= edge ? 1 : 0;
    }
    return bin;
}
/// Expected spread of dispatch row `row`, from its pass rows (timed passes only), or -1 when fewer than two.
double expectedSpread(const SessionSnapshot& s, int row, int* timed = nullptr) {
    qint64 lo = -1, hi = -1;
    int n = 0;
    for (int p = s->passBegin[std::size_t(row)]; p < s->passBegin[std::size_t(row) + 1]; ++p) {
        const PassRow& pass = s->passes[std::size_t(p)];
        if (pass.endTick > 0 && pass.endTick >= pass.startTick) {
            const qint64 t = pass.endTick - pass.startTick;
            lo = lo < 0 ? t : std::min(lo, t);
            hi = std::max(hi, t);
            ++n;
        }
    }
    if (timed) {
        *timed = n;
    }
    return n >= 2 && lo > 0 ? double(hi) / double(lo) - 1.0 : -1.0;
}
} // namespace

class AppChartsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;
    SessionSnapshot s_;

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        // Settings (recent sessions, window geometry) go to the temporary directory.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           dir_.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("ReplayScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_app_charts"));
        // 40 dispatches of accumulate_n replayed 3 passes each by the engine on the simulated runtime.
        path_ = dir_.filePath(QStringLiteral("accumulate_n.rsdb"));
        const test::RunResult run =
            test::runPipeline({QStringLiteral("--simulate"), QStringLiteral("--passes"), QStringLiteral("3"),
                               QStringLiteral("-o"), path_, QStringLiteral("--"),
                               QStringLiteral(RS_WORKLOAD_DIR "/accumulate_n"), QStringLiteral("40")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        QVERIFY(!path_.isEmpty());
        SessionError e;
        s_ = SessionLoader::loadAll(path_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(int(s_->dispatches.size()), 40);
    }

    void niceTicks_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("max_ticks");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("decimals");
        QTest::newRow("[0, 250] 4 ticks") << 0.0 << 250.0 << 4 << 0.0 << 300.0 << 100.0 << 0;
        QTest::newRow("[0, 250] 6 ticks") << 0.0 << 250.0 << 6 << 0.0 << 250.0 << 50.0 << 0;
        QTest::newRow("[0, 0.003]") << 0.0 << 0.003 << 6 << 0.0 << 0.003 << 0.001 << 3;
        QTest::newRow("[17, 83]") << 17.0 << 83.0 << 10 << 10.0 << 90.0 << 10.0 << 0;
        QTest::newRow("[17, 83] 8 ticks") << 17.0 << 83.0 << 8 << 0.0 << 100.0 << 20.0 << 0;
        QTest::newRow("[17, 83] narrow") << 17.0 << 83.0 << 3 << 0.0 << 100.0 << 50.0 << 0;
        QTest::newRow("[0, 1e12]") << 0.0 << 1e12 << 6 << 0.0 << 1e12 << 2e11 << 0;
        QTest::newRow("[-3, 7]") << -3.0 << 7.0 << 6 << -5.0 << 10.0 << 5.0 << 0;
        QTest::newRow("single 42") << 42.0 << 42.0 << 6 << 0.0 << 50.0 << 10.0 << 0;
        QTest::newRow("single -5") << -5.0 << -5.0 << 6 << -5.0 << 0.0 << 1.0 << 0;
        QTest::newRow("single 0") << 0.0 << 0.0 << 6 << 0.0 << 1.0 << 0.2 << 1;
        QTest::newRow("empty") << 1.0 << -1.0 << 6 << 0.0 << 1.0 << 0.2 << 1;
        QTest::newRow("not finite") << 0.0 << double(NAN) << 6 << 0.0 << 1.0 << 0.2 << 1;
    }

    void niceTicks() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, max_ticks);
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(double, step);
        QFETCH(int, decimals);
        const NiceTicks t = NiceTicks::forRange(lo, hi, max_ticks);
        QCOMPARE(t.min, min);
        QCOMPARE(t.max, max);
        QCOMPARE(t.step, step);
        QCOMPARE(t.decimals, decimals);
        QVERIFY(t.count() <= max_ticks);
        QVERIFY(t.count() >= 2);
        // Ticks cover the range and are 1, 2 or 5 x 10^n apart.
        if (std::isfinite(hi) && lo <= hi) {
            QVERIFY(t.min <= std::min(lo, 0.0) + 1e-12 || t.min <= lo);
            QVERIFY(t.max >= hi);
        }
        const double mantissa = t.step / std::pow(10.0, std::floor(std::log10(t.step)));
        QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                     std::abs(mantissa - 5) < 1e-9,
                 qPrintable(QString::number(mantissa)));
        const QVector<double> values = t.values();
        QCOMPARE(values.size(), t.count());
        QCOMPARE(values.first(), t.min);
        QVERIFY(std::abs(values.last() - t.max) <= t.step * 1e-9);
    }

    void niceTickLabels() {
        // A range across 0 (signed differences of a comparison): 0 is a tick, whatever the room.
        for (const int room : {2, 3, 6}) {
            const NiceTicks across = NiceTicks::forRange(-7.2, 41.0, room);
            QVERIFY(across.min <= -7.2 && across.max >= 41.0);
            QVERIFY(across.step > 0 && across.step <= 50);
            QVERIFY(across.values().contains(0.0));
            QVERIFY(across.count() <= std::max(room, 3));
        }
        QCOMPARE(NiceTicks::forRange(-7.2, 41.0, 2).step, 50.0); // -50, 0, 50
        QCOMPARE(NiceTicks::forRange(0, 0.003, 6).label(0.002), QStringLiteral("0.002"));
        QCOMPARE(NiceTicks::forRange(0, 250, 4).label(200), QStringLiteral("200"));
        QCOMPARE(NiceTicks::forRange(0, 250, 4).labelFormat(), QStringLiteral("%.0f"));
        QCOMPARE(NiceTicks::forRange(0, 1e12, 6).label(4e11), QStringLiteral("4e+11"));
        QCOMPARE(AxisUnit::bytes(512).name, QStringLiteral("B"));
        QCOMPARE(AxisUnit::bytes(3 * 1024).name, QStringLiteral("KiB"));
        QCOMPARE(AxisUnit::bytes(5.0 * 1024 * 1024).name, QStringLiteral("MiB"));
        QCOMPARE(AxisUnit::bytes(5.0 * 1024 * 1024).size, 1024.0 * 1024.0);
        QCOMPARE(AxisUnit::time(800).name, QStringLiteral("ns"));
        QCOMPARE(AxisUnit::time(25'000).name, QStringLiteral("µs"));
        QCOMPARE(AxisUnit::time(3e6).name, QStringLiteral("ms"));
        QCOMPARE(AxisUnit::time(2e9).name, QStringLiteral("s"));
    }

    /// Nice ticks on the ranges of the real session's charts: the snapshot-time range in ms and the
    /// dispatch count.
    void niceTicksOnSessionRanges() {
        double maxMs = 0;
        for (const DispatchRow& d : s_->dispatches) {
            maxMs = std::max(maxMs, double(d.snapshotNs) / 1e6);
        }
        QVERIFY(maxMs > 0);
        for (const double hi : {maxMs, double(s_->dispatches.size() - 1)}) {
            for (int ticks = 2; ticks <= 12; ++ticks) {
                const NiceTicks t = NiceTicks::forRange(0, hi, ticks);
                QVERIFY(t.count() <= ticks);
                QVERIFY(t.max >= hi);
                QVERIFY2(t.max - t.step < hi, // no empty interval above the data
                         qPrintable(QStringLiteral("[0, %1] %2 ticks: %3..%4 step %5")
                                        .arg(hi)
                                        .arg(ticks)
                                        .arg(t.min)
                                        .arg(t.max)
                                        .arg(t.step)));
                QCOMPARE(t.min, 0.0);
            }
        }
    }

    /// One row per replayed dispatch with two or more timed passes; spread = max / min - 1 from the passes
    /// read back; the threshold filters.
    void spreadOnRecordedSession() {
        const std::vector<PassSpreadModel::Entry> entries = PassSpreadModel::entries(s_);
        int expectedRows = 0;
        std::vector<double> spreads;
        for (int r = 0; r < int(s_->dispatches.size()); ++r) {
            int timed = 0;
            const double spread = expectedSpread(s_, r, &timed);
            if (s_->dispatches[std::size_t(r)].replayed() && spread >= 0) {
                ++expectedRows;
                spreads.push_back(spread);
                QCOMPARE(timed, 3); // the session ran three passes
            }
        }
        QVERIFY(expectedRows > 0);
        QCOMPARE(int(entries.size()), expectedRows);
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const PassSpreadModel::Entry& e = entries[i];
            QVERIFY(s_->dispatches[std::size_t(e.row)].replayed());
            QCOMPARE(e.spread, spreads[i]);
            QCOMPARE(e.passes, 3);
            QCOMPARE(e.minTicks, s_->dispatches[std::size_t(e.row)].kernelMin);
            QCOMPARE(e.maxTicks, s_->dispatches[std::size_t(e.row)].kernelMax);
        }

        PassSpreadModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(s_);
        QCOMPARE(model.threshold(), 0.05);
        // A threshold halfway between two recorded spreads splits the rows there.
        std::vector<double> sorted = spreads;
        std::sort(sorted.begin(), sorted.end());
        const double median = sorted[sorted.size() / 2];
        for (const double threshold : {0.0, 0.05, median, sorted.back(), 1e9}) {
            model.setThreshold(threshold);
            const int above = int(std::count_if(spreads.begin(), spreads.end(),
                                                [threshold](double v) { return v > threshold; }));
            QCOMPARE(model.rowCount(), above);
            for (int row = 0; row < model.rowCount(); ++row) {
                QVERIFY(model.entry(row).spread > threshold);
                const int d = model.dispatchRow(row);
                QCOMPARE(model.index(row, 1).data(SortRole).toLongLong(), s_->dispatches[std::size_t(d)].id);
                QCOMPARE(model.index(row, 5).data(SortRole).toDouble(), expectedSpread(s_, d));
                QCOMPARE(model.index(row, 5).data().toString(), format::percent(expectedSpread(s_, d) * 100));
                QCOMPARE(model.index(row, 0).data().toString(),
                         s_->kernelNames.value(s_->dispatches[std::size_t(d)].kernel));
            }
        }
        QCOMPARE(model.dispatchRow(-1), -1);
        QCOMPARE(model.dispatchRow(model.rowCount()), -1);

        // The histogram counts every entry once, in the bin of its spread; shares in percent.
        const PassSpreadModel::Histogram h = ChartSeriesBuilder(s_).passSpread();
        QCOMPARE(h.total, qint64(entries.size()));
        QCOMPARE(PassSpreadModel::binEdges(), kSpreadEdgesPercent);
        QCOMPARE(h.labels.size(), kSpreadEdgesPercent.size() + 1);
        qint64 sum = 0;
        double percent = 0;
        for (int i = 0; i < h.counts.size(); ++i) {
            sum += h.counts[i];
            percent += h.percent[i];
            const qint64 inBin =
                std::count_if(spreads.begin(), spreads.end(), [i](double v) { return expectedBin(v) == i; });
            QCOMPARE(h.counts[i], inBin);
        }
        QCOMPARE(sum, h.total);
        QVERIFY(std::abs(percent - 100.0) < 1e-9);
        QCOMPARE(PassSpreadModel::binOf(0.0), 0);
        QCOMPARE(PassSpreadModel::binOf(0.03), 5); // 3 %: 2–5 %
        QCOMPARE(PassSpreadModel::binOf(0.05), 6); // 5 % opens the 5–10 % bin
        QCOMPARE(PassSpreadModel::binOf(2.0), 10); // 200 %: >= 100 %
    }

    /// The charts page: the spread chart replaces the kernel-time-per-pass chart, the threshold spin box
    /// drives the list, and selecting a row selects the dispatch on the dispatches page.
    void spreadPanelSelectsDispatch() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        SessionView* view = window.openSession(path_);
        QTRY_VERIFY_WITH_TIMEOUT(!view->snapshot().isNull() && view->snapshot()->regionsLoaded, 30000);
        ChartsPage* charts = view->chartsPage();
        charts->flush();
        QCOMPARE(charts->charts().size(), 7);
        QCOMPARE(charts->charts()[2]->objectName(), QStringLiteral("pass-spread"));
        for (const ChartAdapter* c : charts->charts()) {
            QVERIFY(c->objectName() != QLatin1String("kernel-time-per-pass"));
        }
        PassSpreadPanel* panel = charts->spreadPanel();
        QCOMPARE(panel->thresholdBox()->value(), 5.0);
        panel->thresholdBox()->setValue(0.0); // every dispatch whose passes differ at all
        const std::vector<PassSpreadModel::Entry> all = PassSpreadModel::entries(view->snapshot());
        const int differing = int(std::count_if(
            all.begin(), all.end(), [](const PassSpreadModel::Entry& e) { return e.spread > 0; }));
        QCOMPARE(panel->model()->rowCount(), differing);
        if (differing == 0) {
            QSKIP("every pass of the recorded session took the same time");
        }
        QSignalSpy selected(charts, &ChartsPage::dispatchSelected);
        const int last = panel->panel()->proxy()->rowCount() - 1;
        panel->panel()->view()->setCurrentIndex(panel->panel()->proxy()->index(last, 0));
        QCOMPARE(selected.size(), 1);
        const int row = selected.first().first().toInt();
        QCOMPARE(row,
                 panel->model()->dispatchRow(
                     panel->panel()->proxy()->mapToSource(panel->panel()->proxy()->index(last, 0)).row()));
        DispatchesPage* dispatches = view->dispatchesPage();
        const QModelIndex current = dispatches->panel()->view()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(dispatches->panel()->proxy()->mapToSource(current).row(), row);
        // Activation shows the dispatches page.
        view->pages()->setCurrentWidget(charts);
        emit panel->panel()->view()->activated(panel->panel()->proxy()->index(last, 0));
        QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(dispatches));
    }

    /// Long addresses are elided in the middle by the views and complete in the tooltips.
    void tooltipsCarryFullAddresses() {
        AllocationTableModel allocations;
        QAbstractItemModelTester t1(&allocations, QAbstractItemModelTester::FailureReportingMode::QtTest);
        allocations.setSnapshot(s_);
        QVERIFY(allocations.rowCount() > 0);
        for (int r = 0; r < allocations.rowCount(); ++r) {
            QCOMPARE(allocations.index(r, 1).data(Qt::ToolTipRole).toString(),
                     format::address(s_->allocations[std::size_t(r)].address));
        }
        int dispatch = -1;
        for (int r = 0; r < int(s_->dispatches.size()) && dispatch < 0; ++r) {
            if (s_->dispatches[std::size_t(r)].hasSnapshot &&
                s_->dispatches[std::size_t(r)].snapshotRegions > 0) {
                dispatch = r;
            }
        }
        QVERIFY(dispatch >= 0);
        RegionTableModel regions;
        QAbstractItemModelTester t2(&regions, QAbstractItemModelTester::FailureReportingMode::QtTest);
        regions.setDispatch(s_, dispatch);
        QVERIFY(regions.rowCount() > 0);
        for (int r = 0; r < regions.rowCount(); ++r) {
            const QString full = format::address(regions.index(r, 1).data(SortRole).toLongLong());
            QCOMPARE(regions.index(r, 1).data(Qt::ToolTipRole).toString(), full);
            QCOMPARE(regions.index(r, 1).data().toString(), full);
        }
        // Module variables: a synthetic session has captured and skipped ones.
        SyntheticSession::Options o;
        o.dispatches = 20;
        const QString synthetic = test::synthetic(dir_.path(), QStringLiteral("variables.rsdb"), o);
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(synthetic, e);
        QVERIFY(!e.isError());
        ModuleVariableTableModel variables;
        QAbstractItemModelTester t3(&variables, QAbstractItemModelTester::FailureReportingMode::QtTest);
        variables.setSnapshot(s);
        QVERIFY(variables.rowCount() > 0);
        for (int r = 0; r < variables.rowCount(); ++r) {
            const ModuleVariableRow& v = s->moduleVariables[std::size_t(r)];
            QCOMPARE(variables.index(r, 0).data(Qt::ToolTipRole).toString(), v.symbol);
            QCOMPARE(variables.index(r, 1).data(Qt::ToolTipRole).toString(), format::address(v.address));
            QCOMPARE(variables.index(r, 5).data(Qt::ToolTipRole).toString(), format::address(v.executable));
        }
        TablePanel panel(&variables, QStringLiteral("variables"));
        QCOMPARE(panel.view()->textElideMode(), Qt::ElideMiddle);
    }

    /// Axis titles carry the unit that fits the data; category labels are elided.
    void axisUnits() {
        QCOMPARE(ChartAdapter::elideLabel(QStringLiteral("short")), QStringLiteral("short"));
        const QString longLabel =
            QStringLiteral("restore skip: ") + QString(60, QLatin1Char('x')) + QStringLiteral("END");
        const QString elided = ChartAdapter::elideLabel(longLabel);
        QCOMPARE(elided.size(), ChartAdapter::kMaxLabelChars);
        QVERIFY(elided.startsWith(QStringLiteral("restore skip")));
        QVERIFY(elided.endsWith(QStringLiteral("END")));
        QVERIFY(elided.contains(QStringLiteral("…")));
    }

    /// Horizontal bars (the compare page's differences): the value axis holds every bar with room for
    /// its label, which Qt Charts draws right of 0 for a negative bar too; its ticks are round.
    void barAxisRoomForLabels() {
        const QVector<QVector<double>> cases = {{-25.6, -9.07, -17.7}, {3.73, -9.6, -1.93}, {21.4, 11.0}};
        for (const QVector<double>& values : cases) {
            ChartAdapter chart(QStringLiteral("bars"), QStringLiteral("difference %"),
                               QStringLiteral("kernel"));
            chart.resize(900, 300);
            QVector<ChartSeriesBuilder::Bar> bars;
            for (double v : values) {
                bars.push_back({QStringLiteral("k%1").arg(bars.size()), v});
            }
            chart.setBars(bars);
            const QChartView* view = chart.findChild<QChartView*>();
            QVERIFY(view);
            const QList<QAbstractAxis*> axes = view->chart()->axes(Qt::Horizontal);
            QCOMPARE(axes.size(), 1);
            const auto* axis = qobject_cast<const QValueAxis*>(axes.first());
            QVERIFY(axis);
            const double lo = *std::min_element(values.begin(), values.end());
            const double hi = *std::max_element(values.begin(), values.end());
            const double span = axis->max() - axis->min();
            QVERIFY(axis->min() <= std::min(lo, 0.0));
            QVERIFY(axis->max() >= std::max(hi, 0.0));
            // A label of a negative bar, or beyond the longest positive one, gets a tenth of the span.
            QVERIFY2(axis->max() - std::max(hi, 0.0) >= 0.1 * (std::max(hi, 0.0) - std::min(lo, 0.0)),
                     qPrintable(QStringLiteral("[%1, %2] for bars in [%3, %4]")
                                    .arg(axis->min())
                                    .arg(axis->max())
                                    .arg(lo)
                                    .arg(hi)));
            QVERIFY(span > 0);
            QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
            QVERIFY(std::abs(std::remainder(axis->min(), axis->tickInterval())) < 1e-9 * span);
        }
    }

    /// First start: 90 % of the available geometry, centred; the last geometry is saved on close and
    /// restored by the next window, in the test's own settings file.
    void windowGeometryRemembered() {
        const QRect available(0, 0, 2000, 1000);
        const QRect first = WindowState::initialGeometry(available);
        QCOMPARE(first.size(), QSize(1800, 900));
        QCOMPARE(first.center(), available.center());
        QCOMPARE(WindowState::initialGeometry(QRect()).size(), QSize(1400, 900));

        const QString file = dir_.filePath(QStringLiteral("window.ini"));
        {
            QSettings settings(file, QSettings::IniFormat);
            MainWindow window;
            QVERIFY(!WindowState::restore(&window, settings)); // nothing saved yet
            window.setGeometry(QRect(40, 50, 900, 640));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            WindowState::save(&window, settings);
            settings.sync();
            QVERIFY(settings.contains(QStringLiteral("mainWindow/geometry")));
        }
        {
            QSettings settings(file, QSettings::IniFormat);
            MainWindow window;
            QVERIFY(WindowState::restore(&window, settings));
            QCOMPARE(window.size(), QSize(900, 640));
        }
        // The window saves itself when closed (default QSettings: the test's temporary directory).
        {
            MainWindow window;
            window.resize(700, 500);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.close();
        }
        QSettings defaults;
        QVERIFY(defaults.fileName().startsWith(dir_.path()));
        QVERIFY(defaults.contains(QStringLiteral("mainWindow/geometry")));
        MainWindow again;
        QCOMPARE(again.size(), QSize(700, 500));
    }
};

QTEST_MAIN(AppChartsTest)
#include "tst_app_charts.moc"
