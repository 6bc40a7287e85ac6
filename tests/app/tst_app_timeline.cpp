// SPDX-License-Identifier: MIT
// The replay timeline (TimelineModel, TimelinePage) and `replayscope --export-trace` on sessions recorded by
// the engine under replayscope-run --simulate: one window per replayed dispatch whose parts (its fence wait
// first) add up to it and to the durations the file records (checked by SQL on the documented views), no
// fence-wait part for files that do not record it, one mark per declined
// dispatch with its reason, a bounded level-of-detail query, a trace that parses and matches the windows,
// the page painting and selecting the clicked dispatch.
#include "app_test_support.h"

#include "model/DispatchTableModel.h"
#include "model/SessionLoader.h"
#include "model/TimelineModel.h"
#include "model/TraceExporter.h"
#include "ui/DispatchesPage.h"
#include "ui/SessionView.h"
#include "ui/TablePanel.h"
#include "ui/TimelineCanvas.h"
#include "ui/TimelinePage.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace rs::app;

namespace {

/// Every row's first column of `sql` on `path` as integers (NULL as -1); empty on error.
std::vector<qint64> column(const QString& path, const QString& sql) {
    std::vector<qint64> out;
    for (const QVariantList& row : test::sqlRows(path, sql)) {
        out.push_back(row.value(0).isNull() ? -1 : row.value(0).toLongLong());
    }
    return out;
}

struct Slice {
    QString name;
    qint64 tsNs = 0, durNs = 0;
    friend bool operator<(const Slice& a, const Slice& b) {
        return std::tie(a.tsNs, a.durNs, a.name) < std::tie(b.tsNs, b.durNs, b.name);
    }
    friend bool operator==(const Slice& a, const Slice& b) {
        return a.name == b.name && a.tsNs == b.tsNs && a.durNs == b.durNs;
    }
};

qint64 nsOf(const QJsonValue& micros) {
    return std::llround(micros.toDouble() * 1000.0);
}

} // namespace

class AppTimelineTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString filtered_, twoAgents_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // 8 dispatches of accumulate.kd: the first 2 let through, 3 replayed (3 passes), the last 3 past the
        // count: 5 declined as filtered.
        filtered_ = dir_.filePath(QStringLiteral("filtered.rsdb"));
        const test::RunResult r = test::runPipeline(
            {QStringLiteral("--simulate"), QStringLiteral("--passes"), QStringLiteral("3"),
             QStringLiteral("--dispatch-skip"), QStringLiteral("2"), QStringLiteral("--dispatch-count"),
             QStringLiteral("3"), QStringLiteral("-o"), filtered_, QStringLiteral("--"),
             QStringLiteral(RS_WORKLOAD_DIR "/accumulate_n"), QStringLiteral("8")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        twoAgents_ =
            test::simulatedSession(dir_.path(), QStringLiteral("two_agents.rsdb"),
                                   QStringLiteral("two_agents"), 2, {QStringLiteral("HSA_SIM_GPU_AGENTS=2")});
        QVERIFY(!twoAgents_.isEmpty());
    }

    void windowsAndMarks_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("agent_lanes");
        QTest::newRow("accumulate_n, filtered") << filtered_ << 1;
        QTest::newRow("two_agents") << twoAgents_ << 2;
    }
    void windowsAndMarks() {
        QFETCH(QString, path);
        QFETCH(int, agent_lanes);
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(path, error);
        QVERIFY2(!error.isError(), qPrintable(error.message));
        const TimelineModel t(s);

        // One window per replayed dispatch, one declined mark per declined dispatch: the reader's rows and
        // the file's own views agree.
        qint64 replayed = 0;
        for (const DispatchRow& r : s->dispatches) {
            replayed += r.replayed() ? 1 : 0;
        }
        const qint64 declined = test::sqlCount(path, QStringLiteral("SELECT count(*) FROM declines"));
        QCOMPARE(replayed,
                 test::sqlCount(path, QStringLiteral("SELECT count(*) FROM dispatches")) - declined);
        QVERIFY(replayed > 0);
        QCOMPARE(t.windowCount(), replayed);
        QCOMPARE(t.declinedCount(), declined);

        int agents = 0;
        qint64 windows = 0, declinedMarks = 0, marks = 0, fenceTotal = 0;
        for (int l = 0; l < int(t.lanes().size()); ++l) {
            const TimelineLane& lane = t.lanes()[std::size_t(l)];
            agents += lane.kind == TimelineLane::Kind::agent ? 1 : 0;
            QVERIFY(!lane.label.isEmpty());
            for (std::size_t i = 0; i < lane.windows.size(); ++i) {
                const TimelineWindow& w = lane.windows[i];
                ++windows;
                const DispatchRow& r = s->dispatches[std::size_t(w.row)];
                QVERIFY(r.replayed());
                QCOMPARE(lane.handle, r.agent);
                QCOMPARE(t.windowOfRow(w.row), qMakePair(l, int(i)));
                if (i > 0) {
                    QVERIFY(lane.windows[i - 1].startNs <= w.startNs);
                }
                // The parts lie end to end from the window's start and add up to its duration.
                const TimelinePart* parts = t.partsOf(w);
                qint64 at = w.startNs, sum = 0;
                int passes = 0, restores = 0, finals = 0;
                for (int p = 0; p < w.partCount; ++p) {
                    QCOMPARE(parts[p].startNs, at);
                    QVERIFY(parts[p].durationNs >= 0);
                    at += parts[p].durationNs;
                    sum += parts[p].durationNs;
                    passes += parts[p].kind == TimelinePart::Kind::pass ? 1 : 0;
                    restores += parts[p].kind == TimelinePart::Kind::restore ? 1 : 0;
                    finals += parts[p].kind == TimelinePart::Kind::finalRestore ? 1 : 0;
                }
                QCOMPARE(sum, w.durationNs);
                QCOMPARE(w.endNs(), r.tsNs);
                const QString key =
                    QStringLiteral(" WHERE process = %1 AND %3 = %2").arg(r.process).arg(r.id);
                // The window opens with its fence wait (format 5), then the snapshot. The engine records
                // it for every snapshot it takes: the column is not NULL, and the part is its value.
                QVERIFY(w.partCount >= 2);
                QCOMPARE(parts[0].kind, TimelinePart::Kind::fenceWait);
                QCOMPARE(parts[0].name(), QStringLiteral("fence wait"));
                QCOMPARE(parts[0].startNs, w.startNs);
                QCOMPARE(parts[1].kind, TimelinePart::Kind::snapshot);
                const std::vector<qint64> fence =
                    column(path, QStringLiteral("SELECT fence_wait_ns FROM snapshots") +
                                     key.arg(QStringLiteral("dispatch_id")));
                QCOMPARE(fence.size(), std::size_t(1));
                QVERIFY(fence[0] >= 0);
                QCOMPARE(parts[0].durationNs, fence[0]);
                fenceTotal += fence[0];
                QCOMPARE(qint64(passes), test::sqlCount(path, QStringLiteral("SELECT count(*) FROM passes") +
                                                                  key.arg(QStringLiteral("dispatch_id"))));
                QCOMPARE(restores, passes - 1);
                QCOMPARE(finals, 1);
                // The durations the file records: fence wait, snapshot, kernel ticks (1 GHz), every restore.
                const qint64 expected =
                    fence[0] +
                    test::sqlCount(path, QStringLiteral("SELECT duration_ns FROM snapshots") +
                                             key.arg(QStringLiteral("dispatch_id"))) +
                    test::sqlCount(path, QStringLiteral("SELECT sum(end_tick - start_tick) FROM passes") +
                                             key.arg(QStringLiteral("dispatch_id"))) +
                    test::sqlCount(path, QStringLiteral("SELECT sum(restore_ns) FROM restores") +
                                             key.arg(QStringLiteral("dispatch")));
                QCOMPARE(w.durationNs, expected);
            }
            for (const TimelineMark& m : lane.marks) {
                ++marks;
                const DispatchRow& r = s->dispatches[std::size_t(m.row)];
                QCOMPARE(lane.handle, r.queue);
                QCOMPARE(m.tsNs, r.tsNs);
                if (m.declined()) {
                    ++declinedMarks;
                    const QString key =
                        QStringLiteral(" WHERE process = %1 AND dispatch_id = %2").arg(r.process).arg(r.id);
                    QCOMPARE(qint64(m.decision),
                             test::sqlCount(path, QStringLiteral("SELECT reason_code FROM declines") + key));
                    QVERIFY(!t.decisionName(m.decision).isEmpty());
                    QVERIFY(!t.decisionName(m.decision).startsWith(QStringLiteral("code ")));
                }
            }
        }
        QCOMPARE(agents, agent_lanes);
        QCOMPARE(windows, replayed);
        QCOMPARE(declinedMarks, declined);
        QCOMPARE(marks, qint64(s->dispatches.size()));
        QVERIFY(t.beginNs() < t.endNs());
        // A drain is two clock reads around at least one look at the queues: measured, not all zero.
        QVERIFY(fenceTotal > 0);
    }

    /// Files of formats before 5 (the fence wait not recorded): no fence-wait part, the window still the
    /// sum of its parts and the snapshot first; the same for a format-5 file of an engine that did not send
    /// it (the synthetic session as an older engine).
    void olderFormatsWithoutFenceWait_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("format 2") << QStringLiteral(RS_APP_TEST_DATA "/format2.rsdb");
        SyntheticSession::Options o;
        o.dispatches = 60;
        o.storesAndRestores = false;
        QTest::newRow("synthetic, older engine")
            << test::synthetic(dir_.path(), QStringLiteral("no-fence.rsdb"), o);
    }
    void olderFormatsWithoutFenceWait() {
        QFETCH(QString, path);
        QVERIFY(!path.isEmpty());
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(path, error);
        QVERIFY2(!error.isError(), qPrintable(error.message));
        const TimelineModel t(s);
        QVERIFY(t.windowCount() > 0);
        for (const TimelineLane& lane : t.lanes()) {
            for (const TimelineWindow& w : lane.windows) {
                QCOMPARE(s->dispatches[std::size_t(w.row)].fenceWaitNs, -1);
                const TimelinePart* parts = t.partsOf(w);
                QVERIFY(w.partCount >= 1);
                QCOMPARE(parts[0].kind, TimelinePart::Kind::snapshot);
                qint64 sum = 0;
                for (int p = 0; p < w.partCount; ++p) {
                    QVERIFY(parts[p].kind != TimelinePart::Kind::fenceWait);
                    sum += parts[p].durationNs;
                }
                QCOMPARE(sum, w.durationNs);
            }
        }
    }

    void declinedReasons() {
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(filtered_, error);
        QVERIFY(!error.isError());
        const TimelineModel t(s);
        // One window per replayed dispatch, one declined mark per `declines` row of the file (by SQL).
        const qint64 declined = test::sqlCount(filtered_, QStringLiteral("SELECT count(*) FROM declines"));
        QVERIFY(declined > 0);
        QCOMPARE(t.declinedCount(), declined);
        QCOMPARE(t.windowCount(),
                 test::sqlCount(filtered_, QStringLiteral("SELECT count(*) FROM dispatches")) - declined);
        QVERIFY(t.windowCount() > 0);
        for (const TimelineLane& lane : t.lanes()) {
            for (const TimelineMark& m : lane.marks) {
                if (m.declined()) {
                    QCOMPARE(t.decisionName(m.decision), QStringLiteral("filtered"));
                }
            }
        }
    }

    void levelOfDetail_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("two_agents (engine)") << twoAgents_;
        SyntheticSession::Options o;
        o.dispatches = 20000;
        o.agents = 2;
        o.allocations = 40;
        QTest::newRow("synthetic, 20,000 dispatches")
            << test::synthetic(dir_.path(), QStringLiteral("big.rsdb"), o);
    }
    void levelOfDetail() {
        QFETCH(QString, path);
        QVERIFY(!path.isEmpty());
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(path, error);
        QVERIFY(!error.isError());
        const TimelineModel t(s);
        for (const int pixels : {8, 100, 1000}) {
            for (int l = 0; l < int(t.lanes().size()); ++l) {
                const TimelineLane& lane = t.lanes()[std::size_t(l)];
                const auto items = t.visibleItems(l, t.beginNs(), t.endNs(), pixels);
                qint64 windows = 0, marks = 0, windowItems = 0, markItems = 0;
                for (const TimelineItem& item : items) {
                    QVERIFY(item.count >= 1);
                    if (item.kind == TimelineItem::Kind::window) {
                        ++windowItems;
                        windows += item.count;
                    } else {
                        ++markItems;
                        marks += item.count;
                    }
                }
                // Every window and mark is in exactly one item; at most two window items and one mark
                // item per column (plus the two edge columns).
                QCOMPARE(windows, qint64(lane.windows.size()));
                QCOMPARE(marks, qint64(lane.marks.size()));
                QVERIFY2(windowItems <= 2 * (pixels + 2), qPrintable(QString::number(windowItems)));
                QVERIFY2(markItems <= pixels + 2, qPrintable(QString::number(markItems)));
            }
        }
        // Zoomed onto one window: it is an item of its own.
        const int lane = 0;
        QVERIFY(!t.lanes()[0].windows.empty());
        const TimelineWindow& w = t.lanes()[0].windows[t.lanes()[0].windows.size() / 2];
        const qint64 margin = std::max<qint64>(w.durationNs, 100);
        const auto items = t.visibleItems(lane, w.startNs - margin, w.endNs() + margin, 1000);
        const auto it = std::find_if(items.begin(), items.end(), [&](const TimelineItem& i) {
            return i.kind == TimelineItem::Kind::window &&
                   t.lanes()[0].windows[std::size_t(i.first)].row == w.row;
        });
        QVERIFY(it != items.end());
        QCOMPARE(it->count, 1);
        QCOMPARE(it->startNs, w.startNs);
        QCOMPARE(it->endNs, w.endNs());
        QVERIFY(t.visibleItems(lane, w.startNs, w.startNs, 100).empty());
        QVERIFY(t.visibleItems(int(t.lanes().size()), t.beginNs(), t.endNs(), 100).empty());
    }

    void traceExport() {
        // A third session recorded on another host (two_agents' file, its host renamed): its clock is not
        // the others', so its events start from its own origin.
        const QString otherHost = dir_.filePath(QStringLiteral("other-host.rsdb"));
        QFile::remove(otherHost);
        QVERIFY(QFile::copy(twoAgents_, otherHost));
        QFile(otherHost).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        bool renamed = false;
        test::sqlRows(otherHost,
                      QStringLiteral("UPDATE strings SET text = 'other-host' WHERE process = 1 AND id = "
                                     "(SELECT hostname_id FROM session)"),
                      true, &renamed);
        QVERIFY(renamed);
        const QString out = dir_.filePath(QStringLiteral("trace.json"));
        const test::RunResult r =
            test::runInspector({QStringLiteral("--export-trace"), out, filtered_, twoAgents_, otherHost});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
        QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));
        QVERIFY(doc.isObject());
        const QJsonArray events = doc.object().value(QStringLiteral("traceEvents")).toArray();
        QVERIFY(!events.isEmpty());

        // The windows, parts and declined marks of the sessions, from the model, each on its host's origin.
        std::vector<TraceExporter::Input> inputs;
        for (const QString& path : {filtered_, twoAgents_, otherHost}) {
            SessionError error;
            inputs.push_back({path, TimelineModel(SessionLoader::loadAll(path, error))});
            QVERIFY(!error.isError());
        }
        const QString host = inputs[0].timeline.snapshot()->info.hostname;
        QCOMPARE(inputs[1].timeline.snapshot()->info.hostname, host);
        QCOMPARE(inputs[2].timeline.snapshot()->info.hostname, QStringLiteral("other-host"));
        const QJsonObject other = doc.object().value(QStringLiteral("otherData")).toObject();
        const QJsonObject origins = other.value(QStringLiteral("host_origins_ns")).toObject();
        QCOMPARE(origins.size(), 2);
        QCOMPARE(origins.value(host).toString(),
                 QString::number(TraceExporter::origin({inputs[0], inputs[1]})));
        QCOMPARE(origins.value(QStringLiteral("other-host")).toString(),
                 QString::number(inputs[2].timeline.beginNs()));
        QVERIFY(!other.contains(QStringLiteral("origin_ns"))); // two hosts: no one origin
        std::vector<Slice> windows, parts, declined;
        int processes = 0;
        int otherDeclined = 0;
        for (const TraceExporter::Input& in : inputs) {
            const TimelineModel& t = in.timeline;
            const qint64 origin = TraceExporter::origin(inputs, t.snapshot()->info.hostname);
            processes += int(t.snapshot()->processes.size());
            for (const TimelineLane& lane : t.lanes()) {
                for (const TimelineWindow& w : lane.windows) {
                    windows.push_back({t.kernelName(w.row), w.startNs - origin, w.durationNs});
                    for (int i = 0; i < w.partCount; ++i) {
                        const TimelinePart& p = t.partsOf(w)[i];
                        parts.push_back({p.name(), p.startNs - origin, p.durationNs});
                    }
                }
                for (const TimelineMark& m : lane.marks) {
                    if (m.declined()) {
                        declined.push_back(
                            {QStringLiteral("declined: ") + t.decisionName(m.decision), m.tsNs - origin, 0});
                        otherDeclined += &in == &inputs[2] ? 1 : 0;
                    }
                }
            }
        }
        std::vector<Slice> traceWindows, traceParts, traceDeclined;
        int processNames = 0, threadNames = 0;
        for (const QJsonValue& v : events) {
            const QJsonObject e = v.toObject();
            const QString ph = e.value(QStringLiteral("ph")).toString();
            const QString cat = e.value(QStringLiteral("cat")).toString();
            const QString name = e.value(QStringLiteral("name")).toString();
            QVERIFY(e.value(QStringLiteral("pid")).toInt() >= 1);
            if (ph == QStringLiteral("M")) {
                processNames += name == QStringLiteral("process_name") ? 1 : 0;
                threadNames += name == QStringLiteral("thread_name") ? 1 : 0;
                continue;
            }
            const QJsonObject args = e.value(QStringLiteral("args")).toObject();
            QVERIFY(args.value(QStringLiteral("dispatch")).toInteger() >= 1);
            if (ph == QStringLiteral("X") && cat == QStringLiteral("window")) {
                QCOMPARE(args.value(QStringLiteral("kernel")).toString(), name);
                QVERIFY(args.value(QStringLiteral("bytes")).toInteger() > 0);
                traceWindows.push_back(
                    {name, nsOf(e.value(QStringLiteral("ts"))), nsOf(e.value(QStringLiteral("dur")))});
            } else if (ph == QStringLiteral("X") && cat == QStringLiteral("part")) {
                traceParts.push_back(
                    {name, nsOf(e.value(QStringLiteral("ts"))), nsOf(e.value(QStringLiteral("dur")))});
            } else if (ph == QStringLiteral("i")) {
                QCOMPARE(QStringLiteral("declined: ") + args.value(QStringLiteral("reason")).toString(),
                         name);
                traceDeclined.push_back({name, nsOf(e.value(QStringLiteral("ts"))), 0});
            } else {
                QFAIL(qPrintable(QStringLiteral("unexpected event ") + ph + QLatin1Char(' ') + cat));
            }
        }
        QCOMPARE(processNames, processes);
        QVERIFY(threadNames >= 3); // two_agents: two agents; accumulate_n: one agent; plus their queues
        for (auto* v : {&windows, &parts, &declined, &traceWindows, &traceParts, &traceDeclined}) {
            std::sort(v->begin(), v->end());
        }
        QCOMPARE(traceWindows.size(), std::size_t(3 + 16 + 16));
        QVERIFY(traceWindows == windows);
        QVERIFY(traceParts == parts);
        QCOMPARE(traceDeclined.size(), std::size_t(5) + std::size_t(otherDeclined));
        QVERIFY(traceDeclined == declined);

        // The fence-wait slices: one per window, at its start, lasting what the files record for the
        // replayed dispatches' snapshots (read by SQL, not through the model).
        std::vector<qint64> traceFence, recordedFence;
        std::vector<qint64> windowStarts, fenceStarts;
        for (const Slice& w : traceWindows) {
            windowStarts.push_back(w.tsNs);
        }
        for (const Slice& p : traceParts) {
            if (p.name == QStringLiteral("fence wait")) {
                traceFence.push_back(p.durNs);
                fenceStarts.push_back(p.tsNs);
            }
        }
        for (const QString& path : {filtered_, twoAgents_, otherHost}) {
            for (const qint64 ns : column(
                     path, QStringLiteral("SELECT s.fence_wait_ns FROM snapshots s JOIN dispatches d ON "
                                          "d.process = s.process AND d.id = s.dispatch_id JOIN enum_names e "
                                          "ON e.enum = 'decision' AND e.code = d.decision AND e.name = "
                                          "'replayed'"))) {
                QVERIFY(ns >= 0);
                recordedFence.push_back(ns);
            }
        }
        for (auto* v : {&traceFence, &recordedFence, &windowStarts, &fenceStarts}) {
            std::sort(v->begin(), v->end());
        }
        QCOMPARE(recordedFence.size(), std::size_t(3 + 16 + 16));
        QCOMPARE(traceFence, recordedFence);
        QCOMPARE(fenceStarts, windowStarts);
    }

    void traceExportErrors() {
        const QString out = dir_.filePath(QStringLiteral("never.json"));
        const test::RunResult missing = test::runInspector(
            {QStringLiteral("--export-trace"), out, filtered_, filtered_ + QStringLiteral(".nope")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.output.contains(filtered_ + QStringLiteral(".nope")), qPrintable(missing.output));
        QVERIFY2(missing.output.contains(QStringLiteral("File not found")), qPrintable(missing.output));
        QVERIFY(!QFile::exists(out));

        const QString foreign = dir_.filePath(QStringLiteral("foreign.rsdb"));
        {
            QFile f(foreign);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(8192, 'x'));
        }
        const test::RunResult bad = test::runInspector({QStringLiteral("--export-trace"), out, foreign});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.output.contains(foreign), qPrintable(bad.output));
        QVERIFY(!QFile::exists(out));

        const QString unwritable = dir_.filePath(QStringLiteral("no-such-dir/trace.json"));
        const test::RunResult denied =
            test::runInspector({QStringLiteral("--export-trace"), unwritable, filtered_});
        QCOMPARE(denied.exitCode, 1);
        QVERIFY2(denied.output.contains(QStringLiteral("cannot write the trace")), qPrintable(denied.output));

        const test::RunResult usage = test::runInspector({QStringLiteral("--export-trace"), out});
        QCOMPARE(usage.exitCode, 2);
    }

    void pagePaintsAndSelects() {
        SessionView view;
        QSignalSpy loaded(&view, &SessionView::loaded);
        view.open(twoAgents_);
        QVERIFY(loaded.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(view.snapshot()->regionsLoaded, 30000);
        TimelinePage* page = view.timelinePage();
        QVERIFY(page);
        QCOMPARE(view.pages()->tabText(view.pages()->indexOf(page)), QStringLiteral("Timeline"));
        view.pages()->setCurrentWidget(page);
        view.resize(1200, 600);
        view.QWidget::show(); // SessionView::show(snapshot) hides it
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TimelineCanvas* canvas = page->canvas();
        const TimelineModel* t = page->model();
        QVERIFY(t);
        QCOMPARE(t->windowCount(),
                 test::sqlCount(twoAgents_, QStringLiteral("SELECT count(*) FROM dispatches")) -
                     test::sqlCount(twoAgents_, QStringLiteral("SELECT count(*) FROM declines")));
        QVERIFY(t->windowCount() > 0);

        // Zoomed onto a window of the second agent's lane: its parts are painted in their colours.
        int lane = -1;
        for (int l = 0; l < int(t->lanes().size()); ++l) {
            if (t->lanes()[std::size_t(l)].kind == TimelineLane::Kind::agent) {
                lane = l; // the last agent lane
            }
        }
        QVERIFY(lane >= 1);
        const TimelineWindow w = t->lanes()[std::size_t(lane)].windows[2];
        QVERIFY(w.durationNs > 0);
        canvas->setView(double(w.startNs) - double(w.durationNs), 3.0 * double(w.durationNs));
        const int y = canvas->laneRect(lane).center().y();
        const TimelinePart* parts = t->partsOf(w);
        const QImage image = canvas->grab().toImage();
        // The window, a third of the plot wide, names its kernel at its left end; the parts show their
        // colours beside the label.
        const double wx0 = canvas->xForTime(double(w.startNs)),
                     wx1 = canvas->xForTime(double(w.startNs + w.durationNs));
        const QString label = canvas->windowLabel(w.row, wx1 - wx0);
        QCOMPARE(label, t->kernelName(w.row));
        QVERIFY(!label.isEmpty());
        QVERIFY(canvas->windowLabel(w.row, 40).isEmpty()); // too narrow to name
        const double labelEnd = wx0 + 8 + canvas->fontMetrics().horizontalAdvance(label);
        int checked = 0;
        for (int i = 0; i < w.partCount; ++i) {
            const double x0 = canvas->xForTime(double(parts[i].startNs)),
                         x1 = canvas->xForTime(double(parts[i].endNs()));
            if (x1 - x0 < 5 || (x0 + x1) / 2 <= labelEnd) {
                continue;
            }
            const QPoint at(int((x0 + x1) / 2), y);
            QCOMPARE(image.pixelColor(at * image.devicePixelRatio()).rgb(),
                     TimelineCanvas::colorOf(parts[i]).rgb());
            QVERIFY(canvas->toolTipAt(at).contains(parts[i].name()));
            ++checked;
        }
        QVERIFY2(checked >= 2, qPrintable(QString::number(checked)));
        QVERIFY(
            canvas->toolTipAt(QPoint(int(canvas->xForTime(double(w.startNs + w.durationNs / 2))), y))
                .contains(
                    QStringLiteral("dispatch %1").arg(view.snapshot()->dispatches[std::size_t(w.row)].id)));

        // A click at the window selects its dispatch in the Dispatches page.
        QSignalSpy clicked(page, &TimelinePage::dispatchClicked);
        const QPoint at(int(canvas->xForTime(double(w.startNs) + double(w.durationNs) / 2)), y);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, at);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().first().toInt(), w.row);
        QCOMPARE(canvas->selectedRow(), w.row);
        DispatchesPage* dispatches = view.dispatchesPage();
        const QModelIndex current = dispatches->panel()->view()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(dispatches->panel()->proxy()->mapToSource(current).row(), w.row);
        // The dispatch made current in the table is the one outlined on the timeline.
        dispatches->selectRow(0);
        const int first =
            dispatches->panel()->proxy()->mapToSource(dispatches->panel()->proxy()->index(0, 0)).row();
        QVERIFY(first != w.row);
        QCOMPARE(canvas->selectedRow(), first);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, at);
        QCOMPARE(canvas->selectedRow(), w.row);
        QCOMPARE(dispatches->panel()->proxy()->mapToSource(dispatches->panel()->view()->currentIndex()).row(),
                 w.row);
        // A double click shows it there.
        QTest::mouseDClick(canvas, Qt::LeftButton, {}, at);
        QCOMPARE(view.pages()->currentWidget(), dispatches);

        // Fit shows every lane's items; the scrollbar spans the whole page then.
        view.pages()->setCurrentWidget(page);
        canvas->fit();
        QCOMPARE(page->scrollBar()->maximum(), 0);
        canvas->zoom(4.0);
        QVERIFY(page->scrollBar()->maximum() > 0);
        const double before = canvas->viewStartNs();
        page->scrollBar()->setValue(page->scrollBar()->maximum());
        QVERIFY(canvas->viewStartNs() > before);
    }

    void declinedMarksPainted() {
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(filtered_, error);
        QVERIFY(!error.isError());
        TimelinePage page;
        page.resize(1000, 300);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setSnapshot(s);
        TimelineCanvas* canvas = page.canvas();
        const TimelineModel* t = page.model();
        int lane = -1, mark = -1;
        for (int l = 0; l < int(t->lanes().size()) && mark < 0; ++l) {
            const auto& marks = t->lanes()[std::size_t(l)].marks;
            for (int m = 0; m < int(marks.size()); ++m) {
                if (marks[std::size_t(m)].declined()) {
                    lane = l;
                    mark = m;
                    break;
                }
            }
        }
        QVERIFY(mark >= 0);
        const TimelineMark& m = t->lanes()[std::size_t(lane)].marks[std::size_t(mark)];
        // Zoomed so that the marks are far apart: the mark is a red line at its time.
        canvas->setView(double(m.tsNs) - 5000.0, 10000.0);
        const QRect r = canvas->laneRect(lane);
        const QPoint at(int(std::lround(canvas->xForTime(double(m.tsNs)))),
                        r.top() + 3 + (r.height() - 6) / 4);
        const QImage image = canvas->grab().toImage();
        QCOMPARE(image.pixelColor(at * image.devicePixelRatio()).rgb(),
                 TimelineCanvas::declinedColor().rgb());
        QVERIFY2(canvas->toolTipAt(at).contains(QStringLiteral("declined: filtered")),
                 qPrintable(canvas->toolTipAt(at)));
        QSignalSpy clicked(&page, &TimelinePage::dispatchClicked);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, at);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().first().toInt(), m.row);
    }
};

QTEST_MAIN(AppTimelineTest)
#include "tst_app_timeline.moc"
