// SPDX-License-Identifier: MIT
// Human-readable units for tables, charts and the terminal summary.
#pragma once

#include <QString>

namespace rs::app::format {

/// What a cell shows for a figure the session file does not record (a column of a newer format).
inline const QString kNotRecorded = QStringLiteral("—");

/// "512 B", "4.0 KiB", "1.50 MiB", ...
QString bytes(qint64 value);
/// Nanoseconds as milliseconds with three decimals ("0.021 ms" -> "0.021").
QString ms(qint64 ns);
/// Nanoseconds as microseconds ("5.2").
QString us(qint64 ns);
/// Address in hex ("0x7f3a40000000").
QString address(qint64 value);
/// A percentage with a precision that keeps small shares visible ("100 %", "12.5 %", "1.50 %", "0.980 %",
/// "0.012 %";
/// "< 0.001 %" for a share above 0 that would round to zero).
QString percent(double value);
/// Thousands-grouped integer ("100,000").
QString count(qint64 value);
/// Wall clock ns since the epoch as local "yyyy-MM-dd hh:mm:ss".
QString wallTime(qint64 ns);

} // namespace rs::app::format
