// SPDX-License-Identifier: MIT
#include "model/TimelineModel.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rs::app {

QString TimelinePart::name() const {
    switch (kind) {
    case Kind::fenceWait:
        return QStringLiteral("fence wait");
    case Kind::snapshot:
        return QStringLiteral("snapshot");
    case Kind::pass:
        return QStringLiteral("pass %1").arg(pass);
    case Kind::restore:
        return QStringLiteral("restore %1").arg(pass);
    case Kind::finalRestore:
        return QStringLiteral("final restore");
    }
    return {};
}

namespace {

using LaneKey = QPair<int, qint64>; // (process, agent handle or queue id)

QString queueLabel(qint64 queue) {
    return queue >= 0 && queue < 1'000'000 ? QStringLiteral("queue %1").arg(queue)
                                           : QStringLiteral("queue 0x%1").arg(quint64(queue), 0, 16);
}

} // namespace

TimelineModel::TimelineModel(const SessionSnapshot& snapshot) : snapshot_(snapshot) {
    if (snapshot.isNull()) {
        return;
    }
    const SessionData& d = snapshot.data();
    const bool severalProcesses = d.processes.size() > 1;
    // Lanes: agents first (by process, then agent order of the session), then queues (by process, id).
    QHash<LaneKey, int> agentLane, queueLane;
    QHash<LaneKey, qint64> queueAgent;
    std::vector<LaneKey> agentKeys, queueKeys;
    for (const DispatchRow& r : d.dispatches) {
        const LaneKey q{r.process, r.queue};
        if (!queueAgent.contains(q)) {
            queueAgent.insert(q, r.agent);
            queueKeys.push_back(q);
        }
        if (r.replayed()) {
            const LaneKey a{r.process, r.agent};
            if (!agentLane.contains(a)) {
                agentLane.insert(a, 0);
                agentKeys.push_back(a);
            }
        }
    }
    std::sort(agentKeys.begin(), agentKeys.end(), [&](const LaneKey& x, const LaneKey& y) {
        const int ix = snapshot.agentIndex(x.first, x.second), iy = snapshot.agentIndex(y.first, y.second);
        return x.first != y.first ? x.first < y.first : ix != iy ? ix < iy : x.second < y.second;
    });
    std::sort(queueKeys.begin(), queueKeys.end());
    const auto prefix = [&](int process) {
        return severalProcesses ? snapshot.processName(process) + QStringLiteral(" · ") : QString();
    };
    for (const LaneKey& k : agentKeys) {
        agentLane[k] = int(lanes_.size());
        TimelineLane lane;
        lane.kind = TimelineLane::Kind::agent;
        lane.process = k.first;
        lane.handle = k.second;
        lane.label = prefix(k.first) + snapshot.agentName(k.first, k.second);
        lanes_.push_back(std::move(lane));
    }
    for (const LaneKey& k : queueKeys) {
        queueLane.insert(k, int(lanes_.size()));
        TimelineLane lane;
        lane.kind = TimelineLane::Kind::queue;
        lane.process = k.first;
        lane.handle = k.second;
        lane.label = prefix(k.first) + queueLabel(k.second) + QStringLiteral(" · ") +
                     snapshot.agentName(k.first, queueAgent.value(k));
        lanes_.push_back(std::move(lane));
    }

    rowWindow_.assign(d.dispatches.size(), {-1, -1});
    const bool passIndexed = d.passBegin.size() == d.dispatches.size() + 1;
    const bool restoreIndexed = d.restoreBegin.size() == d.dispatches.size() + 1;
    for (std::size_t row = 0; row < d.dispatches.size(); ++row) {
        const DispatchRow& r = d.dispatches[row];
        TimelineMark mark;
        mark.row = int(row);
        mark.tsNs = r.tsNs;
        mark.decision = r.decision;
        lanes_[std::size_t(queueLane.value({r.process, r.queue}))].marks.push_back(mark);
        if (!r.replayed()) {
            ++declinedCount_;
            continue;
        }
        TimelineWindow w;
        w.row = int(row);
        w.firstPart = int(parts_.size());
        const auto add = [&](TimelinePart::Kind kind, int pass, qint64 ns) {
            TimelinePart p;
            p.kind = kind;
            p.pass = pass;
            p.durationNs = std::max<qint64>(0, ns);
            parts_.push_back(p);
        };
        if (r.hasSnapshot) {
            // The drain came first (docs/replay-window.md); files without it leave the part out.
            if (r.fenceWaitNs >= 0) {
                add(TimelinePart::Kind::fenceWait, 0, r.fenceWaitNs);
            }
            add(TimelinePart::Kind::snapshot, 0, r.snapshotNs);
        }
        if (passIndexed) {
            for (int p = d.passBegin[row]; p < d.passBegin[row + 1]; ++p) {
                const PassRow& pass = d.passes[std::size_t(p)];
                if (pass.index > 0) {
                    const qint64 ns = pass.restore >= 0 && std::size_t(pass.restore) < d.restores.size()
                                          ? d.restores[std::size_t(pass.restore)].restoreNs
                                          : pass.restoreNs;
                    add(TimelinePart::Kind::restore, pass.index, ns);
                }
                // Agent timestamp ticks at 1 GHz: one tick is one ns (docs/inspector.md).
                add(TimelinePart::Kind::pass, pass.index, pass.endTick - pass.startTick);
            }
        }
        if (restoreIndexed) {
            for (int i = d.restoreBegin[row]; i < d.restoreBegin[row + 1]; ++i) {
                const RestoreRow& restore = d.restores[std::size_t(i)];
                if (restore.finalRestore) {
                    add(TimelinePart::Kind::finalRestore, restore.passIndex, restore.restoreNs);
                }
            }
        }
        w.partCount = int(parts_.size()) - w.firstPart;
        qint64 total = 0;
        for (int i = w.firstPart; i < int(parts_.size()); ++i) {
            total += parts_[std::size_t(i)].durationNs;
        }
        // The dispatch event is sent when the window has released the application's packet, so its time
        // is the window's end; the parts are laid end to end from the derived start.
        w.durationNs = total;
        w.startNs = r.tsNs - total;
        qint64 at = w.startNs;
        for (int i = w.firstPart; i < int(parts_.size()); ++i) {
            parts_[std::size_t(i)].startNs = at;
            at += parts_[std::size_t(i)].durationNs;
        }
        lanes_[std::size_t(agentLane.value({r.process, r.agent}))].windows.push_back(w);
        ++windowCount_;
    }

    bool any = false;
    qint64 begin = std::numeric_limits<qint64>::max(), end = std::numeric_limits<qint64>::min();
    for (int l = 0; l < int(lanes_.size()); ++l) {
        TimelineLane& lane = lanes_[std::size_t(l)];
        std::stable_sort(
            lane.windows.begin(), lane.windows.end(),
            [](const TimelineWindow& a, const TimelineWindow& b) { return a.startNs < b.startNs; });
        std::stable_sort(lane.marks.begin(), lane.marks.end(),
                         [](const TimelineMark& a, const TimelineMark& b) { return a.tsNs < b.tsNs; });
        lane.maxEndNs.resize(lane.windows.size());
        qint64 running = std::numeric_limits<qint64>::min();
        for (std::size_t i = 0; i < lane.windows.size(); ++i) {
            const TimelineWindow& w = lane.windows[i];
            running = std::max(running, w.endNs());
            lane.maxEndNs[i] = running;
            rowWindow_[std::size_t(w.row)] = {l, int(i)};
            begin = std::min(begin, w.startNs);
            end = std::max(end, w.endNs());
            any = true;
        }
        for (const TimelineMark& m : lane.marks) {
            begin = std::min(begin, m.tsNs);
            end = std::max(end, m.tsNs);
            any = true;
        }
    }
    if (any) {
        beginNs_ = begin;
        endNs_ = end;
    }
}

QPair<int, int> TimelineModel::windowOfRow(int row) const {
    return row >= 0 && std::size_t(row) < rowWindow_.size() ? rowWindow_[std::size_t(row)]
                                                            : QPair<int, int>{-1, -1};
}

int TimelineModel::firstWindowEndingAfter(int lane, qint64 ns) const {
    if (lane < 0 || lane >= int(lanes_.size())) {
        return 0;
    }
    const auto& ends = lanes_[std::size_t(lane)].maxEndNs;
    return int(std::lower_bound(ends.begin(), ends.end(), ns) - ends.begin());
}

std::vector<TimelineItem> TimelineModel::visibleItems(int lane, qint64 fromNs, qint64 toNs,
                                                      int pixels) const {
    std::vector<TimelineItem> out;
    if (lane < 0 || lane >= int(lanes_.size()) || toNs <= fromNs || pixels < 1) {
        return out;
    }
    const TimelineLane& l = lanes_[std::size_t(lane)];
    const double scale = double(pixels) / double(toNs - fromNs);
    const auto px = [&](qint64 ns) { return double(ns - fromNs) * scale; };
    const auto column = [&](qint64 ns) { return std::clamp<qint64>(qint64(std::floor(px(ns))), -1, pixels); };

    // Windows: a window narrower than two columns merges into the item before it when their columns touch
    // (unless that item is a single window at least two columns wide); a third item touching a column
    // merges whatever its width, so no column holds more than two.
    bool open = false;
    TimelineItem cur;
    qint64 curLastColumn = 0, prevLastColumn = std::numeric_limits<qint64>::min();
    const auto flush = [&] {
        if (open) {
            out.push_back(cur);
            prevLastColumn = curLastColumn;
        }
    };
    for (int i = firstWindowEndingAfter(lane, fromNs); i < int(l.windows.size()); ++i) {
        const TimelineWindow& w = l.windows[std::size_t(i)];
        if (w.startNs > toNs) {
            break;
        }
        if (w.endNs() < fromNs) {
            continue; // inside the range of an earlier, longer window
        }
        const qint64 c0 = column(w.startNs), c1 = column(w.endNs());
        const bool narrow = px(w.endNs()) - px(w.startNs) < 2.0;
        if (open && c0 <= curLastColumn) {
            const bool curMergeable = cur.count > 1 || px(cur.endNs) - px(cur.startNs) < 2.0;
            if ((narrow && curMergeable) || prevLastColumn >= c0) {
                ++cur.count;
                cur.endNs = std::max(cur.endNs, w.endNs());
                cur.busyNs += w.durationNs;
                curLastColumn = std::max(curLastColumn, c1);
                continue;
            }
        }
        flush();
        open = true;
        cur = TimelineItem{};
        cur.kind = TimelineItem::Kind::window;
        cur.first = i;
        cur.startNs = w.startNs;
        cur.endNs = w.endNs();
        cur.busyNs = w.durationNs;
        curLastColumn = c1;
    }
    flush();

    // Marks: one item per column.
    const auto first = std::lower_bound(l.marks.begin(), l.marks.end(), fromNs,
                                        [](const TimelineMark& m, qint64 ns) { return m.tsNs < ns; });
    qint64 markColumn = std::numeric_limits<qint64>::min();
    for (auto it = first; it != l.marks.end() && it->tsNs <= toNs; ++it) {
        const qint64 c = column(it->tsNs);
        if (!out.empty() && out.back().kind == TimelineItem::Kind::mark && c == markColumn) {
            TimelineItem& m = out.back();
            ++m.count;
            m.endNs = it->tsNs;
            m.declined += it->declined() ? 1 : 0;
            continue;
        }
        TimelineItem m;
        m.kind = TimelineItem::Kind::mark;
        m.first = int(it - l.marks.begin());
        m.startNs = m.endNs = it->tsNs;
        m.declined = it->declined() ? 1 : 0;
        out.push_back(m);
        markColumn = c;
    }
    return out;
}

int TimelineModel::windowAt(int lane, qint64 ns, qint64 toleranceNs) const {
    if (lane < 0 || lane >= int(lanes_.size())) {
        return -1;
    }
    const TimelineLane& l = lanes_[std::size_t(lane)];
    int best = -1;
    qint64 bestDistance = toleranceNs + 1;
    for (int i = firstWindowEndingAfter(lane, ns - toleranceNs); i < int(l.windows.size()); ++i) {
        const TimelineWindow& w = l.windows[std::size_t(i)];
        if (w.startNs > ns + toleranceNs) {
            break;
        }
        const qint64 distance = ns < w.startNs ? w.startNs - ns : ns > w.endNs() ? ns - w.endNs() : 0;
        if (distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

int TimelineModel::markAt(int lane, qint64 ns, qint64 toleranceNs) const {
    if (lane < 0 || lane >= int(lanes_.size())) {
        return -1;
    }
    const auto& marks = lanes_[std::size_t(lane)].marks;
    auto it = std::lower_bound(marks.begin(), marks.end(), ns - toleranceNs,
                               [](const TimelineMark& m, qint64 t) { return m.tsNs < t; });
    int best = -1;
    qint64 bestDistance = toleranceNs + 1;
    for (; it != marks.end() && it->tsNs <= ns + toleranceNs; ++it) {
        const qint64 distance = std::abs(it->tsNs - ns);
        if (distance < bestDistance) {
            best = int(it - marks.begin());
            bestDistance = distance;
        }
    }
    return best;
}

const TimelinePart* TimelineModel::partAt(int lane, int window, qint64 ns) const {
    if (lane < 0 || lane >= int(lanes_.size()) || window < 0 ||
        window >= int(lanes_[std::size_t(lane)].windows.size())) {
        return nullptr;
    }
    const TimelineWindow& w = lanes_[std::size_t(lane)].windows[std::size_t(window)];
    const TimelinePart* p = partsOf(w);
    for (int i = 0; i < w.partCount; ++i) {
        if (ns >= p[i].startNs && ns < p[i].endNs()) {
            return p + i;
        }
    }
    return nullptr;
}

QString TimelineModel::kernelName(int row) const {
    if (snapshot_.isNull() || row < 0 || std::size_t(row) >= snapshot_->dispatches.size()) {
        return {};
    }
    const int k = snapshot_->dispatches[std::size_t(row)].kernel;
    return k >= 0 && k < snapshot_->kernelNames.size() ? snapshot_->kernelNames[k] : QString();
}

QString TimelineModel::decisionName(int decision) const {
    return snapshot_.isNull() ? QString() : snapshot_.enumName(QStringLiteral("decision"), decision);
}

} // namespace rs::app
