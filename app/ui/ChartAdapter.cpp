// SPDX-License-Identifier: MIT
#include "ui/ChartAdapter.h"

#include "model/Downsampler.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
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

void ChartAdapter::resetAxes(double xMin, double xMax, double yMin, double yMax) {
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    auto* x = new QValueAxis;
    x->setTitleText(x_title_);
    x->setRange(xMin, xMax > xMin ? xMax : xMin + 1);
    x->setLabelFormat(QStringLiteral("%.0f"));
    if (xMax - xMin < 10) {
        x->setLabelFormat(QStringLiteral("%.2g"));
    }
    chart_->addAxis(x, Qt::AlignBottom);
    if (!row_labels_.isEmpty()) {
        auto* y = new QCategoryAxis;
        y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int i = 0; i < row_labels_.size(); ++i) {
            y->append(row_labels_[i], i + 1);
        }
        y->setRange(0, row_labels_.size() + 1);
        y->setTitleText(y_title_);
        chart_->addAxis(y, Qt::AlignLeft);
    } else {
        auto* y = new QValueAxis;
        y->setTitleText(y_title_);
        y->setRange(yMin, yMax > yMin ? yMax * 1.05 : yMin + 1);
        y->applyNiceNumbers();
        chart_->addAxis(y, Qt::AlignLeft);
    }
    for (QAbstractSeries* s : chart_->series()) {
        for (QAbstractAxis* axis : chart_->axes()) {
            s->attachAxis(axis);
        }
    }
}

void ChartAdapter::setRowLabels(const QStringList& labels) {
    row_labels_ = labels;
}

void ChartAdapter::setPlaceholder(const QString& text) {
    chart_->removeAllSeries();
    chart_->setTitle(
        QStringLiteral("%1 <span style='font-weight:normal;color:#888'>— %2</span>").arg(title_, text));
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
    for (const auto& s : series) {
        const QVector<QPointF> points = Downsampler::minMax(s.points, columns);
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
    set->setLabelColor(Qt::black);
    QStringList labels;
    qint64 max = 0;
    for (const auto& b : bars) {
        *set << double(b.value);
        labels << b.label;
        max = std::max(max, b.value);
    }
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    chart_->addSeries(series);
    auto* y = new QBarCategoryAxis;
    y->append(labels);
    chart_->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto* x = new QValueAxis;
    x->setRange(0, double(max) * 1.15 + 1);
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTitleText(x_title_);
    chart_->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    chart_->legend()->hide();
}

bool ChartAdapter::savePng(const QString& path, const QSize& size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        const QSizeF old = chart_->size();
        const QPointF oldPos = chart_->pos();
        chart_->resize(size);
        chart_->setPos(0, 0);
        chart_->scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
        chart_->resize(old);
        chart_->setPos(oldPos);
    }
    return image.save(path, "PNG");
}

} // namespace rs::app
