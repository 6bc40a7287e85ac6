// SPDX-License-Identifier: MIT
#include "model/CounterSummary.h"

#include <algorithm>
#include <vector>

namespace rs::app {

namespace {

QString kernelLabel(const QString& kernel) {
    if (kernel.isEmpty()) {
        return QStringLiteral("(unknown kernel)");
    }
    return kernel.endsWith(QLatin1String(".kd")) ? kernel.chopped(3) : kernel;
}

QString median(std::vector<quint64>& values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    if (n % 2 == 1) {
        return QString::number(values[n / 2]);
    }
    const quint64 a = values[n / 2 - 1], b = values[n / 2]; // a <= b: their mean without overflow
    const QString mean = QString::number(a + (b - a) / 2);
    return (b - a) % 2 == 0 ? mean : mean + QStringLiteral(".5");
}

} // namespace

QString CounterSummary::text(const SessionSnapshot& s) {
    if (s.isNull() || s->counterValues.empty()) {
        return {};
    }
    QString out =
        QStringLiteral("\ncounters (per kernel over its replayed dispatches: min / median / max):\n");
    // The rows come ordered by kernel, then counter (rs::session::counter_values_query).
    const auto& rows = s->counterValues;
    QString kernel;
    for (std::size_t i = 0; i < rows.size();) {
        std::size_t end = i;
        std::vector<quint64> values;
        while (end < rows.size() && rows[end].kernel == rows[i].kernel &&
               rows[end].counter == rows[i].counter) {
            values.push_back(rows[end].value);
            ++end;
        }
        if (i == 0 || rows[i].kernel != kernel) {
            kernel = rows[i].kernel;
            out += QStringLiteral("  %1\n").arg(kernelLabel(kernel));
        }
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        const QString low = QString::number(*lo), high = QString::number(*hi);
        const QString dispatches = values.size() == 1 ? QStringLiteral("1 dispatch")
                                                      : QStringLiteral("%1 dispatches").arg(values.size());
        const QString mid = median(values);
        out += QStringLiteral("    %1 %2 %3 / %4 / %5 %6\n")
                   .arg(rows[i].counter, -28)
                   .arg(dispatches, 14)
                   .arg(low, 14)
                   .arg(mid, high, rows[i].unit);
        i = end;
    }
    return out;
}

} // namespace rs::app
