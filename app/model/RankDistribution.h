// SPDX-License-Identifier: MIT
// How a figure spreads over the ranks of a job: per set of a RankChart (a kernel, snapshot, a decline
// reason) the five-number summary over the ranks shown, and the ranks at either end. What the job view
// draws instead of one bar per rank once a job has more ranks than bars stay readable (a box per set), in
// the manner of the rank-distribution views of MPI profilers.
#pragma once

#include "model/JobSummary.h"

#include <QString>
#include <QVector>

namespace rs::app {

class RankDistribution {
  public:
    /// The five numbers of one set over the ranks (its values, in the chart's unit).
    struct Box {
        QString name;
        double min = 0, lowerQuartile = 0, median = 0, upperQuartile = 0, max = 0;
    };
    /// One rank at an end: its category ("rank N") and its total over the sets.
    struct Extreme {
        QString rank;
        double total = 0;
    };

    /// Boxes of `chart`'s sets, in set order. Quartiles by linear interpolation between the closest
    /// ranks (Hyndman and Fan's type 7, as R's and NumPy's defaults): q(p) at position p * (n - 1) of the
    /// sorted values. A set without values gives no box.
    static QVector<Box> boxes(const RankChart& chart);
    /// The `count` categories of `chart` with the largest total over its sets, largest first (`highest`),
    /// or with the smallest, smallest first; ties in category order.
    static QVector<Extreme> extremes(const RankChart& chart, int count, bool highest);
    /// q(p) of `sorted` (ascending, non-empty) as boxes() computes it, p in [0, 1].
    static double quantile(const QVector<double>& sorted, double p);
};

} // namespace rs::app
