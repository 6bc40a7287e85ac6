// SPDX-License-Identifier: MIT
#include "model/CounterTableModel.h"

#include "model/ModelRoles.h"

#include <replayscope/counters/derived.h>

namespace rs::app {

CounterTableModel::CounterTableModel(QObject* parent)
    : SessionTableModel(
          {QStringLiteral("Kernel"), QStringLiteral("Agent"), QStringLiteral("Counter"),
           QStringLiteral("Dispatches"), QStringLiteral("Min"), QStringLiteral("Median"),
           QStringLiteral("Max"), QStringLiteral("Unit")},
          {QStringLiteral("Kernel symbol"), QStringLiteral("Agent the dispatches ran on"),
           QStringLiteral("Hardware counter, or derived metric computed per dispatch from counters "
                          "(rocprofv3's name)"),
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
        return s.derived ? QVariant(s.derivedMin) : QVariant(qulonglong(s.min));
    case Median:
        return s.median();
    case Max:
        return s.derived ? QVariant(s.derivedMax) : QVariant(qulonglong(s.max));
    case Unit:
        return s.unit;
    }
    return {};
}

QString CounterTableModel::text(int row, int column) const {
    const CounterSummary::Stat& s = stat(row);
    switch (column) {
    case Min:
        return s.minText();
    case Median:
        return s.medianText();
    case Max:
        return s.maxText();
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
        if (column == Kernel) {
            return s.kernel;
        }
        if (column == Counter && s.derived) {
            const auto* def = rs::counters::find_derived(s.counter.toStdString());
            return def != nullptr
                       ? QVariant(QStringLiteral("Derived metric: %1 = %2, computed per dispatch "
                                                 "from its counter values")
                                      .arg(s.counter, QString::fromUtf8(def->expression.data(),
                                                                        qsizetype(def->expression.size()))))
                       : QVariant();
        }
        return {};
    }
    return {};
}

} // namespace rs::app
