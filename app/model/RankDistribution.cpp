// SPDX-License-Identifier: MIT
#include "model/RankDistribution.h"

#include <algorithm>
#include <cmath>

namespace rs::app {

double RankDistribution::quantile(const QVector<double>& sorted, double p) {
    const double at = std::clamp(p, 0.0, 1.0) * double(sorted.size() - 1);
    const auto below = qsizetype(std::floor(at));
    const qsizetype above = std::min<qsizetype>(below + 1, sorted.size() - 1);
    return sorted[below] + (at - double(below)) * (sorted[above] - sorted[below]);
}

QVector<RankDistribution::Box> RankDistribution::boxes(const RankChart& chart) {
    QVector<Box> out;
    for (const ChartSeriesBuilder::BarSet& set : chart.sets) {
        if (set.values.isEmpty()) {
            continue;
        }
        QVector<double> v = set.values;
        std::sort(v.begin(), v.end());
        out.push_back(
            {set.name, v.front(), quantile(v, 0.25), quantile(v, 0.5), quantile(v, 0.75), v.back()});
    }
    return out;
}

QVector<RankDistribution::Extreme> RankDistribution::extremes(const RankChart& chart, int count,
                                                              bool highest) {
    QVector<Extreme> all;
    for (int c = 0; c < chart.categories.size(); ++c) {
        double total = 0;
        for (const ChartSeriesBuilder::BarSet& set : chart.sets) {
            total += set.values.value(c);
        }
        all.push_back({chart.categories[c], total});
    }
    std::stable_sort(all.begin(), all.end(), [highest](const Extreme& a, const Extreme& b) {
        return highest ? a.total > b.total : a.total < b.total;
    });
    return all.mid(0, std::max(0, count));
}

} // namespace rs::app
