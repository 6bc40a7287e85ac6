// SPDX-License-Identifier: MIT
// Turns a snapshot into the data of the inspector's charts (x = dispatch order unless noted). Pure
// data, no chart classes: the charts page hands the result to its ChartAdapter.
#pragma once

#include "model/PassSpreadModel.h"
#include "model/SessionSnapshot.h"

#include <QColor>
#include <QPointF>
#include <QVector>

#include <vector>

namespace rs::app {

class ChartSeriesBuilder {
  public:
    struct Series {
        QString name;
        QVector<QPointF> points;
        QColor color;
    };
    /// One bar of a bar chart: a count, or a signed value such as a difference in percent (negative
    /// values are drawn to the left of 0).
    struct Bar {
        QString label;
        double value = 0;
    };
    /// One set of grouped bars: a value per category (e.g. one kernel's value on every rank).
    struct BarSet {
        QString name;
        QVector<double> values; ///< one per category, in the chart's y unit (see ChartAdapter::setUnits)
    };

    /// Series of `snapshot`, of process `process` only when it is not 0 (x = position among the dispatches
    /// shown: all processes one after the other, in process order, when 0).
    explicit ChartSeriesBuilder(const SessionSnapshot& snapshot, int process = 0);

    /// Snapshot bytes (MiB) by dispatch order, stacked by agent: at each dispatch every agent contributes the
    /// size of its most recent snapshot; series i is the cumulative top of agents 0..i.
    QVector<Series> snapshotBytesStacked() const;
    /// Snapshot duration and total restore time per dispatch (ms).
    QVector<Series> snapshotAndRestoreTime() const;
    /// Kernel time of each pass index per dispatch (µs). No longer charted (passSpread() replaced it).
    QVector<Series> kernelTimePerPass() const;
    /// Distribution of the pass-to-pass spread of kernel time (slowest / fastest pass - 1) over the
    /// replayed dispatches shown with two or more timed passes (PassSpreadModel::histogram).
    PassSpreadModel::Histogram passSpread() const;
    /// Bytes (MiB) per dispatch with restore records (format 4): what full restores would have moved
    /// (footprint × restores), and what the restores moved over the host link and inside the device.
    /// Empty series for files without restore records.
    QVector<Series> bytesMovedVsFootprint() const;
    /// Regions skipped at restore per dispatch.
    QVector<Series> skippedRegions() const;
    /// Declined dispatches: one series per reason, y = reason row (1..n); names are the reasons.
    QVector<Series> declines() const;
    /// Tracked bytes (MiB) of each agent over time (x = seconds since the first event), step lines.
    QVector<Series> footprintOverTime() const;
    /// Allocation counts by tracking decision (tracked or exclusion reason).
    QVector<Bar> allocationReasons() const;
    /// Counts of every non-tracking outcome: declines, restore skips, restore failures (by region kind) and
    /// module-variable skips by reason.
    QVector<Bar> declineAndSkipReasons() const;
    /// Hardware counter `counter` (its catalogue name, "SQ_WAVES") of kernel `kernel` (the symbol as the
    /// session stores it, CounterValueRow::kernel) over the dispatches it was collected for (format 7): one
    /// point per dispatch, x = its position among the dispatches shown (as every dispatch-order chart), y =
    /// its value in the pass that collected it (the first such pass, should two have). With `agent` not 0
    /// only the dispatches of agent `agent` of process `agentProcess` (the Counters page's kernel and agent
    /// rows). `counter` may name a derived metric of the session (SessionData::derivedNames): y is then its
    /// value for the dispatch, dispatches without one left out. The series is named `name` (the counter's
    /// name when empty); no points when nothing matches.
    Series counterPerDispatch(const QString& kernel, const QString& counter, int agentProcess = 0,
                              qint64 agent = 0, const QString& name = {}) const;
    /// The kernels with counter values among the dispatches shown, most dispatches with a value first (ties
    /// by name), at most `limit`: whose counters the headless export charts.
    QStringList counterKernels(int limit) const;

    /// Colour of series `i` (stable palette: ThemeColors::category, readable on light and dark plots).
    static QColor color(int i);

  private:
    bool shown(int process) const { return process_ == 0 || process == process_; }

    SessionSnapshot s_;
    int process_ = 0;
    std::vector<int> rows_; ///< dispatch rows shown, in x order
};

} // namespace rs::app
