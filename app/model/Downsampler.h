// SPDX-License-Identifier: MIT
// Reduces a series sorted by x to at most two points (min and max) per pixel column, so a chart of
// 100,000 dispatches draws as fast as one of 2,000 and keeps every spike visible.
#pragma once

#include <QPointF>
#include <QVector>

namespace rs::app {

class Downsampler {
  public:
    /// `columns`: plot width in pixels. Series no longer than 2 * columns are returned unchanged.
    static QVector<QPointF> minMax(const QVector<QPointF>& points, int columns);
};

} // namespace rs::app
