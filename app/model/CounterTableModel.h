// SPDX-License-Identifier: MIT
// The Counters page's table (format 7, docs/counters.md): per kernel, agent and hardware counter, the
// dispatches it was collected for and the minimum, median and maximum of its values
// (CounterSummary::stats, grouped by kernel and agent); after a kernel's counters, its derived metrics over
// the dispatches that have a value of them.
#pragma once

#include "model/CounterSummary.h"
#include "model/SessionTableModel.h"

#include <vector>

namespace rs::app {

class CounterTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    enum Column { Kernel, Agent, Counter, Dispatches, Min, Median, Max, Unit, ColumnCount };
    explicit CounterTableModel(QObject* parent = nullptr);
    /// Shows the counters of `snapshot` (model reset; the statistics are computed here, O(n log n) in the
    /// session's counter values: the page calls this only while it is shown).
    void setSnapshot(const SessionSnapshot& snapshot);
    /// The statistics of row `row`.
    const CounterSummary::Stat& stat(int row) const { return stats_[std::size_t(row)]; }

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    std::vector<CounterSummary::Stat> stats_;
};

} // namespace rs::app
