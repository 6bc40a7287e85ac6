// SPDX-License-Identifier: MIT
#include "model/WarningTableModel.h"

#include "model/ModelRoles.h"

namespace rs::app {

namespace {
enum Column { Seq, Category, Dispatch, Text };
}

WarningTableModel::WarningTableModel(QObject* parent)
    : SessionListTableModel(
          {QStringLiteral("Seq"), QStringLiteral("Category"), QStringLiteral("Dispatch"),
           QStringLiteral("Warning")},
          {QStringLiteral("Event sequence number")},
          [](const SessionData& session) { return int(session.warnings.size()); },
          [](const SessionData& session, int row) { return session.warnings[std::size_t(row)].process; },
          parent) {}

QVariant WarningTableModel::value(int row, int column) const {
    const WarningRow& w = snapshot_->warnings[row];
    switch (column) {
    case Seq:
        return w.seq;
    case Dispatch:
        return w.dispatchId;
    default:
        return text(row, column);
    }
}

QString WarningTableModel::text(int row, int column) const {
    const WarningRow& w = snapshot_->warnings[row];
    switch (column) {
    case Seq:
        return QString::number(w.seq);
    case Category:
        return snapshot_.enumName(QStringLiteral("warning"), w.code);
    case Dispatch:
        return w.dispatchId ? QString::number(w.dispatchId) : QString();
    case Text:
        return w.text;
    }
    return {};
}

QVariant WarningTableModel::extra(int row, int column, int role) const {
    const WarningRow& w = snapshot_->warnings[row];
    if (role == CodeRole) {
        return w.code;
    }
    if (role == FilterTextRole || (role == Qt::ToolTipRole && column == Text)) {
        return w.text;
    }
    return {};
}

} // namespace rs::app
