// SPDX-License-Identifier: MIT
#include "ui/TimelineCanvas.h"

#include "model/ThemeColors.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace rs::app {

namespace {

// The same on light and dark palettes: relative luminance 0.18 to 0.24, so each has a contrast of at least
// 3:1 (ThemeColors::kGraphicContrast) with light lanes and legends (white, #efefef) and dark ones (#1f1f1f
// to #2d2d2d).
const QColor kFenceWait(0x6b, 0x85, 0x92);
const QColor kSnapshot(0x19, 0x7e, 0xd6);
const QColor kPass(0x3f, 0x97, 0x43);
const QColor kPassAlt(0x32, 0x88, 0x36);
const QColor kRestore(0xc6, 0x6f, 0x00);
const QColor kFinalRestore(0x91, 0x72, 0x66);
const QColor kMerged(0x65, 0x73, 0xc3);
const QColor kDeclined(0xd9, 0x41, 0x41);
const QColor kReleased(0x79, 0x79, 0x79);

QColor partColor(const TimelinePart& p) {
    switch (p.kind) {
    case TimelinePart::Kind::fenceWait:
        return kFenceWait;
    case TimelinePart::Kind::snapshot:
        return kSnapshot;
    case TimelinePart::Kind::pass:
        return p.pass % 2 == 0 ? kPass : kPassAlt;
    case TimelinePart::Kind::restore:
        return kRestore;
    case TimelinePart::Kind::finalRestore:
        return kFinalRestore;
    }
    return kMerged;
}

/// "850 ns", "12.5 µs", "3.204 ms", "1.20 s".
QString duration(double ns) {
    if (ns < 1e3) {
        return QStringLiteral("%1 ns").arg(qint64(std::llround(ns)));
    }
    if (ns < 1e6) {
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'f', ns < 1e4 ? 2 : 1);
    }
    if (ns < 1e9) {
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 3);
    }
    return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'f', 2);
}

} // namespace

QColor TimelineCanvas::labelBandColor(const QPalette& palette) {
    QColor band = palette.color(QPalette::Base);
    band.setAlpha(190);
    return band;
}

QColor TimelineCanvas::colorOf(const TimelinePart& part) {
    return partColor(part);
}

QColor TimelineCanvas::declinedColor() {
    return kDeclined;
}

QColor TimelineCanvas::mergedColor() {
    return kMerged;
}

QColor TimelineCanvas::releasedColor() {
    return kReleased;
}

TimelineCanvas::TimelineCanvas(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timelineCanvas"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAutoFillBackground(false);
    setMinimumHeight(kAxisHeight + kLaneHeight * 2);
}

QSize TimelineCanvas::sizeHint() const {
    const int lanes = model_ ? int(model_->lanes().size()) : 2;
    return {900, kAxisHeight + kLaneHeight * std::max(2, lanes) + 4};
}

void TimelineCanvas::setModel(std::shared_ptr<const TimelineModel> model) {
    const bool hadModel = model_ && model_->endNs() > model_->beginNs();
    model_ = std::move(model);
    setMinimumHeight(kAxisHeight + kLaneHeight * std::max<int>(2, int(model_ ? model_->lanes().size() : 0)) +
                     4);
    const bool inside = model_ && viewStart_ + viewSpan_ >= double(model_->beginNs()) &&
                        viewStart_ <= double(model_->endNs());
    if (!hadModel || !inside) {
        fit();
    } else {
        update();
    }
}

int TimelineCanvas::plotWidth() const {
    return std::max(1, width() - kLabelWidth);
}

double TimelineCanvas::xForTime(double ns) const {
    return kLabelWidth + (ns - viewStart_) * double(plotWidth()) / viewSpan_;
}

double TimelineCanvas::timeForX(double x) const {
    return viewStart_ + (x - kLabelWidth) * viewSpan_ / double(plotWidth());
}

QRect TimelineCanvas::laneRect(int lane) const {
    return {kLabelWidth, kAxisHeight + lane * kLaneHeight, plotWidth(), kLaneHeight};
}

int TimelineCanvas::laneAt(int y) const {
    if (!model_ || y < kAxisHeight) {
        return -1;
    }
    const int lane = (y - kAxisHeight) / kLaneHeight;
    return lane < int(model_->lanes().size()) ? lane : -1;
}

qint64 TimelineCanvas::toleranceNs() const {
    return qint64(std::ceil(3.0 * viewSpan_ / double(plotWidth())));
}

void TimelineCanvas::setView(double startNs, double spanNs) {
    double full = model_ ? double(model_->endNs() - model_->beginNs()) : 0.0;
    full = std::max(full, 1000.0);
    spanNs = std::clamp(spanNs, 10.0, full * 2.0);
    if (model_) {
        startNs = std::clamp(startNs, double(model_->beginNs()) - spanNs * 0.5,
                             double(model_->endNs()) - spanNs * 0.5);
    }
    if (startNs == viewStart_ && spanNs == viewSpan_) {
        return;
    }
    viewStart_ = startNs;
    viewSpan_ = spanNs;
    update();
    emit viewChanged();
}

void TimelineCanvas::fit() {
    if (!model_) {
        return;
    }
    const double full = std::max(1000.0, double(model_->endNs() - model_->beginNs()));
    const double start = double(model_->beginNs()) - full * 0.02;
    viewStart_ = start;
    viewSpan_ = full * 1.04;
    update();
    emit viewChanged();
}

void TimelineCanvas::zoom(double factor, double anchorX) {
    if (factor <= 0) {
        return;
    }
    const double x = anchorX < 0 ? kLabelWidth + plotWidth() / 2.0 : std::max<double>(anchorX, kLabelWidth);
    const double anchor = timeForX(x);
    const double span = viewSpan_ / factor;
    const double fraction = (x - kLabelWidth) / double(plotWidth());
    setView(anchor - fraction * span, span);
}

void TimelineCanvas::pan(double fraction) {
    setView(viewStart_ + fraction * viewSpan_, viewSpan_);
}

void TimelineCanvas::setSelectedRow(int row) {
    if (selected_ != row) {
        selected_ = row;
        update();
    }
}

void TimelineCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!model_ || model_->lanes().empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No dispatches in this session."));
        return;
    }
    paintAxis(p);
    for (int lane = 0; lane < int(model_->lanes().size()); ++lane) {
        paintLane(p, lane);
    }
}

void TimelineCanvas::paintAxis(QPainter& p) {
    const QRect axis(kLabelWidth, 0, plotWidth(), kAxisHeight);
    p.fillRect(QRect(0, 0, width(), kAxisHeight), palette().window());
    // A round step (1, 2 or 5 × 10^k ns) about 110 px apart, labelled from the session's first event.
    const double raw = viewSpan_ * 110.0 / double(plotWidth());
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * magnitude;
        if (step >= raw) {
            break;
        }
    }
    double unit = 1.0;
    QString unitName = QStringLiteral("ns");
    if (step >= 1e9) {
        unit = 1e9;
        unitName = QStringLiteral("s");
    } else if (step >= 1e6) {
        unit = 1e6;
        unitName = QStringLiteral("ms");
    } else if (step >= 1e3) {
        unit = 1e3;
        unitName = QStringLiteral("µs");
    }
    const int decimals = std::max(0, int(-std::floor(std::log10(step / unit) + 1e-9)));
    const double origin = double(model_->beginNs());
    const double first = std::ceil((viewStart_ - origin) / step) * step;
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(4, 0, kLabelWidth - 8, kAxisHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("time since first event"));
    p.save();
    p.setClipRect(axis.adjusted(0, 0, 0, height()));
    for (double t = first; t <= viewStart_ - origin + viewSpan_; t += step) {
        const int x = int(std::lround(xForTime(origin + t)));
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(x, kAxisHeight - 6, x, height());
        p.setPen(palette().color(QPalette::WindowText));
        const QString label = QStringLiteral("%1 %2").arg(t / unit, 0, 'f', decimals).arg(unitName);
        p.drawText(QRect(x + 3, 0, 120, kAxisHeight - 4), Qt::AlignBottom | Qt::AlignLeft, label);
    }
    p.restore();
}

void TimelineCanvas::paintLane(QPainter& p, int lane) {
    const TimelineLane& l = model_->lanes()[std::size_t(lane)];
    const QRect r = laneRect(lane);
    const QRect labelRect(0, r.top(), kLabelWidth, r.height());
    const QColor laneColor = palette().color(lane % 2 == 0 ? QPalette::Base : QPalette::AlternateBase);
    p.fillRect(QRect(0, r.top(), width(), r.height()), laneColor);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(labelRect.adjusted(6, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(l.label, Qt::ElideMiddle, kLabelWidth - 10));
    p.save();
    p.setClipRect(r);
    const qint64 from = qint64(std::floor(viewStart_)), to = qint64(std::ceil(viewStart_ + viewSpan_));
    const int top = r.top() + 3, h = r.height() - 6;
    for (const TimelineItem& item : model_->visibleItems(lane, from, to, plotWidth())) {
        const double x0 = xForTime(double(item.startNs)), x1 = xForTime(double(item.endNs));
        if (item.kind == TimelineItem::Kind::mark) {
            const int x = int(std::lround(x0));
            if (item.declined > 0) {
                p.setPen(QPen(kDeclined, 2));
                p.drawLine(x, top, x, top + h);
                const QPolygon triangle({QPoint(x - 4, top), QPoint(x + 4, top), QPoint(x, top + 6)});
                p.setBrush(kDeclined);
                p.drawPolygon(triangle);
            } else {
                p.setPen(QPen(kReleased, 1));
                p.drawLine(x, top + h / 2, x, top + h);
            }
            continue;
        }
        const QRectF box(x0, top, std::max(1.0, x1 - x0), h);
        if (item.count > 1) {
            QColor c = kMerged;
            const double density =
                item.endNs > item.startNs
                    ? std::clamp(double(item.busyNs) / double(item.endNs - item.startNs), 0.0, 1.0)
                    : 1.0;
            c.setAlphaF(0.35 + 0.65 * density);
            p.fillRect(box, c);
            if (box.width() > 40) {
                // Black or white, whichever reads on the merged colour as painted over this lane.
                p.setPen(ThemeColors::textOn(ThemeColors::over(c, laneColor)));
                p.drawText(box, Qt::AlignCenter, QString::number(item.count));
            }
            continue;
        }
        const TimelineWindow& w = l.windows[std::size_t(item.first)];
        const TimelinePart* parts = model_->partsOf(w);
        if (box.width() >= 6 && w.partCount > 0) {
            for (int i = 0; i < w.partCount; ++i) {
                const double px0 = xForTime(double(parts[i].startNs)),
                             px1 = xForTime(double(parts[i].endNs()));
                if (px1 - px0 >= 0.5) {
                    p.fillRect(QRectF(px0, top, px1 - px0, h), partColor(parts[i]));
                }
            }
        } else {
            p.fillRect(box, kPass);
        }
        // A window wide enough to hold text names its kernel (elided in the middle), in the palette's text
        // colour on a band of its base colour, so it reads over the parts' colours on light and dark
        // palettes.
        if (const QString name = windowLabel(w.row, box.width()); !name.isEmpty()) {
            const QRectF band(box.left() + 2, top + h / 2.0 - p.fontMetrics().height() / 2.0 - 1,
                              p.fontMetrics().horizontalAdvance(name) + 4, p.fontMetrics().height() + 2);
            p.fillRect(band, labelBandColor(palette()));
            p.setPen(palette().color(QPalette::Text));
            p.drawText(band, Qt::AlignCenter, name);
        }
        if (w.row == selected_) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box.adjusted(-1, -1, 1, 1));
        }
    }
    p.restore();
}

QString TimelineCanvas::windowLabel(int row, double widthPx) const {
    if (widthPx < 60 || model_ == nullptr) {
        return {};
    }
    const QString name = fontMetrics().elidedText(model_->kernelName(row), Qt::ElideMiddle, int(widthPx) - 8);
    return name == QStringLiteral("…") ? QString() : name;
}

int TimelineCanvas::rowAt(const QPoint& pos) const {
    const int lane = laneAt(pos.y());
    if (lane < 0 || pos.x() < kLabelWidth) {
        return -1;
    }
    const TimelineLane& l = model_->lanes()[std::size_t(lane)];
    const qint64 t = qint64(std::llround(timeForX(pos.x())));
    if (l.kind == TimelineLane::Kind::agent) {
        const int w = model_->windowAt(lane, t, toleranceNs());
        return w < 0 ? -1 : l.windows[std::size_t(w)].row;
    }
    const int m = model_->markAt(lane, t, toleranceNs());
    return m < 0 ? -1 : l.marks[std::size_t(m)].row;
}

QString TimelineCanvas::toolTipAt(const QPoint& pos) const {
    const int lane = laneAt(pos.y());
    if (lane < 0 || pos.x() < kLabelWidth) {
        return {};
    }
    const TimelineLane& l = model_->lanes()[std::size_t(lane)];
    const SessionSnapshot& s = model_->snapshot();
    const qint64 t = qint64(std::llround(timeForX(pos.x())));
    if (l.kind == TimelineLane::Kind::agent) {
        const int wi = model_->windowAt(lane, t, toleranceNs());
        if (wi < 0) {
            return {};
        }
        const TimelineWindow& w = l.windows[std::size_t(wi)];
        const DispatchRow& r = s->dispatches[std::size_t(w.row)];
        QString text = tr("%1 — dispatch %2\nwindow: %3 (%4 parts)")
                           .arg(model_->kernelName(w.row))
                           .arg(r.id)
                           .arg(duration(double(w.durationNs)))
                           .arg(w.partCount);
        if (const TimelinePart* part = model_->partAt(lane, wi, t)) {
            text += tr("\n%1: %2").arg(part->name(), duration(double(part->durationNs)));
        }
        return text;
    }
    const int mi = model_->markAt(lane, t, toleranceNs());
    if (mi < 0) {
        return {};
    }
    const TimelineMark& m = l.marks[std::size_t(mi)];
    const DispatchRow& r = s->dispatches[std::size_t(m.row)];
    return m.declined() ? tr("%1 — dispatch %2\ndeclined: %3")
                              .arg(model_->kernelName(m.row))
                              .arg(r.id)
                              .arg(model_->decisionName(m.decision))
                        : tr("%1 — dispatch %2\nreleased after its replay window")
                              .arg(model_->kernelName(m.row))
                              .arg(r.id);
}

bool TimelineCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = model_ ? toolTipAt(help->pos()) : QString();
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        const double h = event->angleDelta().x() / 120.0;
        if (h != 0) {
            pan(-h * 0.1);
        }
        event->accept();
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier) {
        pan(-steps * 0.1);
    } else { // wheel and ctrl+wheel zoom around the cursor
        zoom(std::pow(1.25, steps), event->position().x());
    }
    event->accept();
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        dragging_ = true;
        moved_ = false;
        pressPos_ = event->position().toPoint();
        pressStart_ = viewStart_;
    }
    QWidget::mousePressEvent(event);
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_) {
        const QPoint d = event->position().toPoint() - pressPos_;
        if (d.manhattanLength() > 3) {
            moved_ = true;
        }
        if (moved_) {
            setView(pressStart_ - d.x() * viewSpan_ / double(plotWidth()), viewSpan_);
        }
    }
    QWidget::mouseMoveEvent(event);
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && dragging_) {
        dragging_ = false;
        if (!moved_ && model_) {
            const int row = rowAt(event->position().toPoint());
            if (row >= 0) {
                setSelectedRow(row);
                emit dispatchClicked(row);
            }
        }
    }
    QWidget::mouseReleaseEvent(event);
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && model_) {
        const int row = rowAt(event->position().toPoint());
        if (row >= 0) {
            emit dispatchActivated(row);
        }
    }
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom(1.5);
        break;
    case Qt::Key_Minus:
        zoom(1 / 1.5);
        break;
    case Qt::Key_Left:
        pan(-0.2);
        break;
    case Qt::Key_Right:
        pan(0.2);
        break;
    case Qt::Key_F:
    case Qt::Key_0:
    case Qt::Key_Home:
        fit();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace rs::app
