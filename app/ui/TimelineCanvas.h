// SPDX-License-Identifier: MIT
// The painted area of the timeline page: lane labels, a time axis, and per lane what
// TimelineModel::visibleItems() returns for the visible range (never one item per dispatch).
#pragma once

#include "model/TimelineModel.h"

#include <QWidget>

#include <memory>

namespace rs::app {

class TimelineCanvas : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kLabelWidth = 190; ///< px of the lane label column
    static constexpr int kAxisHeight = 26;  ///< px of the time axis above the lanes
    static constexpr int kLaneHeight = 24;  ///< px per lane

    explicit TimelineCanvas(QWidget* parent = nullptr);
    /// Shows `model` (shared with the page); keeps the view when the time range still fits, else fits.
    void setModel(std::shared_ptr<const TimelineModel> model);
    const TimelineModel* model() const { return model_.get(); }

    /// The visible range: starts at `startNs` (CLOCK_MONOTONIC ns), `spanNs` wide (clamped to >= 10 ns).
    void setView(double startNs, double spanNs);
    double viewStartNs() const { return viewStart_; }
    double viewSpanNs() const { return viewSpan_; }
    /// Shows the whole session.
    void fit();
    /// Zooms by `factor` (> 1: in) around the time at x `anchorX` (widget px; -1: the middle).
    void zoom(double factor, double anchorX = -1);
    /// Moves the view by `fraction` of its width (negative: earlier).
    void pan(double fraction);

    /// Widget x of time `ns`; time at widget x.
    double xForTime(double ns) const;
    double timeForX(double x) const;
    /// The rectangle of lane `lane` (label column excluded).
    QRect laneRect(int lane) const;
    /// Lane under widget y, -1 if none.
    int laneAt(int y) const;
    int plotWidth() const;

    /// Dispatch row whose window is drawn selected (-1 none).
    void setSelectedRow(int row);
    int selectedRow() const { return selected_; }

    /// The tooltip for widget position `pos` ("" when nothing is there): the part and its duration.
    QString toolTipAt(const QPoint& pos) const;
    /// The label drawn inside a window `widthPx` pixels wide of dispatch row `row`: its kernel name as
    /// shown, elided in the middle to fit; empty when the window is narrower than 60 px.
    QString windowLabel(int row, double widthPx) const;
    /// The dispatch row of the window or mark at `pos`, -1 if none.
    int rowAt(const QPoint& pos) const;

    /// The colour a part is painted with (snapshot, passes alternating, restore, final restore). These
    /// colours are the same on light and dark palettes (each has a contrast of at least 3:1 with both).
    static QColor colorOf(const TimelinePart& part);
    /// The colour of a declined dispatch's mark.
    static QColor declinedColor();
    /// The colour of an item of several windows merged (drawn more transparent the less they fill it).
    static QColor mergedColor();
    /// The colour of the mark of a dispatch released after its window.
    static QColor releasedColor();
    /// The band under a window's kernel name: the palette's Base, mostly opaque (the name is drawn in
    /// its Text colour).
    static QColor labelBandColor(const QPalette& palette);

    QSize sizeHint() const override;

  signals:
    /// The visible range changed (zoom, pan, fit).
    void viewChanged();
    /// A window or mark was clicked: dispatch row `row` of the session.
    void dispatchClicked(int row);
    /// A window or mark was double-clicked.
    void dispatchActivated(int row);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

  private:
    void paintAxis(QPainter& p);
    void paintLane(QPainter& p, int lane);
    qint64 toleranceNs() const;

    std::shared_ptr<const TimelineModel> model_;
    double viewStart_ = 0, viewSpan_ = 1e6;
    int selected_ = -1;
    bool dragging_ = false, moved_ = false;
    QPoint pressPos_;
    double pressStart_ = 0;
};

} // namespace rs::app
