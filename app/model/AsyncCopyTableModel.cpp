// SPDX-License-Identifier: MIT
#include "model/AsyncCopyTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

namespace rs::app {

namespace {
enum Column { Seq, Agent, Destination, Source, Size, Dispatch, WaitedMs, Outcome };
}

AsyncCopyTableModel::AsyncCopyTableModel(QObject* parent)
    : SessionListTableModel(
          {QStringLiteral("Seq"), QStringLiteral("Agent"), QStringLiteral("Destination"),
           QStringLiteral("Source"), QStringLiteral("Size"), QStringLiteral("Dispatch"),
           QStringLiteral("Waited ms"), QStringLiteral("Outcome")},
          {QStringLiteral("Event sequence number"), QStringLiteral("Agent whose replay window the copy met")},
          [](const SessionData& session) { return int(session.asyncCopies.size()); },
          [](const SessionData& session, int row) { return session.asyncCopies[std::size_t(row)].process; },
          parent) {}

QVariant AsyncCopyTableModel::value(int row, int column) const {
    const AsyncCopyRow& c = snapshot_->asyncCopies[row];
    switch (column) {
    case Seq:
        return c.seq;
    case Agent:
        return c.agent;
    case Destination:
        return c.dst;
    case Source:
        return c.src;
    case Size:
        return c.size;
    case Dispatch:
        return c.dispatchId;
    case WaitedMs:
        return double(c.waitedNs) / 1e6;
    case Outcome:
        return text(row, column);
    }
    return {};
}

QString AsyncCopyTableModel::text(int row, int column) const {
    const AsyncCopyRow& c = snapshot_->asyncCopies[row];
    switch (column) {
    case Seq:
        return QString::number(c.seq);
    case Agent:
        return snapshot_.agentName(c.process, c.agent);
    case Destination:
        return format::address(c.dst);
    case Source:
        return format::address(c.src);
    case Size:
        return format::bytes(c.size);
    case Dispatch:
        return c.dispatchId ? QString::number(c.dispatchId) : QString();
    case WaitedMs:
        return format::ms(c.waitedNs);
    case Outcome:
        return snapshot_.enumName(QStringLiteral("async_copy_outcome"), c.outcome);
    }
    return {};
}

QVariant AsyncCopyTableModel::extra(int row, int column, int role) const {
    const AsyncCopyRow& c = snapshot_->asyncCopies[row];
    if (role == CodeRole) {
        return c.outcome;
    }
    if (role == AgentRole) {
        return c.agent;
    }
    if (role == Qt::ToolTipRole && (column == Destination || column == Source)) {
        return text(row, column); // the full address: views elide long cells in the middle
    }
    if (role == Qt::ForegroundRole && column == Outcome && c.timedOut()) {
        return ThemeColors::status(ThemeColors::Status::bad);
    }
    return {};
}

} // namespace rs::app
