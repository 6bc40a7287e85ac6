// SPDX-License-Identifier: MIT
// The one place that knows Qt Charts: a titled chart of line, stacked-area, scatter or bar series with
// downsampling. A move to Qt Graphs replaces this file only.
#pragma once

#include "model/ChartSeriesBuilder.h"
#include "model/RankDistribution.h"

#include <QWidget>

namespace QtCharts {}
QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace rs::app {

class ChartAdapter : public QWidget {
    Q_OBJECT
  public:
    enum class Kind { line, stackedArea, scatter, step };
    /// What an axis's values measure: `count` (integers: dispatch order, regions), `number`, `bytes`,
    /// `time` (the latter two labelled in the unit that fits the largest value: B..TiB, ns..s).
    enum class Unit { count, number, bytes, time };

    ChartAdapter(const QString& title, const QString& xTitle, const QString& yTitle,
                 QWidget* parent = nullptr);

    /// Declares the units of the values given to setSeries: `xScale`/`yScale` base units (bytes, ns) per
    /// value (1048576 for MiB, 1e6 for ms). The axis titles get the unit chosen: "<title> (KiB)".
    /// Default: count on x, number on y, scale 1.
    void setUnits(Unit x, double xScale, Unit y, double yScale);
    /// Replaces the series; each is downsampled to about two points per pixel column.
    void setSeries(const QVector<ChartSeriesBuilder::Series>& series, Kind kind);
    /// Replaces the content by horizontal bars (label, value).
    void setBars(const QVector<ChartSeriesBuilder::Bar>& bars);
    /// Replaces the content by vertical bars over categories (a histogram): `values` in the y axis's
    /// unit, one per label. Category labels are turned upright when they do not fit side by side.
    void setHistogram(const QStringList& labels, const QVector<double>& values);
    /// Replaces the content by grouped vertical bars: one group per category (`categories`, e.g. the
    /// ranks), one bar per set in each group (colour ChartSeriesBuilder::color(set index), named in the
    /// legend). Values are in the y unit of setUnits (bytes and times labelled in the unit that fits the
    /// largest); `placeholder` is shown instead when there are no sets or every value is 0.
    void setGroupedBars(const QStringList& categories, const QVector<ChartSeriesBuilder::BarSet>& sets,
                        const QString& placeholder);
    /// Replaces the content by box plots, one per box (RankDistribution::boxes: min, quartiles, median,
    /// max of a figure over the ranks), values in the y unit of setUnits; `placeholder` when there is no
    /// box or every value is 0.
    void setBoxes(const QVector<RankDistribution::Box>& boxes, const QString& placeholder);
    /// The boxes drawn (display units of the y axis; tests).
    QVector<RankDistribution::Box> boxesShown() const;
    /// Category labels of the y axis for scatter rows 1..n (declines by reason).
    void setRowLabels(const QStringList& labels);
    /// A message instead of an empty plot ("no replayed dispatches").
    void setPlaceholder(const QString& text);
    QString title() const { return title_; }
    /// Replaces the chart's title and axis titles (a chart that follows a selection); shown from the next
    /// setSeries, setBars, setHistogram, setGroupedBars, setBoxes or setPlaceholder.
    void setTitles(const QString& title, const QString& xTitle, const QString& yTitle);
    /// The y axis's title as last given (without the unit setUnits adds).
    QString yTitle() const { return y_title_; }
    /// The points drawn by the chart's series (after downsampling), one list per series (tests).
    QVector<QVector<QPointF>> seriesPoints() const;
    /// Renders the chart to a PNG of `size` (independent of the widget's size).
    bool savePng(const QString& path, const QSize& size = QSize(1200, 600)) const;

    /// Longest category label shown (characters); longer ones are elided in the middle.
    static constexpr int kMaxLabelChars = 40;
    /// `label` cut to kMaxLabelChars with "…" in the middle.
    static QString elideLabel(const QString& label);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    /// A palette change (a theme chosen) recolours the chart (applyPalette).
    void changeEvent(QEvent* event) override;

  private:
    void resetAxes(double xMin, double xMax, double yMin, double yMax);
    /// Empties the chart (series, axes) for content over categories whose largest value is `rawMax`;
    /// returns the y axis title with its unit and sets `factor` (setUnits' scale to display units).
    QString clearForCategories(double rawMax, double* factor);
    /// Adds `series` over category axis `labels` (bottom) and a value axis titled `yTitle` from 0 to `yMax`.
    void addCategorySeries(QAbstractSeries* series, const QStringList& labels, const QString& yTitle,
                           double yMax);
    /// Applies nice ticks to the value axes for a chart of `size` (pixels): fewer ticks when narrow.
    void applyTicks(const QSizeF& size) const;
    /// The palette's colours on the chart: background (Base), title, legend, axis labels and lines, grid.
    void applyPalette() const;
    QString axisTitle(const QString& title, Unit unit, double scale, double max, double* factor) const;

    QString title_, x_title_, y_title_;
    QStringList row_labels_;
    Unit x_unit_ = Unit::count, y_unit_ = Unit::number;
    double x_scale_ = 1, y_scale_ = 1;
    double range_[4] = {0, 1, 0, 1}; ///< data range shown (x min, x max, y min, y max), display units
    QChart* chart_;
    QChartView* view_;
};

} // namespace rs::app
