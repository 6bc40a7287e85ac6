// SPDX-License-Identifier: MIT
#include "model/CounterTableModel.h"

#include "model/ModelRoles.h"

namespace rs::app {

CounterTableModel::CounterTableModel(QObject* parent)
    : SessionTableModel(
          {QStringLiteral("Kernel"), QStringLiteral("Agent"), QStringLiteral("Counter"),
           QStringLiteral("Dispatches"), QStringLiteral("Min"), QStringLiteral("Median"),
           QStringLiteral("Max"), QStringLiteral("Unit")},
          {QStringLiteral("Kernel symbol"), QStringLiteral("Agent the dispatches ran on"),
           QStringLiteral("Hardware counter (rocprofv3's name)"),
           QStringLiteral("Dispatches of the kernel on the agent the counter was collected for"),
           QStringLiteral("Smallest value over those dispatches"),
           QStringLiteral("Median value (of an even count: the mean of the middle two)"),
           QStringLiteral("Largest value"), QStringLiteral("What the counter counts")},
          parent) {}

void CounterTableModel::setSnapshot(const SessionSnapshot& snapshot) {
    stats_ = CounterSummary::stats(snapshot, CounterSummary::Grouping::kernelAndAgent);
    install(snapshot, int(stats_.size()), false);
}

QVariant CounterTableModel::value(int row, int column) const {
    const CounterSummary::Stat& s = stat(row);
    switch (column) {
    case Kernel:
        return CounterSummary::kernelLabel(s.kernel);
    case Agent:
        return snapshot_.agentLabel(s.process, s.agent);
    case Counter:
        return s.counter;
    case Dispatches:
        return s.dispatches;
    case Min:
        return qulonglong(s.min);
    case Median:
        return s.median();
    case Max:
        return qulonglong(s.max);
    case Unit:
        return s.unit;
    }
    return {};
}

QString CounterTableModel::text(int row, int column) const {
    const CounterSummary::Stat& s = stat(row);
    switch (column) {
    case Min:
        return QString::number(s.min);
    case Median:
        return s.medianText();
    case Max:
        return QString::number(s.max);
    default:
        return value(row, column).toString();
    }
}

QVariant CounterTableModel::extra(int row, int column, int role) const {
    const CounterSummary::Stat& s = stat(row);
    switch (role) {
    case FilterTextRole:
        return CounterSummary::kernelLabel(s.kernel) + QLatin1Char(' ') + s.counter;
    case AgentRole:
        return s.agent;
    case ProcessRole:
        return s.process;
    case RowIdRole:
        return row;
    case Qt::ToolTipRole:
        return column == Kernel ? QVariant(s.kernel) : QVariant();
    }
    return {};
}

} // namespace rs::app
