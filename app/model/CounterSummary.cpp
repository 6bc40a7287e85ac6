// SPDX-License-Identifier: MIT
#include "model/CounterSummary.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace rs::app {

namespace {

CounterSummary::Stat statOf(const CounterValueRow& first, std::vector<quint64>& values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    CounterSummary::Stat s;
    s.kernel = first.kernel;
    s.counter = first.counter;
    s.unit = first.unit;
    s.dispatches = qint64(n);
    s.min = values.front();
    s.max = values.back();
    s.medianLow = values[(n - 1) / 2];
    s.medianHigh = values[n / 2];
    return s;
}

CounterSummary::Stat derivedStatOf(const QString& kernel, const QString& metric, const QString& unit,
                                   std::vector<double>& values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    CounterSummary::Stat s;
    s.kernel = kernel;
    s.counter = metric;
    s.unit = unit;
    s.derived = true;
    s.dispatches = qint64(n);
    s.derivedMin = values.front();
    s.derivedMax = values.back();
    s.derivedMedian = (values[(n - 1) / 2] + values[n / 2]) / 2;
    return s;
}

/// The derived metrics' statistics: per kernel (as the counter values name it), metric (and agent).
void appendDerived(const SessionSnapshot& s, CounterSummary::Grouping grouping,
                   std::vector<CounterSummary::Stat>& out) {
    const SessionData& d = s.data();
    if (d.derivedNames.isEmpty() || d.derivedValues.empty()) {
        return;
    }
    // The kernel of each dispatch row with counter values, spelled as its counter rows spell it.
    std::vector<const QString*> kernelOf(d.dispatches.size(), nullptr);
    for (const CounterValueRow& v : d.counterValues) {
        const int row = s.dispatchRow(v.process, v.dispatchId);
        if (row >= 0 && kernelOf[std::size_t(row)] == nullptr) {
            kernelOf[std::size_t(row)] = &v.kernel;
        }
    }
    using Key = std::tuple<QString, int, int, qint64>; // kernel, metric, process, agent
    QMap<Key, std::vector<double>> values;
    for (std::size_t row = 0; row < kernelOf.size(); ++row) {
        if (kernelOf[row] == nullptr) {
            continue;
        }
        const DispatchRow& dispatch = d.dispatches[row];
        const bool byAgent = grouping == CounterSummary::Grouping::kernelAndAgent;
        for (int m = 0; m < d.derivedNames.size(); ++m) {
            if (const std::optional<double> v = s.derivedValue(int(row), m)) {
                values[Key{*kernelOf[row], m, byAgent ? dispatch.process : 0, byAgent ? dispatch.agent : 0}]
                    .push_back(*v);
            }
        }
    }
    for (auto it = values.begin(); it != values.end(); ++it) {
        const auto& [kernel, metric, process, agent] = it.key();
        CounterSummary::Stat stat =
            derivedStatOf(kernel, d.derivedNames[metric], d.derivedUnits.value(metric), it.value());
        stat.process = process;
        stat.agent = agent;
        out.push_back(std::move(stat));
    }
}

} // namespace

QString CounterSummary::valueText(double value) {
    if (value == 0) {
        return QStringLiteral("0");
    }
    if (std::fabs(value) < 1) {
        return QString::number(value, 'g', 3);
    }
    QString text = QString::number(value, 'f', 3);
    while (text.endsWith(QLatin1Char('0'))) {
        text.chop(1);
    }
    if (text.endsWith(QLatin1Char('.'))) {
        text.chop(1);
    }
    return text;
}

QString CounterSummary::Stat::minText() const {
    return derived ? valueText(derivedMin) : QString::number(min);
}

QString CounterSummary::Stat::maxText() const {
    return derived ? valueText(derivedMax) : QString::number(max);
}

QString CounterSummary::kernelLabel(const QString& kernel) {
    if (kernel.isEmpty()) {
        return QStringLiteral("(unknown kernel)");
    }
    return kernel.endsWith(QLatin1String(".kd")) ? kernel.chopped(3) : kernel;
}

QString CounterSummary::Stat::medianText() const {
    if (derived) {
        return valueText(derivedMedian);
    }
    const quint64 a = medianLow, b = medianHigh; // a <= b: their mean without overflow
    const QString mean = QString::number(a + (b - a) / 2);
    return (b - a) % 2 == 0 ? mean : mean + QStringLiteral(".5");
}

std::vector<CounterSummary::Stat> CounterSummary::stats(const SessionSnapshot& s, Grouping grouping) {
    std::vector<Stat> out;
    if (s.isNull()) {
        return out;
    }
    // The rows come ordered by kernel, then counter (rs::session::counter_values_query).
    const auto& rows = s->counterValues;
    for (std::size_t i = 0; i < rows.size();) {
        std::size_t end = i;
        while (end < rows.size() && rows[end].kernel == rows[i].kernel &&
               rows[end].counter == rows[i].counter) {
            ++end;
        }
        if (grouping == Grouping::kernel) {
            std::vector<quint64> values;
            values.reserve(end - i);
            for (std::size_t k = i; k < end; ++k) {
                values.push_back(rows[k].value);
            }
            out.push_back(statOf(rows[i], values));
        } else {
            QMap<QPair<int, qint64>, std::vector<quint64>> byAgent; // (process, agent handle)
            for (std::size_t k = i; k < end; ++k) {
                const int row = s.dispatchRow(rows[k].process, rows[k].dispatchId);
                const qint64 agent = row >= 0 ? s->dispatches[std::size_t(row)].agent : 0;
                byAgent[{rows[k].process, agent}].push_back(rows[k].value);
            }
            for (auto it = byAgent.begin(); it != byAgent.end(); ++it) {
                Stat stat = statOf(rows[i], it.value());
                stat.process = it.key().first;
                stat.agent = it.key().second;
                out.push_back(std::move(stat));
            }
        }
        i = end;
    }
    // Derived metrics after the counters of their kernel (the counters keep the order they came in).
    appendDerived(s, grouping, out);
    std::stable_sort(out.begin(), out.end(), [](const Stat& a, const Stat& b) {
        return std::tie(a.kernel, a.derived) < std::tie(b.kernel, b.derived);
    });
    return out;
}

QString CounterSummary::text(const SessionSnapshot& s) {
    if (s.isNull() || s->counterValues.empty()) {
        return {};
    }
    QString out =
        QStringLiteral("\ncounters (per kernel over its replayed dispatches: min / median / max):\n");
    const std::vector<Stat> stats = CounterSummary::stats(s, Grouping::kernel);
    for (std::size_t i = 0; i < stats.size(); ++i) {
        const Stat& st = stats[i];
        if (i == 0 || st.kernel != stats[i - 1].kernel) {
            out += QStringLiteral("  %1\n").arg(kernelLabel(st.kernel));
        }
        const QString dispatches = st.dispatches == 1 ? QStringLiteral("1 dispatch")
                                                      : QStringLiteral("%1 dispatches").arg(st.dispatches);
        out += QStringLiteral("    %1 %2 %3 / %4 / %5 %6\n")
                   .arg(st.counter, -28)
                   .arg(dispatches, 14)
                   .arg(st.minText(), 14)
                   .arg(st.medianText(), st.maxText(),
                        st.derived ? st.unit + QStringLiteral(" (derived)") : st.unit);
    }
    return out;
}

} // namespace rs::app
