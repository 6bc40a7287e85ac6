// SPDX-License-Identifier: MIT
// The comparison of two sessions as a table: one row per kernel and metric (kernel, metric, base, new,
// difference, difference %, status), optionally only the rows of kernels that changed.
#pragma once

#include "model/SessionComparison.h"

#include <QAbstractTableModel>

#include <vector>

namespace rs::app {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Kernel, Metric, Base, New, Difference, DifferencePercent, Status, ColumnCount };
    explicit ComparisonTableModel(QObject* parent = nullptr);

    /// Shows `comparison` (model reset).
    void setComparison(const SessionComparison& comparison);
    const SessionComparison& comparison() const { return comparison_; }
    /// With true only changed rows remain: metrics that changed (SessionComparison::Metric::changed: a
    /// kernel time only outside its noise band, never a simulated one), and every metric of a kernel
    /// present on one side only.
    void setChangedOnly(bool changedOnly);
    bool changedOnly() const { return changed_only_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// DisplayRole: text with units; SortRole: the raw value (base, new, difference in bytes / ns / counts;
    /// % as a number, NaN-free: not comparable sorts as 0); FilterTextRole: the kernel name.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    /// "only in base", "only in new", else SessionComparison::verdictText: "same", "changed", "faster",
    /// "slower", "within noise", "simulated time", "not recorded". The status tooltip of a kernel time
    /// says how its noise band was derived.
    static QString statusText(const SessionComparison::Kernel& kernel,
                              const SessionComparison::Metric& metric);

  private:
    void rebuild();

    SessionComparison comparison_;
    bool changed_only_ = false;
    std::vector<std::pair<int, int>> rows_; ///< (kernel, metric) of each row shown
};

} // namespace rs::app
