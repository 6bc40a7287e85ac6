// SPDX-License-Identifier: MIT
// Every table and proxy model under QAbstractItemModelTester, with real values from a session written
// by the collector's SessionStore; CSV export, downsampling, run command line.
#include "app_test_support.h"

#include "model/AgentSummaryModel.h"
#include "model/AllocationTableModel.h"
#include "model/AsyncCopyTableModel.h"
#include "model/ChartSeriesBuilder.h"
#include "model/CsvExporter.h"
#include "model/DispatchTableModel.h"
#include "model/Downsampler.h"
#include "model/Format.h"
#include "model/KernelName.h"
#include "model/KernelSummary.h"
#include "model/KernelTableModel.h"
#include "model/ModelRoles.h"
#include "model/ModuleVariableTableModel.h"
#include "model/PassTableModel.h"
#include "model/RegionTableModel.h"
#include "model/ReplaySettings.h"
#include "model/RestoreSkipTableModel.h"
#include "model/RunCommand.h"
#include "model/SessionFilterProxyModel.h"
#include "model/SessionLoader.h"
#include "model/TraceExporter.h"
#include "model/WarningTableModel.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace rs::app;

class AppModelsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    SessionSnapshot s_;

  private slots:
    void initTestCase() {
        SyntheticSession::Options o;
        o.dispatches = 700;
        o.passes = 3;
        const QString path = test::synthetic(dir_.path(), QStringLiteral("models.rsdb"), o);
        QVERIFY(!path.isEmpty());
        SessionError e;
        s_ = SessionLoader::loadAll(path, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(int(s_->dispatches.size()), 700);
        QVERIFY(s_->regionsLoaded);
    }

    /// Kernel names as shown: the demangled name is c++filt's (binutils' implementation of the same ABI)
    /// for plain, template, nested, anonymous-namespace and lambda kernels; ".kd" is dropped in every
    /// style; a C name and a name that does not demangle stay as they are; truncated keeps the function's
    /// own name, as rocprofv3 -T does.
    void kernelNames() {
        const QList<QPair<QString, QString>> cases{
            {"_Z11jacobi_stepPKfPfii", "jacobi_step"},
            {"_Z9vectorAddIfEvPKT_S2_PS0_i", "vectorAdd"},
            {"_ZN2ns3FooIiE3barEPf", "bar"},
            {"_ZN12_GLOBAL__N_16kernelEPi", "kernel"},
            {"_ZZ4mainENKUlPiE_clES_", "operator()"},
            {"_Z6reduceILi256EEvPKfPfN5dummy4TypeIXT_EEE", "reduce"},
        };
        QStringList mangled;
        for (const auto& c : cases) {
            mangled << c.first;
        }
        QProcess filt;
        filt.start(QStringLiteral("c++filt"), mangled);
        QVERIFY2(filt.waitForFinished(10000), "c++filt (binutils) is needed");
        const QStringList expected =
            QString::fromUtf8(filt.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(expected.size(), cases.size());
        for (int i = 0; i < cases.size(); ++i) {
            const QString symbol = cases[i].first + QStringLiteral(".kd");
            QVERIFY2(expected[i] != cases[i].first, qPrintable(expected[i])); // c++filt demangled it
            QCOMPARE(kernelDisplayName(symbol, KernelNameStyle::demangled), expected[i]);
            QCOMPARE(kernelDisplayName(symbol, KernelNameStyle::mangled), cases[i].first);
            QCOMPARE(kernelDisplayName(symbol, KernelNameStyle::truncated), cases[i].second);
        }
        QCOMPARE(kernelDisplayName(QStringLiteral("accumulate.kd")), QStringLiteral("accumulate"));
        QCOMPARE(kernelDisplayName(QStringLiteral("_Znotmangled.kd")), QStringLiteral("_Znotmangled"));
        QCOMPARE(kernelDisplayName(QStringLiteral("kernel@7f00"), KernelNameStyle::truncated),
                 QStringLiteral("kernel@7f00"));
    }

    /// The Kernels page's figures against SQL on the file: per kernel (named as shown) the dispatches,
    /// replayed, declined by reason, passes, the shortest, median and longest timed pass and the snapshot
    /// time; the symbol column holds the stored name; --summary's section lists each kernel.
    void kernelTable() {
        const QString path = s_->info.path;
        struct Expected {
            qint64 dispatches = 0, replayed = 0, passes = 0, snapshotNs = 0;
            QMap<QString, qint64> declined;
            std::vector<qint64> passNs;
            QString symbol;
        };
        QHash<QString, Expected> expected;
        const QString kernelOf =
            QStringLiteral("JOIN strings s ON s.process = d.process AND s.id = d.kernel_name_id");
        for (const QVariantList& r : test::sqlRows(
                 path, QStringLiteral("SELECT s.text, count(*), sum(d.decision = 0) FROM dispatches d %1 "
                                      "GROUP BY s.text")
                           .arg(kernelOf))) {
            Expected& e = expected[kernelDisplayName(r[0].toString())];
            e.symbol = r[0].toString();
            e.dispatches = r[1].toLongLong();
            e.replayed = r[2].toLongLong();
        }
        for (const QVariantList& r : test::sqlRows(
                 path,
                 QStringLiteral("SELECT s.text, x.reason, count(*) FROM declines x JOIN dispatches d ON "
                                "d.process = x.process AND d.id = x.dispatch_id %1 GROUP BY s.text, x.reason")
                     .arg(kernelOf))) {
            expected[kernelDisplayName(r[0].toString())].declined[r[1].toString()] = r[2].toLongLong();
        }
        for (const QVariantList& r : test::sqlRows(
                 path,
                 QStringLiteral("SELECT s.text, p.end_tick - p.start_tick, p.end_tick >= p.start_tick AND "
                                "p.end_tick > 0 FROM passes p JOIN dispatches d ON d.process = p.process AND "
                                "d.id = p.dispatch_id %1")
                     .arg(kernelOf))) {
            Expected& e = expected[kernelDisplayName(r[0].toString())];
            ++e.passes;
            if (r[2].toBool()) {
                e.passNs.push_back(r[1].toLongLong());
            }
        }
        for (const QVariantList& r : test::sqlRows(
                 path,
                 QStringLiteral("SELECT s.text, sum(x.duration_ns) FROM snapshots x JOIN dispatches d ON "
                                "d.process = x.process AND d.id = x.dispatch_id %1 GROUP BY s.text")
                     .arg(kernelOf))) {
            expected[kernelDisplayName(r[0].toString())].snapshotNs = r[1].toLongLong();
        }
        KernelTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(s_);
        QCOMPARE(model.rowCount(), expected.size());
        QVERIFY(model.rowCount() >= 2);
        qint64 declinedSeen = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString name = model.index(r, KernelTableModel::Kernel).data().toString();
            QVERIFY2(expected.contains(name), qPrintable(name));
            Expected& e = expected[name];
            auto cell = [&](int column) { return model.index(r, column).data(SortRole); };
            QCOMPARE(cell(KernelTableModel::Dispatches).toLongLong(), e.dispatches);
            QCOMPARE(cell(KernelTableModel::Replayed).toLongLong(), e.replayed);
            QCOMPARE(cell(KernelTableModel::Declined).toLongLong(), e.dispatches - e.replayed);
            QCOMPARE(cell(KernelTableModel::Passes).toLongLong(), e.passes);
            QCOMPARE(cell(KernelTableModel::SnapshotTime).toLongLong(), e.snapshotNs);
            QCOMPARE(cell(KernelTableModel::Symbol).toString(), e.symbol);
            std::sort(e.passNs.begin(), e.passNs.end());
            if (e.passNs.empty()) {
                QVERIFY(!cell(KernelTableModel::PassMedian).isValid());
            } else {
                const std::size_t n = e.passNs.size();
                QCOMPARE(cell(KernelTableModel::PassMin).toLongLong(), e.passNs.front());
                QCOMPARE(cell(KernelTableModel::PassMax).toLongLong(), e.passNs.back());
                QCOMPARE(cell(KernelTableModel::PassMedian).toLongLong(),
                         e.passNs[(n - 1) / 2] + (e.passNs[n / 2] - e.passNs[(n - 1) / 2]) / 2);
            }
            const QString reasons = cell(KernelTableModel::DeclineReasons).toString();
            for (auto it = e.declined.cbegin(); it != e.declined.cend(); ++it) {
                QVERIFY2(reasons.contains(QStringLiteral("%1 %2").arg(it.value()).arg(it.key())),
                         qPrintable(name + QStringLiteral(": ") + reasons));
                declinedSeen += it.value();
            }
        }
        QVERIFY(declinedSeen > 0); // the synthetic session declines some dispatches
        const QString summary = KernelSummary::text(s_);
        for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
            QVERIFY2(summary.contains(QStringLiteral("  %1\n    %2 dispatches")
                                          .arg(it.key(), format::count(it.value().dispatches))),
                     qPrintable(summary));
        }
    }

    void dispatchModelValues() {
        DispatchTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(s_);
        QCOMPARE(model.rowCount(), 700);
        QCOMPARE(model.columnCount(), int(DispatchTableModel::ColumnCount));
        // Dispatch 1: agent 0, kernel 0, replayed with 3 passes and a snapshot of its inventory.
        const DispatchRow& d = s_->dispatches[0];
        QCOMPARE(model.index(0, DispatchTableModel::Id).data().toString(), QStringLiteral("1"));
        QCOMPARE(model.index(0, DispatchTableModel::Kernel).data().toString(),
                 QStringLiteral("CalcFBHourglassForceForElems"));
        QCOMPARE(model.index(0, DispatchTableModel::Agent).data().toString(), QStringLiteral("gfx90a #1"));
        QCOMPARE(model.index(0, DispatchTableModel::Outcome).data().toString(), QStringLiteral("replayed"));
        QCOMPARE(model.index(0, DispatchTableModel::Passes).data(SortRole).toInt(), 3);
        QCOMPARE(model.index(0, DispatchTableModel::SnapshotBytes).data(SortRole).toLongLong(),
                 d.snapshotBytes);
        QCOMPARE(model.index(0, DispatchTableModel::SnapshotBytes).data().toString(),
                 format::bytes(d.snapshotBytes));
        QVERIFY(d.kernelMin > 0 && d.kernelMin <= d.kernelMedian && d.kernelMedian <= d.kernelMax);
        // Row 6 (dispatch 7) is the fill kernel, always declined as filtered.
        QCOMPARE(model.index(6, DispatchTableModel::Kernel).data().toString(),
                 QStringLiteral("__amd_rocclr_fillBufferAligned"));
        QCOMPARE(model.index(6, DispatchTableModel::Outcome).data().toString(), QStringLiteral("filtered"));
        QCOMPARE(model.index(6, DispatchTableModel::Passes).data().toString(), QString());
        // No timed pass: no kernel time at all (sorting, CSV), not -1 ns shown as -0.001 µs.
        for (const int column : {DispatchTableModel::KernelMin, DispatchTableModel::KernelMedian,
                                 DispatchTableModel::KernelMax}) {
            QVERIFY(!model.index(6, column).data(SortRole).isValid());
            QCOMPARE(model.index(6, column).data().toString(), QString());
        }
        // Growing the same session appends rows (live sessions).
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setSnapshot(s_);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(reset.count(), 0);
    }

    void proxyFilters() {
        DispatchTableModel model;
        model.setSnapshot(s_);
        SessionFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setTextFilter(QStringLiteral("fillbuffer"));
        QCOMPARE(proxy.rowCount(), 100); // every 7th of 700
        proxy.setTextFilter(QStringLiteral("^Calc(Kinematics|Energy)"));
        QCOMPARE(proxy.rowCount(), 200);
        proxy.setTextFilter(QString());
        int declined = 0, onAgent1 = 0;
        for (const DispatchRow& d : s_->dispatches) {
            declined += d.decision != 0;
            onAgent1 += d.agent == s_->agents[2].handle;
        }
        proxy.setCodeFilter(SessionFilterProxyModel::kAnyNonZero);
        QCOMPARE(proxy.rowCount(), declined);
        proxy.setCodeFilter(6);
        QCOMPARE(proxy.rowCount(), 100);
        proxy.setCodeFilter(std::nullopt);
        proxy.setAgentFilter(ProcessKey{s_->agents[2].process, s_->agents[2].handle});
        QCOMPARE(proxy.rowCount(), onAgent1);
        QCOMPARE(onAgent1, 350);
        proxy.setAgentFilter(std::nullopt);
        proxy.sort(DispatchTableModel::SnapshotBytes, Qt::DescendingOrder);
        qint64 max = 0;
        for (const DispatchRow& d : s_->dispatches) {
            max = std::max(max, d.snapshotBytes);
        }
        QCOMPARE(proxy.index(0, DispatchTableModel::SnapshotBytes).data(SortRole).toLongLong(), max);
        proxy.sort(DispatchTableModel::Kernel, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, DispatchTableModel::Kernel).data().toString(),
                 QStringLiteral("__amd_rocclr_fillBufferAligned"));
    }

    void detailModels() {
        RegionTableModel regions;
        PassTableModel passes;
        RestoreSkipTableModel skips;
        QAbstractItemModelTester t1(&regions, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&passes, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&skips, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // A replayed dispatch with restore skips (an allocation freed while in its inventory).
        int row = -1;
        for (int i = 0; i < int(s_->dispatches.size()); ++i) {
            if (s_->dispatches[i].skips > 0) {
                row = i;
                break;
            }
        }
        QVERIFY(row >= 0);
        const DispatchRow& d = s_->dispatches[row];
        regions.setDispatch(s_, row);
        passes.setDispatch(s_, row);
        skips.setDispatch(s_, row);
        QCOMPARE(regions.rowCount(), 6); // regionsPerInventory
        QCOMPARE(regions.rowCount(), d.snapshotRegions);
        qint64 sum = 0;
        for (int r = 0; r < regions.rowCount(); ++r) {
            sum += regions.index(r, 2).data(SortRole).toLongLong();
            QCOMPARE(regions.index(r, 0).data().toString(), QString::number(r));
        }
        QCOMPARE(sum, d.snapshotBytes);
        QCOMPARE(regions.index(4, 3).data().toString(), QStringLiteral("module-variable"));
        QCOMPARE(regions.index(4, 5).data().toString(), QStringLiteral("d_cutoffs"));
        QCOMPARE(regions.index(0, 3).data().toString(), QStringLiteral("allocation"));
        QCOMPARE(regions.index(0, 7).data().toString(), QStringLiteral("hsa_amd_memory_pool_allocate"));
        QCOMPARE(passes.rowCount(), 4); // 3 passes and the restore after the last one
        QCOMPARE(passes.index(3, 0).data().toString(), QStringLiteral("final"));
        QCOMPARE(passes.index(0, 2).data().toString(), QStringLiteral("-"));
        QCOMPARE(passes.index(1, 4).data(SortRole).toLongLong(), d.snapshotBytes);
        QCOMPARE(skips.rowCount(), d.skips);
        QCOMPARE(skips.index(0, 4).data().toString(), QStringLiteral("freed"));
        QVERIFY(skips.index(0, 0).data().toInt() >= 1);
        regions.setDispatch(s_, -1);
        QCOMPARE(regions.rowCount(), 0);
        // A declined dispatch has no snapshot, no passes.
        regions.setDispatch(s_, 6);
        passes.setDispatch(s_, 6);
        QCOMPARE(regions.rowCount(), 0);
        QCOMPARE(passes.rowCount(), 0);
    }

    void auditModels() {
        AllocationTableModel allocations;
        ModuleVariableTableModel variables;
        QAbstractItemModelTester t1(&allocations, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&variables, QAbstractItemModelTester::FailureReportingMode::QtTest);
        allocations.setSnapshot(s_);
        variables.setSnapshot(s_);
        QCOMPARE(allocations.rowCount(), int(s_->allocations.size()));
        QVERIFY(allocations.rowCount() > 60); // 60 initial + churn
        // Allocation 8 (i = 7) is a kernarg buffer: excluded, 4 KiB, never captured.
        QCOMPARE(allocations.index(7, 5).data().toString(), QStringLiteral("kernarg"));
        QCOMPARE(allocations.index(7, 2).data().toString(), QStringLiteral("4.00 KiB"));
        QCOMPARE(allocations.index(7, 9).data(SortRole).toInt(), 0);
        int captured = 0, skipped = 0;
        for (const AllocationRow& a : s_->allocations) {
            captured += a.captured;
            skipped += a.skipped;
        }
        QVERIFY(captured > 0);
        int skipRows = 0;
        for (const SkipRow& k : s_->skips) {
            skipRows += k.pass >= 0;
        }
        QCOMPARE(skipped, skipRows);
        SessionFilterProxyModel proxy;
        proxy.setSourceModel(&allocations);
        proxy.setCodeFilter(SessionFilterProxyModel::kAnyNonZero);
        int excluded = 0;
        for (const AllocationRow& a : s_->allocations) {
            excluded += a.classification != 0;
        }
        QCOMPARE(proxy.rowCount(), excluded);
        QCOMPARE(excluded, 18); // 3 of every 10 of the 60 initial allocations
        QCOMPARE(variables.rowCount(), 10);
        QCOMPARE(variables.index(3, 0).data().toString(), QStringLiteral("d_empty_slot"));
        QCOMPARE(variables.index(3, 4).data().toString(), QStringLiteral("zero-size"));
        QCOMPARE(variables.index(4, 4).data().toString(), QStringLiteral("too-large"));
        QCOMPARE(variables.index(4, 2).data().toString(), QStringLiteral("3.00 GiB"));
    }

    void summaryModels() {
        AgentSummaryModel agents;
        WarningTableModel warnings;
        QAbstractItemModelTester t1(&agents, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&warnings, QAbstractItemModelTester::FailureReportingMode::QtTest);
        agents.setSnapshot(s_);
        warnings.setSnapshot(s_);
        QCOMPARE(agents.rowCount(), 2); // the GPU agents (the CPU agent ran nothing)
        int replayed = 0;
        for (const auto& r : agents.rows()) {
            replayed += r.replayed;
            QVERIFY(r.peakTrackedBytes >= r.trackedBytes);
            QVERIFY(r.trackedBytes > 0);
        }
        int expected = 0;
        for (const DispatchRow& d : s_->dispatches) {
            expected += d.decision == 0;
        }
        QCOMPARE(replayed, expected);
        QCOMPARE(agents.index(0, 0).data().toString(), QStringLiteral("gfx90a #1"));
        // The replay overhead per agent against SQL: the windows' time, and its share of the process's run.
        qint64 windowsSeen = 0;
        for (const QVariantList& w :
             test::sqlRows(s_->info.path,
                           QStringLiteral("SELECT d.process, d.agent, count(d.window_ns), sum(d.window_ns), "
                                          "p.end_ns - p.start_ns FROM dispatches d JOIN processes p ON "
                                          "p.process = d.process GROUP BY d.process, d.agent"))) {
            const auto it = std::find_if(agents.rows().cbegin(), agents.rows().cend(), [&](const auto& r) {
                return r.process == w[0].toInt() && r.handle == w[1].toLongLong();
            });
            QVERIFY(it != agents.rows().cend());
            QCOMPARE(it->windows, w[2].toLongLong());
            QCOMPARE(it->windowNs, w[2].toLongLong() > 0 ? w[3].toLongLong() : -1);
            QCOMPARE(it->runNs, w[4].toLongLong());
            QCOMPARE(it->runShare(), 100.0 * w[3].toDouble() / w[4].toDouble());
            windowsSeen += it->windows;
        }
        QVERIFY(windowsSeen > 0);
        QCOMPARE(warnings.rowCount(), 2); // one fidelity mismatch (dispatch 501) + the budget note
        QCOMPARE(warnings.index(0, 1).data().toString(), QStringLiteral("fidelity-mismatch"));
        QCOMPARE(warnings.index(0, 2).data().toString(), QStringLiteral("501"));
        QCOMPARE(warnings.index(1, 1).data().toString(), QStringLiteral("configuration"));
    }

    void csvExport() {
        WarningTableModel warnings;
        warnings.setSnapshot(s_);
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        CsvExporter::write(warnings, buffer);
        const QStringList lines =
            QString::fromUtf8(buffer.data()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QStringLiteral("Seq,Category,Dispatch,Warning,Process"));
        QVERIFY2(
            lines[1].endsWith(QStringLiteral(",fidelity-mismatch,501,pass 2 output differs from pass 1 in "
                                             "region 0 of dispatch 501 (fidelity check),4242")),
            qPrintable(lines[1]));
        // A file is private like the session it comes from (0600), and so is a trace.
        const QString csv = dir_.filePath(QStringLiteral("warnings.csv"));
        QVERIFY(CsvExporter::writeFile(warnings, csv));
        auto isPrivate = [](const QString& file) {
            const QFileDevice::Permissions p = QFile::permissions(file);
            return p.testFlag(QFileDevice::ReadOwner) && p.testFlag(QFileDevice::WriteOwner) &&
                   !(p & (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther |
                          QFileDevice::WriteOther));
        };
        QVERIFY(isPrivate(csv));
        const QString trace = dir_.filePath(QStringLiteral("models.pftrace"));
        QString error;
        QVERIFY2(TraceExporter::exportFiles({s_->info.path}, trace, error), qPrintable(error));
        QVERIFY(isPrivate(trace));
    }

    void downsampling() {
        QVector<QPointF> points;
        for (int i = 0; i < 100000; ++i) {
            points << QPointF(i, i == 51234 ? 1000.0 : (i % 7));
        }
        const QVector<QPointF> out = Downsampler::minMax(points, 800);
        QVERIFY(out.size() <= 1600);
        QVERIFY(out.size() >= 800);
        double max = 0;
        for (const QPointF& p : out) {
            max = std::max(max, p.y());
        }
        QCOMPARE(max, 1000.0); // the spike survives
        QVERIFY(std::is_sorted(out.begin(), out.end(), [](auto& a, auto& b) { return a.x() < b.x(); }));
        QCOMPARE(Downsampler::minMax(points.mid(0, 100), 800).size(), 100);
    }

    void chartSeries() {
        const ChartSeriesBuilder b(s_);
        const auto stacked = b.snapshotBytesStacked();
        QCOMPARE(stacked.size(), 2);
        QCOMPARE(stacked[1].points.size(), 700);
        QCOMPARE(stacked[1].points[0].y(), double(s_->dispatches[0].snapshotBytes) / (1024.0 * 1024.0));
        // The bottom series is the first agent's most recent snapshot, found here by searching backwards.
        const qint64 first = s_->agents[1].handle; // agents[0] is the CPU
        for (int x : {100, 351, 699}) {
            double expected = 0;
            for (int k = x; k >= 0; --k) {
                const DispatchRow& d = s_->dispatches[std::size_t(k)];
                if (d.agent == first && d.hasSnapshot) {
                    expected = double(d.snapshotBytes) / (1024.0 * 1024.0);
                    break;
                }
            }
            QCOMPARE(stacked[0].points[x].y(), expected);
            QVERIFY(stacked[1].points[x].y() >= stacked[0].points[x].y());
        }
        QCOMPARE(b.kernelTimePerPass().size(), 3);
        const auto declines = b.declines();
        QVERIFY(!declines.isEmpty());
        int total = 0;
        for (const auto& s : declines) {
            total += int(s.points.size());
        }
        int declined = 0;
        for (const DispatchRow& d : s_->dispatches) {
            declined += d.decision != 0;
        }
        QCOMPARE(total, declined);
        QCOMPARE(b.footprintOverTime().size(), 2);
    }

    /// The launch's environment and the command line shown before Run: the simulated GPU count as
    /// HSA_SIM_GPU_AGENTS (unless the extra environment sets it), words a shell would split quoted.
    void runCommandLine() {
        RunCommand::Options o;
        o.program = QStringLiteral("/opt/my app/bin");
        o.arguments = {QStringLiteral("--name"), QStringLiteral("it's"), QStringLiteral("a*b")};
        o.simulate = true;
        o.output = QStringLiteral("/tmp/x.rsdb");
        o.environment = {QStringLiteral("OMP_NUM_THREADS=4")};
        QCOMPARE(RunCommand::environment(o),
                 QStringList({QStringLiteral("HSA_SIM_GPU_AGENTS=2"), QStringLiteral("OMP_NUM_THREADS=4")}));
        QCOMPARE(
            RunCommand::commandLine(o, QStringLiteral("/usr/bin/replayscope-run")),
            QStringLiteral("HSA_SIM_GPU_AGENTS=2 OMP_NUM_THREADS=4 /usr/bin/replayscope-run --force "
                           "--no-progress -o /tmp/x.rsdb --passes 2 --simulate -- '/opt/my app/bin' --name "
                           "'it'\\''s' 'a*b'"));
        o.environment = {QStringLiteral("HSA_SIM_GPU_AGENTS=4")};
        QCOMPARE(RunCommand::environment(o), QStringList{QStringLiteral("HSA_SIM_GPU_AGENTS=4")});
        o.simulate = false;
        o.environment.clear();
        QVERIFY(RunCommand::environment(o).isEmpty());
    }

    /// The recorded replay settings as the summary shows them: the runner's option for each variable,
    /// sizes in binary units, zero budgets and limits named, switches on/off, timeouts also in seconds.
    void replaySettings() {
        const QString config = QStringLiteral(
            "REPLAYSCOPE_PASSES=2\nREPLAYSCOPE_DISPATCH_COUNT=0\nREPLAYSCOPE_HOST_MEMORY_BUDGET=0\n"
            "REPLAYSCOPE_DEVICE_STORE_RESERVE=1073741824\nREPLAYSCOPE_RESTORE_CHUNK_SIZE=65536\n"
            "REPLAYSCOPE_FIDELITY_CHECK=1\nREPLAYSCOPE_DRAIN_TIMEOUT_MS=10000\n"
            "REPLAYSCOPE_KERNEL_ITERATION_RANGE=[1-3],[5]\nREPLAYSCOPE_NEW_THING=x\n");
        QStringList shown;
        for (const ReplaySettings::Setting& s : ReplaySettings::describe(config)) {
            shown << s.shown;
        }
        QCOMPARE(shown, QStringList({"--passes 2", "--dispatch-count no limit", "--host-memory-budget none",
                                     "--device-store-reserve " + format::bytes(1073741824),
                                     "--restore-chunk-size " + format::bytes(65536), "--fidelity-check on",
                                     "--replay-drain-timeout-ms 10000 (10 s)",
                                     "--kernel-iteration-range [1-3],[5]", "new-thing x"}));
        QCOMPARE(ReplaySettings::describe(config)[4].stored,
                 QStringLiteral("REPLAYSCOPE_RESTORE_CHUNK_SIZE=65536"));
        QVERIFY(!ReplaySettings::text(config).contains(QStringLiteral("REPLAYSCOPE_")));
        // Cut by the session's string limit (no final newline): the fragment is dropped, and said.
        const QList<ReplaySettings::Setting> cut =
            ReplaySettings::describe(QStringLiteral("REPLAYSCOPE_PASSES=3\nREPLAYSCOPE_SNAPSHOT_STORE=aut"));
        QCOMPARE(cut.size(), 2);
        QCOMPARE(cut[0].shown, QStringLiteral("--passes 3"));
        QVERIFY(cut[1].shown.startsWith(QStringLiteral("… (the session keeps the first 400 bytes")));
        QVERIFY(cut[1].stored.isEmpty());
    }

    void runCommand() {
        RunCommand::Options o;
        o.program = QStringLiteral("/bin/app");
        o.arguments = {QStringLiteral("-n"), QStringLiteral("3")};
        o.passes = 4;
        o.kernelInclude = QStringLiteral("^Calc");
        o.kernelIterationRange = QStringLiteral(" [1-3],[5] ");
        o.dispatchCount = 10;
        o.hostMemoryBudget = QStringLiteral("2G");
        o.fidelityCheck = true;
        o.simulate = true;
        o.output = QStringLiteral("/tmp/x.rsdb");
        QCOMPARE(RunCommand::arguments(o), QStringList({"--force",
                                                        "--no-progress",
                                                        "-o",
                                                        "/tmp/x.rsdb",
                                                        "--passes",
                                                        "4",
                                                        "--kernel-include-regex",
                                                        "^Calc",
                                                        "--kernel-iteration-range",
                                                        "[1-3],[5]",
                                                        "--dispatch-count",
                                                        "10",
                                                        "--host-memory-budget",
                                                        "2G",
                                                        "--fidelity-check",
                                                        "--simulate",
                                                        "--",
                                                        "/bin/app",
                                                        "-n",
                                                        "3"}));
    }

    void runCommandStores() {
        RunCommand::Options o;
        o.program = QStringLiteral("/bin/app");
        o.output = QStringLiteral("/tmp/x.rsdb");
        o.snapshotStore = QStringLiteral("auto"); // the runner's defaults are left out
        o.restore = QStringLiteral("dirty");
        QCOMPARE(RunCommand::arguments(o), QStringList({"--force", "--no-progress", "-o", "/tmp/x.rsdb",
                                                        "--passes", "2", "--", "/bin/app"}));
        o.snapshotStore = QStringLiteral("host");
        o.deviceStoreReserve = QStringLiteral(" 2G ");
        o.restore = QStringLiteral("full");
        o.restoreChunkSize = QStringLiteral("1M");
        QCOMPARE(RunCommand::arguments(o),
                 QStringList({"--force", "--no-progress", "-o", "/tmp/x.rsdb", "--passes", "2",
                              "--snapshot-store", "host", "--device-store-reserve", "2G", "--restore", "full",
                              "--restore-chunk-size", "1M", "--", "/bin/app"}));
    }

    void runCommandStandins() {
        RunCommand::Options o;
        o.program = QStringLiteral("/w/demo");
        o.output = QStringLiteral("/tmp/d.rsdb");
        o.passes = 2;
        o.standins = QStringLiteral(" /w/libdemo-standins.so, ,lib/extra.so ,");
        // Without --simulate the runner refuses --standins, so the field is left out.
        QCOMPARE(RunCommand::arguments(o), QStringList({"--force", "--no-progress", "-o", "/tmp/d.rsdb",
                                                        "--passes", "2", "--", "/w/demo"}));
        o.simulate = true;
        QCOMPARE(RunCommand::arguments(o),
                 QStringList({"--force", "--no-progress", "-o", "/tmp/d.rsdb", "--passes", "2", "--simulate",
                              "--standins", "/w/libdemo-standins.so,lib/extra.so", "--", "/w/demo"}));
        o.standins = QStringLiteral(" , ");
        QCOMPARE(RunCommand::arguments(o), QStringList({"--force", "--no-progress", "-o", "/tmp/d.rsdb",
                                                        "--passes", "2", "--simulate", "--", "/w/demo"}));
    }

    void standinsBesideProgram() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("bin")));
        QFile lib(dir.filePath(QStringLiteral("bin/libdemo-standins.so")));
        QVERIFY(lib.open(QIODevice::WriteOnly));
        lib.close();
        const QString absolute = dir.filePath(QStringLiteral("bin/demo"));
        QCOMPARE(RunCommand::standinsBeside(absolute),
                 dir.filePath(QStringLiteral("bin/libdemo-standins.so")));
        // A relative program keeps a relative stand-in path, looked up from the working directory.
        QCOMPARE(RunCommand::standinsBeside(QStringLiteral("bin/demo"), dir.path()),
                 QStringLiteral("bin/libdemo-standins.so"));
        QCOMPARE(RunCommand::standinsBeside(QStringLiteral("bin/demo"), dir.filePath(QStringLiteral("bin"))),
                 QString());
        QCOMPARE(RunCommand::standinsBeside(dir.filePath(QStringLiteral("bin/other"))), QString());
        QCOMPARE(RunCommand::standinsBeside(QString()), QString());
    }

    void formats() {
        QCOMPARE(format::bytes(512), QStringLiteral("512 B"));
        QCOMPARE(format::bytes(1536), QStringLiteral("1.50 KiB"));
        QCOMPARE(format::bytes(200ll << 20), QStringLiteral("200 MiB"));
        QCOMPARE(format::ms(21000), QStringLiteral("0.021"));
        QCOMPARE(format::count(100000), QStringLiteral("100,000"));
        QCOMPARE(format::percent(100.0), QStringLiteral("100 %"));
        QCOMPARE(format::percent(11.1111), QStringLiteral("11.1 %"));
        QCOMPARE(format::percent(0.98), QStringLiteral("0.980 %"));
        QCOMPARE(format::percent(0.0123), QStringLiteral("0.012 %"));
        QCOMPARE(format::percent(0.00034), QStringLiteral("< 0.001 %"));
        QCOMPARE(format::percent(0.0), QStringLiteral("0 %"));
    }

    /// Format 2: pass fidelity, fidelity mismatches in the dispatch detail, async copies, vmem mappings.
    void fidelityAsyncCopiesAndMappings() {
        const int row = s_->dispatchRow.value({1, 501}, -1); // the synthetic fidelity mismatch (process 1)
        QVERIFY(row >= 0);
        PassTableModel passes;
        RestoreSkipTableModel skips;
        AsyncCopyTableModel copies;
        QAbstractItemModelTester t1(&passes, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&skips, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&copies, QAbstractItemModelTester::FailureReportingMode::QtTest);
        passes.setDispatch(s_, row);
        QCOMPARE(passes.rowCount(), 4); // and the final restore, which has no fidelity
        QCOMPARE(passes.index(3, 6).data().toString(), QString());
        QCOMPARE(passes.headerData(6, Qt::Horizontal).toString(), QStringLiteral("Fidelity"));
        QCOMPARE(passes.index(0, 6).data().toString(), QStringLiteral("not checked"));
        QCOMPARE(passes.index(1, 6).data().toString(), QStringLiteral("differed"));
        QCOMPARE(passes.index(2, 6).data().toString(), QStringLiteral("matched"));
        skips.setDispatch(s_, row);
        const int n = skips.rowCount();
        QVERIFY(n >= 1);
        QCOMPARE(skips.index(n - 1, 4).data().toString(), QStringLiteral("output differed from pass 1"));
        QCOMPARE(skips.index(n - 1, 0).data().toString(), QStringLiteral("1"));
        copies.setSnapshot(s_);
        QCOMPARE(copies.rowCount(), int(s_->asyncCopies.size()));
        int expected = 0; // dispatch index i % 50 == 25, when replayed
        for (const DispatchRow& d : s_->dispatches) {
            expected += (d.id - 1) % 50 == 25 && d.decision == 0;
        }
        QCOMPARE(copies.rowCount(), expected);
        QVERIFY(expected > 5);
        QCOMPARE(copies.index(0, 7).data().toString(), QStringLiteral("timed-out"));
        QCOMPARE(copies.index(0, 6).data(SortRole).toDouble(), 5.0);
        QCOMPARE(copies.index(1, 7).data().toString(), QStringLiteral("waited"));
        int mappings = 0;
        AllocationTableModel allocations;
        allocations.setSnapshot(s_);
        for (int r = 0; r < allocations.rowCount(); ++r) {
            for (int c = 0; c < allocations.columnCount(); ++c) {
                mappings += allocations.index(r, c).data().toString() == QStringLiteral("hsa_amd_vmem_map");
            }
        }
        QCOMPARE(mappings, 1);
        QVERIFY(s_->info.hasExitStatus == false); // written by replayscope-run only
    }
};

QTEST_GUILESS_MAIN(AppModelsTest)
#include "tst_app_models.moc"
