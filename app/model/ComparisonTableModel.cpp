// SPDX-License-Identifier: MIT
#include "model/ComparisonTableModel.h"

#include "model/ModelRoles.h"

#include <cmath>

namespace rs::app {

ComparisonTableModel::ComparisonTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonTableModel::setComparison(const SessionComparison& comparison) {
    beginResetModel();
    comparison_ = comparison;
    rebuild();
    endResetModel();
}

void ComparisonTableModel::setChangedOnly(bool changedOnly) {
    if (changedOnly == changed_only_) {
        return;
    }
    beginResetModel();
    changed_only_ = changedOnly;
    rebuild();
    endResetModel();
}

void ComparisonTableModel::rebuild() {
    rows_.clear();
    const auto& kernels = comparison_.kernels();
    for (int k = 0; k < int(kernels.size()); ++k) {
        const auto& kernel = kernels[std::size_t(k)];
        for (int m = 0; m < int(kernel.metrics.size()); ++m) {
            if (!changed_only_ || kernel.side != SessionComparison::Side::both ||
                kernel.metrics[std::size_t(m)].changed()) {
                rows_.emplace_back(k, m);
            }
        }
    }
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* const titles[] = {"Kernel",     "Metric",       "Base",  "New",
                                         "Difference", "Difference %", "Status"};
    static const char* const tips[] = {
        "Kernel name (sessions are matched by it)",
        "Figure summed over the kernel's dispatches (times: ms; kernel time: agent ticks at 1 GHz)",
        "Value in the base session",
        "Value in the new session",
        "New minus base",
        "Difference as a share of the base value",
        "same, changed, only in base, only in new, not recorded (a figure of a newer format); kernel time: "
        "faster or slower outside its noise band, within noise inside it, simulated time when a session ran "
        "on the simulated runtime"};
    if (role == Qt::DisplayRole) {
        return QString::fromLatin1(titles[section]);
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromLatin1(tips[section]);
    }
    return {};
}

QString ComparisonTableModel::statusText(const SessionComparison::Kernel& kernel,
                                         const SessionComparison::Metric& metric) {
    switch (kernel.side) {
    case SessionComparison::Side::baseOnly:
        return QStringLiteral("only in base");
    case SessionComparison::Side::newOnly:
        return QStringLiteral("only in new");
    case SessionComparison::Side::both:
        break;
    }
    return SessionComparison::verdictText(metric.verdict());
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size()) || index.column() >= ColumnCount) {
        return {};
    }
    const auto [k, mi] = rows_[std::size_t(index.row())];
    const auto& kernel = comparison_.kernels()[std::size_t(k)];
    const auto& m = kernel.metrics[std::size_t(mi)];
    if (role == FilterTextRole) {
        return kernel.name;
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() >= Base && index.column() <= DifferencePercent
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Kernel:
            return kernel.name;
        case Metric:
            return m.name;
        case Base:
            return SessionComparison::valueText(m.unit, m.base, m.baseRecorded);
        case New:
            return SessionComparison::valueText(m.unit, m.now, m.newRecorded);
        case Difference:
            return SessionComparison::differenceText(m);
        case DifferencePercent:
            return SessionComparison::percentText(m);
        case Status:
            return statusText(kernel, m);
        default:
            return {};
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Kernel:
            return kernel.name;
        case Metric:
            return m.name;
        case Base:
            return m.baseRecorded ? m.base : 0.0;
        case New:
            return m.newRecorded ? m.now : 0.0;
        case Difference:
            return m.difference();
        case DifferencePercent: {
            const double p = m.percent();
            return std::isnan(p) ? 0.0 : p;
        }
        case Status:
            return statusText(kernel, m);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Kernel) {
        return kernel.name;
    }
    if (role == Qt::ToolTipRole && index.column() == Status && m.unit == SessionComparison::Unit::kernelNs &&
        m.comparable()) {
        const QString band = m.noiseBand < 0
                                 ? tr("no noise band: no dispatch of the kernel has two timed passes and "
                                      "neither session two timed dispatches")
                                 : tr("noise band %1: new/base within 1/(1+s) .. 1+s is noise; s is %2")
                                       .arg(SessionComparison::bandText(m).section(QLatin1Char(' '), 0, 1),
                                            m.bandBasis == SessionComparison::BandBasis::passSpread
                                                ? tr("the widest pass spread (max/min - 1) of one dispatch "
                                                     "of the kernel in either session")
                                                : tr("the spread of the kernel's dispatch median times "
                                                     "(max/min - 1) in either session"));
        return m.simulatedTime ? tr("simulated runtime: the host's time running the interpreter, never a "
                                    "change of the kernel; ") +
                                     band
                               : band;
    }
    return {};
}

} // namespace rs::app
