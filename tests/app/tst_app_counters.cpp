// SPDX-License-Identifier: MIT
// Hardware counters in the inspector (format 7, docs/counters.md), on counter values written through the
// collector's SessionStore: the section of `replayscope --summary` (model/CounterSummary) per kernel and
// counter, with the number of dispatches and the minimum, median and maximum computed here from the values
// written; the counter columns of the dispatch and pass tables against the file's pass_counter_values read
// with SQL; the chart of one counter per dispatch (ChartSeriesBuilder::counterPerDispatch) on the Counters
// page and in --export-charts.
#include "app_test_support.h"
#include "counter_session_writer.h"

#include "model/ChartSeriesBuilder.h"
#include "model/CounterSummary.h"
#include "model/CounterTableModel.h"
#include "model/CsvExporter.h"
#include "model/DispatchTableModel.h"
#include "model/ModelRoles.h"
#include "model/PassTableModel.h"
#include "model/SessionLoader.h"
#include "model/SimulatedRuntime.h"
#include "model/TerminalSummary.h"

#include "replayscope/ipc/session_store.h"
#include "ui/ChartAdapter.h"
#include "ui/CountersPage.h"
#include "ui/HeadlessExporter.h"
#include "ui/SessionView.h"
#include "ui/TablePanel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMap>
#include <QSet>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>

using namespace rs::app;
using namespace rs::ipc;

namespace {

// Catalogue ids (counters/catalogue.h, append-only): SQ_WAVES 0, SQ_INSTS_VALU 1, GRBM_COUNT 22.
constexpr std::uint32_t kSqWaves = 0, kSqInstsValu = 1, kGrbmCount = 22;

/// Writes the session the model tests read: agents 0xa1 (node 1) and 0xb2 (node 2); scale, dispatches 1-3
/// on 0xa1 and 4 on 0xb2, SQ_WAVES in pass 0 and SQ_INSTS_VALU in pass 1 of each; `reduce` (the kernel
/// sumall, whose demangled name sorts after scale's as its symbol does) on 0xb2, dispatch 5,
/// GRBM_COUNT in pass 0, and dispatch 6 declined (no pass, no counter). Every replayed dispatch has passes
/// 0 and 1.
void writeModelSession(const std::string& path) {
    test::CounterSessionWriter w(path);
    const StringId gpu = w.string("gfx90a");
    w.agent(0xa1, gpu, 1);
    w.agent(0xb2, gpu, 2);
    const StringId scale = w.string("_Z5scalePf.kd"), reduce = w.string("_Z6sumallPKfPf.kd");
    const std::uint64_t waves[] = {16, 4, 64, 8}, valu[] = {160, 40, 640, 81};
    for (std::uint64_t d = 1; d <= 4; ++d) {
        w.dispatch(d, scale, d == 4 ? 0xb2 : 0xa1);
        w.pass(d, 0);
        w.pass(d, 1);
        w.counter(d, 0, kSqWaves, waves[d - 1]);
        w.counter(d, 1, kSqInstsValu, valu[d - 1]);
    }
    w.dispatch(5, reduce, 0xb2);
    w.pass(5, 0);
    w.pass(5, 1);
    w.counter(5, 0, kGrbmCount, 900);
    w.dispatch(6, reduce, 0xb2, DispatchDecision::declined_multi_packet);
    QVERIFY(w.finish());
}

SessionSnapshot load(const QString& path) {
    SessionError error;
    const SessionSnapshot s = SessionLoader::loadAll(path, error);
    if (error.isError()) {
        qWarning("%s", qPrintable(error.message));
    }
    return s;
}

/// The points of `series` as (x, y) pairs, for comparisons that print what differs.
QVector<QPointF> points(const ChartSeriesBuilder::Series& series) {
    return series.points;
}

/// The fields of one CSV line (RFC 4180: quoted fields may hold commas and doubled quotes).
QStringList csvFields(const QString& line) {
    QStringList out;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out << field;
            field.clear();
        } else {
            field += c;
        }
    }
    out << field;
    return out;
}

} // namespace

class TstAppCounters : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir dir_;
    QString recorded_; ///< two_agents on two simulated agents, SQ_WAVES and GRBM_COUNT in passes of their own

  private slots:
    /// Records the real session: replayscope-run --simulate -i (two pmc: lines) of workloads/two_agents on
    /// two simulated gfx90a agents (8 dispatches each over 2048 work-items).
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString input = dir_.filePath("input.txt");
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("pmc: SQ_WAVES\npmc: GRBM_COUNT\n");
        f.close();
        recorded_ = dir_.filePath("two_agents.rsdb");
        const auto r = test::runPipeline({"--simulate", "--no-progress", "-o", recorded_, "-i", input, "--",
                                          QStringLiteral(RS_WORKLOAD_DIR "/two_agents")},
                                         {"HSA_SIM_GPU_AGENTS=2"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QCOMPARE(test::sqlCount(recorded_, "SELECT count(*) FROM pass_counter_values"), 32);
    }

    void perKernelMinMedianMax() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/counters.rsdb").toStdString();
        {
            test::CounterSessionWriter w(path);
            const StringId scale = w.string("_Z5scalePf.kd"), reduce = w.string("_Z6sumallPKfPf.kd");
            // scale: four dispatches, SQ_WAVES in pass 0 and SQ_INSTS_VALU in pass 1 of each.
            const std::uint64_t waves[] = {16, 4, 64, 8}, valu[] = {160, 40, 640, 81};
            for (std::uint64_t d = 1; d <= 4; ++d) {
                w.dispatch(d, scale);
                w.counter(d, 0, kSqWaves, waves[d - 1]);
                w.counter(d, 1, kSqInstsValu, valu[d - 1]);
            }
            // reduce: three dispatches, GRBM_COUNT.
            const std::uint64_t cycles[] = {900, 300, 600};
            for (std::uint64_t d = 5; d <= 7; ++d) {
                w.dispatch(d, reduce);
                w.counter(d, 0, kGrbmCount, cycles[d - 5]);
            }
            QVERIFY(w.finish());
        }
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(QString::fromStdString(path), error);
        QVERIFY2(!error.isError(), qPrintable(error.message));
        QCOMPARE(s->counterValues.size(), std::size_t{11});
        const QString text = CounterSummary::text(s);
        // Sorted: waves 4 8 16 64 -> median (8 + 16) / 2 = 12; valu 40 81 160 640 -> (81 + 160) / 2 = 120.5;
        // cycles 300 600 900 -> 600.
        const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QVERIFY2(lines[0].startsWith("counters (per kernel"), qPrintable(text));
        // Kernels by name, counters by name within each.
        QCOMPARE(lines[1], QString("  scale(float*)"));
        QCOMPARE(lines[2].simplified(), QString("SQ_INSTS_VALU 4 dispatches 40 / 120.5 / 640 instructions"));
        QCOMPARE(lines[3].simplified(), QString("SQ_WAVES 4 dispatches 4 / 12 / 64 waves"));
        QCOMPARE(lines[4], QString("  sumall(float const*, float*)"));
        QCOMPARE(lines[5].simplified(), QString("GRBM_COUNT 3 dispatches 300 / 600 / 900 cycles"));
        QVERIFY(TerminalSummary::text(s).contains(text));
    }

    /// One column per counter after the dispatch table's Process column, named and sorted by the counter's
    /// name; each cell is the dispatch's value (pass_counter_values by SQL), empty where not collected; a
    /// session without counters has none (the model resets between the two under the tester).
    void dispatchTableCounterColumns() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.rsdb"), none = dir.filePath("none.rsdb");
        writeModelSession(path.toStdString());
        {
            test::CounterSessionWriter w(none.toStdString());
            w.dispatch(1, w.string("_Z5scalePf.kd"));
            QVERIFY(w.finish());
        }
        DispatchTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(load(none));
        QCOMPARE(model.columnCount(), int(DispatchTableModel::ColumnCount));
        const SessionSnapshot s = load(path);
        model.setSnapshot(s);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.firstCounterColumn(), int(DispatchTableModel::ColumnCount));
        QCOMPARE(model.columnCount(), int(DispatchTableModel::ColumnCount) + 3);
        const int first = model.firstCounterColumn();
        QStringList headers;
        for (int c = first; c < model.columnCount(); ++c) {
            headers << model.headerData(c, Qt::Horizontal).toString();
        }
        QCOMPARE(headers, (QStringList{"GRBM_COUNT", "SQ_INSTS_VALU", "SQ_WAVES"}));
        QVERIFY(model.headerData(first + 2, Qt::Horizontal, Qt::ToolTipRole).toString().contains("(waves)"));
        // Every value of the file is in its dispatch's row and counter's column.
        const auto rows =
            test::sqlRows(path, "SELECT dispatch, counter, value, pass_index FROM pass_counter_values");
        QCOMPARE(rows.size(), 9);
        for (const QVariantList& r : rows) {
            const int row = s.dispatchRow(1, r[0].toLongLong());
            const int column = first + int(headers.indexOf(r[1].toString()));
            QCOMPARE(model.index(row, column).data(SortRole).toULongLong(), r[2].toULongLong());
            QCOMPARE(model.index(row, column).data().toString(), r[2].toString());
            QVERIFY(model.index(row, column)
                        .data(Qt::ToolTipRole)
                        .toString()
                        .endsWith(QStringLiteral("collected in pass %1").arg(r[3].toInt())));
        }
        // Not collected: empty text, no sort value (dispatch 3 has no GRBM_COUNT; 6 was declined).
        const int third = s.dispatchRow(1, 3), sixth = s.dispatchRow(1, 6);
        QCOMPARE(model.index(third, first).data().toString(), QString());
        QVERIFY(!model.index(third, first).data(SortRole).isValid());
        QCOMPARE(model.index(third, first + 2).data().toString(), QString("64"));
        for (int c = first; c < model.columnCount(); ++c) {
            QCOMPARE(model.index(sixth, c).data().toString(), QString());
        }
        // The process column stays where it was.
        QCOMPARE(model.headerData(DispatchTableModel::Process, Qt::Horizontal).toString(),
                 QString("Process"));
    }

    /// The pass table shows each counter in the pass that collected it and nothing in the others.
    void passTableShowsWhichPassCollected() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.rsdb");
        writeModelSession(path.toStdString());
        const SessionSnapshot s = load(path);
        PassTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDispatch(s, s.dispatchRow(1, 3));
        QCOMPARE(model.rowCount(), 2);
        const int first = model.firstCounterColumn();
        QCOMPARE(first, int(PassTableModel::ColumnCount));
        QCOMPARE(model.columnCount(), first + 3);
        QCOMPARE(model.headerData(first + 1, Qt::Horizontal).toString(), QString("SQ_INSTS_VALU"));
        auto cell = [&](int row, int counter) { return model.index(row, first + counter).data().toString(); };
        // Pass 0 collected SQ_WAVES (64), pass 1 SQ_INSTS_VALU (640); GRBM_COUNT in neither.
        QCOMPARE(QStringList({cell(0, 0), cell(0, 1), cell(0, 2)}), (QStringList{"", "", "64"}));
        QCOMPARE(QStringList({cell(1, 0), cell(1, 1), cell(1, 2)}), (QStringList{"", "640", ""}));
        QCOMPARE(model.index(1, first + 1).data(SortRole).toULongLong(), 640ULL);
        // Dispatch 5 (reduce): GRBM_COUNT in pass 0, as the file says.
        model.setDispatch(s, s.dispatchRow(1, 5));
        QCOMPARE(
            test::sqlValue(path, "SELECT pass_index FROM pass_counter_values WHERE dispatch = 5").toInt(), 0);
        QCOMPARE(cell(0, 0), QString("900"));
        QCOMPARE(cell(1, 0), QString());
        // No dispatch: no rows, the counter columns stay.
        model.setDispatch(s, -1);
        QCOMPARE(model.rowCount(), 0);
    }

    /// The Counters page's table: per kernel, agent and counter the dispatches, min, median and max,
    /// computed here from the values written (scale's dispatches 1-3 on one agent, 4 on the other).
    void counterTablePerKernelAndAgent() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.rsdb");
        writeModelSession(path.toStdString());
        const SessionSnapshot s = load(path);
        CountersPage page;
        CounterTableModel& model = *page.model();
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.setSnapshot(s);
        QCOMPARE(model.rowCount(), 0); // not shown yet: nothing computed
        page.flush();
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(CounterTableModel::ColumnCount));
        const QString a = s.agentLabel(1, 0xa1), b = s.agentLabel(1, 0xb2);
        QVERIFY(a != b);
        auto row = [&](int r) {
            QStringList cells;
            for (int c = 0; c < model.columnCount(); ++c) {
                cells << model.index(r, c).data().toString();
            }
            return cells;
        };
        // Kernels by name, counters by name, agents in order. scale on a: VALU 160 40 640, waves 16 4 64.
        QCOMPARE(row(0),
                 (QStringList{"scale(float*)", a, "SQ_INSTS_VALU", "3", "40", "160", "640", "instructions"}));
        QCOMPARE(row(1),
                 (QStringList{"scale(float*)", b, "SQ_INSTS_VALU", "1", "81", "81", "81", "instructions"}));
        QCOMPARE(row(2), (QStringList{"scale(float*)", a, "SQ_WAVES", "3", "4", "16", "64", "waves"}));
        QCOMPARE(row(3), (QStringList{"scale(float*)", b, "SQ_WAVES", "1", "8", "8", "8", "waves"}));
        QCOMPARE(row(4), (QStringList{"sumall(float const*, float*)", b, "GRBM_COUNT", "1", "900", "900",
                                      "900", "cycles"}));
        QCOMPARE(model.index(0, CounterTableModel::Median).data(SortRole).toDouble(), 160.0);
        QCOMPARE(model.index(4, CounterTableModel::Kernel).data(AgentRole).toLongLong(), 0xb2);
        // Sorting by the maximum in the page's proxy puts the largest last.
        page.panel()->proxy()->sort(CounterTableModel::Max, Qt::AscendingOrder);
        QCOMPARE(page.panel()->proxy()->index(4, CounterTableModel::Max).data().toString(), QString("900"));
        QVERIFY(page.status()->text().startsWith("3 counters over 9 values"));
        // Grouped by kernel only, the same values as --summary's section: scale's VALU over 4 dispatches.
        const auto perKernel = CounterSummary::stats(s, CounterSummary::Grouping::kernel);
        QCOMPARE(perKernel.size(), std::size_t{3});
        QCOMPARE(perKernel[0].dispatches, qint64(4));
        QCOMPARE(perKernel[0].medianText(), QString("120.5"));
    }

    /// `replayscope --export-counters FILE.csv SESSION` on the recorded session: the header of rocprofv3's
    /// counter_collection.csv, and per dispatch and counter the file's values (by SQL): dispatch, agent node,
    /// queue, pid, grid and workgroup sizes, kernel, counter and value, and the ticks of the pass that
    /// collected it; the columns the session does not record are empty. SQ_WAVES is the grid's waves.
    void exportCountersCsv() {
        const QString csv = dir_.filePath("counter_collection.csv");
        const auto r = test::runInspector({"--export-counters", csv, recorded_});
        QVERIFY2(r.exitCode == 0 && r.output.contains(csv), qPrintable(r.output));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csvFile.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(
            lines.value(0),
            QString(
                "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\",\"Thread_Id\","
                "\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\",\"LDS_Block_Size\","
                "\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\",\"Counter_Name\","
                "\"Counter_Value\",\"Start_Timestamp\",\"End_Timestamp\""));
        QCOMPARE(csvFields(lines[0]), CsvExporter::counterCollectionColumns());
        const auto expected = test::sqlRows(
            recorded_,
            "SELECT v.dispatch, a.node, d.queue, p.pid, d.grid_x * d.grid_y * d.grid_z, s.text, "
            "d.workgroup_x * d.workgroup_y * d.workgroup_z, v.counter, v.value, ps.start_tick, ps.end_tick "
            "FROM pass_counter_values v JOIN dispatches d ON d.process = v.process AND d.id = v.dispatch "
            "JOIN agents a ON a.process = d.process AND a.handle = d.agent "
            "JOIN processes p ON p.process = v.process "
            "JOIN strings s ON s.process = d.process AND s.id = d.kernel_name_id "
            "JOIN passes ps ON ps.process = v.process AND ps.dispatch_id = v.dispatch AND ps.idx = "
            "v.pass_index "
            "ORDER BY v.process, v.dispatch, v.counter");
        QCOMPARE(expected.size(), 32);
        QCOMPARE(lines.size(), 1 + 32);
        QSet<QString> agents;
        for (int i = 0; i < expected.size(); ++i) {
            const QStringList f = csvFields(lines[i + 1]);
            const QVariantList& e = expected[i];
            QCOMPARE(f.size(), 19);
            QCOMPARE(f[1], e[0].toString()); // Dispatch_Id
            QCOMPARE(f[2], e[1].toString()); // Agent_Id: the agent's node
            QCOMPARE(f[3], QString::number(e[2].toULongLong()));
            QCOMPARE(f[4], e[3].toString());
            QCOMPARE(f[6], e[4].toString());
            QCOMPARE(f[8], e[5].toString().chopped(3)); // "accumulate.kd": a C name, nothing to demangle
            QCOMPARE(f[9], e[6].toString());
            QCOMPARE(f[15], e[7].toString());
            QCOMPARE(f[16], e[8].toString());
            QCOMPARE(f[17], e[9].toString());
            QCOMPARE(f[18], e[10].toString());
            for (int empty : {0, 5, 7, 10, 11, 12, 13, 14}) {
                QCOMPARE(f[empty], QString());
            }
            if (f[15] == "SQ_WAVES") {
                QCOMPARE(f[16].toLongLong(), f[6].toLongLong() / 64); // a wave is 64 work-items on gfx90a
                QCOMPARE(f[16], QString("32"));
            }
            agents.insert(f[2]);
        }
        QCOMPARE(agents.size(), 2);
        // A session without counters: the header only.
        const QString none = test::synthetic(dir_.path(), "none.rsdb");
        const QString empty = dir_.filePath("none.csv");
        QCOMPARE(test::runInspector({"--export-counters", empty, none}).exitCode, 0);
        QFile g(empty);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(g.readAll()).count('\n'), 1);
    }

    /// The recorded session ran on the simulated runtime: --summary and the line above every page say so;
    /// a session whose CPU agent is a real processor (SyntheticSession) says nothing of it.
    void simulatedRuntimeSaid() {
        const SessionSnapshot s = load(recorded_);
        QCOMPARE(SimulatedRuntime::processes(s), 1);
        QVERIFY(
            TerminalSummary::text(s).contains("runtime:     simulated: ran on ReplayScope's simulated HSA "
                                              "runtime (replayscope-run --simulate)"));
        SessionView view;
        QSignalSpy loaded(&view, &SessionView::loaded);
        view.open(recorded_);
        QVERIFY(loaded.wait(20000));
        QVERIFY2(view.banner()->text().contains("Simulated runtime:"), qPrintable(view.banner()->text()));
        const QString synthetic = test::synthetic(dir_.path(), "synthetic.rsdb");
        const SessionSnapshot real = load(synthetic);
        QVERIFY(!real.isNull());
        QCOMPARE(SimulatedRuntime::processes(real), 0);
        QVERIFY(!TerminalSummary::text(real).contains("simulated"));
        SessionView other;
        QSignalSpy otherLoaded(&other, &SessionView::loaded);
        other.open(synthetic);
        QVERIFY(otherLoaded.wait(20000));
        QVERIFY(!other.banner()->text().contains("Simulated runtime"));
    }

    /// ChartSeriesBuilder::counterPerDispatch on the model session: x is the dispatch's position among all
    /// dispatches (1-6 at 0-5), y the value written; per agent, only its dispatches; counterKernels ranks
    /// the kernels by dispatches counted.
    void counterPerDispatchSeries() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.rsdb");
        writeModelSession(path.toStdString());
        const SessionSnapshot s = load(path);
        const ChartSeriesBuilder b(s);
        const QString scale = "scale(float*)", reduce = "sumall(float const*, float*)"; // as shown
        QCOMPARE(points(b.counterPerDispatch(scale, "SQ_WAVES", 1, 0xa1)),
                 (QVector<QPointF>{{0, 16}, {1, 4}, {2, 64}}));
        QCOMPARE(points(b.counterPerDispatch(scale, "SQ_WAVES", 1, 0xb2)), (QVector<QPointF>{{3, 8}}));
        QCOMPARE(points(b.counterPerDispatch(scale, "SQ_INSTS_VALU")),
                 (QVector<QPointF>{{0, 160}, {1, 40}, {2, 640}, {3, 81}}));
        QCOMPARE(points(b.counterPerDispatch(reduce, "GRBM_COUNT")), (QVector<QPointF>{{4, 900}}));
        QCOMPARE(b.counterPerDispatch(scale, "SQ_WAVES").name, QString("SQ_WAVES"));
        // Not collected for that kernel, or on that agent: no points.
        QVERIFY(b.counterPerDispatch(reduce, "SQ_WAVES").points.isEmpty());
        QVERIFY(b.counterPerDispatch(reduce, "GRBM_COUNT", 1, 0xa1).points.isEmpty());
        // Only the dispatches of the process shown (there is no process 2).
        QVERIFY(ChartSeriesBuilder(s, 2).counterPerDispatch(scale, "SQ_INSTS_VALU").points.isEmpty());
        QCOMPARE(b.counterKernels(4), (QStringList{scale, reduce})); // 4 dispatches counted against 1
        QCOMPARE(b.counterKernels(1), QStringList{scale});
        QCOMPARE(ChartSeriesBuilder(SessionSnapshot()).counterKernels(4), QStringList());
    }

    /// The same series on the session the engine recorded: one point per dispatch of accumulate with the
    /// value the file holds for it (by SQL), at the dispatch's row.
    void counterPerDispatchRecorded() {
        const SessionSnapshot s = load(recorded_);
        const ChartSeriesBuilder b(s);
        QCOMPARE(b.counterKernels(4), QStringList{"accumulate"});
        for (const QString& counter : QStringList{"SQ_WAVES", "GRBM_COUNT"}) {
            const auto rows = test::sqlRows(
                recorded_,
                QStringLiteral("SELECT dispatch, value FROM pass_counter_values WHERE counter = '%1' "
                               "ORDER BY dispatch")
                    .arg(counter));
            QCOMPARE(rows.size(), 16);
            QVector<QPointF> expected;
            for (const QVariantList& r : rows) {
                expected.append(QPointF(s.dispatchRow(1, r[0].toLongLong()), r[1].toDouble()));
            }
            std::sort(expected.begin(), expected.end(),
                      [](const QPointF& a, const QPointF& c) { return a.x() < c.x(); });
            QCOMPARE(points(b.counterPerDispatch("accumulate", counter)), expected);
        }
        // SQ_WAVES is the grid's waves (2048 work-items in waves of 64) in every dispatch.
        for (const QPointF& p : b.counterPerDispatch("accumulate", "SQ_WAVES").points) {
            QCOMPARE(p.y(), 32.0);
        }
    }

    /// The Counters page charts the current row's counter per dispatch of its kernel on its agent: the first
    /// row once shown, then the row made current; a new snapshot keeps the row.
    void countersPageChartFollowsRow() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.rsdb");
        writeModelSession(path.toStdString());
        const SessionSnapshot s = load(path);
        CountersPage page;
        page.setSnapshot(s);
        page.flush();
        auto drawn = [&] { return page.chart()->seriesPoints(); };
        // Row 0: scale's SQ_INSTS_VALU on agent 0xa1 (dispatches 1-3).
        QCOMPARE(drawn(), (QVector<QVector<QPointF>>{{{0, 160}, {1, 40}, {2, 640}}}));
        QVERIFY2(page.chart()->title().startsWith("SQ_INSTS_VALU of scale(float*) on "),
                 qPrintable(page.chart()->title()));
        QCOMPARE(page.chart()->yTitle(), QString("SQ_INSTS_VALU (instructions)"));
        QTableView* view = page.panel()->view();
        view->setCurrentIndex(page.panel()->proxy()->index(3, 0)); // scale's SQ_WAVES on 0xb2: dispatch 4
        QCOMPARE(drawn(), (QVector<QVector<QPointF>>{{{3, 8}}}));
        view->setCurrentIndex(page.panel()->proxy()->index(4, 0)); // reduce's GRBM_COUNT: dispatch 5
        QCOMPARE(drawn(), (QVector<QVector<QPointF>>{{{4, 900}}}));
        // Sorted otherwise, the row follows; a new snapshot of the same file keeps it current.
        page.panel()->proxy()->sort(CounterTableModel::Max, Qt::AscendingOrder); // 900 last, 8 first
        page.setSnapshot(load(path));
        page.flush();
        QCOMPARE(drawn(), (QVector<QVector<QPointF>>{{{4, 900}}}));
        QCOMPARE(page.model()->stat(page.panel()->proxy()->mapToSource(view->currentIndex()).row()).counter,
                 QString("GRBM_COUNT"));
        // A session without counters: nothing drawn.
        const QString none = test::synthetic(dir.path(), "none.rsdb");
        page.setSnapshot(load(none));
        page.flush();
        QVERIFY(drawn().isEmpty());
    }

    /// --export-charts adds per kernel and counter a chart of its value per dispatch, numbered after the
    /// audit's, with real pixels; a session of six kernels and five counters gets 16 of them, for the four
    /// kernels with the most dispatches counted.
    void exportCounterCharts() {
        const QString out = dir_.filePath("charts");
        const auto r = test::runInspector({"--export-charts", recorded_, out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        const QStringList files = QDir(out).entryList({"*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 9 + 2);
        for (const QString& name :
             QStringList{"10-counter-accumulate-GRBM_COUNT.png", "11-counter-accumulate-SQ_WAVES.png"}) {
            QVERIFY2(files.contains(name), qPrintable(files.join(' ')));
            const QImage image(QDir(out).filePath(name));
            QCOMPARE(image.size(), QSize(1000, 500));
            QVERIFY(QFileInfo(QDir(out).filePath(name)).size() > 10000);
            // Not blank: the line and the axes draw more than a few colours.
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 4) {
                for (int x = 0; x < image.width(); x += 4) {
                    colours.insert(image.pixel(x, y));
                }
            }
            QVERIFY(colours.size() > 10);
        }
        // Six kernels, k dispatches for kernel k (1..6), five counters each: the four with most dispatches.
        QTemporaryDir many;
        const QString path = many.filePath("many.rsdb");
        {
            test::CounterSessionWriter w(path.toStdString());
            std::uint64_t id = 0;
            for (int k = 1; k <= 6; ++k) {
                const StringId kernel = w.string("kernel_" + std::to_string(k) + ".kd");
                for (int d = 0; d < k; ++d) {
                    w.dispatch(++id, kernel);
                    w.pass(id, 0);
                    for (std::uint32_t c = 0; c < 5; ++c) {
                        w.counter(id, 0, c, 100 * k + d);
                    }
                }
            }
            QVERIFY(w.finish());
        }
        const QString manyOut = many.filePath("charts");
        QCOMPARE(test::runInspector({"--export-charts", path, manyOut}).exitCode, 0);
        const QStringList counterFiles = QDir(manyOut).entryList({"*-counter-*.png"}, QDir::Files);
        QCOMPARE(counterFiles.size(), HeadlessExporter::kMaxCounterCharts);
        QMap<QString, int> perKernel;
        for (const QString& f : counterFiles) {
            perKernel[f.section('-', 2, 2)] += 1;
        }
        // kernel_6, 5, 4 get all five counters; kernel_3 the one left; kernel_2 and 1 none.
        QCOMPARE(perKernel,
                 (QMap<QString, int>{{"kernel_6", 5}, {"kernel_5", 5}, {"kernel_4", 5}, {"kernel_3", 1}}));
        QVERIFY(counterFiles.contains("10-counter-kernel_6-SQ_INSTS_SALU.png"));
    }

    /// `replayscope --screenshots` grabs the Counters page of a session with counters (counters.png, the
    /// window's size, a real picture) and of none without.
    void screenshotOfCountersPage() {
        const QString shots = dir_.filePath("shots");
        const auto r = test::runInspector({"--screenshots", recorded_, shots}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        const QImage image(QDir(shots).filePath("counters.png"));
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QImage(QDir(shots).filePath("charts.png")).size());
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        const QString none = test::synthetic(dir_.path(), "none-shots.rsdb");
        const QString noneShots = dir_.filePath("none-shots");
        QCOMPARE(test::runInspector({"--screenshots", none, noneShots}, 120000).exitCode, 0);
        QVERIFY(QFile::exists(QDir(noneShots).filePath("charts.png")));
        QVERIFY(!QFile::exists(QDir(noneShots).filePath("counters.png")));
    }

    /// A session without counter values prints no counter section.
    void noCountersNoSection() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/none.rsdb").toStdString();
        {
            test::CounterSessionWriter w(path);
            w.dispatch(1, w.string("_Z5scalePf.kd"));
            QVERIFY(w.finish());
        }
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(QString::fromStdString(path), error);
        QVERIFY2(!error.isError(), qPrintable(error.message));
        QVERIFY(CounterSummary::text(s).isEmpty());
        QVERIFY(!TerminalSummary::text(s).contains("counters ("));
    }
};

QTEST_MAIN(TstAppCounters)
#include "tst_app_counters.moc"
