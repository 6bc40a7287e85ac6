// SPDX-License-Identifier: MIT
// The hardware counters of two sessions compared (SessionComparison::counters()): one row per kernel and
// counter collected in both, with the median of its values in each, their difference and ratio.
#pragma once

#include "model/SessionComparison.h"

#include <QAbstractTableModel>

#include <vector>

namespace rs::app {

/// Table of SessionComparison::counters(): kernel, counter, unit, dispatches and median in base and new,
/// difference, ratio and status ("same" / "changed": counters count what the kernel did, so any
/// difference of the medians is a change).
class CounterComparisonModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Kernel,
        Counter,
        Unit,
        BaseDispatches,
        BaseMedian,
        NewDispatches,
        NewMedian,
        Difference,
        Ratio,
        Status,
        ColumnCount
    };
    explicit CounterComparisonModel(QObject* parent = nullptr);

    /// Shows the counters of `comparison` (model reset).
    void setComparison(const SessionComparison& comparison);
    /// With true only the counters whose medians differ remain.
    void setChangedOnly(bool changedOnly);
    bool changedOnly() const { return changed_only_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// DisplayRole: exact medians ("120.5"), signed difference, ratio ("1.2500×"); SortRole: the numbers
    /// (ratio NaN-free: 0 when the base is 0); FilterTextRole: the kernel name; ToolTipRole on a median:
    /// the minimum and maximum over the dispatches.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    void rebuild();

    std::vector<SessionComparison::Counter> all_;
    std::vector<std::size_t> rows_; ///< index into all_ of each row shown
    bool changed_only_ = false;
};

} // namespace rs::app
