// SPDX-License-Identifier: MIT
// `replayscope --export-trace FILE.pftrace` (PerfettoTraceWriter) on sessions recorded by the engine under
// replayscope-run --simulate, the trace parsed back with the classes protoc generates from Perfetto's protos
// and matched against the session files by SQL: one dispatch slice per dispatch on its queue's track, named
// after its kernel with its decision; one window slice per replayed dispatch with its passes nested in it and
// one flow to its dispatch; the hardware counters' values, the bytes moved per restore and the tracked
// footprint on their counter tracks; each host's clock starting at 0; the format chosen by the file name.
#include "app_test_support.h"

#include "model/KernelName.h"
#include "model/PerfettoTraceWriter.h"
#include "model/SessionLoader.h"
#include "model/TimelineModel.h"
#include "model/TraceExporter.h"

#include <protos/perfetto/trace/trace.pb.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>

#include <algorithm>
#include <limits>
#include <map>

using namespace rs::app;
namespace pb = perfetto::protos;

namespace {

/// A trace file parsed back: its tracks and, per track, its events in file order with their timestamps.
struct ParsedTrace {
    struct Event {
        std::uint64_t ts = 0;
        pb::TrackEvent event;
    };
    std::map<std::uint64_t, pb::TrackDescriptor> tracks;
    std::map<std::uint64_t, std::vector<Event>> events; ///< track uuid -> events
    int packets = 0;

    bool load(const QString& path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            return false;
        }
        const QByteArray bytes = f.readAll();
        pb::Trace trace;
        if (!trace.ParseFromArray(bytes.constData(), int(bytes.size()))) {
            return false;
        }
        for (const pb::TracePacket& p : trace.packet()) {
            ++packets;
            if (p.has_track_descriptor()) {
                tracks[p.track_descriptor().uuid()] = p.track_descriptor();
            } else if (p.has_track_event()) {
                events[p.track_event().track_uuid()].push_back({p.timestamp(), p.track_event()});
            }
        }
        return packets > 0;
    }
    /// The process track whose name starts with `file`, 0 if none.
    std::uint64_t process(const QString& file) const {
        for (const auto& [uuid, t] : tracks) {
            if (t.has_process() && QString::fromStdString(t.process().process_name()).startsWith(file)) {
                return uuid;
            }
        }
        return 0;
    }
    /// Tracks under process track `process`.
    std::vector<std::uint64_t> children(std::uint64_t process) const {
        std::vector<std::uint64_t> out;
        for (const auto& [uuid, t] : tracks) {
            if (t.parent_uuid() == process) {
                out.push_back(uuid);
            }
        }
        return out;
    }
    QString name(std::uint64_t track) const { return QString::fromStdString(tracks.at(track).name()); }
};

bool hasCategory(const pb::TrackEvent& e, const char* category) {
    return std::find(e.categories().begin(), e.categories().end(), category) != e.categories().end();
}

/// The debug annotation `name` of `e`, nullptr if none.
const pb::DebugAnnotation* arg(const pb::TrackEvent& e, const char* name) {
    for (const pb::DebugAnnotation& a : e.debug_annotations()) {
        if (a.name() == name) {
            return &a;
        }
    }
    return nullptr;
}

qint64 intArg(const pb::TrackEvent& e, const char* name) {
    const pb::DebugAnnotation* a = arg(e, name);
    return a ? a->int_value() : -1;
}

/// Every row of `sql` on `path` as integers.
std::vector<std::vector<qint64>> rows(const QString& path, const QString& sql) {
    std::vector<std::vector<qint64>> out;
    for (const QVariantList& row : test::sqlRows(path, sql)) {
        std::vector<qint64> values;
        for (const QVariant& v : row) {
            values.push_back(v.isNull() ? -1 : v.toLongLong());
        }
        out.push_back(values);
    }
    return out;
}

const QString kReplayed =
    QStringLiteral("(SELECT code FROM enum_names WHERE enum = 'decision' AND name = 'replayed')");

} // namespace

class AppTraceTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString filtered_, counters_, tracePath_;
    ParsedTrace trace_;

    /// The sessions and their file names, in the order exported.
    QStringList sessions() const { return {filtered_, counters_}; }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // accumulate_n: 8 dispatches, the first 2 let through, 3 replayed (3 passes), the last 3 past the
        // count: 5 declined.
        filtered_ = dir_.filePath(QStringLiteral("filtered.rsdb"));
        test::RunResult r = test::runPipeline(
            {QStringLiteral("--simulate"), QStringLiteral("--passes"), QStringLiteral("3"),
             QStringLiteral("--dispatch-skip"), QStringLiteral("2"), QStringLiteral("--dispatch-count"),
             QStringLiteral("3"), QStringLiteral("-o"), filtered_, QStringLiteral("--"),
             QStringLiteral(RS_WORKLOAD_DIR "/accumulate_n"), QStringLiteral("8")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        // two_agents on two simulated agents, SQ_WAVES and GRBM_COUNT each in a pass of its own.
        const QString input = dir_.filePath(QStringLiteral("input.txt"));
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("pmc: SQ_WAVES\npmc: GRBM_COUNT\n");
        f.close();
        counters_ = dir_.filePath(QStringLiteral("counters.rsdb"));
        r = test::runPipeline({QStringLiteral("--simulate"), QStringLiteral("--no-progress"),
                               QStringLiteral("-o"), counters_, QStringLiteral("-i"), input,
                               QStringLiteral("--"), QStringLiteral(RS_WORKLOAD_DIR "/two_agents")},
                              {QStringLiteral("HSA_SIM_GPU_AGENTS=2")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY(test::sqlCount(counters_, QStringLiteral("SELECT count(*) FROM pass_counter_values")) > 0);
        QVERIFY(test::sqlCount(counters_, QStringLiteral("SELECT count(*) FROM restores")) > 0);

        tracePath_ = dir_.filePath(QStringLiteral("trace.pftrace"));
        r = test::runInspector({QStringLiteral("--export-trace"), tracePath_, filtered_, counters_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY(trace_.load(tracePath_));
    }

    /// One slice per dispatch on the track of its queue (one track name per queue), named after its kernel
    /// as shown, with its id, decision, launch shape and kernel object; as many as SQL counts per queue.
    void dispatchSlicesPerQueue() {
        for (const QString& path : sessions()) {
            const std::uint64_t process = trace_.process(QFileInfo(path).fileName());
            QVERIFY(process != 0);
            std::map<qint64, qint64> perQueue;  // queue -> dispatch slices
            QMap<QString, qint64> queueOfTrack; // track name -> its queue
            std::map<qint64, const pb::TrackEvent*> byId;
            for (const std::uint64_t track : trace_.children(process)) {
                for (const ParsedTrace::Event& e : trace_.events[track]) {
                    if (!hasCategory(e.event, "dispatch")) {
                        continue;
                    }
                    QVERIFY(e.event.type() == pb::TrackEvent::TYPE_SLICE_BEGIN ||
                            e.event.type() == pb::TrackEvent::TYPE_INSTANT);
                    const qint64 queue = intArg(e.event, "queue");
                    QCOMPARE(queueOfTrack.value(trace_.name(track), queue), queue);
                    queueOfTrack.insert(trace_.name(track), queue);
                    ++perQueue[queue];
                    byId[intArg(e.event, "dispatch")] = &e.event;
                }
            }
            std::map<qint64, qint64> expected;
            for (const auto& row :
                 rows(path, QStringLiteral("SELECT queue, count(*) FROM dispatches GROUP BY queue"))) {
                expected[row[0]] = row[1];
            }
            QVERIFY(!expected.empty());
            QCOMPARE(perQueue, expected);

            const auto shown = test::sqlRows(
                path,
                QStringLiteral("SELECT d.id, s.text, e.name, d.grid_x, d.grid_y, d.grid_z, d.workgroup_x, "
                               "d.kernel_object FROM dispatches d JOIN strings s ON s.process = d.process "
                               "AND s.id = d.kernel_name_id JOIN enum_names e ON e.enum = 'decision' AND "
                               "e.code = d.decision"));
            QCOMPARE(std::size_t(shown.size()), byId.size());
            for (const QVariantList& row : shown) {
                const pb::TrackEvent* e = byId[row[0].toLongLong()];
                QVERIFY(e);
                QCOMPARE(QString::fromStdString(e->name()), kernelDisplayName(row[1].toString()));
                QCOMPARE(QString::fromStdString(arg(*e, "decision")->string_value()), row[2].toString());
                QCOMPARE(hasCategory(*e, "declined"), row[2].toString() != QStringLiteral("replayed"));
                const pb::DebugAnnotation* grid = arg(*e, "grid");
                QVERIFY(grid && grid->dict_entries_size() == 3);
                for (int i = 0; i < 3; ++i) {
                    QCOMPARE(qint64(grid->dict_entries(i).uint_value()), row[3 + i].toLongLong());
                }
                QCOMPARE(qint64(arg(*e, "workgroup")->dict_entries(0).uint_value()), row[6].toLongLong());
                QCOMPARE(qint64(arg(*e, "kernel_object")->pointer_value()), row[7].toLongLong());
            }
        }
    }

    /// A window slice per replayed dispatch on its agent's track, its parts nested in it (a pass slice per
    /// pass the file records), and one flow from it to the dispatch's slice.
    void windowsNestedWithFlows() {
        for (const QString& path : sessions()) {
            const std::uint64_t process = trace_.process(QFileInfo(path).fileName());
            std::map<std::uint64_t, qint64> windowFlow;   // flow id -> window's dispatch
            std::map<std::uint64_t, qint64> dispatchFlow; // flow id -> dispatch slice's dispatch
            std::map<qint64, qint64> passSlices;          // dispatch -> pass slices in its window
            for (const std::uint64_t track : trace_.children(process)) {
                // Slices nest: every END closes the innermost open slice, parts inside their window.
                std::vector<std::pair<const pb::TrackEvent*, std::uint64_t>> open;
                for (const ParsedTrace::Event& e : trace_.events[track]) {
                    if (e.event.type() == pb::TrackEvent::TYPE_SLICE_BEGIN) {
                        if (hasCategory(e.event, "replay_part")) {
                            QVERIFY(!open.empty() && hasCategory(*open.back().first, "replay_window"));
                            QVERIFY(e.ts >= open.back().second);
                            QCOMPARE(intArg(e.event, "dispatch"), intArg(*open.back().first, "dispatch"));
                            if (QString::fromStdString(e.event.name()).startsWith(QStringLiteral("pass "))) {
                                ++passSlices[intArg(e.event, "dispatch")];
                            }
                        } else if (hasCategory(e.event, "replay_window")) {
                            QVERIFY(open.empty());
                            QCOMPARE(e.event.flow_ids_size(), 1);
                            QVERIFY(
                                windowFlow.emplace(e.event.flow_ids(0), intArg(e.event, "dispatch")).second);
                        }
                        open.push_back({&e.event, e.ts});
                    } else if (e.event.type() == pb::TrackEvent::TYPE_SLICE_END) {
                        QVERIFY(!open.empty());
                        QVERIFY(e.ts >= open.back().second);
                        open.pop_back();
                    }
                    if (hasCategory(e.event, "dispatch")) {
                        QCOMPARE(e.event.flow_ids_size(), 0);
                        for (const std::uint64_t id : e.event.terminating_flow_ids()) {
                            QVERIFY(dispatchFlow.emplace(id, intArg(e.event, "dispatch")).second);
                        }
                    }
                }
                QVERIFY(open.empty());
            }
            QCOMPARE(windowFlow, dispatchFlow);
            std::map<qint64, qint64> expectedPasses;
            for (const auto& row :
                 rows(path, QStringLiteral(
                                "SELECT d.id, (SELECT count(*) FROM passes p WHERE p.process = d.process "
                                "AND p.dispatch_id = d.id) FROM dispatches d WHERE d.decision = ") +
                                kReplayed)) {
                expectedPasses[row[0]] = row[1];
            }
            QVERIFY(!expectedPasses.empty());
            QCOMPARE(windowFlow.size(), expectedPasses.size());
            for (const auto& [flow, dispatch] : windowFlow) {
                Q_UNUSED(flow);
                QVERIFY(expectedPasses.count(dispatch) == 1);
            }
            QCOMPARE(passSlices, expectedPasses);
        }
    }

    /// The counter tracks of the counters session: each hardware counter's values (pass_counter_values),
    /// the bytes each restore moved (restores), the tracked bytes of each agent after each allocation and
    /// free (allocations), at their times on the host's clock.
    void counterTracks() {
        const std::uint64_t process = trace_.process(QFileInfo(counters_).fileName());
        QMap<QString, std::vector<qint64>> values; // track name suffix -> values
        std::vector<std::vector<std::pair<qint64, qint64>>> footprint;
        for (const std::uint64_t track : trace_.children(process)) {
            if (!trace_.tracks[track].has_counter()) {
                continue;
            }
            const QString name = trace_.name(track).section(QStringLiteral(" · "), 1);
            std::vector<std::pair<qint64, qint64>> points;
            for (const ParsedTrace::Event& e : trace_.events[track]) {
                QCOMPARE(e.event.type(), pb::TrackEvent::TYPE_COUNTER);
                values[name].push_back(e.event.counter_value());
                points.push_back({qint64(e.ts), e.event.counter_value()});
            }
            if (name == QStringLiteral("tracked footprint")) {
                footprint.push_back(points);
            }
        }
        for (const QString& counter : {QStringLiteral("SQ_WAVES"), QStringLiteral("GRBM_COUNT")}) {
            std::vector<qint64> expected;
            for (const auto& row :
                 rows(counters_, QStringLiteral("SELECT value FROM pass_counter_values WHERE counter = '%1'")
                                     .arg(counter))) {
                expected.push_back(row[0]);
            }
            QVERIFY(!expected.empty());
            std::vector<qint64> got = values.value(counter);
            std::sort(got.begin(), got.end());
            std::sort(expected.begin(), expected.end());
            QCOMPARE(got, expected);
        }
        std::vector<qint64> moved;
        for (const auto& row :
             rows(counters_, QStringLiteral("SELECT restored_bytes_host + restored_bytes_device "
                                            "FROM restores"))) {
            moved.push_back(row[0]);
        }
        std::vector<qint64> got = values.value(QStringLiteral("bytes moved per restore"));
        std::sort(got.begin(), got.end());
        std::sort(moved.begin(), moved.end());
        QCOMPARE(got, moved);

        // The footprint from the allocations table, on the origin of the host's clock.
        std::vector<TraceExporter::Input> inputs;
        for (const QString& path : sessions()) {
            SessionError error;
            inputs.push_back({path, TimelineModel(SessionLoader::loadAll(path, error))});
            QVERIFY(!error.isError());
        }
        const QHash<QString, qint64> origins = PerfettoTraceWriter::hostOrigins(inputs);
        QCOMPARE(origins.size(), 1);
        const qint64 origin = origins.begin().value();
        QVERIFY(std::find(trace_.tracks[process].process().process_labels().begin(),
                          trace_.tracks[process].process().process_labels().end(),
                          QStringLiteral("clock origin %1 ns").arg(origin).toStdString()) !=
                trace_.tracks[process].process().process_labels().end());
        std::map<qint64, std::map<qint64, qint64>> changes; // agent -> ns -> delta
        for (const auto& row :
             rows(counters_, QStringLiteral("SELECT agent, alloc_ns, free_ns, size FROM allocations "
                                            "WHERE classification = 0"))) {
            changes[row[0]][row[1] - origin] += row[3];
            if (row[2] >= 0) {
                changes[row[0]][row[2] - origin] -= row[3];
            }
        }
        std::vector<std::vector<std::pair<qint64, qint64>>> expectedFootprint;
        for (const auto& [agent, deltas] : changes) {
            Q_UNUSED(agent);
            std::vector<std::pair<qint64, qint64>> points;
            qint64 bytes = 0;
            for (const auto& [ns, delta] : deltas) {
                bytes += delta;
                points.push_back({ns, bytes});
            }
            expectedFootprint.push_back(points);
        }
        QVERIFY(!expectedFootprint.empty());
        std::sort(footprint.begin(), footprint.end());
        std::sort(expectedFootprint.begin(), expectedFootprint.end());
        QCOMPARE(footprint, expectedFootprint);
    }

    /// Sessions of one host share its clock (one origin); a session of another host starts at 0 on its own.
    void hostsAlignedSeparately() {
        const auto earliest = [](const ParsedTrace& t, std::uint64_t process) {
            std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
            for (const std::uint64_t track : t.children(process)) {
                const auto it = t.events.find(track);
                for (std::size_t i = 0; it != t.events.end() && i < it->second.size(); ++i) {
                    first = std::min(first, it->second[i].ts);
                }
            }
            return first;
        };
        const std::uint64_t a = earliest(trace_, trace_.process(QStringLiteral("filtered.rsdb")));
        const std::uint64_t b = earliest(trace_, trace_.process(QStringLiteral("counters.rsdb")));
        QCOMPARE(std::min(a, b), std::uint64_t(0)); // one host: recorded one after the other
        QVERIFY(std::max(a, b) > 0);

        const QString other = dir_.filePath(QStringLiteral("other-host.rsdb"));
        QVERIFY(QFile::copy(counters_, other));
        bool ok = false;
        test::sqlRows(
            other,
            QStringLiteral("UPDATE strings SET text = 'other-host' WHERE (process, id) IN (SELECT process, "
                           "hostname_id FROM processes)"),
            true, &ok);
        QVERIFY(ok);
        const QString out = dir_.filePath(QStringLiteral("hosts.pftrace"));
        const test::RunResult r =
            test::runInspector({QStringLiteral("--export-trace"), out, filtered_, other});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        ParsedTrace hosts;
        QVERIFY(hosts.load(out));
        const std::uint64_t moved = hosts.process(QStringLiteral("other-host.rsdb"));
        QVERIFY(QString::fromStdString(hosts.tracks[moved].process().process_name())
                    .contains(QStringLiteral("other-host")));
        QCOMPARE(earliest(hosts, hosts.process(QStringLiteral("filtered.rsdb"))), std::uint64_t(0));
        QCOMPARE(earliest(hosts, moved), std::uint64_t(0));
    }

    /// ".json" (any case) still writes the Chrome JSON trace; any other name Perfetto's protobuf format.
    void formatByFileName() {
        QCOMPARE(TraceExporter::formatOf(QStringLiteral("a.json")), TraceExporter::Format::json);
        QCOMPARE(TraceExporter::formatOf(QStringLiteral("A.JSON")), TraceExporter::Format::json);
        QCOMPARE(TraceExporter::formatOf(QStringLiteral("a.pftrace")), TraceExporter::Format::perfetto);
        QCOMPARE(TraceExporter::formatOf(QStringLiteral("a.json.gz")), TraceExporter::Format::perfetto);

        const QString json = dir_.filePath(QStringLiteral("TRACE.JSON"));
        test::RunResult r = test::runInspector({QStringLiteral("--export-trace"), json, filtered_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
        QVERIFY(doc.object().value(QStringLiteral("traceEvents")).isArray());

        const QString other = dir_.filePath(QStringLiteral("trace.perfetto-trace"));
        r = test::runInspector({QStringLiteral("--export-trace"), other, filtered_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        ParsedTrace parsed;
        QVERIFY(parsed.load(other));
        QVERIFY(parsed.process(QStringLiteral("filtered.rsdb")) != 0);
    }
};

QTEST_MAIN(AppTraceTest)
#include "tst_app_trace.moc"
