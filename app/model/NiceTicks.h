// SPDX-License-Identifier: MIT
// "Nice" axis ticks: a range widened to multiples of a step of 1, 2 or 5 x 10^n (0, 100, 200, 300 rather
// than 83, 167, 250), and the unit a byte or time axis is best labelled in. Pure functions, no chart classes:
// ChartAdapter applies them to every value axis.
#pragma once

#include <QString>
#include <QVector>

namespace rs::app {

struct NiceTicks {
    double min = 0, max = 1,
           step = 1;  ///< first and last tick, distance between ticks (same unit as the input)
    int decimals = 0; ///< digits after the point that label every tick exactly

    /// Number of ticks from min to max inclusive.
    int count() const;
    /// The tick values min, min + step, ..., max (computed as k * step, no accumulated rounding).
    QVector<double> values() const;
    /// `value` formatted with `decimals` digits ("0.003", "250"); large magnitudes (>= 1e7) as "2e+11".
    QString label(double value) const;
    /// The printf-style format that label() corresponds to, for chart axes ("%.3f", "%.0f", "%.3g").
    QString labelFormat() const;

    /// Ticks covering [lo, hi] with at most `maxTicks` ticks (clamped to 2..50; at least 3 when the range
    /// crosses 0, which is then a tick). A single value v covers [0, v] (or [v, 0]; [0, 1] for 0); an empty
    /// range (lo > hi, or a bound not finite) gives [0, 1].
    static NiceTicks forRange(double lo, double hi, int maxTicks);
};

/// The unit an axis of bytes or nanoseconds is labelled in, chosen from the largest value shown.
struct AxisUnit {
    QString name;    ///< "B", "KiB", "MiB", "GiB", "TiB"; "ns", "µs", "ms", "s"
    double size = 1; ///< base units (bytes, ns) per displayed unit

    /// Binary byte unit for a maximum of `maxBytes` (>= 1 of that unit, "B" below 1 KiB or for 0).
    static AxisUnit bytes(double maxBytes);
    /// Time unit for a maximum of `maxNs` nanoseconds (ns below 1 µs, then µs, ms, s).
    static AxisUnit time(double maxNs);
};

} // namespace rs::app
