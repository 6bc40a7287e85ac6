// SPDX-License-Identifier: MIT
#include "model/PassSpreadModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

#include <algorithm>
#include <limits>

namespace rs::app {

namespace {
enum Column { Kernel, Dispatch, Passes, MinTime, MaxTime, Spread, Process };
}

PassSpreadModel::PassSpreadModel(QObject* parent)
    : SessionTableModel({QStringLiteral("Kernel"), QStringLiteral("Dispatch"), QStringLiteral("Passes"),
                         QStringLiteral("Min µs"), QStringLiteral("Max µs"), QStringLiteral("Spread"),
                         QStringLiteral("Process")},
                        {QStringLiteral("Kernel name"), QStringLiteral("Dispatch id"),
                         QStringLiteral("Timed passes"),
                         QStringLiteral("Fastest pass (agent ticks at 1 GHz)"),
                         QStringLiteral("Slowest pass (agent ticks at 1 GHz)"),
                         QStringLiteral("Slowest / fastest pass - 1: counters of one pass do not represent "
                                        "the others"),
                         QStringLiteral("Process (pid)")},
                        parent) {}

std::vector<PassSpreadModel::Entry> PassSpreadModel::entries(const SessionSnapshot& snapshot, int process) {
    std::vector<Entry> out;
    if (snapshot.isNull()) {
        return out;
    }
    const SessionData& s = snapshot.data();
    for (std::size_t row = 0; row < s.dispatches.size() && row + 1 < s.passBegin.size(); ++row) {
        const DispatchRow& d = s.dispatches[row];
        if (!d.replayed() || (process != 0 && d.process != process)) {
            continue;
        }
        Entry e;
        e.row = int(row);
        e.minTicks = std::numeric_limits<qint64>::max();
        for (int p = s.passBegin[row]; p < s.passBegin[row + 1]; ++p) {
            const PassRow& pass = s.passes[std::size_t(p)];
            if (pass.endTick >= pass.startTick && pass.endTick > 0) { // timed (as the pass reader counts)
                const qint64 t = pass.endTick - pass.startTick;
                e.minTicks = std::min(e.minTicks, t);
                e.maxTicks = std::max(e.maxTicks, t);
                ++e.passes;
            }
        }
        if (e.passes >= 2 && e.minTicks > 0) {
            e.spread = double(e.maxTicks) / double(e.minTicks) - 1.0;
            out.push_back(e);
        }
    }
    return out;
}

QVector<double> PassSpreadModel::binEdges() {
    return {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100};
}

int PassSpreadModel::binOf(double spread) {
    const QVector<double> edges = binEdges();
    const double percent = spread * 100.0;
    return int(std::upper_bound(edges.cbegin(), edges.cend(), percent) - edges.cbegin());
}

PassSpreadModel::Histogram PassSpreadModel::histogram(const std::vector<Entry>& entries) {
    const QVector<double> edges = binEdges();
    Histogram h;
    // In percent, the unit in the axis title: short labels fit side by side. "0–0.1", not "< 0.1": chart
    // axes read labels as rich text, where "<" opens a tag.
    h.labels << QStringLiteral("0–%1").arg(edges.first());
    for (int i = 1; i < edges.size(); ++i) {
        h.labels << QStringLiteral("%1–%2").arg(edges[i - 1]).arg(edges[i]);
    }
    h.labels << QStringLiteral("≥ %1").arg(edges.last());
    h.counts.fill(0, h.labels.size());
    for (const Entry& e : entries) {
        ++h.counts[binOf(e.spread)];
    }
    h.total = qint64(entries.size());
    for (qint64 c : h.counts) {
        h.percent << (h.total > 0 ? 100.0 * double(c) / double(h.total) : 0.0);
    }
    return h;
}

void PassSpreadModel::setSnapshot(const SessionSnapshot& snapshot, int process) {
    apply(snapshot, entries(snapshot, process));
}

void PassSpreadModel::setThreshold(double fraction) {
    threshold_ = fraction;
    std::vector<Entry> all = all_;
    apply(snapshot_, std::move(all));
}

void PassSpreadModel::apply(const SessionSnapshot& snapshot, std::vector<Entry> all) {
    // First down to no rows (the old rows stay readable during that reset), then swap the data while no
    // row refers to it, then up to the new rows.
    install(snapshot_, 0, false);
    all_ = std::move(all);
    shown_.clear();
    for (std::size_t i = 0; i < all_.size(); ++i) {
        if (all_[i].spread > threshold_) {
            shown_.push_back(int(i));
        }
    }
    install(snapshot, int(shown_.size()), false);
}

int PassSpreadModel::dispatchRow(int row) const {
    return row >= 0 && row < int(shown_.size()) ? entry(row).row : -1;
}

QVariant PassSpreadModel::value(int row, int column) const {
    const Entry& e = entry(row);
    const DispatchRow& d = snapshot_->dispatches[std::size_t(e.row)];
    switch (column) {
    case Dispatch:
        return d.id;
    case Passes:
        return e.passes;
    case MinTime:
        return double(e.minTicks) / 1e3;
    case MaxTime:
        return double(e.maxTicks) / 1e3;
    case Spread:
        return e.spread;
    case Process:
        return d.process < int(snapshot_->processes.size()) + 1 && d.process >= 1
                   ? QVariant(qint64(snapshot_->processes[std::size_t(d.process - 1)].pid))
                   : QVariant(d.process);
    default:
        return text(row, column);
    }
}

QString PassSpreadModel::text(int row, int column) const {
    const Entry& e = entry(row);
    const DispatchRow& d = snapshot_->dispatches[std::size_t(e.row)];
    switch (column) {
    case Kernel:
        return snapshot_->kernelNames.value(d.kernel);
    case Dispatch:
        return QString::number(d.id);
    case Passes:
        return QString::number(e.passes);
    case MinTime:
        return format::us(e.minTicks);
    case MaxTime:
        return format::us(e.maxTicks);
    case Spread:
        return format::percent(e.spread * 100.0);
    case Process:
        return value(row, column).toString();
    }
    return {};
}

QVariant PassSpreadModel::extra(int row, int column, int role) const {
    const Entry& e = entry(row);
    const DispatchRow& d = snapshot_->dispatches[std::size_t(e.row)];
    switch (role) {
    case AgentRole:
        return d.agent;
    case ProcessRole:
        return d.process;
    case RowIdRole:
        return d.id;
    case FilterTextRole:
        return snapshot_->kernelNames.value(d.kernel);
    case Qt::ToolTipRole:
        if (column == Kernel) {
            return snapshot_->kernelNames.value(d.kernel);
        }
        if (column == MinTime || column == MaxTime) {
            return QStringLiteral("%1 ticks").arg(format::count(column == MinTime ? e.minTicks : e.maxTicks));
        }
        return {};
    case Qt::ForegroundRole:
        return column == Spread && e.spread > 0.2 ? QVariant(ThemeColors::status(ThemeColors::Status::bad))
                                                  : QVariant();
    }
    return {};
}

} // namespace rs::app
