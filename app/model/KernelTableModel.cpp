// SPDX-License-Identifier: MIT
#include "model/KernelTableModel.h"

#include "model/CounterSummary.h"
#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

namespace rs::app {

KernelTableModel::KernelTableModel(QObject* parent)
    : SessionTableModel(
          {QStringLiteral("Kernel"), QStringLiteral("Dispatches"), QStringLiteral("Replayed"),
           QStringLiteral("Declined"), QStringLiteral("Decline reasons"), QStringLiteral("Passes"),
           QStringLiteral("Pass min"), QStringLiteral("Pass median"), QStringLiteral("Pass max"),
           QStringLiteral("Snapshot time"), QStringLiteral("Restore time"), QStringLiteral("Footprint"),
           QStringLiteral("Moved back"), QStringLiteral("Symbol")},
          {QStringLiteral("Kernel name as shown (demangled unless -M; -T cuts it to the function's name)"),
           QStringLiteral("Dispatches of the kernel"), QStringLiteral("Of them replayed"),
           QStringLiteral("Of them declined (run once, not replayed)"),
           QStringLiteral("Why they were declined, most frequent first"),
           QStringLiteral("Passes run over the replayed dispatches"), QStringLiteral("Shortest timed pass"),
           QStringLiteral("Median timed pass (of an even count: the "
                          "mean of the middle two)"),
           QStringLiteral("Longest timed pass"), QStringLiteral("Snapshot time summed over the dispatches"),
           QStringLiteral("Restore time summed over the dispatches"),
           QStringLiteral("Bytes snapshotted, summed over the dispatches"),
           QStringLiteral("Bytes the restores copied back (over the host link and inside the device)"),
           QStringLiteral("The kernel descriptor's symbol as the session stores it")},
          parent) {}

void KernelTableModel::setSnapshot(const SessionSnapshot& snapshot) {
    stats_ = KernelSummary::stats(snapshot);
    counterMedians_.clear();
    for (const CounterSummary::Stat& c : CounterSummary::stats(snapshot, CounterSummary::Grouping::kernel)) {
        counterMedians_.insert({c.kernel, c.counter}, c.median());
    }
    install(snapshot, int(stats_.size()), false);
}

QPair<QStringList, QStringList> KernelTableModel::trailingColumns(const SessionSnapshot& snapshot) const {
    QPair<QStringList, QStringList> out;
    if (snapshot.isNull()) {
        return out;
    }
    for (int i = 0; i < snapshot->counterNames.size(); ++i) {
        out.first << snapshot->counterNames[i];
        out.second << QStringLiteral("%1 (%2): median over the kernel's dispatches it was collected for")
                          .arg(snapshot->counterNames[i], snapshot->counterUnits.value(i));
    }
    return out;
}

QVariant KernelTableModel::value(int row, int column) const {
    const KernelSummary::Stat& s = stat(row);
    if (column >= ColumnCount) {
        const QString counter = snapshot_->counterNames.value(column - ColumnCount);
        const auto it = counterMedians_.constFind({s.name, counter});
        return it == counterMedians_.cend() ? QVariant() : QVariant(*it);
    }
    switch (column) {
    case Kernel:
        return s.name;
    case Dispatches:
        return s.dispatches;
    case Replayed:
        return s.replayed;
    case Declined:
        return s.declinedCount();
    case DeclineReasons:
        return KernelSummary::declinedText(snapshot_, s);
    case Passes:
        return s.passes;
    case PassMin:
        return s.passMin >= 0 ? QVariant(s.passMin) : QVariant();
    case PassMedian:
        return s.passMedian >= 0 ? QVariant(s.passMedian) : QVariant();
    case PassMax:
        return s.passMax >= 0 ? QVariant(s.passMax) : QVariant();
    case SnapshotTime:
        return s.snapshotNs;
    case RestoreTime:
        return s.restoreNs;
    case Footprint:
        return s.snapshotBytes;
    case Moved:
        return s.movedBytes;
    case Symbol:
        return s.symbol;
    }
    return {};
}

QString KernelTableModel::text(int row, int column) const {
    const KernelSummary::Stat& s = stat(row);
    switch (column) {
    case PassMin:
    case PassMedian:
    case PassMax: {
        const QVariant v = value(row, column);
        return v.isValid() ? format::us(v.toLongLong()) : QString();
    }
    case SnapshotTime:
        return format::us(s.snapshotNs);
    case RestoreTime:
        return format::us(s.restoreNs);
    case Footprint:
        return format::bytes(s.snapshotBytes);
    case Moved:
        return format::bytes(s.movedBytes);
    case Dispatches:
    case Replayed:
    case Declined:
    case Passes:
        return format::count(value(row, column).toLongLong());
    default: {
        const QVariant v = value(row, column);
        if (column >= ColumnCount && v.isValid()) {
            return CounterSummary::valueText(v.toDouble());
        }
        return v.toString();
    }
    }
}

QVariant KernelTableModel::extra(int row, int column, int role) const {
    const KernelSummary::Stat& s = stat(row);
    switch (role) {
    case FilterTextRole: // the name as shown and the symbol: either finds the kernel
        return s.name + QLatin1Char('\n') + s.symbol;
    case RowIdRole:
        return s.kernel;
    case Qt::ToolTipRole:
        if (column == Kernel || column == Symbol) {
            return QStringLiteral("%1\nsymbol %2").arg(s.name, s.symbol);
        }
        return {};
    case Qt::ForegroundRole:
        if (column == Declined && s.declinedCount() > 0) {
            return ThemeColors::status(ThemeColors::Status::bad);
        }
        return {};
    default:
        return {};
    }
}

} // namespace rs::app
