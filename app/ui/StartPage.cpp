// SPDX-License-Identifier: MIT
#include "ui/StartPage.h"

#include "model/Format.h"
#include "model/RecentSessions.h"
#include "model/ThemeColors.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rs::app {

StartPage::StartPage(QWidget* parent) : QWidget(parent), recent_(new QTreeWidget(this)) {
    auto* outer = new QHBoxLayout(this);
    auto* column = new QVBoxLayout;
    outer->addStretch(1);
    outer->addLayout(column, 6);
    outer->addStretch(1);
    auto* title = new QLabel(tr("<h1 style='margin-bottom:0'>ReplayScope</h1>"), this);
    // Secondary text in the palette's placeholder colour, readable on light and dark palettes.
    auto* subtitle = new QLabel(tr("Kernel replay memory snapshot and restore, made visible. "
                                   "Launch a program under the replay engine, or open a recorded session "
                                   "(<code>*.rsdb</code>) — drop it anywhere on this window."),
                                this);
    subtitle->setWordWrap(true);
    subtitle->setForegroundRole(QPalette::PlaceholderText);
    column->addSpacing(20);
    column->addWidget(title);
    column->addWidget(subtitle);
    auto* buttons = new QHBoxLayout;
    auto* launch = new QPushButton(tr("Launch…"), this);
    launch->setObjectName(QStringLiteral("launchButton"));
    auto* open = new QPushButton(tr("Open session…"), this);
    open->setObjectName(QStringLiteral("openButton"));
    for (QPushButton* b : {launch, open}) {
        b->setMinimumHeight(36);
        b->setMinimumWidth(160);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    column->addLayout(buttons);
    column->addSpacing(12);
    column->addWidget(new QLabel(tr("<b>Recent sessions</b> (double-click to open)"), this));
    recent_->setColumnCount(6);
    recent_->setHeaderLabels(
        {tr("Target"), tr("Recorded"), tr("GPUs"), tr("Dispatches"), tr("Status"), tr("File")});
    recent_->setRootIsDecorated(false);
    recent_->setAlternatingRowColors(true);
    recent_->setUniformRowHeights(true);
    recent_->header()->setStretchLastSection(true);
    column->addWidget(recent_, 1);
    connect(launch, &QPushButton::clicked, this, &StartPage::launchRequested);
    connect(open, &QPushButton::clicked, this, &StartPage::openDialogRequested);
    connect(recent_, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { emit openRequested(item->data(0, Qt::UserRole).toString()); });
    refresh();
}

void StartPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        refresh();
    }
}

void StartPage::refresh() {
    recent_->clear();
    for (const RecentSessions::Entry& e : RecentSessions::load()) {
        auto* item = new QTreeWidgetItem(recent_);
        item->setText(0, e.target);
        item->setText(1, e.date.toString(QStringLiteral("yyyy-MM-dd hh:mm")));
        item->setText(2, QString::number(e.agents));
        item->setText(3, format::count(e.dispatches));
        item->setText(4, e.complete ? tr("complete") : tr("incomplete"));
        item->setForeground(4, ThemeColors::status(palette(), e.complete ? ThemeColors::Status::good
                                                                         : ThemeColors::Status::bad));
        item->setText(5, e.path);
        item->setData(0, Qt::UserRole, e.path);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        if (!QFileInfo::exists(e.path)) {
            item->setDisabled(true);
            item->setToolTip(5, tr("file no longer exists"));
        }
    }
    const int w = fontMetrics().averageCharWidth();
    const int widths[] = {36, 18, 8, 12, 12};
    for (int c = 0; c < 5; ++c) {
        recent_->setColumnWidth(c, widths[c] * w);
    }
}

} // namespace rs::app
