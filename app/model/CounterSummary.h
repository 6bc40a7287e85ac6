// SPDX-License-Identifier: MIT
// Hardware counters per kernel (docs/counters.md): the figures of the counters section of
// `replayscope --summary` and of the inspector's Counters page.
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>

#include <vector>

namespace rs::app {

class CounterSummary {
  public:
    /// One counter of one kernel (and, grouped so, one agent): its values over the dispatches it was
    /// collected for.
    struct Stat {
        QString kernel;   ///< the kernel symbol as the session stores it (empty when unknown)
        int process = 0;  ///< with Grouping::kernelAndAgent: the agent's process, else 0
        qint64 agent = 0; ///< with Grouping::kernelAndAgent: the agent's handle, else 0
        QString counter, unit;
        qint64 dispatches = 0; ///< values (one per dispatch the counter was collected for, or had a value of)
        /// A derived metric (docs/counters.md, "Derived metrics"): its figures are derivedMin, derivedMedian
        /// and derivedMax; min, max, medianLow and medianHigh are 0.
        bool derived = false;
        quint64 min = 0, max = 0;
        quint64 medianLow = 0, medianHigh = 0; ///< the middle value, or the middle two of an even count
        double derivedMin = 0, derivedMedian = 0, derivedMax = 0;
        /// The median: the mean of medianLow and medianHigh ("120.5"), exact; of a derived metric
        /// valueText(derivedMedian).
        QString medianText() const;
        /// The minimum as text: the count, or of a derived metric valueText(derivedMin).
        QString minText() const;
        /// The maximum as text: the count, or of a derived metric valueText(derivedMax).
        QString maxText() const;
        double median() const {
            return derived ? derivedMedian : (double(medianLow) + double(medianHigh)) / 2;
        }
        double minValue() const { return derived ? derivedMin : double(min); }
        double maxValue() const { return derived ? derivedMax : double(max); }
    };
    enum class Grouping { kernel, kernelAndAgent };

    /// Per kernel (and agent), per counter, ordered by kernel name, counter name (then process and agent):
    /// the dispatches, minimum, median and maximum. After a kernel's counters, its derived metrics
    /// (SessionData::derivedNames, by name, then process and agent) over the dispatches that have a value
    /// of them (Stat::derived). Empty when the session has no counter value.
    static std::vector<Stat> stats(const SessionSnapshot& snapshot, Grouping grouping);
    /// Per kernel, per counter: the dispatches it was collected for and the minimum, median and maximum
    /// of its values over them (the median of an even count is the mean of the middle two), with the
    /// counter's unit; then its derived metrics, their unit followed by "(derived)". Empty when the session
    /// has no counter value (before format 7, or none collected).
    static QString text(const SessionSnapshot& snapshot);
    /// A derived metric's value as the summaries print it: at most 3 decimals without trailing zeros
    /// ("10", "10.125", "66.667"), 3 significant digits below 1 ("0.0123"), "0" for zero.
    static QString valueText(double value);
    /// The kernel's name as the summaries show it: without the ".kd" of its descriptor symbol,
    /// "(unknown kernel)" when empty.
    static QString kernelLabel(const QString& kernel);
};

} // namespace rs::app
