// SPDX-License-Identifier: MIT
#include "ui/TimelinePage.h"

#include "model/Format.h"
#include "ui/TimelineCanvas.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rs::app {

namespace {

constexpr int kScrollUnits = 100000;

/// A legend entry: a square in the canvas's colour (the same on light and dark palettes), then the text.
QString swatch(const QColor& color, const QString& text) {
    return QStringLiteral("<span style='color:%1'>■</span> %2").arg(color.name(), text);
}

QColor partColor(TimelinePart::Kind kind) {
    TimelinePart part;
    part.kind = kind;
    return TimelineCanvas::colorOf(part);
}

} // namespace

TimelinePage::TimelinePage(QWidget* parent)
    : QWidget(parent), canvas_(new TimelineCanvas(this)), scroll_(new QScrollBar(Qt::Horizontal, this)),
      status_(new QLabel(this)) {
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setObjectName(QStringLiteral("timelineFit"));
    fit->setToolTip(tr("Show the whole session (F)"));
    auto* in = new QPushButton(tr("Zoom in"), this);
    in->setToolTip(tr("Wheel or + to zoom in around the cursor"));
    auto* out = new QPushButton(tr("Zoom out"), this);
    out->setToolTip(tr("Wheel or - to zoom out; drag, shift+wheel or arrow keys to pan"));
    connect(fit, &QPushButton::clicked, canvas_, &TimelineCanvas::fit);
    connect(in, &QPushButton::clicked, canvas_, [this] { canvas_->zoom(2.0); });
    connect(out, &QPushButton::clicked, canvas_, [this] { canvas_->zoom(0.5); });
    auto* legend = new QLabel(this);
    legend->setTextFormat(Qt::RichText);
    legend->setText(QStringList{swatch(partColor(TimelinePart::Kind::fenceWait), tr("fence wait")),
                                swatch(partColor(TimelinePart::Kind::snapshot), tr("snapshot")),
                                swatch(partColor(TimelinePart::Kind::pass), tr("pass")),
                                swatch(partColor(TimelinePart::Kind::restore), tr("restore")),
                                swatch(partColor(TimelinePart::Kind::finalRestore), tr("final restore")),
                                swatch(TimelineCanvas::mergedColor(), tr("several windows")),
                                swatch(TimelineCanvas::declinedColor(), tr("declined"))}
                        .join(QStringLiteral("&nbsp;&nbsp;")));
    auto* bar = new QHBoxLayout;
    bar->addWidget(fit);
    bar->addWidget(in);
    bar->addWidget(out);
    bar->addSpacing(12);
    bar->addWidget(legend);
    bar->addStretch(1);
    bar->addWidget(status_);

    auto* area = new QScrollArea(this);
    area->setWidget(canvas_);
    area->setWidgetResizable(true);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(area, 1);
    layout->addWidget(scroll_);
    scroll_->setObjectName(QStringLiteral("timelineScrollBar"));
    connect(canvas_, &TimelineCanvas::viewChanged, this, &TimelinePage::syncScrollBar);
    connect(scroll_, &QScrollBar::valueChanged, this, &TimelinePage::scrolled);
    connect(canvas_, &TimelineCanvas::dispatchClicked, this, &TimelinePage::dispatchClicked);
    connect(canvas_, &TimelineCanvas::dispatchActivated, this, &TimelinePage::dispatchActivated);
}

void TimelinePage::setSnapshot(const SessionSnapshot& snapshot) {
    model_ = std::make_shared<const TimelineModel>(snapshot);
    canvas_->setModel(model_);
    status_->setText(tr("%1 replay windows, %2 declined, %3 lanes")
                         .arg(format::count(model_->windowCount()), format::count(model_->declinedCount()))
                         .arg(model_->lanes().size()));
    syncScrollBar();
}

void TimelinePage::setSelectedRow(int row) {
    canvas_->setSelectedRow(row);
}

void TimelinePage::syncScrollBar() {
    if (!model_ || syncing_) {
        return;
    }
    const double begin = double(model_->beginNs()),
                 full = std::max(1.0, double(model_->endNs() - model_->beginNs()));
    const int page =
        std::clamp(int(std::lround(canvas_->viewSpanNs() / full * kScrollUnits)), 1, kScrollUnits);
    syncing_ = true;
    scroll_->setRange(0, std::max(0, kScrollUnits - page));
    scroll_->setPageStep(page);
    scroll_->setSingleStep(std::max(1, page / 10));
    scroll_->setValue(int(std::lround((canvas_->viewStartNs() - begin) / full * kScrollUnits)));
    syncing_ = false;
}

void TimelinePage::scrolled(int value) {
    if (!model_ || syncing_) {
        return;
    }
    const double full = std::max(1.0, double(model_->endNs() - model_->beginNs()));
    syncing_ = true;
    canvas_->setView(double(model_->beginNs()) + double(value) / kScrollUnits * full, canvas_->viewSpanNs());
    syncing_ = false;
}

} // namespace rs::app
