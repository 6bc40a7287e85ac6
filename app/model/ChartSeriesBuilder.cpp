// SPDX-License-Identifier: MIT
#include "model/ChartSeriesBuilder.h"

#include "model/ThemeColors.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <limits>
#include <map>

namespace rs::app {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}

ChartSeriesBuilder::ChartSeriesBuilder(const SessionSnapshot& snapshot, int process)
    : s_(snapshot), process_(process) {
    if (s_.isNull()) {
        return;
    }
    rows_.reserve(s_->dispatches.size());
    for (std::size_t r = 0; r < s_->dispatches.size(); ++r) {
        if (shown(s_->dispatches[r].process)) {
            rows_.push_back(int(r));
        }
    }
}

QColor ChartSeriesBuilder::color(int i) {
    return ThemeColors::category(i); // reads on light and dark plots alike
}

QVector<ChartSeriesBuilder::Series> ChartSeriesBuilder::snapshotBytesStacked() const {
    QVector<ProcessKey> agents; // (process, handle): handles repeat across processes
    for (const AgentInfo& a : s_->agents) {
        if (a.isGpu() && shown(a.process)) {
            agents << ProcessKey{a.process, a.handle};
        }
    }
    for (int row : rows_) {
        const DispatchRow& d = s_->dispatches[std::size_t(row)];
        if (!agents.contains(ProcessKey{d.process, d.agent})) {
            agents << ProcessKey{d.process, d.agent};
        }
    }
    QVector<Series> out;
    for (int i = 0; i < agents.size(); ++i) {
        out.push_back({s_.agentLabel(agents[i].first, agents[i].second), {}, color(i)});
        out.back().points.reserve(qsizetype(rows_.size()));
    }
    // Each agent contributes the size of its most recent snapshot: dispatches of different agents
    // interleave, and stacking only the dispatching agent's bytes drops every other agent to zero at
    // each step, which draws a comb instead of the per-agent footprint.
    QVector<double> latest(agents.size(), 0.0);
    for (std::size_t x = 0; x < rows_.size(); ++x) {
        const DispatchRow& d = s_->dispatches[std::size_t(rows_[x])];
        double top = 0;
        for (int i = 0; i < agents.size(); ++i) {
            if (agents[i] == ProcessKey{d.process, d.agent} && d.hasSnapshot) {
                latest[i] = double(d.snapshotBytes) / kMiB;
            }
            top += latest[i];
            out[i].points.append(QPointF(double(x), top));
        }
    }
    return out;
}

QVector<ChartSeriesBuilder::Series> ChartSeriesBuilder::snapshotAndRestoreTime() const {
    Series snap{QStringLiteral("snapshot"), {}, color(0)},
        restore{QStringLiteral("restore (all passes)"), {}, color(1)};
    for (std::size_t x = 0; x < rows_.size(); ++x) {
        const DispatchRow& d = s_->dispatches[std::size_t(rows_[x])];
        if (d.hasSnapshot) {
            snap.points.append(QPointF(double(x), double(d.snapshotNs) / 1e6));
            restore.points.append(QPointF(double(x), double(d.restoreNs) / 1e6));
        }
    }
    return {snap, restore};
}

QVector<ChartSeriesBuilder::Series> ChartSeriesBuilder::kernelTimePerPass() const {
    QVector<Series> out;
    for (std::size_t x = 0; x < rows_.size(); ++x) {
        const std::size_t row = std::size_t(rows_[x]);
        for (int p = s_->passBegin[row]; p < s_->passBegin[row + 1]; ++p) {
            const PassRow& pass = s_->passes[p];
            while (out.size() <= pass.index) {
                out.push_back({QStringLiteral("pass %1").arg(out.size()), {}, color(int(out.size()))});
            }
            out[pass.index].points.append(QPointF(double(x), double(pass.endTick - pass.startTick) / 1e3));
        }
    }
    return out;
}

PassSpreadModel::Histogram ChartSeriesBuilder::passSpread() const {
    return PassSpreadModel::histogram(PassSpreadModel::entries(s_, process_));
}

QVector<ChartSeriesBuilder::Series> ChartSeriesBuilder::bytesMovedVsFootprint() const {
    Series full{QStringLiteral("full restore (footprint × restores)"), {}, color(7)},
        host{QStringLiteral("moved over the host link"), {}, color(1)},
        device{QStringLiteral("moved inside the device"), {}, color(2)};
    for (std::size_t x = 0; x < rows_.size(); ++x) {
        const DispatchRow& d = s_->dispatches[std::size_t(rows_[x])];
        if (d.restores > 0) {
            full.points.append(QPointF(double(x), double(d.fullRestoreBytes()) / kMiB));
            host.points.append(QPointF(double(x), double(d.movedHost) / kMiB));
            device.points.append(QPointF(double(x), double(d.movedDevice) / kMiB));
        }
    }
    return {full, host, device};
}

QVector<ChartSeriesBuilder::Series> ChartSeriesBuilder::skippedRegions() const {
    Series skipped{QStringLiteral("regions skipped at restore"), {}, color(3)};
    for (std::size_t x = 0; x < rows_.size(); ++x) {
        const DispatchRow& d = s_->dispatches[std::size_t(rows_[x])];
        if (d.replayed() || d.skips > 0) {
            skipped.points.append(QPointF(double(x), d.skips));
        }
    }
    return {skipped};
}

QVector<ChartSeriesBuilder::Series> ChartSeriesBuilder::declines() const {
    QMap<int, Series> byReason;
    for (std::size_t x = 0; x < rows_.size(); ++x) {
        const DispatchRow& d = s_->dispatches[std::size_t(rows_[x])];
        if (!d.replayed()) {
            Series& s = byReason[d.decision];
            if (s.name.isEmpty()) {
                s.name = s_.enumName(QStringLiteral("decision"), d.decision);
            }
            s.points.append(QPointF(double(x), 0));
        }
    }
    QVector<Series> out;
    int row = 1;
    for (auto it = byReason.begin(); it != byReason.end(); ++it, ++row) {
        it->color = color(row + 2);
        for (QPointF& p : it->points) {
            p.setY(row);
        }
        out.push_back(*it);
    }
    return out;
}

QVector<ChartSeriesBuilder::Series> ChartSeriesBuilder::footprintOverTime() const {
    std::map<ProcessKey, std::vector<std::pair<qint64, qint64>>> events; // (process, agent) -> (ts, delta)
    qint64 t0 = std::numeric_limits<qint64>::max(), t1 = 0;
    for (const AllocationRow& a : s_->allocations) {
        if (!shown(a.process)) {
            continue;
        }
        t0 = std::min(t0, a.allocNs);
        t1 = std::max(t1, std::max(a.allocNs, a.freeNs));
        if (!a.tracked()) {
            continue;
        }
        events[{a.process, a.agent}].push_back({a.allocNs, a.size});
        if (a.freeNs >= 0) {
            events[{a.process, a.agent}].push_back({a.freeNs, -a.size});
        }
    }
    if (!rows_.empty()) {
        t1 = std::max(t1, s_->dispatches[std::size_t(rows_.back())].tsNs);
    }
    QVector<Series> out;
    int i = 0;
    for (auto& [agent, list] : events) {
        std::sort(list.begin(), list.end());
        Series s{s_.agentLabel(agent.first, agent.second), {}, color(i++)};
        qint64 now = 0;
        s.points.append(QPointF(0, 0));
        for (const auto& [ts, delta] : list) {
            const double x = double(ts - t0) / 1e9;
            s.points.append(QPointF(x, double(now) / kMiB));
            now += delta;
            s.points.append(QPointF(x, double(now) / kMiB));
        }
        s.points.append(QPointF(double(t1 - t0) / 1e9, double(now) / kMiB));
        out.push_back(s);
    }
    return out;
}

QVector<ChartSeriesBuilder::Bar> ChartSeriesBuilder::allocationReasons() const {
    QMap<int, qint64> counts;
    for (const AllocationRow& a : s_->allocations) {
        if (!shown(a.process)) {
            continue;
        }
        ++counts[a.classification];
    }
    QVector<Bar> out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        out.push_back({s_.enumName(QStringLiteral("classification"), it.key()), double(it.value())});
    }
    return out;
}

QVector<ChartSeriesBuilder::Bar> ChartSeriesBuilder::declineAndSkipReasons() const {
    QMap<QString, qint64> counts;
    for (const DispatchRow& d : s_->dispatches) {
        if (!d.replayed() && shown(d.process)) {
            ++counts[QStringLiteral("declined: ") + s_.enumName(QStringLiteral("decision"), d.decision)];
        }
    }
    for (const SkipRow& k : s_->skips) {
        if (!shown(k.process)) {
            continue;
        }
        counts[k.restoreFailure ? QStringLiteral("restore failure: ") +
                                      s_.enumName(QStringLiteral("region_kind"), k.reason)
               : k.pass < 0
                   ? QStringLiteral("snapshot: ") + s_.enumName(QStringLiteral("snapshot_failure"), k.reason)
                   : QStringLiteral("restore skip: ") +
                         s_.enumName(QStringLiteral("restore_skip"), k.reason)]++;
    }
    for (const ModuleVariableRow& v : s_->moduleVariables) {
        if (!v.captured() && shown(v.process)) {
            ++counts[QStringLiteral("variable: ") + s_.enumName(QStringLiteral("variable_status"), v.status)];
        }
    }
    QVector<Bar> out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        out.push_back({it.key(), double(it.value())});
    }
    return out;
}

ChartSeriesBuilder::Series ChartSeriesBuilder::counterPerDispatch(const QString& kernel,
                                                                  const QString& counter, int agentProcess,
                                                                  qint64 agent, const QString& name) const {
    Series out{name.isEmpty() ? counter : name, {}, color(0)};
    if (s_.isNull()) {
        return out;
    }
    struct Value {
        std::size_t x;
        int pass;
        double value;
    };
    // A derived metric: its value per dispatch of the kernel, the dispatches found by their counter rows.
    const int metric = s_->counterNames.contains(counter) ? -1 : int(s_->derivedNames.indexOf(counter));
    std::vector<Value> values;
    for (const CounterValueRow& v : s_->counterValues) {
        if (v.kernel != kernel || (metric < 0 && v.counter != counter) || !shown(v.process)) {
            continue;
        }
        const int row = s_.dispatchRow(v.process, v.dispatchId);
        if (row < 0) {
            continue;
        }
        std::optional<double> value = double(v.value);
        if (metric >= 0) {
            value = s_.derivedValue(row, metric);
            if (!value) {
                continue;
            }
        }
        const DispatchRow& d = s_->dispatches[std::size_t(row)];
        if (agent != 0 && (d.process != agentProcess || d.agent != agent)) {
            continue;
        }
        // rows_ holds the dispatch rows shown in ascending order: the position is the x of every
        // dispatch-order chart.
        const auto it = std::lower_bound(rows_.begin(), rows_.end(), row);
        if (it == rows_.end() || *it != row) {
            continue;
        }
        values.push_back({std::size_t(it - rows_.begin()), metric >= 0 ? 0 : v.passIndex, *value});
    }
    std::sort(values.begin(), values.end(),
              [](const Value& a, const Value& b) { return a.x != b.x ? a.x < b.x : a.pass < b.pass; });
    out.points.reserve(qsizetype(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i == 0 || values[i].x != values[i - 1].x) {
            out.points.append(QPointF(double(values[i].x), values[i].value));
        }
    }
    return out;
}

QStringList ChartSeriesBuilder::counterKernels(int limit) const {
    if (s_.isNull()) {
        return {};
    }
    QMap<QString, QSet<ProcessKey>> dispatches; // kernel -> (process, dispatch id) with a value
    for (const CounterValueRow& v : s_->counterValues) {
        if (shown(v.process)) {
            dispatches[v.kernel].insert(ProcessKey{v.process, v.dispatchId});
        }
    }
    QVector<QPair<qsizetype, QString>> ranked;
    for (auto it = dispatches.begin(); it != dispatches.end(); ++it) {
        ranked.append({it.value().size(), it.key()});
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    QStringList out;
    for (int i = 0; i < ranked.size() && i < limit; ++i) {
        out << ranked[i].second;
    }
    return out;
}

} // namespace rs::app
