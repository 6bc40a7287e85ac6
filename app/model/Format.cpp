// SPDX-License-Identifier: MIT
#include "model/Format.h"

#include <QDateTime>
#include <QLocale>

namespace rs::app::format {

QString bytes(qint64 value) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(value);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    if (u == 0) {
        return QStringLiteral("%1 B").arg(value);
    }
    return QStringLiteral("%1 %2")
        .arg(v, 0, 'f', v < 10 ? 2 : (v < 100 ? 1 : 0))
        .arg(QLatin1String(units[u]));
}

QString ms(qint64 ns) {
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
}

QString us(qint64 ns) {
    return QString::number(static_cast<double>(ns) / 1e3, 'f', 1);
}

QString percent(double value) {
    const double a = value < 0 ? -value : value;
    if (a > 0 && a < 0.001) {
        return QStringLiteral("< 0.001 %"); // not zero: a few bytes of a large footprint
    }
    const int decimals = a >= 100 || a == 0 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
    return QStringLiteral("%1 %").arg(value, 0, 'f', decimals);
}

QString address(qint64 value) {
    return QStringLiteral("0x%1").arg(static_cast<quint64>(value), 0, 16);
}

QString count(qint64 value) {
    static const QLocale c = [] {
        QLocale l(QLocale::English);
        return l;
    }();
    return c.toString(value);
}

QString wallTime(qint64 ns) {
    if (ns <= 0) {
        return QStringLiteral("-");
    }
    return QDateTime::fromMSecsSinceEpoch(ns / 1000000).toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
}

} // namespace rs::app::format
