// SPDX-License-Identifier: MIT
#include "model/ModuleVariableTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

namespace rs::app {

namespace {
enum Column { Symbol, Address, Size, Agent, Status, Executable };
}

ModuleVariableTableModel::ModuleVariableTableModel(QObject* parent)
    : SessionListTableModel(
          {QStringLiteral("Symbol"), QStringLiteral("Address"), QStringLiteral("Size"),
           QStringLiteral("Agent"), QStringLiteral("Status"), QStringLiteral("Executable")},
          {QStringLiteral("Module-scope (__device__ / __constant__) variable"),
           {},
           {},
           {},
           QStringLiteral("captured, or why it was skipped")},
          [](const SessionData& session) { return int(session.moduleVariables.size()); },
          [](const SessionData& session, int row) {
              return session.moduleVariables[std::size_t(row)].process;
          },
          parent) {}

QVariant ModuleVariableTableModel::value(int row, int column) const {
    const ModuleVariableRow& v = snapshot_->moduleVariables[row];
    switch (column) {
    case Address:
        return v.address;
    case Size:
        return v.size;
    default:
        return text(row, column);
    }
}

QString ModuleVariableTableModel::text(int row, int column) const {
    const ModuleVariableRow& v = snapshot_->moduleVariables[row];
    switch (column) {
    case Symbol:
        return v.symbol;
    case Address:
        return format::address(v.address);
    case Size:
        return format::bytes(v.size);
    case Agent:
        return snapshot_.agentName(v.process, v.agent);
    case Status:
        return snapshot_.enumName(QStringLiteral("variable_status"), v.status);
    case Executable:
        return format::address(v.executable);
    }
    return {};
}

QVariant ModuleVariableTableModel::extra(int row, int column, int role) const {
    const ModuleVariableRow& v = snapshot_->moduleVariables[row];
    switch (role) {
    case AgentRole:
        return v.agent;
    case CodeRole:
        return v.status;
    case FilterTextRole:
        return v.symbol;
    case Qt::ToolTipRole:
        // The full value: views elide long cells (symbols, addresses) in the middle.
        if (column == Symbol || column == Address || column == Executable) {
            return text(row, column);
        }
        if (column == Size) {
            return QStringLiteral("%1 bytes").arg(format::count(v.size));
        }
        return {};
    case Qt::ForegroundRole:
        if (column == Status) {
            return v.captured() ? ThemeColors::status(ThemeColors::Status::good)
                                : ThemeColors::status(ThemeColors::Status::caution);
        }
        return {};
    }
    return {};
}

} // namespace rs::app
