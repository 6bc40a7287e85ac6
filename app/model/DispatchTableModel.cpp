// SPDX-License-Identifier: MIT
#include "model/DispatchTableModel.h"

#include "model/CounterSummary.h"
#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

#include <replayscope/counters/derived.h>

namespace rs::app {

QString DispatchTableModel::storeText(const SessionSnapshot& snapshot, const DispatchRow& d) {
    if (d.store < 0) {
        return format::kNotRecorded;
    }
    QString text = snapshot.enumName(QStringLiteral("snapshot_store"), d.store);
    if (!d.storedIn(rs::ipc::SnapshotStore::device) && d.hostPinned == 0 && d.hostBytes != 0) {
        text += QStringLiteral(" (pageable)");
    }
    return text;
}

DispatchTableModel::DispatchTableModel(QObject* parent)
    : SessionListTableModel(
          {QStringLiteral("#"), QStringLiteral("Kernel"), QStringLiteral("Agent"), QStringLiteral("Outcome"),
           QStringLiteral("Passes"), QStringLiteral("Footprint"), QStringLiteral("Moved (host)"),
           QStringLiteral("Moved (device)"), QStringLiteral("Moved %"), QStringLiteral("Store"),
           QStringLiteral("Regions"), QStringLiteral("Skipped"), QStringLiteral("Snapshot ms"),
           QStringLiteral("Restore ms"), QStringLiteral("Kernel min µs"), QStringLiteral("Kernel med µs"),
           QStringLiteral("Kernel max µs")},
          {QStringLiteral("Dispatch id"), QStringLiteral("Kernel symbol"),
           QStringLiteral("Agent the dispatch ran on"),
           QStringLiteral("Replayed, or the reason replay was declined"), QStringLiteral("Passes run"),
           QStringLiteral("Bytes of the snapshot: what a full restore copies back each time"),
           QStringLiteral("Bytes the restores copied back from the host store, over the host link (all "
                          "restores, the one after the last pass included)"),
           QStringLiteral("Bytes the restores copied back from the device store, inside the device"),
           QStringLiteral("Bytes moved as a share of footprint × restores (what full restores move)"),
           QStringLiteral("Where the snapshot was kept: host store (page-locked, or pageable), device store, "
                          "or mixed"),
           QStringLiteral("Regions captured by the snapshot"),
           QStringLiteral("Regions skipped at restore, all passes"), QStringLiteral("Snapshot duration"),
           QStringLiteral("Restore time, all passes"),
           QStringLiteral("Shortest kernel pass (agent ticks at 1 GHz)"),
           QStringLiteral("Median kernel pass"), QStringLiteral("Longest kernel pass")},
          [](const SessionData& session) { return int(session.dispatches.size()); },
          [](const SessionData& session, int row) { return session.dispatches[std::size_t(row)].process; },
          parent) {}

QPair<QStringList, QStringList> DispatchTableModel::counterColumns(const SessionSnapshot& snapshot,
                                                                   const QString& what) {
    QPair<QStringList, QStringList> columns;
    if (snapshot.isNull()) {
        return columns;
    }
    for (int i = 0; i < snapshot->counterNames.size(); ++i) {
        columns.first << snapshot->counterNames[i];
        columns.second << QStringLiteral("Hardware counter %1 (%2): %3")
                              .arg(snapshot->counterNames[i], snapshot->counterUnits.value(i), what);
    }
    return columns;
}

QPair<QStringList, QStringList> DispatchTableModel::derivedColumns(const SessionSnapshot& snapshot) {
    QPair<QStringList, QStringList> columns;
    if (snapshot.isNull()) {
        return columns;
    }
    for (int i = 0; i < snapshot->derivedNames.size(); ++i) {
        const auto* def = rs::counters::find_derived(snapshot->derivedNames[i].toStdString());
        const QString expression =
            def != nullptr ? QString::fromUtf8(def->expression.data(), qsizetype(def->expression.size()))
                           : QString();
        columns.first << snapshot->derivedNames[i];
        columns.second << QStringLiteral("Derived metric %1 = %2 (%3): computed from the dispatch's counter "
                                         "values, whichever passes collected them (a figure of the dispatch, "
                                         "not of a pass); empty where an input was not collected or a "
                                         "divisor is zero")
                              .arg(snapshot->derivedNames[i], expression, snapshot->derivedUnits.value(i));
    }
    return columns;
}

QPair<QStringList, QStringList> DispatchTableModel::trailingColumns(const SessionSnapshot& snapshot) const {
    auto columns = counterColumns(snapshot, QStringLiteral("the dispatch's value, collected in one of its "
                                                           "passes; empty where it was not collected"));
    const auto derived = derivedColumns(snapshot);
    columns.first << derived.first;
    columns.second << derived.second;
    return columns;
}

int DispatchTableModel::derivedMetric(int column) const {
    if (snapshot_.isNull()) {
        return -1;
    }
    const int metric = column - firstCounterColumn() - int(snapshot_->counterNames.size());
    return metric >= 0 && metric < snapshot_->derivedNames.size() ? metric : -1;
}

QVariant DispatchTableModel::value(int row, int column) const {
    const DispatchRow& d = snapshot_->dispatches[row];
    if (const int metric = derivedMetric(column); metric >= 0) {
        const std::optional<double> v = snapshot_.derivedValue(row, metric);
        return v ? QVariant(*v) : QVariant();
    }
    if (column >= firstCounterColumn()) {
        const DispatchCounterValue* v = snapshot_.counterValue(row, column - firstCounterColumn());
        return v ? QVariant(qulonglong(v->value)) : QVariant();
    }
    switch (column) {
    case Id:
        return d.id;
    case Kernel:
        return snapshot_->kernelNames.value(d.kernel);
    case Agent:
        return snapshot_.agentName(d.process, d.agent);
    case Outcome:
        return snapshot_.enumName(QStringLiteral("decision"), d.decision);
    case Passes:
        return d.passes;
    case SnapshotBytes:
        return d.snapshotBytes;
    case MovedHost:
        return d.restores > 0 ? QVariant(d.movedHost) : QVariant();
    case MovedDevice:
        return d.restores > 0 ? QVariant(d.movedDevice) : QVariant();
    case MovedShare:
        return d.restores > 0 && d.snapshotBytes > 0
                   ? QVariant(100.0 * double(d.movedBytes()) / double(d.fullRestoreBytes()))
                   : QVariant();
    case Store:
        return d.store >= 0 ? QVariant(storeText(snapshot_, d)) : QVariant();
    case RegionsCaptured:
        return d.snapshotRegions;
    case RegionsSkipped:
        return d.skips;
    case SnapshotMs:
        return double(d.snapshotNs) / 1e6;
    case RestoreMs:
        return double(d.restoreNs) / 1e6;
    // No timed pass (a declined dispatch): no value, not -1 ns read as -0.001 µs (sorting, CSV).
    case KernelMin:
        return d.kernelMin >= 0 ? QVariant(double(d.kernelMin) / 1e3) : QVariant();
    case KernelMedian:
        return d.kernelMedian >= 0 ? QVariant(double(d.kernelMedian) / 1e3) : QVariant();
    case KernelMax:
        return d.kernelMax >= 0 ? QVariant(double(d.kernelMax) / 1e3) : QVariant();
    }
    return {};
}

QString DispatchTableModel::text(int row, int column) const {
    const DispatchRow& d = snapshot_->dispatches[row];
    const bool snap = d.hasSnapshot;
    if (const int metric = derivedMetric(column); metric >= 0) {
        const std::optional<double> v = snapshot_.derivedValue(row, metric);
        return v ? CounterSummary::valueText(*v) : QString();
    }
    if (column >= firstCounterColumn()) {
        const DispatchCounterValue* v = snapshot_.counterValue(row, column - firstCounterColumn());
        return v ? QString::number(v->value) : QString();
    }
    switch (column) {
    case Id:
        return QString::number(d.id);
    case Kernel:
    case Agent:
    case Outcome:
        return value(row, column).toString();
    case Passes:
        return d.passes ? QString::number(d.passes) : QString();
    case SnapshotBytes:
        return snap ? format::bytes(d.snapshotBytes) : QString();
    case MovedHost:
        return !snap ? QString() : d.restores > 0 ? format::bytes(d.movedHost) : format::kNotRecorded;
    case MovedDevice:
        return !snap ? QString() : d.restores > 0 ? format::bytes(d.movedDevice) : format::kNotRecorded;
    case MovedShare:
        return !snap                                   ? QString()
               : d.restores > 0 && d.snapshotBytes > 0 ? format::percent(value(row, column).toDouble())
                                                       : format::kNotRecorded;
    case Store:
        return !snap ? QString() : d.store >= 0 ? storeText(snapshot_, d) : format::kNotRecorded;
    case RegionsCaptured:
        return snap ? QString::number(d.snapshotRegions) : QString();
    case RegionsSkipped:
        return snap || d.skips ? QString::number(d.skips) : QString();
    case SnapshotMs:
        return snap ? format::ms(d.snapshotNs) : QString();
    case RestoreMs:
        return d.passes > 1 ? format::ms(d.restoreNs) : QString();
    case KernelMin:
        return d.kernelMin >= 0 ? format::us(d.kernelMin) : QString();
    case KernelMedian:
        return d.kernelMedian >= 0 ? format::us(d.kernelMedian) : QString();
    case KernelMax:
        return d.kernelMax >= 0 ? format::us(d.kernelMax) : QString();
    }
    return {};
}

QVariant DispatchTableModel::extra(int row, int column, int role) const {
    const DispatchRow& d = snapshot_->dispatches[row];
    switch (role) {
    case FilterTextRole: // the name as shown and the symbol: either finds the kernel
        return snapshot_->kernelNames.value(d.kernel) + QLatin1Char('\n') +
               snapshot_->kernelSymbols.value(d.kernel);
    case AgentRole:
        return d.agent;
    case CodeRole:
        return d.decision;
    case RowIdRole:
        return d.id;
    case Qt::ForegroundRole:
        if (column == Outcome) {
            return d.replayed() ? ThemeColors::status(ThemeColors::Status::good)
                                : ThemeColors::status(ThemeColors::Status::bad);
        }
        if (column == RegionsSkipped && d.skips > 0) {
            return ThemeColors::status(ThemeColors::Status::bad);
        }
        return {};
    case Qt::ToolTipRole:
        if (column == Kernel) {
            return QStringLiteral("%1\nsymbol %2\n%3")
                .arg(snapshot_->kernelNames.value(d.kernel), snapshot_->kernelSymbols.value(d.kernel),
                     d.launchShape());
        }
        if (column == SnapshotBytes && d.hasSnapshot) {
            return QStringLiteral("%1 bytes").arg(format::count(d.snapshotBytes));
        }
        if ((column == MovedHost || column == MovedDevice || column == MovedShare) && d.restores > 0) {
            return QStringLiteral("%1 restores moved %2 of the %3 full restores would: %4 over the host "
                                  "link, %5 inside the device; %6 of %7 chunks dirty")
                .arg(d.restores)
                .arg(format::bytes(d.movedBytes()), format::bytes(d.fullRestoreBytes()),
                     format::bytes(d.movedHost), format::bytes(d.movedDevice), format::count(d.dirtyChunks),
                     format::count(d.comparedChunks));
        }
        if (const int metric = derivedMetric(column); metric >= 0) {
            const std::optional<double> v = snapshot_.derivedValue(row, metric);
            return v ? QVariant(QStringLiteral("%1: %2 %3, computed from the dispatch's counter values")
                                    .arg(snapshot_->derivedNames.value(metric), QString::number(*v, 'g', 17),
                                         snapshot_->derivedUnits.value(metric)))
                     : QVariant();
        }
        if (column >= firstCounterColumn()) {
            const int counter = column - firstCounterColumn();
            const DispatchCounterValue* v = snapshot_.counterValue(row, counter);
            return v ? QVariant(QStringLiteral("%1: %2 %3, collected in pass %4")
                                    .arg(snapshot_->counterNames.value(counter), QString::number(v->value),
                                         snapshot_->counterUnits.value(counter))
                                    .arg(v->passIndex))
                     : QVariant();
        }
        if (column == Store && d.store >= 0) {
            return QStringLiteral("host store %1, device store %2")
                .arg(d.hostBytes >= 0 ? format::bytes(d.hostBytes) : format::kNotRecorded,
                     d.deviceBytes >= 0 ? format::bytes(d.deviceBytes) : format::kNotRecorded);
        }
        return {};
    }
    return {};
}

} // namespace rs::app
