// SPDX-License-Identifier: MIT
#include "model/AgentSummaryModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"

#include <algorithm>
#include <map>

namespace rs::app {

AgentSummaryModel::AgentSummaryModel(QObject* parent)
    : SessionTableModel(
          {QStringLiteral("Agent"), QStringLiteral("ISA"), QStringLiteral("Tracked at end"),
           QStringLiteral("Tracked peak"), QStringLiteral("Replayed"), QStringLiteral("Declined"),
           QStringLiteral("Snapshot bytes"), QStringLiteral("Snapshot ms"), QStringLiteral("Restore ms"),
           QStringLiteral("Full-restore bytes"), QStringLiteral("Moved (host)"),
           QStringLiteral("Moved (device)"), QStringLiteral("Dirty chunks"), QStringLiteral("Window ms"),
           QStringLiteral("Share of run")},
          {{},
           {},
           QStringLiteral("Tracked allocations still live at the end of the session"),
           QStringLiteral("Largest tracked footprint at any time"),
           QStringLiteral("Dispatches replayed"),
           QStringLiteral("Dispatches declined"),
           QStringLiteral("Bytes copied by all snapshots"),
           QStringLiteral("Total snapshot time"),
           QStringLiteral("Total restore time"),
           QStringLiteral("Bytes full restores would have moved: footprint × restores"),
           QStringLiteral("Bytes the restores copied back over the host link"),
           QStringLiteral("Bytes the restores copied back inside the device"),
           QStringLiteral("Dirty chunks of all restores / chunks compared"),
           QStringLiteral("How long replay windows held the agent's dispatches, in all (snapshot, "
                          "passes, restores; the application waits for them)"),
           QStringLiteral("Window time against the process's run time (session start to end)")},
          parent) {}

void AgentSummaryModel::setSnapshot(const SessionSnapshot& snapshot) {
    QVector<Row> rows;
    if (!snapshot.isNull()) {
        QHash<ProcessKey, int> at;
        auto row = [&](int process, qint64 handle) -> Row& {
            auto it = at.constFind({process, handle});
            if (it == at.cend()) {
                it = at.insert({process, handle}, int(rows.size()));
                rows.push_back(Row{process, handle});
            }
            return rows[*it];
        };
        for (const AgentInfo& a : snapshot->agents) {
            if (a.isGpu()) {
                row(a.process, a.handle);
            }
        }
        for (const DispatchRow& d : snapshot->dispatches) {
            Row& r = row(d.process, d.agent);
            (d.replayed() ? r.replayed : r.declined)++;
            r.snapshotBytes += d.snapshotBytes;
            r.snapshotNs += d.snapshotNs;
            r.restoreNs += d.restoreNs;
            if (d.windowNs >= 0) {
                r.windowNs = std::max<qint64>(r.windowNs, 0) + d.windowNs;
                ++r.windows;
            }
            if (d.restores > 0) {
                if (r.restores == 0) {
                    r.fullRestoreBytes = r.movedHost = r.movedDevice = r.dirtyChunks = r.comparedChunks = 0;
                }
                r.restores += d.restores;
                r.fullRestoreBytes += d.fullRestoreBytes();
                r.movedHost += d.movedHost;
                r.movedDevice += d.movedDevice;
                r.dirtyChunks += d.dirtyChunks;
                r.comparedChunks += d.comparedChunks;
            }
        }
        // Tracked footprint over the session: +size at allocation, -size at free, in sequence order.
        // Sequence numbers are per process, as the keys are.
        std::map<ProcessKey, std::vector<std::pair<qint64, qint64>>>
            events; // (process, agent) -> (seq, delta)
        for (const AllocationRow& a : snapshot->allocations) {
            if (!a.tracked()) {
                continue;
            }
            events[{a.process, a.agent}].push_back({a.allocSeq, a.size});
            if (a.freeSeq >= 0) {
                events[{a.process, a.agent}].push_back({a.freeSeq, -a.size});
            }
        }
        for (auto& [agent, list] : events) {
            std::sort(list.begin(), list.end());
            Row& r = row(agent.first, agent.second);
            qint64 now = 0;
            for (const auto& e : list) {
                now += e.second;
                r.peakTrackedBytes = std::max(r.peakTrackedBytes, now);
            }
            r.trackedBytes = now;
        }
    }
    for (Row& r : rows) {
        const ProcessInfo p = snapshot->processes.value(r.process - 1);
        r.runNs = p.ended && p.endNs > p.startNs ? p.endNs - p.startNs : -1;
    }
    rows_ = rows;
    install(snapshot, int(rows_.size()), false);
}

QVariant AgentSummaryModel::value(int row, int column) const {
    const Row& r = rows_[row];
    switch (column) {
    case Tracked:
        return r.trackedBytes;
    case Peak:
        return r.peakTrackedBytes;
    case Replayed:
        return r.replayed;
    case Declined:
        return r.declined;
    case SnapshotBytes:
        return r.snapshotBytes;
    case SnapshotMs:
        return double(r.snapshotNs) / 1e6;
    case RestoreMs:
        return double(r.restoreNs) / 1e6;
    case FullRestoreBytes:
        return r.restores > 0 ? QVariant(r.fullRestoreBytes) : QVariant();
    case MovedHost:
        return r.restores > 0 ? QVariant(r.movedHost) : QVariant();
    case MovedDevice:
        return r.restores > 0 ? QVariant(r.movedDevice) : QVariant();
    case DirtyChunks:
        return r.restores > 0 ? QVariant(r.dirtyChunks) : QVariant();
    case WindowMs:
        return r.windowNs >= 0 ? QVariant(double(r.windowNs) / 1e6) : QVariant();
    case RunShare:
        return r.runShare() >= 0 ? QVariant(r.runShare()) : QVariant();
    default:
        return text(row, column);
    }
}

QString AgentSummaryModel::text(int row, int column) const {
    const Row& r = rows_[row];
    switch (column) {
    case Agent:
        return snapshot_.agentLabel(r.process, r.handle);
    case Isa: {
        const int i = snapshot_.agentIndex(r.process, r.handle);
        return i >= 0 ? snapshot_->agents[i].isa : QString();
    }
    case Tracked:
        return format::bytes(r.trackedBytes);
    case Peak:
        return format::bytes(r.peakTrackedBytes);
    case Replayed:
        return format::count(r.replayed);
    case Declined:
        return format::count(r.declined);
    case SnapshotBytes:
        return format::bytes(r.snapshotBytes);
    case SnapshotMs:
        return format::ms(r.snapshotNs);
    case RestoreMs:
        return format::ms(r.restoreNs);
    case FullRestoreBytes:
        return r.restores > 0 ? format::bytes(r.fullRestoreBytes) : format::kNotRecorded;
    case MovedHost:
        return r.restores > 0 ? format::bytes(r.movedHost) : format::kNotRecorded;
    case MovedDevice:
        return r.restores > 0 ? format::bytes(r.movedDevice) : format::kNotRecorded;
    case DirtyChunks:
        return r.restores > 0 ? QStringLiteral("%1 / %2").arg(format::count(r.dirtyChunks),
                                                              format::count(r.comparedChunks))
                              : format::kNotRecorded;
    case WindowMs:
        return r.windowNs >= 0 ? format::ms(r.windowNs) : format::kNotRecorded;
    case RunShare:
        return r.runShare() >= 0 ? QStringLiteral("%1%").arg(r.runShare(), 0, 'f', 1) : format::kNotRecorded;
    }
    return {};
}

QVariant AgentSummaryModel::extra(int row, int, int role) const {
    if (role == AgentRole) {
        return rows_[row].handle;
    }
    if (role == ProcessRole) {
        return rows_[row].process;
    }
    return {};
}

} // namespace rs::app
