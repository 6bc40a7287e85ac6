// SPDX-License-Identifier: MIT
#include "model/CounterComparisonModel.h"

#include "model/ModelRoles.h"

#include <cmath>

namespace rs::app {

CounterComparisonModel::CounterComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void CounterComparisonModel::setComparison(const SessionComparison& comparison) {
    beginResetModel();
    all_ = comparison.counters();
    rebuild();
    endResetModel();
}

void CounterComparisonModel::setChangedOnly(bool changedOnly) {
    if (changedOnly == changed_only_) {
        return;
    }
    beginResetModel();
    changed_only_ = changedOnly;
    rebuild();
    endResetModel();
}

void CounterComparisonModel::rebuild() {
    rows_.clear();
    for (std::size_t i = 0; i < all_.size(); ++i) {
        if (!changed_only_ || all_[i].changed()) {
            rows_.push_back(i);
        }
    }
}

int CounterComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int CounterComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CounterComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* const titles[] = {"Kernel",      "Counter",        "Unit",       "Base dispatches",
                                         "Base median", "New dispatches", "New median", "Difference",
                                         "Ratio",       "Status"};
    static const char* const tips[] = {
        "Kernel name (sessions are matched by it)",
        "Hardware counter collected in both sessions (docs/counters.md)",
        "What the counter counts",
        "Dispatches of the kernel the counter was collected for in the base session",
        "Median of its values in the base session (of an even count the mean of the middle two)",
        "Dispatches of the kernel the counter was collected for in the new session",
        "Median of its values in the new session",
        "New median minus base median",
        "New median divided by base median",
        "same or changed: a counter counts what the kernel did, so any difference is other work"};
    if (role == Qt::DisplayRole) {
        return QString::fromLatin1(titles[section]);
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromLatin1(tips[section]);
    }
    return {};
}

QVariant CounterComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size()) || index.column() >= ColumnCount) {
        return {};
    }
    const SessionComparison::Counter& c = all_[rows_[std::size_t(index.row())]];
    if (role == FilterTextRole) {
        return c.kernel;
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() >= BaseDispatches && index.column() <= Ratio
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    const QString status = c.changed() ? QStringLiteral("changed") : QStringLiteral("same");
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Kernel:
            return c.kernel;
        case Counter:
            return c.counter;
        case Unit:
            return c.unit;
        case BaseDispatches:
            return QString::number(c.baseDispatches);
        case BaseMedian:
            return c.baseMedianText;
        case NewDispatches:
            return QString::number(c.newDispatches);
        case NewMedian:
            return c.newMedianText;
        case Difference:
            return SessionComparison::counterDifferenceText(c);
        case Ratio:
            return SessionComparison::counterRatioText(c);
        case Status:
            return status;
        default:
            return {};
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Kernel:
            return c.kernel;
        case Counter:
            return c.counter;
        case Unit:
            return c.unit;
        case BaseDispatches:
            return c.baseDispatches;
        case BaseMedian:
            return c.baseMedian;
        case NewDispatches:
            return c.newDispatches;
        case NewMedian:
            return c.newMedian;
        case Difference:
            return c.difference();
        case Ratio: {
            const double r = c.ratio();
            return std::isnan(r) ? 0.0 : r;
        }
        case Status:
            return status;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == Kernel) {
            return c.kernel;
        }
        if (index.column() == BaseMedian) {
            return tr("min %1, max %2 over %3 dispatches")
                .arg(c.baseMin)
                .arg(c.baseMax)
                .arg(c.baseDispatches);
        }
        if (index.column() == NewMedian) {
            return tr("min %1, max %2 over %3 dispatches").arg(c.newMin).arg(c.newMax).arg(c.newDispatches);
        }
    }
    return {};
}

} // namespace rs::app
