// SPDX-License-Identifier: MIT
#include "model/RestoreMissTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

namespace rs::app {

RestoreMissTableModel::RestoreMissTableModel(QObject* parent)
    : SessionListTableModel(
          {QStringLiteral("Dispatch"), QStringLiteral("Kernel"), QStringLiteral("Agent"),
           QStringLiteral("Pass"), QStringLiteral("Address"), QStringLiteral("Size"),
           QStringLiteral("Allocation")},
          {QStringLiteral("Dispatch whose dirty restore missed the chunk"), QStringLiteral("Kernel symbol"),
           QStringLiteral("Agent the dispatch ran on"),
           QStringLiteral("The restore before this pass (the number of passes: the restore after the last)"),
           QStringLiteral("Start of the chunk (device address)"), QStringLiteral("Bytes of the chunk"),
           QStringLiteral("Allocation id (empty for a module variable)")},
          [](const SessionData& session) { return int(session.restoreMisses.size()); },
          [](const SessionData& session, int row) { return session.restoreMisses[std::size_t(row)].process; },
          parent) {}

QVariant RestoreMissTableModel::value(int row, int column) const {
    const RestoreMissRow& m = snapshot_->restoreMisses[std::size_t(row)];
    switch (column) {
    case Dispatch:
        return m.dispatchId;
    case Pass:
        return m.passIndex;
    case Address:
        return m.address;
    case Size:
        return m.size;
    case Allocation:
        return m.allocationId;
    default:
        return text(row, column);
    }
}

QString RestoreMissTableModel::text(int row, int column) const {
    const RestoreMissRow& m = snapshot_->restoreMisses[std::size_t(row)];
    const int d = snapshot_.dispatchRow(m.process, m.dispatchId);
    switch (column) {
    case Dispatch:
        return QString::number(m.dispatchId);
    case Kernel:
        return d >= 0 ? snapshot_->kernelNames.value(snapshot_->dispatches[std::size_t(d)].kernel)
                      : QString();
    case Agent:
        return d >= 0 ? snapshot_.agentName(m.process, snapshot_->dispatches[std::size_t(d)].agent)
                      : QString();
    case Pass:
        return QString::number(m.passIndex);
    case Address:
        return format::address(m.address);
    case Size:
        return format::bytes(m.size);
    case Allocation:
        return m.allocationId ? QString::number(m.allocationId) : QStringLiteral("module variable");
    }
    return {};
}

QVariant RestoreMissTableModel::extra(int row, int column, int role) const {
    const RestoreMissRow& m = snapshot_->restoreMisses[std::size_t(row)];
    const int d = snapshot_.dispatchRow(m.process, m.dispatchId);
    switch (role) {
    case FilterTextRole:
        return d >= 0 ? snapshot_->kernelNames.value(snapshot_->dispatches[std::size_t(d)].kernel)
                      : QString();
    case AgentRole:
        return d >= 0 ? snapshot_->dispatches[std::size_t(d)].agent : 0;
    case RowIdRole:
        return m.dispatchId;
    case Qt::ForegroundRole:
        return column == Address ? QVariant(ThemeColors::status(ThemeColors::Status::bad)) : QVariant();
    case Qt::ToolTipRole:
        if (column == Address) { // the full address: views elide long cells in the middle
            return format::address(m.address);
        }
        return column == Size ? QVariant(QStringLiteral("%1 bytes").arg(format::count(m.size))) : QVariant();
    }
    return {};
}

} // namespace rs::app
