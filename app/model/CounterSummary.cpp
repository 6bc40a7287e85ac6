// SPDX-License-Identifier: MIT
#include "model/CounterSummary.h"

#include <QMap>

#include <algorithm>

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

} // namespace

QString CounterSummary::kernelLabel(const QString& kernel) {
    if (kernel.isEmpty()) {
        return QStringLiteral("(unknown kernel)");
    }
    return kernel.endsWith(QLatin1String(".kd")) ? kernel.chopped(3) : kernel;
}

QString CounterSummary::Stat::medianText() const {
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
                   .arg(QString::number(st.min), 14)
                   .arg(st.medianText(), QString::number(st.max), st.unit);
    }
    return out;
}

} // namespace rs::app
