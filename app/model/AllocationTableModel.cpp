// SPDX-License-Identifier: MIT
#include "model/AllocationTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

namespace rs::app {

namespace {
enum Column { Id, Address, Size, Agent, Api, Classification, Allocated, Freed, Lifetime, Captured, Skipped };
}

AllocationTableModel::AllocationTableModel(QObject* parent)
    : SessionListTableModel(
          {QStringLiteral("Id"), QStringLiteral("Address"), QStringLiteral("Size"), QStringLiteral("Agent"),
           QStringLiteral("API"), QStringLiteral("Tracking"), QStringLiteral("Allocated (seq)"),
           QStringLiteral("Freed (seq)"), QStringLiteral("Lifetime ms"), QStringLiteral("Captured"),
           QStringLiteral("Skipped")},
          {QStringLiteral("Allocation id (unique per session)"),
           {},
           {},
           QStringLiteral("Owner agent"),
           QStringLiteral("Entry point"),
           QStringLiteral("tracked, or the reason it is excluded from snapshots"),
           QStringLiteral("Event sequence number of the allocation"),
           QStringLiteral("Event sequence number of the free (live: never freed)"),
           QStringLiteral("Time from allocation to free"),
           QStringLiteral("Snapshots that copied it"),
           QStringLiteral("Restores that skipped it")},
          [](const SessionData& session) { return int(session.allocations.size()); },
          [](const SessionData& session, int row) { return session.allocations[std::size_t(row)].process; },
          parent) {}

QVariant AllocationTableModel::value(int row, int column) const {
    const AllocationRow& a = snapshot_->allocations[row];
    switch (column) {
    case Id:
        return a.id;
    case Address:
        return a.address;
    case Size:
        return a.size;
    case Allocated:
        return a.allocSeq;
    case Freed:
        return a.freeSeq;
    case Lifetime:
        return a.freeNs >= 0 ? double(a.freeNs - a.allocNs) / 1e6 : -1.0;
    case Captured:
        return a.captured;
    case Skipped:
        return a.skipped;
    default:
        return text(row, column);
    }
}

QString AllocationTableModel::text(int row, int column) const {
    const AllocationRow& a = snapshot_->allocations[row];
    switch (column) {
    case Id:
        return QString::number(a.id);
    case Address:
        return format::address(a.address);
    case Size:
        return format::bytes(a.size);
    case Agent:
        return snapshot_.agentName(a.process, a.agent);
    case Api:
        return snapshot_.enumName(QStringLiteral("api"), a.api);
    case Classification:
        return snapshot_.enumName(QStringLiteral("classification"), a.classification);
    case Allocated:
        return QString::number(a.allocSeq);
    case Freed:
        return a.freeSeq >= 0 ? QString::number(a.freeSeq) : QStringLiteral("live");
    case Lifetime:
        return a.freeNs >= 0 ? format::ms(a.freeNs - a.allocNs) : QStringLiteral("until exit");
    case Captured:
        return snapshot_->regionsLoaded ? QString::number(a.captured) : QStringLiteral("…");
    case Skipped:
        return QString::number(a.skipped);
    }
    return {};
}

QVariant AllocationTableModel::extra(int row, int column, int role) const {
    const AllocationRow& a = snapshot_->allocations[row];
    switch (role) {
    case AgentRole:
        return a.agent;
    case CodeRole:
        return a.classification;
    case RowIdRole:
        return a.id;
    case FilterTextRole:
        return format::address(a.address);
    case Qt::ForegroundRole:
        if (column == Classification) {
            return a.tracked() ? ThemeColors::status(ThemeColors::Status::good)
                               : ThemeColors::status(ThemeColors::Status::caution);
        }
        if (column == Skipped && a.skipped > 0) {
            return ThemeColors::status(ThemeColors::Status::bad);
        }
        return {};
    case Qt::ToolTipRole:
        if (column == Address) { // the full value: views elide long cells in the middle
            return format::address(a.address);
        }
        if (column == Size) {
            return QStringLiteral("%1 bytes, pool flags 0x%2")
                .arg(format::count(a.size))
                .arg(a.poolFlags, 0, 16);
        }
        return {};
    }
    return {};
}

} // namespace rs::app
