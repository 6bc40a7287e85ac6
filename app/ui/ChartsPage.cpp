// SPDX-License-Identifier: MIT
#include "ui/ChartsPage.h"

#include "model/ChartSeriesBuilder.h"
#include "ui/ChartAdapter.h"
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
    struct Def {
        const char* file;
        QString title, x, y;
    };
    const QList<Def> defs{
        {"snapshot-bytes", tr("Snapshot size by dispatch, latest per agent, stacked"), tr("dispatch"),
         tr("MiB")},
        {"snapshot-restore-time", tr("Snapshot and restore time"), tr("dispatch"), tr("ms")},
        {"kernel-time-per-pass", tr("Kernel time per pass"), tr("dispatch"), tr("µs")},
        {"skipped-regions", tr("Regions skipped at restore"), tr("dispatch"), tr("regions")},
        {"declines", tr("Declined dispatches by reason"), tr("dispatch"), QString()},
        {"tracked-footprint", tr("Tracked footprint per agent over time"),
         tr("seconds since the first allocation"), tr("MiB")},
        {"bytes-moved", tr("Bytes restored per dispatch: full restore vs actually moved"), tr("dispatch"),
         tr("MiB")}};
    for (int i = 0; i < defs.size(); ++i) {
        auto* chart = new ChartAdapter(defs[i].title, defs[i].x, defs[i].y, content);
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
        grid->addWidget(chart, i / 2, i % 2);
        grid->setRowMinimumHeight(i / 2, 300);
    }
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
    charts_[2]->setSeries(b.kernelTimePerPass(), ChartAdapter::Kind::line);
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
