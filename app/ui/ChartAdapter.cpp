// SPDX-License-Identifier: MIT
#include "ui/ChartAdapter.h"

#include "model/Downsampler.h"
#include "model/NiceTicks.h"
#include "model/ThemeColors.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QPainter>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rs::app {

namespace {
constexpr int kDefaultColumns = 1000;
}

ChartAdapter::ChartAdapter(const QString& title, const QString& xTitle, const QString& yTitle,
                           QWidget* parent)
    : QWidget(parent), title_(title), x_title_(xTitle), y_title_(yTitle), chart_(new QChart) {
    chart_->setTitle(title);
    chart_->setAnimationOptions(QChart::NoAnimation);
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    QFont f = chart_->titleFont();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    chart_->setTitleFont(f);
    view_ = new QChartView(chart_, this);
    view_->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    setMinimumHeight(260);
}

void ChartAdapter::setUnits(Unit x, double xScale, Unit y, double yScale) {
    x_unit_ = x;
    y_unit_ = y;
    x_scale_ = xScale;
    y_scale_ = yScale;
}

QString ChartAdapter::elideLabel(const QString& label) {
    if (label.size() <= kMaxLabelChars) {
        return label;
    }
    const int head = (kMaxLabelChars - 1) / 2, tail = kMaxLabelChars - 1 - head;
    return label.left(head) + QStringLiteral("…") + label.right(tail);
}

QString ChartAdapter::axisTitle(const QString& title, Unit unit, double scale, double max,
                                double* factor) const {
    *factor = 1;
    AxisUnit u;
    if (unit == Unit::bytes) {
        u = AxisUnit::bytes(max * scale);
    } else if (unit == Unit::time) {
        u = AxisUnit::time(max * scale);
    } else {
        return title;
    }
    *factor = scale / u.size;
    return title.isEmpty() ? u.name : QStringLiteral("%1 (%2)").arg(title, u.name);
}

void ChartAdapter::applyTicks(const QSizeF& size) const {
    // About one label per 90 px across and per 40 px up; the plot is the chart less its titles and legend.
    const int xTicks = std::max(2, int((size.width() - 140) / 90));
    const int yTicks = std::max(2, int((size.height() - 100) / 40));
    for (QAbstractAxis* axis : chart_->axes()) {
        if (auto* category = qobject_cast<QBarCategoryAxis*>(axis)) {
            if (axis->orientation() == Qt::Horizontal) {
                // Rotate the categories when they do not fit side by side (about 7 px per character).
                int longest = 0;
                for (const QString& c : category->categories()) {
                    longest = std::max(longest, int(c.size()));
                }
                const double perCategory = (size.width() - 140) / std::max<qsizetype>(1, category->count());
                // Upright rather than at 45°: Qt Charts elides slanted labels to the category's width.
                axis->setLabelsAngle(perCategory >= longest * 7 + 8 ? 0 : -90);
            }
            continue;
        }
        auto* value = qobject_cast<QValueAxis*>(axis);
        if (!value) {
            continue;
        }
        const bool x = axis->orientation() == Qt::Horizontal;
        const bool horizontalBars = chart_->series().size() == 1 &&
                                    qobject_cast<QHorizontalBarSeries*>(chart_->series().first()) != nullptr;
        // For horizontal bars the value axis is x (its unit is x's) but its data range was stored as y.
        const double lo = x && !horizontalBars ? range_[0] : range_[2];
        const double hi = x && !horizontalBars ? range_[1] : range_[3];
        const Unit unit = x ? x_unit_ : y_unit_;
        NiceTicks t = NiceTicks::forRange(lo, hi, x ? xTicks : yTicks);
        if (unit == Unit::count && t.step < 1) { // integers: no tick between two dispatches
            t = NiceTicks::forRange(lo, std::max(hi, lo + 1), int(std::max(1.0, std::ceil(hi - lo))) + 1);
        }
        value->setRange(t.min, t.max);
        value->setTickType(QValueAxis::TicksDynamic);
        value->setTickAnchor(t.min);
        value->setTickInterval(t.step);
        value->setMinorTickCount(0);
        value->setLabelFormat(t.labelFormat());
    }
    // Every content change ends here, with its new axes: they take the palette's colours.
    applyPalette();
}

void ChartAdapter::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    applyTicks(view_->size());
}

void ChartAdapter::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
}

void ChartAdapter::applyPalette() const {
    // Qt Charts draws with its own light theme whatever the widget's palette: take the palette's colours
    // instead (a dark window gets a dark chart), on the chart and on every axis of the current content.
    const QPalette& p = palette();
    const QColor text = p.color(QPalette::Text);
    QColor grid = p.color(QPalette::Mid);
    chart_->setBackgroundBrush(p.brush(QPalette::Base));
    chart_->setTitleBrush(text);
    chart_->legend()->setLabelColor(text);
    for (QAbstractAxis* axis : chart_->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(grid);
        axis->setGridLineColor(
            ThemeColors::over(QColor(grid.red(), grid.green(), grid.blue(), 110), p.color(QPalette::Base)));
    }
}

void ChartAdapter::resetAxes(double xMin, double xMax, double yMin, double yMax) {
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    range_[0] = xMin;
    range_[1] = xMax;
    range_[2] = yMin;
    range_[3] = yMax;
    auto* x = new QValueAxis;
    x->setTitleText(x_title_);
    chart_->addAxis(x, Qt::AlignBottom);
    if (!row_labels_.isEmpty()) {
        auto* y = new QCategoryAxis;
        y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int i = 0; i < row_labels_.size(); ++i) {
            y->append(elideLabel(row_labels_[i]), i + 1);
        }
        y->setRange(0, row_labels_.size() + 1);
        y->setTitleText(y_title_);
        chart_->addAxis(y, Qt::AlignLeft);
    } else {
        auto* y = new QValueAxis;
        y->setTitleText(y_title_);
        chart_->addAxis(y, Qt::AlignLeft);
    }
    for (QAbstractSeries* s : chart_->series()) {
        for (QAbstractAxis* axis : chart_->axes()) {
            s->attachAxis(axis);
        }
    }
    applyTicks(view_->size());
}

void ChartAdapter::setRowLabels(const QStringList& labels) {
    row_labels_ = labels;
}

void ChartAdapter::setTitles(const QString& title, const QString& xTitle, const QString& yTitle) {
    title_ = title;
    x_title_ = xTitle;
    y_title_ = yTitle;
}

QVector<QVector<QPointF>> ChartAdapter::seriesPoints() const {
    QVector<QVector<QPointF>> out;
    for (QAbstractSeries* series : chart_->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            out.append(xy->points());
        }
    }
    return out;
}

void ChartAdapter::setPlaceholder(const QString& text) {
    chart_->removeAllSeries();
    chart_->setTitle(QStringLiteral("%1 <span style='font-weight:normal;color:%3'>— %2</span>")
                         .arg(title_, text, palette().color(QPalette::PlaceholderText).name()));
    resetAxes(0, 1, 0, 1);
}

void ChartAdapter::setSeries(const QVector<ChartSeriesBuilder::Series>& series, Kind kind) {
    chart_->removeAllSeries();
    chart_->setTitle(title_);
    const int columns = view_->width() > 100 ? view_->width() : kDefaultColumns;
    double xMin = std::numeric_limits<double>::max(), xMax = std::numeric_limits<double>::lowest();
    double yMin = 0, yMax = 0;
    bool any = false;
    QLineSeries* previousTop = nullptr;
    // The unit of each axis follows the largest value (scaled by setUnits).
    double rawXMax = 0, rawYMax = 0;
    for (const auto& s : series) {
        for (const QPointF& p : s.points) {
            rawXMax = std::max(rawXMax, std::abs(p.x()));
            rawYMax = std::max(rawYMax, std::abs(p.y()));
        }
    }
    double xFactor = 1, yFactor = 1;
    const QString xTitle = axisTitle(x_title_, x_unit_, x_scale_, rawXMax, &xFactor);
    const QString yTitle = axisTitle(y_title_, y_unit_, y_scale_, rawYMax, &yFactor);
    for (const auto& s : series) {
        QVector<QPointF> points = Downsampler::minMax(s.points, columns);
        if (xFactor != 1 || yFactor != 1) {
            for (QPointF& p : points) {
                p = QPointF(p.x() * xFactor, p.y() * yFactor);
            }
        }
        for (const QPointF& p : points) {
            xMin = std::min(xMin, p.x());
            xMax = std::max(xMax, p.x());
            yMax = std::max(yMax, p.y());
            yMin = std::min(yMin, p.y());
            any = true;
        }
        switch (kind) {
        case Kind::stackedArea: {
            auto* top = new QLineSeries;
            top->replace(points);
            QLineSeries* bottom = nullptr;
            if (previousTop) {
                bottom = new QLineSeries;
                bottom->replace(previousTop->points());
            }
            auto* area = new QAreaSeries(top, bottom);
            area->setName(s.name);
            QColor fill = s.color;
            fill.setAlpha(170);
            area->setBrush(fill);
            area->setPen(QPen(s.color.darker(120), 1));
            chart_->addSeries(area);
            previousTop = top;
            break;
        }
        case Kind::scatter: {
            auto* scatter = new QScatterSeries;
            scatter->setName(s.name);
            scatter->setMarkerSize(7);
            scatter->setColor(s.color);
            scatter->setBorderColor(s.color.darker(130));
            scatter->replace(points);
            chart_->addSeries(scatter);
            break;
        }
        case Kind::line:
        case Kind::step: {
            auto* line = new QLineSeries;
            line->setName(s.name);
            line->setPen(QPen(s.color, 1.5));
            line->replace(points);
            chart_->addSeries(line);
            break;
        }
        }
    }
    if (!any) {
        setPlaceholder(QStringLiteral("no data"));
        return;
    }
    resetAxes(xMin, xMax, yMin, yMax);
    for (QAbstractAxis* axis : chart_->axes()) {
        if (qobject_cast<QValueAxis*>(axis)) {
            axis->setTitleText(axis->orientation() == Qt::Horizontal ? xTitle : yTitle);
        }
    }
}

void ChartAdapter::setBars(const QVector<ChartSeriesBuilder::Bar>& bars) {
    chart_->removeAllSeries();
    chart_->setTitle(title_);
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    if (bars.isEmpty()) {
        setPlaceholder(QStringLiteral("nothing excluded"));
        return;
    }
    auto* set = new QBarSet(y_title_);
    set->setColor(ChartSeriesBuilder::color(0));
    set->setLabelColor(palette().color(QPalette::Text));
    QStringList labels;
    double max = 0, min = 0;
    for (const auto& b : bars) {
        *set << b.value;
        labels << elideLabel(b.label);
        max = std::max(max, b.value);
        min = std::min(min, b.value);
    }
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsPrecision(3); // "2.72", not "2.71512"
    chart_->addSeries(series);
    auto* y = new QBarCategoryAxis;
    y->append(labels);
    chart_->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto* x = new QValueAxis;
    x->setTitleText(x_title_);
    chart_->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    // Room for the value label beyond the longest bar. Qt Charts draws the outside-end label of a
    // negative bar to the right of 0 as well, so a negative bar also needs room on the positive side.
    range_[2] = min < 0 ? min * 1.15 - 1 : 0;
    range_[3] = std::max(max > 0 || min == 0 ? max * 1.15 + 1 : 0.0, min < 0 ? -min * 0.12 + 1 : 0.0);
    applyTicks(view_->size());
    chart_->legend()->hide();
}

void ChartAdapter::setHistogram(const QStringList& labels, const QVector<double>& values) {
    chart_->removeAllSeries();
    chart_->setTitle(title_);
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    auto* set = new QBarSet(y_title_);
    set->setColor(ChartSeriesBuilder::color(0));
    QStringList categories;
    double max = 0;
    for (int i = 0; i < labels.size(); ++i) {
        const double v = i < values.size() ? values[i] : 0.0;
        *set << v;
        categories << elideLabel(labels[i]);
        max = std::max(max, v);
    }
    auto* series = new QBarSeries;
    series->append(set);
    series->setBarWidth(0.9);
    chart_->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(x_title_);
    chart_->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto* y = new QValueAxis;
    y->setTitleText(y_title_);
    chart_->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    range_[2] = 0;
    range_[3] = max;
    applyTicks(view_->size());
    chart_->legend()->hide();
}

QString ChartAdapter::clearForCategories(double rawMax, double* factor) {
    chart_->removeAllSeries();
    chart_->setTitle(title_);
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    return axisTitle(y_title_, y_unit_, y_scale_, rawMax, factor);
}

void ChartAdapter::addCategorySeries(QAbstractSeries* series, const QStringList& labels,
                                     const QString& yTitle, double yMax) {
    chart_->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(labels);
    x->setTitleText(x_title_);
    chart_->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto* y = new QValueAxis;
    y->setTitleText(yTitle);
    chart_->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    range_[2] = 0;
    range_[3] = yMax;
    applyTicks(view_->size());
}

void ChartAdapter::setGroupedBars(const QStringList& categories,
                                  const QVector<ChartSeriesBuilder::BarSet>& sets,
                                  const QString& placeholder) {
    double rawMax = 0;
    for (const auto& set : sets) {
        for (double v : set.values) {
            rawMax = std::max(rawMax, v);
        }
    }
    if (sets.isEmpty() || categories.isEmpty() || rawMax <= 0) {
        setPlaceholder(placeholder);
        return;
    }
    double factor = 1;
    const QString yTitle = clearForCategories(rawMax, &factor);
    auto* series = new QBarSeries;
    for (int i = 0; i < sets.size(); ++i) {
        auto* set = new QBarSet(elideLabel(sets[i].name));
        set->setColor(ChartSeriesBuilder::color(i));
        for (int c = 0; c < categories.size(); ++c) {
            *set << (c < sets[i].values.size() ? sets[i].values[c] * factor : 0.0);
        }
        series->append(set);
    }
    series->setBarWidth(0.85);
    QStringList labels;
    for (const QString& c : categories) {
        labels << elideLabel(c);
    }
    addCategorySeries(series, labels, yTitle, rawMax * factor);
    chart_->legend()->setVisible(true);
    chart_->legend()->setAlignment(Qt::AlignRight);
}

void ChartAdapter::setBoxes(const QVector<RankDistribution::Box>& boxes, const QString& placeholder) {
    double rawMax = 0;
    for (const RankDistribution::Box& b : boxes) {
        rawMax = std::max(rawMax, b.max);
    }
    if (boxes.isEmpty() || rawMax <= 0) {
        setPlaceholder(placeholder);
        return;
    }
    double factor = 1;
    const QString yTitle = clearForCategories(rawMax, &factor);
    auto* series = new QBoxPlotSeries;
    QStringList labels;
    for (int i = 0; i < boxes.size(); ++i) {
        const RankDistribution::Box& b = boxes[i];
        auto* set = new QBoxSet(b.min * factor, b.lowerQuartile * factor, b.median * factor,
                                b.upperQuartile * factor, b.max * factor, elideLabel(b.name));
        set->setBrush(ChartSeriesBuilder::color(i));
        series->append(set);
        labels << elideLabel(b.name);
    }
    addCategorySeries(series, labels, yTitle, rawMax * factor);
    chart_->legend()->setVisible(false);
}

QVector<RankDistribution::Box> ChartAdapter::boxesShown() const {
    QVector<RankDistribution::Box> out;
    for (QAbstractSeries* s : chart_->series()) {
        if (auto* boxes = qobject_cast<QBoxPlotSeries*>(s)) {
            for (QBoxSet* set : boxes->boxSets()) {
                out.push_back({set->label(), set->at(QBoxSet::LowerExtreme), set->at(QBoxSet::LowerQuartile),
                               set->at(QBoxSet::Median), set->at(QBoxSet::UpperQuartile),
                               set->at(QBoxSet::UpperExtreme)});
            }
        }
    }
    return out;
}

bool ChartAdapter::savePng(const QString& path, const QSize& size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(palette().color(QPalette::Base));
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        const QSizeF old = chart_->size();
        const QPointF oldPos = chart_->pos();
        chart_->resize(size);
        chart_->setPos(0, 0);
        applyTicks(size);
        // Qt Charts lays out axes on a posted event: let the new ticks and labels take effect first.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        chart_->scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
        chart_->resize(old);
        chart_->setPos(oldPos);
        applyTicks(view_->size());
    }
    return image.save(path, "PNG");
}

} // namespace rs::app
