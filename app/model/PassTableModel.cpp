#include "model/PassTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"

#include <QColor>

namespace rs::app {

namespace {
enum Column { Pass, KernelUs, RestoreMs, Regions, Bytes, Skips, Fidelity };
}

PassTableModel::PassTableModel(QObject* parent)
    : SessionTableModel(
          {QStringLiteral("Pass"), QStringLiteral("Kernel µs"), QStringLiteral("Restore ms"),
           QStringLiteral("Regions restored"), QStringLiteral("Bytes restored"), QStringLiteral("Skipped"),
           QStringLiteral("Fidelity")},
          {QStringLiteral("Pass index (0 is the first run)"),
           QStringLiteral("Kernel time (agent ticks at 1 GHz)"), QStringLiteral("Restore before this pass"),
           QString(), QString(), QString(),
           QStringLiteral(
               "Output compared with pass 1 (--fidelity-check): matched, differed or not checked")},
          parent) {}

void PassTableModel::setDispatch(const SessionSnapshot& snapshot, int dispatchRow) {
    int rows = 0;
    first_ = 0;
    if (isDispatchRow(snapshot, dispatchRow)) {
        first_ = snapshot->passBegin[dispatchRow];
        rows = snapshot->passBegin[dispatchRow + 1] - first_;
    }
    install(snapshot, rows, false);
}

QVariant PassTableModel::value(int row, int column) const {
    const PassRow& p = snapshot_->passes[first_ + row];
    switch (column) {
    case Pass:
        return p.index;
    case KernelUs:
        return double(p.endTick - p.startTick) / 1e3;
    case RestoreMs:
        return double(p.restoreNs) / 1e6;
    case Regions:
        return p.regionsRestored;
    case Bytes:
        return p.bytesRestored;
    case Skips:
        return p.skips;
    case Fidelity:
        return p.fidelity;
    }
    return {};
}

QString PassTableModel::text(int row, int column) const {
    const PassRow& p = snapshot_->passes[first_ + row];
    switch (column) {
    case KernelUs:
        return format::us(p.endTick - p.startTick);
    case RestoreMs:
        return p.index == 0 ? QStringLiteral("-") : format::ms(p.restoreNs);
    case Bytes:
        return format::bytes(p.bytesRestored);
    case Fidelity:
        return p.fidelity < 0 ? QStringLiteral("not checked")
                              : snapshot_.enumName(QStringLiteral("fidelity"), p.fidelity);
    default:
        return value(row, column).toString();
    }
}

QVariant PassTableModel::extra(int row, int column, int role) const {
    const PassRow& p = snapshot_->passes[first_ + row];
    if (role == RowIdRole) {
        return p.index;
    }
    if (role == Qt::ForegroundRole && column == Fidelity && p.fidelity == 0) {
        return QColor(0xc6, 0x28, 0x28);
    }
    return {};
}

} // namespace rs::app
