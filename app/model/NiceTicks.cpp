// SPDX-License-Identifier: MIT
#include "model/NiceTicks.h"

#include <algorithm>
#include <cmath>

namespace rs::app {

namespace {
// Step = mantissa x 10^exponent, computed so that 0.001 is 1 / 1000 (exact as a double can be), not 1 *
// 0.001.
double stepValue(int mantissa, int exponent) {
    return exponent >= 0 ? mantissa * std::pow(10.0, exponent) : mantissa / std::pow(10.0, -exponent);
}
} // namespace

int NiceTicks::count() const {
    return step > 0 ? int(std::llround((max - min) / step)) + 1 : 1;
}

QVector<double> NiceTicks::values() const {
    QVector<double> out;
    const double first = std::round(min / step);
    for (int k = 0; k < count(); ++k) {
        out << (first + k) * step;
    }
    return out;
}

QString NiceTicks::label(double value) const {
    if (std::max(std::abs(min), std::abs(max)) >= 1e7) {
        return QString::asprintf("%.3g", value);
    }
    return QString::number(value, 'f', decimals);
}

QString NiceTicks::labelFormat() const {
    if (std::max(std::abs(min), std::abs(max)) >= 1e7) {
        return QStringLiteral("%.3g");
    }
    return QStringLiteral("%.%1f").arg(decimals);
}

NiceTicks NiceTicks::forRange(double lo, double hi, int maxTicks) {
    maxTicks = std::clamp(maxTicks, 2, 50);
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) {
        lo = 0;
        hi = 1;
    }
    if (lo == hi) {
        if (lo == 0) {
            hi = 1;
        } else if (lo > 0) {
            lo = 0;
        } else {
            hi = 0;
        }
    }
    // A range across 0 has 0 as a tick between its ends: two ticks can never cover it.
    if (lo < 0 && hi > 0) {
        maxTicks = std::max(maxTicks, 3);
    }
    const double raw = (hi - lo) / (maxTicks - 1);
    int exponent = int(std::floor(std::log10(raw)));
    static constexpr int kMantissas[] = {1, 2, 5};
    // The smallest 1/2/5 step >= raw whose widened range still fits maxTicks (widening can add one tick).
    for (int guard = 0; guard < 40; ++guard) {
        for (int m : kMantissas) {
            const double step = stepValue(m, exponent);
            if (step < raw * (1 - 1e-9)) {
                continue;
            }
            const double first = std::floor(lo / step + 1e-9), last = std::ceil(hi / step - 1e-9);
            if (last - first + 1 <= maxTicks) {
                NiceTicks t;
                t.step = step;
                t.min = first * step;
                t.max = last * step;
                t.decimals = std::max(0, -exponent);
                return t;
            }
        }
        ++exponent;
    }
    NiceTicks t; // unreachable for finite bounds; the range itself in one step rather than a wrong one
    t.min = lo;
    t.max = hi;
    t.step = hi - lo;
    return t;
}

AxisUnit AxisUnit::bytes(double maxBytes) {
    static const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double size = 1;
    int i = 0;
    while (i < 4 && std::abs(maxBytes) >= size * 1024) {
        size *= 1024;
        ++i;
    }
    return {QString::fromLatin1(names[i]), size};
}

AxisUnit AxisUnit::time(double maxNs) {
    const double m = std::abs(maxNs);
    if (m >= 1e9) {
        return {QStringLiteral("s"), 1e9};
    }
    if (m >= 1e6) {
        return {QStringLiteral("ms"), 1e6};
    }
    if (m >= 1e3) {
        return {QStringLiteral("µs"), 1e3};
    }
    return {QStringLiteral("ns"), 1};
}

} // namespace rs::app
