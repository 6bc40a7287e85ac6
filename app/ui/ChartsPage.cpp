// SPDX-License-Identifier: MIT
#include "ui/ChartsPage.h"

#include "model/ChartSeriesBuilder.h"
#include "ui/ChartAdapter.h"
#include "ui/PassSpreadPanel.h"
#include "ui/TablePanel.h"

#include <QComboBox>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QMenu>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

namespace rs::app {

namespace {
constexpr int kBatchMs = 100; // ~10 redraws per second at most
}

ChartsPage::ChartsPage(QWidget* parent)
    : QWidget(parent), timer_(new QTimer(this)), selector_(new QComboBox(this)) {
    selector_->setObjectName(QStringLiteral("chartsProcessFilter"));
    selector_->addItem(tr("All processes"), 0);
    selector_->setVisible(false);
    connect(selector_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setProcessFilter(selector_->itemData(i).toInt()); });
    timer_->setSingleShot(true);
    timer_->setInterval(kBatchMs);
    connect(timer_, &QTimer::timeout, this, &ChartsPage::rebuild);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* content = new QWidget(scroll);
    auto* grid = new QGridLayout(content);
    // Values come from ChartSeriesBuilder in MiB, ms and s: each axis gets the unit that fits its data.
    using Unit = ChartAdapter::Unit;
    constexpr double kMiB = 1024.0 * 1024.0;
    struct Def {
        const char* file;
        QString title, x, y;
        Unit xUnit = Unit::count;
        double xScale = 1;
        Unit yUnit = Unit::number;
        double yScale = 1;
    };
    const QList<Def> defs{
        {"snapshot-bytes", tr("Snapshot size by dispatch, latest per agent, stacked"), tr("dispatch"),
         tr("snapshot size"), Unit::count, 1, Unit::bytes, kMiB},
        {"snapshot-restore-time", tr("Snapshot and restore time"), tr("dispatch"), tr("time"), Unit::count, 1,
         Unit::time, 1e6},
        {"pass-spread", tr("Pass-to-pass spread of kernel time (slowest / fastest pass − 1)"),
         tr("spread (%)"), tr("% of dispatches"), Unit::count, 1, Unit::number, 1},
        {"skipped-regions", tr("Regions skipped at restore"), tr("dispatch"), tr("regions"), Unit::count, 1,
         Unit::count, 1},
        {"declines", tr("Declined dispatches by reason"), tr("dispatch"), QString(), Unit::count, 1,
         Unit::count, 1},
        {"tracked-footprint", tr("Tracked footprint per agent over time"),
         tr("time since the first allocation"), tr("tracked bytes"), Unit::time, 1e9, Unit::bytes, kMiB},
        {"bytes-moved", tr("Bytes restored per dispatch: full restore vs actually moved"), tr("dispatch"),
         tr("bytes"), Unit::count, 1, Unit::bytes, kMiB}};
    // The threshold list of the spread goes right after the spread histogram, in the cell beside it.
    spread_ = new PassSpreadPanel(content);
    connect(spread_, &PassSpreadPanel::dispatchSelected, this, &ChartsPage::dispatchSelected);
    connect(spread_, &PassSpreadPanel::dispatchActivated, this, &ChartsPage::dispatchActivated);
    int cell = 0;
    auto place = [grid, &cell](QWidget* w) {
        grid->addWidget(w, cell / 2, cell % 2);
        grid->setRowMinimumHeight(cell / 2, 300);
        ++cell;
    };
    for (int i = 0; i < defs.size(); ++i) {
        auto* chart = new ChartAdapter(defs[i].title, defs[i].x, defs[i].y, content);
        chart->setUnits(defs[i].xUnit, defs[i].xScale, defs[i].yUnit, defs[i].yScale);
        chart->setObjectName(QString::fromLatin1(defs[i].file));
        chart->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(chart, &QWidget::customContextMenuRequested, this, [this, chart](const QPoint& at) {
            QMenu menu;
            menu.addAction(tr("Save as PNG…"), this, [this, chart] {
                const QString path = QFileDialog::getSaveFileName(
                    this, tr("Save chart"), chart->objectName() + QStringLiteral(".png"),
                    tr("PNG image (*.png)"));
                if (!path.isEmpty()) {
                    chart->savePng(path);
                }
            });
            menu.exec(chart->mapToGlobal(at));
        });
        charts_ << chart;
        files_ << QString::fromLatin1(defs[i].file);
        place(chart);
        if (files_.last() == QLatin1String("pass-spread")) {
            place(spread_);
        }
    }
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(selector_, 0, Qt::AlignLeft);
    layout->addWidget(scroll);
}

void ChartsPage::setSnapshot(const SessionSnapshot& snapshot) {
    pending_ = snapshot;
    const auto processes = TablePanel::processChoices(snapshot);
    if (selector_->count() != processes.size() + 1) {
        selector_->blockSignals(true);
        selector_->clear();
        selector_->addItem(tr("All processes"), 0);
        for (const auto& [label, process] : processes) {
            selector_->addItem(label, process);
        }
        selector_->setCurrentIndex(std::max(0, selector_->findData(process_)));
        selector_->blockSignals(false);
    }
    selector_->setVisible(processes.size() > 1);
    if (!timer_->isActive()) {
        timer_->start();
    }
}

void ChartsPage::setProcessFilter(int process) {
    process_ = process;
    const int at = selector_->findData(process);
    if (at >= 0 && selector_->currentIndex() != at) {
        selector_->blockSignals(true);
        selector_->setCurrentIndex(at);
        selector_->blockSignals(false);
    }
    flush();
}

void ChartsPage::flush() {
    timer_->stop();
    rebuild();
}

void ChartsPage::rebuild() {
    if (pending_.isNull()) {
        return;
    }
    ++rebuilds_;
    const ChartSeriesBuilder b(pending_, process_);
    charts_[0]->setSeries(b.snapshotBytesStacked(), ChartAdapter::Kind::stackedArea);
    charts_[1]->setSeries(b.snapshotAndRestoreTime(), ChartAdapter::Kind::line);
    const PassSpreadModel::Histogram spread = b.passSpread();
    if (spread.total == 0) {
        charts_[2]->setPlaceholder(tr("no replayed dispatch with two or more timed passes"));
    } else {
        charts_[2]->setHistogram(spread.labels, spread.percent);
    }
    spread_->setSnapshot(pending_, process_);
    charts_[3]->setSeries(b.skippedRegions(), ChartAdapter::Kind::line);
    const auto declines = b.declines();
    QStringList labels;
    for (const auto& s : declines) {
        labels << s.name;
    }
    charts_[4]->setRowLabels(labels);
    if (declines.isEmpty()) {
        charts_[4]->setPlaceholder(tr("every dispatch was replayed"));
    } else {
        charts_[4]->setSeries(declines, ChartAdapter::Kind::scatter);
    }
    charts_[5]->setSeries(b.footprintOverTime(), ChartAdapter::Kind::step);
    if (!pending_->hasRestoreRecords) {
        charts_[6]->setPlaceholder(tr("the session predates restore records (format 4)"));
    } else {
        charts_[6]->setSeries(b.bytesMovedVsFootprint(), ChartAdapter::Kind::line);
    }
}

QStringList ChartsPage::exportPngs(const QString& dir) const {
    QStringList written;
    QDir().mkpath(dir);
    for (int i = 0; i < charts_.size(); ++i) {
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(i + 1).arg(files_[i]));
        if (charts_[i]->savePng(path)) {
            written << path;
        }
    }
    return written;
}

} // namespace rs::app
