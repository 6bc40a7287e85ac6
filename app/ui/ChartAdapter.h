// SPDX-License-Identifier: MIT
// The one place that knows Qt Charts: a titled chart of line, stacked-area, scatter or bar series with
// downsampling. A move to Qt Graphs replaces this file only.
#pragma once

#include "model/ChartSeriesBuilder.h"

#include <QWidget>

namespace QtCharts {}
QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace rs::app {

class ChartAdapter : public QWidget {
    Q_OBJECT
  public:
    enum class Kind { line, stackedArea, scatter, step };

    ChartAdapter(const QString& title, const QString& xTitle, const QString& yTitle,
                 QWidget* parent = nullptr);

    /// Replaces the series; each is downsampled to about two points per pixel column.
    void setSeries(const QVector<ChartSeriesBuilder::Series>& series, Kind kind);
    /// Replaces the content by horizontal bars (label, value).
    void setBars(const QVector<ChartSeriesBuilder::Bar>& bars);
    /// Category labels of the y axis for scatter rows 1..n (declines by reason).
    void setRowLabels(const QStringList& labels);
    /// A message instead of an empty plot ("no replayed dispatches").
    void setPlaceholder(const QString& text);
    QString title() const { return title_; }
    /// Renders the chart to a PNG of `size` (independent of the widget's size).
    bool savePng(const QString& path, const QSize& size = QSize(1200, 600)) const;

  private:
    void resetAxes(double xMin, double xMax, double yMin, double yMax);

    QString title_, x_title_, y_title_;
    QStringList row_labels_;
    QChart* chart_;
    QChartView* view_;
};

} // namespace rs::app
