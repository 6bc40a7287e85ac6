// SPDX-License-Identifier: MIT
#include "model/PerfettoTraceWriter.h"

#include "model/MergedSession.h"

#include <protos/perfetto/trace/trace_packet.pb.h>

#include <QIODevice>
#include <QSet>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>

namespace rs::app {

namespace {

namespace pb = perfetto::protos;

constexpr std::uint32_t kSequence = 1;

/// A process's host: its own host name, else the session's (files before format 3).
QString hostOf(const SessionData& d, const ProcessInfo& p) {
    return p.hostname.isEmpty() ? d.info.hostname : p.hostname;
}

std::string utf8(const QString& text) {
    const QByteArray bytes = text.toUtf8();
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

/// "queue 3", or the queue's address in hex: what the Timeline page names a queue lane.
QString queueName(qint64 queue) {
    return queue >= 0 && queue < 1'000'000 ? QStringLiteral("queue %1").arg(queue)
                                           : QStringLiteral("queue 0x%1").arg(quint64(queue), 0, 16);
}

/// The earliest time of process `process` in the trace: its first window, its first dispatch, its first
/// tracked allocation; max() when it has none.
qint64 processBegin(const TimelineModel& t, int process) {
    qint64 begin = std::numeric_limits<qint64>::max();
    for (const TimelineLane& lane : t.lanes()) {
        if (lane.process != process) {
            continue;
        }
        if (!lane.windows.empty()) {
            begin = std::min(begin, lane.windows.front().startNs);
        }
        if (!lane.marks.empty()) {
            begin = std::min(begin, lane.marks.front().tsNs);
        }
    }
    for (const AllocationRow& a : t.snapshot()->allocations) {
        if (a.process == process && a.tracked()) {
            begin = std::min(begin, a.allocNs);
        }
    }
    return begin;
}

/// `ns` + `duration` (>= 0), saturated: a stored duration may be implausibly large.
qint64 after(qint64 ns, qint64 duration) {
    return ns > std::numeric_limits<qint64>::max() - duration ? std::numeric_limits<qint64>::max()
                                                              : ns + duration;
}

/// Intervals assigned to the fewest tracks on which none overlaps another (greedy, in order of start):
/// Perfetto nests the slices of one track, so two windows or dispatches that overlap without nesting go to
/// tracks of the same name, which the UI shows merged.
class Packing {
  public:
    /// The track index of [start, end), given in order of start.
    int place(qint64 start, qint64 end) {
        for (std::size_t i = 0; i < ends_.size(); ++i) {
            if (ends_[i] <= start) {
                ends_[i] = end;
                return int(i);
            }
        }
        ends_.push_back(end);
        return int(ends_.size()) - 1;
    }
    int tracks() const { return std::max<int>(1, int(ends_.size())); }

  private:
    std::vector<qint64> ends_;
};

/// The packets, framed as field 1 (`packet`) of a Trace message, buffered and written in blocks of 1 MiB.
class PacketStream {
  public:
    explicit PacketStream(QIODevice& out) : out_(out) {}

    /// A cleared packet on the sequence, to fill and then add().
    pb::TracePacket& next() {
        packet_.Clear();
        packet_.set_trusted_packet_sequence_id(kSequence);
        if (first_) {
            packet_.set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
            first_ = false;
        }
        return packet_;
    }
    void add() {
        const std::size_t size = packet_.ByteSizeLong();
        buffer_.push_back(char(0x0a)); // field 1, length-delimited
        for (std::uint64_t v = size;; v >>= 7) {
            if (v < 0x80) {
                buffer_.push_back(char(v));
                break;
            }
            buffer_.push_back(char((v & 0x7f) | 0x80));
        }
        const std::size_t at = buffer_.size();
        buffer_.resize(at + size);
        packet_.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(buffer_.data() + at));
        if (buffer_.size() >= (1u << 20)) {
            flush();
        }
    }
    void flush() {
        ok_ = ok_ && out_.write(buffer_.data(), qint64(buffer_.size())) == qint64(buffer_.size());
        buffer_.clear();
    }
    bool ok() const { return ok_; }

  private:
    QIODevice& out_;
    pb::TracePacket packet_;
    std::string buffer_;
    bool first_ = true;
    bool ok_ = true;
};

void annotate(pb::TrackEvent& e, const char* name, qint64 value) {
    pb::DebugAnnotation* a = e.add_debug_annotations();
    a->set_name(name);
    a->set_int_value(value);
}

void annotate(pb::TrackEvent& e, const char* name, const std::string& value) {
    pb::DebugAnnotation* a = e.add_debug_annotations();
    a->set_name(name);
    a->set_string_value(value);
}

/// A dictionary argument {x, y, z} (Perfetto's args "grid.x", ...).
void annotate3(pb::TrackEvent& e, const char* name, const quint32 (&xyz)[3]) {
    pb::DebugAnnotation* a = e.add_debug_annotations();
    a->set_name(name);
    const char* keys[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        pb::DebugAnnotation* entry = a->add_dict_entries();
        entry->set_name(keys[i]);
        entry->set_uint_value(xyz[i]);
    }
}

/// One process of one session: its tracks, then its events.
class ProcessWriter {
  public:
    ProcessWriter(PacketStream& stream, const TimelineModel& t, int process, std::uint64_t& nextUuid,
                  std::uint64_t flowBase, qint64 origin)
        : stream_(stream), t_(t), s_(t.snapshot()), d_(t.snapshot().data()), process_(process),
          nextUuid_(nextUuid), flowBase_(flowBase), origin_(origin) {}

    void write(const QString& name, const QString& host, const QString& command, int rank, qint32 pid,
               qint64 realPid) {
        processUuid_ = nextUuid_++;
        const qint64 begin = processBegin(t_, process_);
        {
            pb::TracePacket& p = stream_.next();
            p.set_timestamp(at(begin == std::numeric_limits<qint64>::max() ? origin_ : begin));
            pb::TrackDescriptor* desc = p.mutable_track_descriptor();
            desc->set_uuid(processUuid_);
            desc->set_child_ordering(pb::TrackDescriptor::EXPLICIT);
            pb::ProcessDescriptor* proc = desc->mutable_process();
            proc->set_pid(pid);
            QString title = name;
            if (rank >= 0) {
                title += QStringLiteral(" · rank %1").arg(rank);
            }
            if (!host.isEmpty()) {
                title += QStringLiteral(" · ") + host;
            }
            title += QStringLiteral(": pid %1 %2").arg(realPid).arg(command);
            proc->set_process_name(utf8(title.trimmed()));
            if (!command.isEmpty()) {
                proc->add_cmdline(utf8(command));
            }
            proc->add_process_labels(utf8(QStringLiteral("session ") + name));
            if (rank >= 0) {
                proc->add_process_labels(utf8(QStringLiteral("rank %1").arg(rank)));
            }
            if (!host.isEmpty()) {
                proc->add_process_labels(utf8(QStringLiteral("host ") + host));
            }
            proc->add_process_labels(utf8(QStringLiteral("clock origin %1 ns").arg(origin_)));
            stream_.add();
        }
        collect();
        describe();
        writeWindows();
        writeDispatches();
        writeFootprint();
    }

  private:
    struct Agent {
        qint64 handle = 0;
        QString name;
        std::string nameUtf8;
        std::vector<std::uint64_t> windowTracks; ///< same name: the UI merges them
        std::uint64_t restoreTrack = 0, footprintTrack = 0;
        std::map<int, std::uint64_t> counterTracks; ///< counter index -> track
    };
    struct Queue {
        qint64 id = 0;
        int agent = 0; ///< index in agents_
        std::vector<std::uint64_t> tracks;
    };

    /// `ns` on the host's clock (unsigned arithmetic: implausible stored times cannot overflow).
    std::uint64_t at(qint64 ns) const {
        return ns > origin_ ? std::uint64_t(ns) - std::uint64_t(origin_) : 0;
    }

    int agentOf(qint64 handle) {
        const auto it = agentIndex_.find(handle);
        if (it != agentIndex_.end()) {
            return it->second;
        }
        Agent a;
        a.handle = handle;
        a.name = s_.agentName(process_, handle);
        a.nameUtf8 = utf8(a.name);
        agents_.push_back(a);
        agentIndex_.emplace(handle, int(agents_.size()) - 1);
        return int(agents_.size()) - 1;
    }

    /// Agents (in the session's order), queues, and which track each window and dispatch goes to.
    void collect() {
        for (const AgentInfo& a : d_.agents) {
            if (a.process == process_) {
                agentOf(a.handle);
            }
        }
        rowTrack_.assign(d_.dispatches.size(), 0);
        for (int l = 0; l < int(t_.lanes().size()); ++l) {
            const TimelineLane& lane = t_.lanes()[std::size_t(l)];
            if (lane.process != process_) {
                continue;
            }
            if (lane.kind == TimelineLane::Kind::agent) {
                Agent& agent = agents_[std::size_t(agentOf(lane.handle))];
                Packing packing;
                for (const TimelineWindow& w : lane.windows) {
                    windowTrack_.emplace(w.row, packing.place(w.startNs, w.endNs()));
                }
                agent.windowTracks.resize(std::size_t(packing.tracks()));
                agentLanes_.push_back(l);
            } else {
                Queue q;
                q.id = lane.handle;
                q.agent = agentOf(
                    lane.marks.empty() ? 0 : d_.dispatches[std::size_t(lane.marks.front().row)].agent);
                Packing packing;
                for (const TimelineMark& m : lane.marks) {
                    const qint64 ns = std::max<qint64>(1, dispatchNs(d_.dispatches[std::size_t(m.row)]));
                    rowTrack_[std::size_t(m.row)] = packing.place(m.tsNs, after(m.tsNs, ns));
                }
                q.tracks.resize(std::size_t(packing.tracks()));
                queueLane_.push_back(l);
                queues_.push_back(q);
            }
        }
        for (const AllocationRow& a : d_.allocations) {
            if (a.process == process_ && a.tracked()) {
                agentOf(a.agent);
            }
        }
    }

    /// How long the application's own run of a dispatch is drawn: the median of its timed passes (the run
    /// itself is not timed; every pass ran the same kernel on the same inputs); 0 (an instant) without one.
    static qint64 dispatchNs(const DispatchRow& r) {
        return r.replayed() && r.kernelMedian > 0 ? r.kernelMedian : 0;
    }

    /// Every track, before any event: per agent its windows, its queues, its counters.
    void describe() {
        std::vector<bool> hasFootprint(agents_.size(), false), hasRestores(agents_.size(), false);
        std::vector<std::set<int>> counters(agents_.size());
        for (const AllocationRow& a : d_.allocations) {
            if (a.process == process_ && a.tracked()) {
                hasFootprint[std::size_t(agentOf(a.agent))] = true;
            }
        }
        const bool counterIndexed = d_.counterBegin.size() == d_.dispatches.size() + 1;
        for (std::size_t row = 0; row < d_.dispatches.size(); ++row) {
            const DispatchRow& r = d_.dispatches[row];
            if (r.process != process_) {
                continue;
            }
            const int agent = agentOf(r.agent);
            hasRestores[std::size_t(agent)] = hasRestores[std::size_t(agent)] || r.restores > 0;
            if (counterIndexed) {
                for (int i = d_.counterBegin[row]; i < d_.counterBegin[row + 1]; ++i) {
                    counters[std::size_t(agent)].insert(d_.dispatchCounters[std::size_t(i)].counter);
                }
            }
        }
        int rank = 0;
        const auto track = [&](const QString& name, pb::CounterDescriptor::Unit unit, const QString& unitName,
                               bool counter) {
            const std::uint64_t uuid = nextUuid_++;
            pb::TracePacket& p = stream_.next();
            pb::TrackDescriptor* desc = p.mutable_track_descriptor();
            desc->set_uuid(uuid);
            desc->set_parent_uuid(processUuid_);
            desc->set_name(utf8(name));
            desc->set_sibling_order_rank(rank++);
            if (counter) {
                pb::CounterDescriptor* c = desc->mutable_counter();
                if (unit != pb::CounterDescriptor::UNIT_UNSPECIFIED) {
                    c->set_unit(unit);
                }
                if (!unitName.isEmpty()) {
                    c->set_unit_name(utf8(unitName));
                }
            }
            stream_.add();
            return uuid;
        };
        for (std::size_t a = 0; a < agents_.size(); ++a) {
            Agent& agent = agents_[a];
            for (std::uint64_t& uuid : agent.windowTracks) {
                uuid = track(agent.name + QStringLiteral(" · replay windows"), {}, {}, false);
            }
            for (Queue& q : queues_) {
                if (q.agent == int(a)) {
                    for (std::uint64_t& uuid : q.tracks) {
                        uuid = track(queueName(q.id) + QStringLiteral(" · ") + agent.name, {}, {}, false);
                    }
                }
            }
            if (hasFootprint[a]) {
                agent.footprintTrack = track(agent.name + QStringLiteral(" · tracked footprint"),
                                             pb::CounterDescriptor::UNIT_SIZE_BYTES, {}, true);
            }
            if (hasRestores[a] && d_.hasRestoreRecords) {
                agent.restoreTrack = track(agent.name + QStringLiteral(" · bytes moved per restore"),
                                           pb::CounterDescriptor::UNIT_SIZE_BYTES, {}, true);
            }
            for (const int counter : counters[a]) {
                agent.counterTracks[counter] =
                    track(agent.name + QStringLiteral(" · ") + d_.counterNames.value(counter),
                          pb::CounterDescriptor::UNIT_UNSPECIFIED, d_.counterUnits.value(counter), true);
            }
        }
    }

    const std::string& kernelName(int row) {
        const int k = d_.dispatches[std::size_t(row)].kernel;
        auto it = kernelNames_.find(k);
        if (it == kernelNames_.end()) {
            it = kernelNames_.emplace(k, utf8(t_.kernelName(row))).first;
        }
        return it->second;
    }

    const std::string& decisionName(int decision) {
        auto it = decisionNames_.find(decision);
        if (it == decisionNames_.end()) {
            it = decisionNames_.emplace(decision, utf8(t_.decisionName(decision))).first;
        }
        return it->second;
    }

    const std::string& partName(const TimelinePart& part) {
        const std::pair<int, int> key{int(part.kind), part.pass};
        auto it = partNames_.find(key);
        if (it == partNames_.end()) {
            it = partNames_.emplace(key, utf8(part.name())).first;
        }
        return it->second;
    }

    std::uint64_t flowId(int row) const { return flowBase_ + std::uint64_t(row) + 1; }

    pb::TrackEvent& event(std::uint64_t track, qint64 ns, pb::TrackEvent::Type type) {
        pb::TracePacket& p = stream_.next();
        p.set_timestamp(at(ns));
        pb::TrackEvent* e = p.mutable_track_event();
        e->set_type(type);
        e->set_track_uuid(track);
        return *e;
    }

    void counter(std::uint64_t track, qint64 ns, qint64 value) {
        event(track, ns, pb::TrackEvent::TYPE_COUNTER).set_counter_value(value);
        stream_.add();
    }

    const RestoreRow* restoreOf(int row, const TimelinePart& part) const {
        if (d_.restoreBegin.size() != d_.dispatches.size() + 1) {
            return nullptr;
        }
        const bool isFinal = part.kind == TimelinePart::Kind::finalRestore;
        for (int i = d_.restoreBegin[std::size_t(row)]; i < d_.restoreBegin[std::size_t(row) + 1]; ++i) {
            const RestoreRow& r = d_.restores[std::size_t(i)];
            if (r.finalRestore == isFinal && (isFinal || r.passIndex == part.pass)) {
                return &r;
            }
        }
        return nullptr;
    }

    /// Each window a slice named after the kernel, its parts nested in it; a point on the agent's
    /// restore track at the start of each restore.
    void writeWindows() {
        for (const int l : agentLanes_) {
            const TimelineLane& lane = t_.lanes()[std::size_t(l)];
            const Agent& agent = agents_[std::size_t(agentOf(lane.handle))];
            for (const TimelineWindow& w : lane.windows) {
                const DispatchRow& r = d_.dispatches[std::size_t(w.row)];
                const std::uint64_t track = agent.windowTracks[std::size_t(windowTrack_[w.row])];
                pb::TrackEvent& begin = event(track, w.startNs, pb::TrackEvent::TYPE_SLICE_BEGIN);
                begin.set_name(kernelName(w.row));
                begin.add_categories("replay_window");
                begin.add_flow_ids(flowId(w.row));
                annotate(begin, "dispatch", r.id);
                annotate(begin, "footprint_bytes", r.snapshotBytes);
                annotate(begin, "passes", r.passes);
                if (r.restores > 0) {
                    annotate(begin, "moved_bytes", r.movedBytes());
                }
                stream_.add();
                const TimelinePart* parts = t_.partsOf(w);
                for (int i = 0; i < w.partCount; ++i) {
                    const TimelinePart& part = parts[i];
                    pb::TrackEvent& b = event(track, part.startNs, pb::TrackEvent::TYPE_SLICE_BEGIN);
                    b.set_name(partName(part));
                    b.add_categories("replay_part");
                    annotate(b, "dispatch", r.id);
                    const RestoreRow* restore = part.kind == TimelinePart::Kind::restore ||
                                                        part.kind == TimelinePart::Kind::finalRestore
                                                    ? restoreOf(w.row, part)
                                                    : nullptr;
                    if (restore) {
                        annotate(b, "moved_host_bytes", restore->bytesHost);
                        annotate(b, "moved_device_bytes", restore->bytesDevice);
                    }
                    stream_.add();
                    event(track, part.endNs(), pb::TrackEvent::TYPE_SLICE_END);
                    stream_.add();
                    if (restore && agent.restoreTrack != 0) {
                        counter(agent.restoreTrack, part.startNs, restore->bytesHost + restore->bytesDevice);
                    }
                }
                event(track, w.endNs(), pb::TrackEvent::TYPE_SLICE_END);
                stream_.add();
            }
        }
    }

    /// When pass `pass` of dispatch row `row` started (the pass part of its window), else the dispatch's
    /// time.
    qint64 passStart(int row, int pass) const {
        const QPair<int, int> lw = t_.windowOfRow(row);
        if (lw.first >= 0) {
            const TimelineWindow& w = t_.lanes()[std::size_t(lw.first)].windows[std::size_t(lw.second)];
            const TimelinePart* parts = t_.partsOf(w);
            for (int i = 0; i < w.partCount; ++i) {
                if (parts[i].kind == TimelinePart::Kind::pass && parts[i].pass == pass) {
                    return parts[i].startNs;
                }
            }
        }
        return d_.dispatches[std::size_t(row)].tsNs;
    }

    /// The application's dispatches on their queue tracks, each hardware counter value on its agent's
    /// counter track at the start of the pass that collected it.
    void writeDispatches() {
        const bool counterIndexed = d_.counterBegin.size() == d_.dispatches.size() + 1;
        for (std::size_t q = 0; q < queueLane_.size(); ++q) {
            const TimelineLane& lane = t_.lanes()[std::size_t(queueLane_[q])];
            const Queue& queue = queues_[q];
            for (const TimelineMark& m : lane.marks) {
                const DispatchRow& r = d_.dispatches[std::size_t(m.row)];
                const std::uint64_t track = queue.tracks[std::size_t(rowTrack_[std::size_t(m.row)])];
                const qint64 ns = dispatchNs(r);
                pb::TrackEvent& e = event(
                    track, m.tsNs, ns > 0 ? pb::TrackEvent::TYPE_SLICE_BEGIN : pb::TrackEvent::TYPE_INSTANT);
                e.set_name(kernelName(m.row));
                e.add_categories("dispatch");
                if (!r.replayed()) {
                    e.add_categories("declined");
                }
                if (t_.windowOfRow(m.row).first >= 0) {
                    e.add_terminating_flow_ids(flowId(m.row));
                }
                annotate(e, "dispatch", r.id);
                annotate(e, "decision", decisionName(r.decision));
                annotate(e, "queue", r.queue);
                annotate(e, "agent", agents_[std::size_t(agentOf(r.agent))].nameUtf8);
                if (r.kernel >= 0 && r.kernel < d_.kernelSymbols.size()) {
                    auto it = kernelSymbols_.find(r.kernel);
                    if (it == kernelSymbols_.end()) {
                        it = kernelSymbols_.emplace(r.kernel, utf8(d_.kernelSymbols[r.kernel])).first;
                    }
                    annotate(e, "kernel_symbol", it->second);
                }
                pb::DebugAnnotation* object = e.add_debug_annotations();
                object->set_name("kernel_object");
                object->set_pointer_value(quint64(r.kernelObject));
                annotate3(e, "grid", r.grid);
                annotate3(e, "workgroup", r.workgroup);
                if (r.replayed()) {
                    annotate(e, "passes", r.passes);
                    if (r.kernelMedian >= 0) {
                        annotate(e, "kernel_ns_min", r.kernelMin);
                        annotate(e, "kernel_ns_median", r.kernelMedian);
                        annotate(e, "kernel_ns_max", r.kernelMax);
                    }
                }
                if (r.hasSnapshot) {
                    annotate(e, "footprint_bytes", r.snapshotBytes);
                }
                if (r.restores > 0) {
                    annotate(e, "moved_bytes", r.movedBytes());
                }
                const std::size_t row = std::size_t(m.row);
                if (counterIndexed && d_.counterBegin[row] < d_.counterBegin[row + 1]) {
                    pb::DebugAnnotation* counters = e.add_debug_annotations();
                    counters->set_name("counters");
                    for (int i = d_.counterBegin[row]; i < d_.counterBegin[row + 1]; ++i) {
                        const DispatchCounterValue& v = d_.dispatchCounters[std::size_t(i)];
                        pb::DebugAnnotation* entry = counters->add_dict_entries();
                        entry->set_name(utf8(d_.counterNames.value(v.counter)));
                        entry->set_uint_value(v.value);
                    }
                }
                stream_.add();
                if (ns > 0) {
                    event(track, after(m.tsNs, ns), pb::TrackEvent::TYPE_SLICE_END);
                    stream_.add();
                }
                if (counterIndexed) {
                    const Agent& agent = agents_[std::size_t(agentOf(r.agent))];
                    for (int i = d_.counterBegin[row]; i < d_.counterBegin[row + 1]; ++i) {
                        const DispatchCounterValue& v = d_.dispatchCounters[std::size_t(i)];
                        const auto it = agent.counterTracks.find(v.counter);
                        if (it != agent.counterTracks.end()) {
                            counter(it->second, passStart(m.row, v.passIndex), qint64(v.value));
                        }
                    }
                }
            }
        }
    }

    /// The tracked bytes of each agent over time: one point per time an allocation or free changed it.
    void writeFootprint() {
        std::map<int, std::vector<std::pair<qint64, qint64>>> changes; // agent index -> (ns, delta)
        for (const AllocationRow& a : d_.allocations) {
            if (a.process != process_ || !a.tracked()) {
                continue;
            }
            auto& list = changes[agentOf(a.agent)];
            list.push_back({a.allocNs, a.size});
            if (a.freeNs >= 0) {
                list.push_back({a.freeNs, -a.size});
            }
        }
        for (auto& [agent, list] : changes) {
            std::stable_sort(list.begin(), list.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            qint64 bytes = 0;
            for (std::size_t i = 0; i < list.size(); ++i) {
                bytes += list[i].second;
                if (i + 1 == list.size() || list[i + 1].first != list[i].first) {
                    counter(agents_[std::size_t(agent)].footprintTrack, list[i].first, bytes);
                }
            }
        }
    }

    PacketStream& stream_;
    const TimelineModel& t_;
    const SessionSnapshot& s_;
    const SessionData& d_;
    const int process_;
    std::uint64_t& nextUuid_;
    const std::uint64_t flowBase_;
    const qint64 origin_;
    std::uint64_t processUuid_ = 0;
    std::vector<Agent> agents_;
    std::map<qint64, int> agentIndex_;
    std::vector<Queue> queues_;
    std::vector<int> agentLanes_, queueLane_;
    std::map<int, int> windowTrack_; ///< dispatch row -> index in its agent's windowTracks
    std::vector<int> rowTrack_;      ///< dispatch row -> index in its queue's tracks
    std::map<int, std::string> kernelNames_, kernelSymbols_, decisionNames_;
    std::map<std::pair<int, int>, std::string> partNames_; ///< (kind, pass) -> "pass 2", ...
};

} // namespace

QHash<QString, qint64> PerfettoTraceWriter::hostOrigins(const std::vector<TraceExporter::Input>& inputs) {
    QHash<QString, qint64> origins;
    for (const TraceExporter::Input& in : inputs) {
        if (in.timeline.snapshot().isNull()) {
            continue;
        }
        const SessionData& d = in.timeline.snapshot().data();
        for (const ProcessInfo& p : d.processes) {
            const qint64 begin = processBegin(in.timeline, p.process);
            const QString host = hostOf(d, p);
            if (begin != std::numeric_limits<qint64>::max()) {
                origins.insert(host, std::min(origins.value(host, begin), begin));
            }
        }
    }
    return origins;
}

bool PerfettoTraceWriter::write(const std::vector<TraceExporter::Input>& inputs, QIODevice& out) {
    const QHash<QString, qint64> origins = hostOrigins(inputs);
    PacketStream stream(out);
    std::uint64_t nextUuid = 1;
    std::uint64_t flowBase = 0;
    QSet<qint64> pids;
    qint32 synthetic = 0x40000000;
    for (const TraceExporter::Input& in : inputs) {
        const TimelineModel& t = in.timeline;
        if (t.snapshot().isNull()) {
            continue;
        }
        const SessionData& d = t.snapshot().data();
        const int rank = MergedSession::recordedRank(d.info.path);
        for (const ProcessInfo& process : d.processes) {
            const QString host = hostOf(d, process);
            // Perfetto merges processes of one pid: ranks and sessions whose pids repeat get one of their
            // own.
            const bool unique = process.pid > 0 && process.pid < 0x40000000 && !pids.contains(process.pid);
            const qint32 pid = unique ? qint32(process.pid) : synthetic++;
            pids.insert(process.pid);
            const QString command = process.argv.isEmpty() ? process.executable : process.argv;
            ProcessWriter(stream, t, process.process, nextUuid, flowBase, origins.value(host, 0))
                .write(in.name, host, command, rank, pid, process.pid);
            if (!stream.ok()) {
                return false;
            }
        }
        flowBase += std::uint64_t(d.dispatches.size()) + 1;
    }
    stream.flush();
    return stream.ok();
}

} // namespace rs::app
