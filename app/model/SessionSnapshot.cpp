// SPDX-License-Identifier: MIT
#include "model/SessionSnapshot.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace rs::app {

QString SessionSnapshot::enumName(const QString& kind, int code) const {
    if (d_) {
        const auto it = d_->enumNames.constFind(kind);
        if (it != d_->enumNames.cend()) {
            const auto name = it->constFind(code);
            if (name != it->cend()) {
                return *name;
            }
        }
    }
    return QStringLiteral("code %1").arg(code);
}

int SessionSnapshot::agentIndex(int process, qint64 handle) const {
    if (!d_) {
        return -1;
    }
    for (int i = 0; i < d_->agents.size(); ++i) {
        if (d_->agents[i].handle == handle && d_->agents[i].process == process) {
            return i;
        }
    }
    return -1;
}

int SessionSnapshot::dispatchRow(int process, qint64 dispatchId) const {
    return d_ ? d_->dispatchRow.value({process, dispatchId}, -1) : -1;
}

const DispatchCounterValue* SessionSnapshot::counterValue(int row, int counter, int pass) const {
    if (!d_ || row < 0 || std::size_t(row) + 1 >= d_->counterBegin.size()) {
        return nullptr;
    }
    // A dispatch holds a few values (one per counter collected), sorted by counter then pass.
    for (int i = d_->counterBegin[std::size_t(row)]; i < d_->counterBegin[std::size_t(row) + 1]; ++i) {
        const DispatchCounterValue& v = d_->dispatchCounters[std::size_t(i)];
        if (v.counter == counter && (pass < 0 || v.passIndex == pass)) {
            return &v;
        }
    }
    return nullptr;
}

std::optional<double> SessionSnapshot::derivedValue(int row, int metric) const {
    if (!d_ || row < 0 || metric < 0 || metric >= d_->derivedNames.size()) {
        return std::nullopt;
    }
    const std::size_t i = std::size_t(row) * std::size_t(d_->derivedNames.size()) + std::size_t(metric);
    if (i >= d_->derivedValues.size() || std::isnan(d_->derivedValues[i])) {
        return std::nullopt;
    }
    return d_->derivedValues[i];
}

int SessionSnapshot::regionStore(int row, qint64 address) const {
    if (!d_ || row < 0 || row >= int(d_->dispatches.size())) {
        return -1;
    }
    const DispatchRow& d = d_->dispatches[std::size_t(row)];
    if (!d.storedIn(rs::ipc::SnapshotStore::mixed)) {
        return d.store;
    }
    const PlacementRow key{d.process, d.id, address};
    const auto it = std::lower_bound(d_->placements.begin(), d_->placements.end(), key,
                                     [](const PlacementRow& a, const PlacementRow& b) {
                                         return std::tie(a.process, a.dispatchId, a.address) <
                                                std::tie(b.process, b.dispatchId, b.address);
                                     });
    if (it != d_->placements.end() && it->process == d.process && it->dispatchId == d.id &&
        it->address == address) {
        return it->store;
    }
    return -1;
}

QString SessionSnapshot::agentName(int process, qint64 handle) const {
    const int i = agentIndex(process, handle);
    if (i < 0) {
        return handle == 0 ? QStringLiteral("-") : QStringLiteral("0x%1").arg(quint64(handle), 0, 16);
    }
    const AgentInfo& a = d_->agents[i];
    const QString name = a.name.isEmpty() ? QStringLiteral("agent") : a.name;
    const auto first = d_->agents.cbegin();
    const auto ordinal =
        std::count_if(first, first + i, [&](const AgentInfo& b) { return b.process == process; });
    return QStringLiteral("%1 #%2").arg(name).arg(ordinal);
}

QString DispatchRow::launchShape() const {
    return QStringLiteral("grid %1×%2×%3, workgroup %4×%5×%6")
        .arg(grid[0])
        .arg(grid[1])
        .arg(grid[2])
        .arg(workgroup[0])
        .arg(workgroup[1])
        .arg(workgroup[2]);
}

QString SessionSnapshot::agentLabel(int process, qint64 handle) const {
    const QString name = agentName(process, handle);
    return d_ && d_->processes.size() > 1 ? processName(process) + QStringLiteral(" · ") + name : name;
}

const ProcessInfo* SessionSnapshot::process(int process) const {
    if (!d_ || process < 1 || process > d_->processes.size()) {
        return nullptr;
    }
    return &d_->processes[process - 1];
}

QString SessionSnapshot::processName(int process) const {
    const ProcessInfo* p = this->process(process);
    return p && p->pid > 0 ? QStringLiteral("pid %1").arg(p->pid) : QStringLiteral("process %1").arg(process);
}

QString ProcessInfo::label() const {
    const QString command = argv.isEmpty() ? executable : argv;
    const QString pidText =
        pid > 0 ? QStringLiteral("pid %1").arg(pid) : QStringLiteral("process %1").arg(process);
    return command.isEmpty() ? pidText : QStringLiteral("%1 %2").arg(pidText, command.left(60));
}

RestoreTotals sumRestores(const std::vector<DispatchRow>& dispatches) {
    RestoreTotals t;
    for (const DispatchRow& d : dispatches) {
        if (d.store >= 0) {
            ++t.stores[d.store];
        }
        if (d.restores > 0) {
            t.restores += d.restores;
            t.fullBytes += d.fullRestoreBytes();
            t.movedHost += d.movedHost;
            t.movedDevice += d.movedDevice;
            t.dirtyChunks += d.dirtyChunks;
            t.comparedChunks += d.comparedChunks;
            t.missedChunks += d.missedChunks;
        }
    }
    return t;
}

SessionTotals sessionTotals(const std::vector<DispatchRow>& dispatches) {
    SessionTotals t;
    t.dispatches = qint64(dispatches.size());
    for (const DispatchRow& d : dispatches) {
        t.replayed += d.replayed();
        t.snapshotBytes += d.snapshotBytes;
        t.skips += d.skips;
    }
    t.restores = sumRestores(dispatches);
    return t;
}

} // namespace rs::app
