// SPDX-License-Identifier: MIT
// Derived metrics in the inspector (docs/counters.md, "Derived metrics"): a session whose optional
// `derived_counters` table names VALUInsts and Wavefronts gets their value per dispatch, computed by the
// loader from the dispatch's counter values (none where an input is missing or SQ_WAVES is 0), shown as
// dispatch table columns, Counters page rows with a chart, lines of --summary's counter section and rows
// of --export-counters; and a replayscope-run --simulate --pmc VALUInsts recording whose VALUInsts is the
// file's SQ_INSTS_VALU / SQ_WAVES of each dispatch, read by SQL.
#include "app_test_support.h"
#include "counter_session_writer.h"

#include "model/ChartSeriesBuilder.h"
#include "model/CounterSummary.h"
#include "model/CounterTableModel.h"
#include "model/DispatchTableModel.h"
#include "model/ModelRoles.h"
#include "model/SessionLoader.h"
#include "model/TerminalSummary.h"

#include "replayscope/ipc/session_store.h"
#include "replayscope/session/derived_counters_queries.h"
#include "ui/ChartAdapter.h"
#include "ui/CountersPage.h"
#include "ui/TablePanel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QRegularExpression>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace rs::app;
using namespace rs::ipc;

namespace {

// Catalogue ids (counters/catalogue.h, append-only): SQ_WAVES 0, SQ_INSTS_VALU 1.
constexpr std::uint32_t kSqWaves = 0, kSqInstsValu = 1;

/// The session of the model tests, on agent 0xa1: scale.kd dispatches 1-4 with SQ_WAVES (pass 0) 64, 0,
/// 16, 3 and SQ_INSTS_VALU (pass 1) 640, 80, 200, 32, so VALUInsts 10, none (zero waves), 12.5, 32/3;
/// reduce.kd dispatch 5 with SQ_WAVES 32 alone (VALUInsts none: an input missing); dispatch 6 declined.
/// With `derived`, derived_counters names VALUInsts, Wavefronts and a name no build defines.
void writeSession(const QString& path, bool derived) {
    {
        test::CounterSessionWriter w(path.toStdString());
        w.agent(0xa1, w.string("gfx90a"), 1);
        const StringId scale = w.string("scale.kd"), reduce = w.string("reduce.kd");
        const std::uint64_t waves[] = {64, 0, 16, 3}, valu[] = {640, 80, 200, 32};
        for (std::uint64_t d = 1; d <= 4; ++d) {
            w.dispatch(d, scale);
            w.pass(d, 0);
            w.pass(d, 1);
            w.counter(d, 0, kSqWaves, waves[d - 1]);
            w.counter(d, 1, kSqInstsValu, valu[d - 1]);
        }
        w.dispatch(5, reduce);
        w.pass(5, 0);
        w.counter(5, 0, kSqWaves, 32);
        w.dispatch(6, scale, 0xa1, DispatchDecision::declined_multi_packet);
        QVERIFY(w.finish());
    }
    if (derived) {
        test::sqlRows(path, rs::session::kCreateDerivedCounters, true);
        test::sqlRows(path,
                      "INSERT INTO derived_counters (name) VALUES ('VALUInsts'), ('Wavefronts'), ('NoSuch')",
                      true);
        QCOMPARE(test::sqlCount(path, "SELECT count(*) FROM derived_counters"), 3);
    }
}

SessionSnapshot load(const QString& path) {
    SessionError error;
    SessionSnapshot s = SessionLoader::loadAll(path, error);
    if (error.isError()) {
        qWarning("%s", qPrintable(error.message));
    }
    return s;
}

QVector<QPointF> points(const ChartSeriesBuilder::Series& s) {
    return s.points;
}

} // namespace

class TstAppDerived : public QObject {
    Q_OBJECT

  private slots:
    /// The loader reads the names this build defines (NoSuch left out) and computes each dispatch's value:
    /// VALUInsts = SQ_INSTS_VALU / SQ_WAVES across the dispatch's two passes, none for zero waves, a missing
    /// input or a dispatch without counters; Wavefronts = SQ_WAVES, 0 included. Without the table, none.
    void valuesPerDispatch() {
        QTemporaryDir dir;
        const QString path = dir.filePath("derived.rsdb"), plain = dir.filePath("plain.rsdb");
        writeSession(path, true);
        writeSession(plain, false);
        const SessionSnapshot s = load(path);
        QVERIFY(!s.isNull());
        QCOMPARE(s->derivedNames, (QStringList{"VALUInsts", "Wavefronts"}));
        QCOMPARE(s->derivedUnits, (QStringList{"instructions per wave", "waves"}));
        auto value = [&](qint64 dispatch, int metric) {
            return s.derivedValue(s.dispatchRow(1, dispatch), metric);
        };
        QCOMPARE(value(1, 0), std::optional<double>(10.0));
        QCOMPARE(value(2, 0), std::optional<double>()); // SQ_WAVES = 0
        QCOMPARE(value(3, 0), std::optional<double>(12.5));
        QCOMPARE(value(4, 0), std::optional<double>(32.0 / 3.0));
        QCOMPARE(value(5, 0), std::optional<double>()); // no SQ_INSTS_VALU
        QCOMPARE(value(6, 0), std::optional<double>()); // declined: no counter at all
        QCOMPARE(value(1, 1), std::optional<double>(64.0));
        QCOMPARE(value(2, 1), std::optional<double>(0.0));
        QCOMPARE(value(5, 1), std::optional<double>(32.0));
        QCOMPARE(value(6, 1), std::optional<double>());
        QCOMPARE(s.derivedValue(0, 2), std::optional<double>()); // no such metric
        const SessionSnapshot p = load(plain);
        QVERIFY(p->derivedNames.isEmpty());
        QVERIFY(p->derivedValues.empty());
    }

    /// A column per derived metric after the counter columns, the value as text ("10.667" for 32/3) and as
    /// the sort value, empty where there is none; the plain session has none (tester across the resets).
    void dispatchTableColumns() {
        QTemporaryDir dir;
        const QString path = dir.filePath("derived.rsdb"), plain = dir.filePath("plain.rsdb");
        writeSession(path, true);
        writeSession(plain, false);
        DispatchTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(load(plain));
        QCOMPARE(model.columnCount(), int(DispatchTableModel::ColumnCount) + 2);
        const SessionSnapshot s = load(path);
        model.setSnapshot(s);
        const int first = model.firstCounterColumn();
        QCOMPARE(model.columnCount(), first + 4);
        QStringList headers;
        for (int c = first; c < model.columnCount(); ++c) {
            headers << model.headerData(c, Qt::Horizontal).toString();
        }
        QCOMPARE(headers, (QStringList{"SQ_INSTS_VALU", "SQ_WAVES", "VALUInsts", "Wavefronts"}));
        QCOMPARE(model.derivedMetric(first + 1), -1);
        QCOMPARE(model.derivedMetric(first + 2), 0);
        QCOMPARE(model.derivedMetric(first + 3), 1);
        const QString tip = model.headerData(first + 2, Qt::Horizontal, Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("VALUInsts = SQ_INSTS_VALU / SQ_WAVES (instructions per wave)") &&
                     tip.contains("not of a pass"),
                 qPrintable(tip));
        auto cell = [&](qint64 dispatch, int column) {
            return model.index(s.dispatchRow(1, dispatch), column).data().toString();
        };
        QCOMPARE(cell(1, first + 2), QString("10"));
        QCOMPARE(cell(2, first + 2), QString());
        QCOMPARE(cell(3, first + 2), QString("12.5"));
        QCOMPARE(cell(4, first + 2), QString("10.667"));
        QCOMPARE(cell(5, first + 2), QString());
        QCOMPARE(cell(2, first + 3), QString("0"));
        QCOMPARE(cell(5, first + 3), QString("32"));
        QCOMPARE(model.index(s.dispatchRow(1, 4), first + 2).data(SortRole).toDouble(), 32.0 / 3.0);
        QVERIFY(!model.index(s.dispatchRow(1, 2), first + 2).data(SortRole).isValid());
        QVERIFY(model.index(s.dispatchRow(1, 3), first + 2)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith("VALUInsts: 12.5 instructions per wave, computed"));
    }

    /// Counters page: after each kernel's counters its derived rows, min / median / max over the dispatches
    /// with a value (fractional, 3 decimals at most), their chart per dispatch; --summary lists them marked
    /// derived while the counters print as before.
    void countersPageAndSummary() {
        QTemporaryDir dir;
        const QString path = dir.filePath("derived.rsdb");
        writeSession(path, true);
        const SessionSnapshot s = load(path);
        CountersPage page;
        CounterTableModel& model = *page.model();
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.setSnapshot(s);
        page.flush();
        QCOMPARE(model.rowCount(), 6);
        const QString a = s.agentLabel(1, 0xa1);
        auto row = [&](int r) {
            QStringList cells;
            for (int c = 0; c < model.columnCount(); ++c) {
                cells << model.index(r, c).data().toString();
            }
            return cells;
        };
        // Kernels by name (reduce first), each kernel's counters, then its derived metrics.
        QCOMPARE(row(0), (QStringList{"reduce", a, "SQ_WAVES", "1", "32", "32", "32", "waves"}));
        QCOMPARE(row(1), (QStringList{"reduce", a, "Wavefronts", "1", "32", "32", "32", "waves"}));
        QCOMPARE(row(2), (QStringList{"scale", a, "SQ_INSTS_VALU", "4", "32", "140", "640", "instructions"}));
        QCOMPARE(row(3), (QStringList{"scale", a, "SQ_WAVES", "4", "0", "9.5", "64", "waves"}));
        // VALUInsts over dispatches 1, 3, 4: 10, 12.5, 10.666...
        QCOMPARE(row(4), (QStringList{"scale", a, "VALUInsts", "3", "10", "10.667", "12.5",
                                      "instructions per wave"}));
        QCOMPARE(row(5), (QStringList{"scale", a, "Wavefronts", "4", "0", "9.5", "64", "waves"}));
        QVERIFY(model.stat(4).derived && model.stat(1).derived && !model.stat(3).derived);
        QCOMPARE(model.index(4, CounterTableModel::Median).data(SortRole).toDouble(), 32.0 / 3.0);
        QCOMPARE(model.index(4, CounterTableModel::Max).data(SortRole).toDouble(), 12.5);
        QVERIFY(model.index(4, CounterTableModel::Counter)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("VALUInsts = SQ_INSTS_VALU / SQ_WAVES"));
        // The chart of the derived row: x the dispatch order (rows 0, 2, 3), y its values.
        const QVector<QPointF> expected{{0, 10}, {2, 12.5}, {3, 32.0 / 3.0}};
        QCOMPARE(points(ChartSeriesBuilder(s).counterPerDispatch("scale", "VALUInsts")), expected);
        QCOMPARE(points(ChartSeriesBuilder(s).counterPerDispatch("reduce", "VALUInsts")), QVector<QPointF>());
        page.panel()->view()->setCurrentIndex(page.panel()->proxy()->index(4, 0));
        QCOMPARE(page.chart()->seriesPoints(), (QVector<QVector<QPointF>>{expected}));
        QCOMPARE(page.chart()->yTitle(), QString("VALUInsts (instructions per wave)"));

        const QString text = CounterSummary::text(s);
        const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 9);
        QCOMPARE(lines[1], QString("  reduce"));
        QCOMPARE(lines[2].simplified(), QString("SQ_WAVES 1 dispatch 32 / 32 / 32 waves"));
        QCOMPARE(lines[3].simplified(), QString("Wavefronts 1 dispatch 32 / 32 / 32 waves (derived)"));
        QCOMPARE(lines[4], QString("  scale"));
        QCOMPARE(lines[5].simplified(), QString("SQ_INSTS_VALU 4 dispatches 32 / 140 / 640 instructions"));
        QCOMPARE(lines[6].simplified(), QString("SQ_WAVES 4 dispatches 0 / 9.5 / 64 waves"));
        QCOMPARE(lines[7].simplified(),
                 QString("VALUInsts 3 dispatches 10 / 10.667 / 12.5 instructions per wave (derived)"));
        QCOMPARE(lines[8].simplified(), QString("Wavefronts 4 dispatches 0 / 9.5 / 64 waves (derived)"));
        const auto r = test::runInspector({"--summary", path});
        QVERIFY2(r.exitCode == 0 && r.output.contains(text), qPrintable(r.output));
    }

    /// The summaries' number format of derived values.
    void valueText() {
        QCOMPARE(CounterSummary::valueText(0), QString("0"));
        QCOMPARE(CounterSummary::valueText(10), QString("10"));
        QCOMPARE(CounterSummary::valueText(12.5), QString("12.5"));
        QCOMPARE(CounterSummary::valueText(200.0 / 3.0), QString("66.667"));
        QCOMPARE(CounterSummary::valueText(0.012345), QString("0.0123"));
        QCOMPARE(CounterSummary::valueText(1e12), QString("1000000000000"));
    }

    /// --export-counters: after a dispatch's counter rows, a row per derived metric it has a value of, with
    /// the value as rocprofv3 prints a floating-point one (6 decimals from 1 on, else 8 in scientific form)
    /// and no timestamps; dispatches 2 and 5 have no VALUInsts row.
    void exportCounters() {
        QTemporaryDir dir;
        const QString path = dir.filePath("derived.rsdb"), csv = dir.filePath("counter_collection.csv");
        writeSession(path, true);
        const auto r = test::runInspector({"--export-counters", csv, path});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QStringList rows; // Dispatch_Id, Counter_Name, Counter_Value, Start_Timestamp, End_Timestamp
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QStringList fields = lines[i].split(',');
            QCOMPARE(fields.size(), 19);
            rows << QStringList{fields[1], fields[15], fields[16], fields[17], fields[18]}.join(' ');
        }
        QCOMPARE(rows, (QStringList{"1 \"SQ_INSTS_VALU\" 640 2000 2500", "1 \"SQ_WAVES\" 64 1000 1500",
                                    "1 \"VALUInsts\" 10.000000  ", "1 \"Wavefronts\" 64.000000  ",
                                    "2 \"SQ_INSTS_VALU\" 80 2000 2500", "2 \"SQ_WAVES\" 0 1000 1500",
                                    "2 \"Wavefronts\" 0.00000000e+00  ", "3 \"SQ_INSTS_VALU\" 200 2000 2500",
                                    "3 \"SQ_WAVES\" 16 1000 1500", "3 \"VALUInsts\" 12.500000  ",
                                    "3 \"Wavefronts\" 16.000000  ", "4 \"SQ_INSTS_VALU\" 32 2000 2500",
                                    "4 \"SQ_WAVES\" 3 1000 1500", "4 \"VALUInsts\" 10.666667  ",
                                    "4 \"Wavefronts\" 3.000000  ", "5 \"SQ_WAVES\" 32 1000 1500",
                                    "5 \"Wavefronts\" 32.000000  "}));
    }

    /// A real recording: replayscope-run --simulate --pmc VALUInsts SQ_WAVES of workloads/two_agents writes
    /// derived_counters; the inspector's VALUInsts of every dispatch is the file's SQ_INSTS_VALU / SQ_WAVES
    /// (the simulated runtime without the interpreter counts no VALU instruction: 0 / 32 = 0).
    void recordedValuInsts() {
        QTemporaryDir dir;
        const QString path = dir.filePath("two_agents.rsdb");
        const auto r = test::runPipeline({"--simulate", "--no-progress", "-o", path, "--pmc", "VALUInsts",
                                          "SQ_WAVES", "--", QStringLiteral(RS_WORKLOAD_DIR "/two_agents")},
                                         {"HSA_SIM_GPU_AGENTS=2"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QCOMPARE(test::sqlValue(path, "SELECT group_concat(name) FROM derived_counters").toString(),
                 QString("VALUInsts"));
        const auto expected = test::sqlRows(
            path, "SELECT i.process, i.dispatch, i.value, w.value FROM pass_counter_values i "
                  "JOIN pass_counter_values w ON w.process = i.process AND w.dispatch = i.dispatch "
                  "AND w.counter = 'SQ_WAVES' WHERE i.counter = 'SQ_INSTS_VALU'");
        QCOMPARE(expected.size(), 16); // 8 dispatches on each of the two agents
        const SessionSnapshot s = load(path);
        QCOMPARE(s->derivedNames, QStringList{"VALUInsts"});
        for (const QVariantList& e : expected) {
            const double valu = double(e[2].toULongLong()), waves = double(e[3].toULongLong());
            // The simulated runtime's stand-in kernels count waves only (SQ_INSTS_VALU 0): VALUInsts is then
            // 0, a value, where zero waves would give none.
            QCOMPARE(waves, 32.0); // 2048 work-items in waves of 64
            QVERIFY(valu >= 0);
            const int row = s.dispatchRow(e[0].toInt(), e[1].toLongLong());
            QVERIFY(row >= 0);
            QCOMPARE(s.derivedValue(row, 0), std::optional<double>(valu / waves));
        }
        // --summary lists it after the collected counters of the kernel.
        const QString text = CounterSummary::text(s);
        QVERIFY2(text.contains(QRegularExpression("\n    VALUInsts +16 dispatches .* instructions per wave "
                                                  "\\(derived\\)\n")),
                 qPrintable(text));
    }
};

QTEST_MAIN(TstAppDerived)
#include "tst_app_derived.moc"
