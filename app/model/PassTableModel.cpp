// SPDX-License-Identifier: MIT
#include "model/PassTableModel.h"

#include "model/DispatchTableModel.h"
#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

namespace rs::app {

PassTableModel::PassTableModel(QObject* parent)
    : SessionTableModel(
          {QStringLiteral("Pass"), QStringLiteral("Kernel µs"), QStringLiteral("Restore ms"),
           QStringLiteral("Regions restored"), QStringLiteral("Bytes restored"), QStringLiteral("Skipped"),
           QStringLiteral("Fidelity"), QStringLiteral("Restored (host)"), QStringLiteral("Restored (device)"),
           QStringLiteral("Dirty / total chunks"), QStringLiteral("Hash ms"),
           QStringLiteral("Missed chunks")},
          {QStringLiteral(
               "Pass index (0 is the first run; \"final\": the restore after the last pass, before "
               "the application's own dispatch)"),
           QStringLiteral("Kernel time (agent ticks at 1 GHz)"),
           QStringLiteral("Restore before this pass (hashing included)"), QString(), QString(), QString(),
           QStringLiteral("Output compared with pass 1 (--fidelity-check): matched, differed or not checked"),
           QStringLiteral("Bytes copied back from the host store, over the host link"),
           QStringLiteral("Bytes copied back from the device store, inside the device"),
           QStringLiteral("Chunks whose hash differed from the snapshot's (copied back) and chunks compared; "
                          "a full restore copies every chunk"),
           QStringLiteral("Hashing of the current contents before the restore"),
           QStringLiteral("Chunks the fidelity check found different after the dirty restore (copied back "
                          "then)")},
          parent) {}

void PassTableModel::setDispatch(const SessionSnapshot& snapshot, int dispatchRow) {
    dispatch_row_ = isDispatchRow(snapshot, dispatchRow) ? dispatchRow : -1;
    first_ = 0;
    passes_ = 0;
    final_ = -1;
    if (isDispatchRow(snapshot, dispatchRow)) {
        first_ = snapshot->passBegin[dispatchRow];
        passes_ = snapshot->passBegin[dispatchRow + 1] - first_;
        if (!snapshot->restoreBegin.empty()) {
            for (int i = snapshot->restoreBegin[dispatchRow]; i < snapshot->restoreBegin[dispatchRow + 1];
                 ++i) {
                if (snapshot->restores[std::size_t(i)].finalRestore) {
                    final_ = i;
                }
            }
        }
    }
    install(snapshot, passes_ + (final_ >= 0 ? 1 : 0), false);
}

QPair<QStringList, QStringList> PassTableModel::trailingColumns(const SessionSnapshot& snapshot) const {
    return DispatchTableModel::counterColumns(
        snapshot, QStringLiteral("its value in the pass that collected it, empty in the other passes"));
}

const DispatchCounterValue* PassTableModel::counterAt(int row, int column) const {
    if (isFinalRow(row) || dispatch_row_ < 0) {
        return nullptr;
    }
    const int pass = snapshot_->passes[std::size_t(first_ + row)].index;
    return snapshot_.counterValue(dispatch_row_, column - firstCounterColumn(), pass);
}

const RestoreRow* PassTableModel::restoreAt(int row) const {
    if (isFinalRow(row)) {
        return &snapshot_->restores[std::size_t(final_)];
    }
    const PassRow& p = snapshot_->passes[std::size_t(first_ + row)];
    return p.restore >= 0 ? &snapshot_->restores[std::size_t(p.restore)] : nullptr;
}

QVariant PassTableModel::value(int row, int column) const {
    if (column >= firstCounterColumn()) {
        const DispatchCounterValue* v = counterAt(row, column);
        return v ? QVariant(qulonglong(v->value)) : QVariant();
    }
    const RestoreRow* r = restoreAt(row);
    if (isFinalRow(row)) {
        switch (column) {
        case Pass:
            return r->passIndex;
        case RestoreMs:
            return double(r->restoreNs) / 1e6;
        case Regions:
            return r->regionsRestored;
        case Bytes:
            return r->bytesHost + r->bytesDevice;
        case KernelUs:
        case Skips:
        case Fidelity:
            return {};
        default:
            break;
        }
    } else {
        const PassRow& p = snapshot_->passes[std::size_t(first_ + row)];
        switch (column) {
        case Pass:
            return p.index;
        case KernelUs:
            return double(p.endTick - p.startTick) / 1e3;
        case RestoreMs:
            return double(r ? r->restoreNs : p.restoreNs) / 1e6;
        case Regions:
            return p.regionsRestored;
        case Bytes:
            return p.bytesRestored;
        case Skips:
            return p.skips;
        case Fidelity:
            return p.fidelity;
        default:
            break;
        }
    }
    if (!r) {
        return {}; // pass 0, or a file without restore records
    }
    switch (column) {
    case RestoredHost:
        return r->bytesHost;
    case RestoredDevice:
        return r->bytesDevice;
    case DirtyChunks:
        return r->dirtyChunks;
    case HashMs:
        return double(r->hashNs) / 1e6;
    case MissedChunks:
        return r->missedChunks;
    }
    return {};
}

QString PassTableModel::text(int row, int column) const {
    if (column >= firstCounterColumn()) {
        const DispatchCounterValue* v = counterAt(row, column);
        return v ? QString::number(v->value) : QString();
    }
    const RestoreRow* r = restoreAt(row);
    const bool final = isFinalRow(row);
    const int index = final ? r->passIndex : snapshot_->passes[std::size_t(first_ + row)].index;
    if (column >= RestoredHost && column < firstCounterColumn()) {
        if (!r) {
            // Pass 0 has no restore before it; other passes lack the figure only in older files.
            return index == 0 ? QStringLiteral("-") : format::kNotRecorded;
        }
        switch (column) {
        case RestoredHost:
            return format::bytes(r->bytesHost);
        case RestoredDevice:
            return format::bytes(r->bytesDevice);
        case DirtyChunks:
            return r->totalChunks > 0 ? QStringLiteral("%1 / %2").arg(format::count(r->dirtyChunks),
                                                                      format::count(r->totalChunks))
                                      : QStringLiteral("full restore");
        case HashMs:
            return r->totalChunks > 0 ? format::ms(r->hashNs) : QStringLiteral("-");
        case MissedChunks:
            return format::count(r->missedChunks);
        }
        return {};
    }
    if (final) {
        switch (column) {
        case Pass:
            return QStringLiteral("final");
        case RestoreMs:
            return format::ms(r->restoreNs);
        case Regions:
            return QString::number(r->regionsRestored);
        case Bytes:
            return format::bytes(r->bytesHost + r->bytesDevice);
        default:
            return QString();
        }
    }
    const PassRow& p = snapshot_->passes[std::size_t(first_ + row)];
    switch (column) {
    case KernelUs:
        return format::us(p.endTick - p.startTick);
    case RestoreMs:
        return p.index == 0 ? QStringLiteral("-") : format::ms(r ? r->restoreNs : p.restoreNs);
    case Bytes:
        return format::bytes(p.bytesRestored);
    case Fidelity:
        return !p.fidelityChecked() ? QStringLiteral("not checked")
                                    : snapshot_.enumName(QStringLiteral("fidelity"), p.fidelity);
    default:
        return value(row, column).toString();
    }
}

QVariant PassTableModel::extra(int row, int column, int role) const {
    if (role == RowIdRole) {
        return isFinalRow(row) ? restoreAt(row)->passIndex
                               : snapshot_->passes[std::size_t(first_ + row)].index;
    }
    if (role == Qt::ForegroundRole) {
        if (column == Fidelity && !isFinalRow(row) &&
            snapshot_->passes[std::size_t(first_ + row)].differed()) {
            return ThemeColors::status(ThemeColors::Status::bad);
        }
        const RestoreRow* r = restoreAt(row);
        if (column == MissedChunks && r && r->missedChunks > 0) {
            return ThemeColors::status(ThemeColors::Status::bad);
        }
    }
    return {};
}

} // namespace rs::app
