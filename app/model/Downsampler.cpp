// SPDX-License-Identifier: MIT
#include "model/Downsampler.h"

namespace rs::app {

QVector<QPointF> Downsampler::minMax(const QVector<QPointF>& points, int columns) {
    if (columns <= 0 || points.size() <= 2 * columns) {
        return points;
    }
    const double x0 = points.front().x(), x1 = points.back().x();
    const double width = (x1 - x0) / columns;
    QVector<QPointF> out;
    out.reserve(2 * columns + 2);
    int i = 0;
    const int n = int(points.size());
    for (int c = 0; c < columns && i < n; ++c) {
        const double end = c == columns - 1 ? x1 : x0 + width * (c + 1);
        QPointF lo = points[i], hi = points[i];
        int count = 0;
        for (; i < n && (points[i].x() < end || c == columns - 1); ++i, ++count) {
            if (points[i].y() < lo.y()) {
                lo = points[i];
            }
            if (points[i].y() > hi.y()) {
                hi = points[i];
            }
        }
        if (count == 0) {
            continue;
        }
        if (lo.x() <= hi.x()) {
            out << lo;
            if (hi != lo) {
                out << hi;
            }
        } else {
            out << hi << lo;
        }
    }
    return out;
}

} // namespace rs::app
