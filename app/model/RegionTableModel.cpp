// SPDX-License-Identifier: MIT
#include "model/RegionTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"

namespace rs::app {

namespace {
enum Column { Index, Address, Size, Kind, Allocation, Symbol, Owner, Api };
}

RegionTableModel::RegionTableModel(QObject* parent)
    : SessionTableModel({QStringLiteral("#"), QStringLiteral("Address"), QStringLiteral("Size"),
                         QStringLiteral("Kind"), QStringLiteral("Allocation"), QStringLiteral("Symbol"),
                         QStringLiteral("Owner agent"), QStringLiteral("API")},
                        {QStringLiteral("Position in the inventory"),
                         {},
                         {},
                         QStringLiteral("Allocation or module variable"),
                         QStringLiteral("Allocation id")},
                        parent) {}

void RegionTableModel::setDispatch(const SessionSnapshot& snapshot, int dispatchRow) {
    int rows = 0;
    first_ = 0;
    if (isDispatchRow(snapshot, dispatchRow) && snapshot->regionsLoaded) {
        const DispatchRow& d = snapshot->dispatches[dispatchRow];
        if (d.hasSnapshot) {
            const auto range = snapshot->regions.ranges.value({d.process, d.agent, d.generation}, {0, 0});
            first_ = range.first;
            rows = range.second;
        }
    }
    if (snapshot.isNull() || snapshot_.isNull() || &snapshot.data() != &snapshot_.data()) {
        allocationRow_.clear();
        symbolAt_.clear();
        if (!snapshot.isNull()) {
            for (int i = 0; i < int(snapshot->allocations.size()); ++i) {
                allocationRow_.insert({snapshot->allocations[i].process, snapshot->allocations[i].id}, i);
            }
            for (const ModuleVariableRow& v : snapshot->moduleVariables) {
                symbolAt_.insert({v.process, v.address}, v.symbol);
            }
        }
    }
    install(snapshot, rows, false);
}

QVariant RegionTableModel::value(int row, int column) const {
    const RegionColumns& r = snapshot_->regions;
    const int i = first_ + row;
    switch (column) {
    case Index:
        return qint64(r.index[i]);
    case Address:
        return r.address[i];
    case Size:
        return r.size[i];
    case Allocation:
        return r.allocationId[i];
    default:
        return text(row, column);
    }
}

QString RegionTableModel::text(int row, int column) const {
    const RegionColumns& r = snapshot_->regions;
    const int i = first_ + row;
    const int a = allocationRow_.value({r.process[i], r.allocationId[i]}, -1);
    switch (column) {
    case Index:
        return QString::number(r.index[i]);
    case Address:
        return format::address(r.address[i]);
    case Size:
        return format::bytes(r.size[i]);
    case Kind:
        return snapshot_.enumName(QStringLiteral("region_kind"), r.kind[i]);
    case Allocation:
        return r.allocationId[i] ? QString::number(r.allocationId[i]) : QString();
    case Symbol:
        return symbolAt_.value({r.process[i], r.address[i]});
    case Owner:
        return snapshot_.agentName(r.process[i], a >= 0 ? snapshot_->allocations[a].agent : r.agent[i]);
    case Api:
        return a >= 0 ? snapshot_.enumName(QStringLiteral("api"), snapshot_->allocations[a].api)
                      : (r.kind[i] == 1 ? QStringLiteral("code object") : QString());
    }
    return {};
}

QVariant RegionTableModel::extra(int row, int column, int role) const {
    const RegionColumns& r = snapshot_->regions;
    const int i = first_ + row;
    if (role == FilterTextRole) {
        return symbolAt_.value({r.process[i], r.address[i]});
    }
    if (role == CodeRole) {
        return int(r.kind[i]);
    }
    if (role == AgentRole) {
        return r.agent[i];
    }
    if (role == Qt::ToolTipRole && (column == Address || column == Symbol)) {
        // The full value: views elide long cells in the middle.
        const QString full = text(row, column);
        return full.isEmpty() ? QVariant() : QVariant(full);
    }
    if (role == Qt::ToolTipRole && column == Size) {
        return QStringLiteral("%1 bytes").arg(format::count(r.size[i]));
    }
    return {};
}

} // namespace rs::app
