// SPDX-License-Identifier: MIT
#include "model/RestoreSkipTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

#include <algorithm>
#include <tuple>

namespace rs::app {

namespace {
enum Column { Pass, Address, Size, Allocation, Reason };
}

RestoreSkipTableModel::RestoreSkipTableModel(QObject* parent)
    : SessionTableModel({QStringLiteral("Pass"), QStringLiteral("Address"), QStringLiteral("Size"),
                         QStringLiteral("Allocation"), QStringLiteral("Reason")},
                        {QStringLiteral("Pass whose restore skipped the region or could not write it back "
                                        "(\"snapshot\": the snapshot could not copy it), or whose output "
                                        "differed from pass 1 there")},
                        parent) {}

void RestoreSkipTableModel::setDispatch(const SessionSnapshot& snapshot, int dispatchRow) {
    int rows = 0;
    first_ = 0;
    skip_rows_ = 0;
    first_mismatch_ = 0;
    mismatch_rows_ = 0;
    misses_.clear();
    if (isDispatchRow(snapshot, dispatchRow)) {
        first_ = snapshot->skipBegin[dispatchRow];
        skip_rows_ = snapshot->skipBegin[dispatchRow + 1] - first_;
        rows = skip_rows_;
        if (!snapshot->mismatchBegin.empty()) {
            first_mismatch_ = snapshot->mismatchBegin[dispatchRow];
            mismatch_rows_ = snapshot->mismatchBegin[dispatchRow + 1] - first_mismatch_;
            rows += mismatch_rows_;
        }
        const DispatchRow& d = snapshot->dispatches[std::size_t(dispatchRow)];
        const RestoreMissRow key{d.process, d.id, 0, 0, 0, 0};
        auto it =
            std::lower_bound(snapshot->restoreMisses.begin(), snapshot->restoreMisses.end(), key,
                             [](const RestoreMissRow& a, const RestoreMissRow& b) {
                                 return std::tie(a.process, a.dispatchId) < std::tie(b.process, b.dispatchId);
                             });
        for (; it != snapshot->restoreMisses.end() && it->process == d.process && it->dispatchId == d.id;
             ++it) {
            SkipRow k{it->process, it->dispatchId, it->passIndex, it->address, it->size, it->allocationId, 0};
            k.restoreMiss = true;
            misses_.push_back(k);
        }
        rows += int(misses_.size());
    }
    install(snapshot, rows, false);
}

const SkipRow& RestoreSkipTableModel::rowAt(int row) const {
    if (row < skip_rows_) {
        return snapshot_->skips[std::size_t(first_ + row)];
    }
    if (row < skip_rows_ + mismatch_rows_) {
        return snapshot_->mismatches[std::size_t(first_mismatch_ + row - skip_rows_)];
    }
    return misses_[std::size_t(row - skip_rows_ - mismatch_rows_)];
}

QVariant RestoreSkipTableModel::value(int row, int column) const {
    const SkipRow& k = rowAt(row);
    switch (column) {
    case Pass:
        return k.pass;
    case Address:
        return k.address;
    case Size:
        return k.size;
    case Allocation:
        return k.allocationId;
    case Reason:
        return text(row, column);
    }
    return {};
}

QString RestoreSkipTableModel::text(int row, int column) const {
    const SkipRow& k = rowAt(row);
    switch (column) {
    case Pass:
        return k.pass < 0 ? QStringLiteral("snapshot") : QString::number(k.pass);
    case Address:
        return k.address ? format::address(k.address) : QStringLiteral("(whole snapshot)");
    case Size:
        return format::bytes(k.size);
    case Allocation:
        return k.allocationId ? QString::number(k.allocationId) : QString();
    case Reason:
        if (k.fidelityMismatch) {
            return QStringLiteral("output differed from pass 1");
        }
        if (k.restoreMiss) {
            return QStringLiteral("missed by the dirty restore (chunk hash unchanged, contents differed): "
                                  "copied back after the fidelity check");
        }
        if (k.restoreFailure) {
            return QStringLiteral("not restored after %1 copies: holds the output of pass %2")
                .arg(k.attempts)
                .arg(k.pass - 1);
        }
        return snapshot_.enumName(
            k.pass < 0 ? QStringLiteral("snapshot_failure") : QStringLiteral("restore_skip"), k.reason);
    }
    return {};
}

QVariant RestoreSkipTableModel::extra(int row, int column, int role) const {
    const SkipRow& k = rowAt(row);
    if (role == CodeRole) {
        return k.fidelityMismatch ? -1 : k.restoreFailure ? -2 : k.restoreMiss ? -3 : k.reason;
    }
    if (role == Qt::ToolTipRole && column == Address) {
        return text(row, column); // the full address: views elide long cells in the middle
    }
    if (role == Qt::ForegroundRole && column == Reason) {
        return ThemeColors::status(ThemeColors::Status::bad);
    }
    return {};
}

} // namespace rs::app
