// SPDX-License-Identifier: MIT
#include "ui/ComparePage.h"

#include "model/ComparisonTableModel.h"
#include "model/CounterComparisonModel.h"
#include "model/SessionReader.h"
#include "ui/ChartAdapter.h"
#include "ui/TablePanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

namespace rs::app {

namespace {
QString chartTitle(const QString& metric) {
    return QStringLiteral("Difference per kernel: %1 (new against base)").arg(metric);
}
} // namespace

ComparePage::ComparePage(QWidget* parent)
    : QWidget(parent), model_(new ComparisonTableModel(this)),
      panel_(new TablePanel(model_, QStringLiteral("comparison"), this)),
      counter_model_(new CounterComparisonModel(this)),
      counter_panel_(new TablePanel(counter_model_, QStringLiteral("counterComparison"), this)),
      changed_only_(new QCheckBox(tr("Changed only"), this)), metric_(new QComboBox(this)),
      header_(new QLabel(this)),
      chart_(new ChartAdapter(chartTitle(SessionComparison::chartMetrics().value(0)), tr("difference %"),
                              tr("kernel"), this)) {
    changed_only_->setObjectName(QStringLiteral("compareChangedOnly"));
    metric_->setObjectName(QStringLiteral("compareChartMetric"));
    metric_->addItems(SessionComparison::chartMetrics());
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    panel_->addTextFilter(tr("Kernel (substring or regex)"));
    counter_panel_->addTextFilter(tr("Kernel (substring or regex)"));
    counter_panel_->hide();
    connect(changed_only_, &QCheckBox::toggled, model_, &ComparisonTableModel::setChangedOnly);
    connect(changed_only_, &QCheckBox::toggled, counter_model_, &CounterComparisonModel::setChangedOnly);
    connect(metric_, &QComboBox::currentIndexChanged, this, &ComparePage::updateChart);

    auto* top = new QHBoxLayout;
    top->addWidget(header_, 1);
    top->addWidget(changed_only_);
    top->addWidget(new QLabel(tr("Chart:"), this));
    top->addWidget(metric_);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(panel_);
    split->addWidget(counter_panel_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
}

void ComparePage::setComparison(const SessionComparison& comparison) {
    model_->setComparison(comparison);
    counter_model_->setComparison(comparison);
    counter_panel_->setVisible(!comparison.counters().empty());
    // Kernel and metric names are the keys of every row: shown whole up to 48 characters.
    panel_->fitColumnsToContents(48);
    counter_panel_->fitColumnsToContents(48);
    const QString current = metric_->currentText();
    {
        const QSignalBlocker block(metric_);
        metric_->clear();
        metric_->addItems(comparison.allChartMetrics());
        metric_->setCurrentText(current);
    }
    const auto both = comparison.count(SessionComparison::Side::both);
    QStringList rule = comparison.kernelTimeRule();
    for (QString& l : rule) {
        l = l.trimmed().toHtmlEscaped();
    }
    header_->setToolTip(rule.join(QLatin1Char(' ')));
    header_->setText(tr("<b>base</b> %1 (format %2) &nbsp; <b>new</b> %3 (format %4)<br>%5 kernels in both, "
                        "%6 changed; %7 only in base, %8 only in new; %9")
                         .arg(QFileInfo(comparison.basePath()).fileName().toHtmlEscaped())
                         .arg(comparison.baseFormat())
                         .arg(QFileInfo(comparison.newPath()).fileName().toHtmlEscaped())
                         .arg(comparison.newFormat())
                         .arg(both)
                         .arg(comparison.changedKernels() -
                              comparison.count(SessionComparison::Side::baseOnly) -
                              comparison.count(SessionComparison::Side::newOnly))
                         .arg(comparison.count(SessionComparison::Side::baseOnly))
                         .arg(comparison.count(SessionComparison::Side::newOnly))
                         .arg(comparison.counters().empty() ? tr("no counter collected in both")
                                                            : tr("%1 counters compared, %2 changed")
                                                                  .arg(comparison.counters().size())
                                                                  .arg(comparison.changedCounters())) +
                     (comparison.simulated()
                          ? tr("<br><b>simulated runtime</b>: kernel time is the host's time running the "
                               "interpreter, shown with its noise band and never called a change")
                          : QString()));
    updateChart();
}

void ComparePage::openFiles(const QString& base, const QString& now) {
    for (SessionReader* r : {base_reader_, new_reader_}) {
        delete r;
    }
    base_ = now_ = {};
    compared_ = false;
    header_->setText(
        tr("reading %1 and %2…")
            .arg(QFileInfo(base).fileName().toHtmlEscaped(), QFileInfo(now).fileName().toHtmlEscaped()));
    base_reader_ = new SessionReader(this);
    new_reader_ = new SessionReader(this);
    for (SessionReader* r : {base_reader_, new_reader_}) {
        connect(r, &SessionReader::snapshotReady, this, [this, r](const SessionSnapshot& s) {
            (r == base_reader_ ? base_ : now_) = s;
            onSnapshot();
        });
        connect(r, &SessionReader::failed, this, [this](const SessionError& e) {
            header_->setText(tr("<b>%1</b>: %2").arg(e.path.toHtmlEscaped(), e.message.toHtmlEscaped()));
            emit failed(e);
        });
    }
    // A comparison reads no inventory region (SessionLoader::Parts).
    base_reader_->open(base, false, SessionLoader::Parts::withoutRegions);
    new_reader_->open(now, false, SessionLoader::Parts::withoutRegions);
}

void ComparePage::onSnapshot() {
    // The loader's first phase has every figure of a comparison (model/SessionLoader.h); a later picture
    // of the same file (misses, placements) changes none.
    if (base_.isNull() || now_.isNull() || compared_) {
        return;
    }
    compared_ = true;
    setComparison(SessionComparison::compare(base_, now_));
    emit compared();
}

void ComparePage::updateChart() {
    const QString metric = metric_->currentText();
    // The adapter's title is fixed at construction; a fresh adapter per metric keeps the title right.
    auto* next = new ChartAdapter(chartTitle(metric), tr("difference %"), tr("kernel"), this);
    const auto bars = model_->comparison().differenceBars(metric);
    if (bars.isEmpty()) {
        next->setPlaceholder(tr("no kernel of both sessions with a recorded %1").arg(metric));
    } else {
        next->setBars(bars);
    }
    if (auto* split = qobject_cast<QSplitter*>(chart_->parentWidget())) {
        split->replaceWidget(split->indexOf(chart_), next);
    }
    chart_->deleteLater();
    chart_ = next;
}

QStringList ComparePage::exportPngs(const QString& dir) const {
    QStringList written;
    if (!QDir().mkpath(dir)) {
        return written;
    }
    const QStringList metrics = model_->comparison().allChartMetrics();
    for (int i = 0; i < metrics.size(); ++i) {
        ChartAdapter chart(chartTitle(metrics[i]), tr("difference %"), tr("kernel"));
        const auto bars = model_->comparison().differenceBars(metrics[i]);
        if (bars.isEmpty()) {
            chart.setPlaceholder(tr("no kernel of both sessions with a recorded %1").arg(metrics[i]));
        } else {
            chart.setBars(bars);
        }
        QString slug = metrics[i];
        slug.replace(QLatin1Char('('), QString())
            .replace(QLatin1Char(')'), QString())
            .replace(QLatin1Char(':'), QString())
            .replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString path = QDir(dir).filePath(QStringLiteral("compare-%1-%2.png").arg(i + 1).arg(slug));
        if (chart.savePng(path, QSize(1200, 600))) {
            written << path;
        }
    }
    return written;
}

} // namespace rs::app
