// SPDX-License-Identifier: MIT
#include "ui/HeadlessExporter.h"

#include "model/ChartSeriesBuilder.h"
#include "model/CounterSummary.h"
#include "model/CounterTableModel.h"
#include "model/JobKernelTableModel.h"
#include "model/SessionLoader.h"
#include "model/SessionReader.h"
#include "ui/AuditPage.h"
#include "ui/ChartAdapter.h"
#include "ui/ChartsPage.h"
#include "ui/ComparePage.h"
#include "ui/CountersPage.h"
#include "ui/DispatchDetailWidget.h"
#include "ui/DispatchesPage.h"
#include "ui/JobView.h"
#include "ui/KernelsPage.h"
#include "ui/LaunchDialog.h"
#include "ui/MainWindow.h"
#include "ui/SessionView.h"
#include "ui/StartPage.h"
#include "ui/SummaryPage.h"
#include "ui/TablePanel.h"
#include "ui/TimelinePage.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>

#include <algorithm>
#include <optional>

namespace rs::app {

namespace {
QString describe(const SessionError& e) {
    return QStringLiteral("%1: %2: %3").arg(e.path, e.title(), e.message);
}

/// `kernel`'s label reduced to what a file name holds everywhere: letters, digits and '_', at most 48
/// characters.
QString fileNamePart(const QString& kernel) {
    QString out = CounterSummary::kernelLabel(kernel).left(48);
    for (QChar& c : out) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('_')) {
            c = QLatin1Char('_');
        }
    }
    return out;
}

void settle(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
}
} // namespace

bool HeadlessExporter::exportCharts(const QString& session, const QString& dir, QStringList& written,
                                    QString& error) {
    SessionError e;
    const SessionSnapshot s = SessionLoader::loadAll(session, e);
    if (e.isError()) {
        error = describe(e);
        return false;
    }
    if (!QDir().mkpath(dir)) {
        error = QStringLiteral("%1: cannot create the directory").arg(dir);
        return false;
    }
    ChartsPage page;
    page.resize(1400, 1000);
    page.setSnapshot(s);
    page.flush();
    written = page.exportPngs(dir);
    AuditPage audit;
    audit.resize(1400, 900);
    audit.setSnapshot(s);
    // The audit charts follow the charts page's (numbered after them).
    const int next = int(page.charts().size()) + 1;
    const QString reasons = QDir(dir).filePath(QStringLiteral("%1-audit-tracking-decisions.png").arg(next));
    const QString outcomes =
        QDir(dir).filePath(QStringLiteral("%1-audit-not-replayed-reasons.png").arg(next + 1));
    if (audit.reasonChart()->savePng(reasons, QSize(1000, 500))) {
        written << reasons;
    }
    if (audit.outcomeChart()->savePng(outcomes, QSize(1000, 500))) {
        written << outcomes;
    }
    // Hardware counters (format 7): per kernel and counter, its value per dispatch, for the kernels with the
    // most dispatches counted, numbered after the audit's.
    int number = next + 2, charted = 0;
    const ChartSeriesBuilder builder(s);
    const std::vector<CounterSummary::Stat> stats =
        CounterSummary::stats(s, CounterSummary::Grouping::kernel);
    for (const QString& kernel : builder.counterKernels(kCounterChartKernels)) {
        for (const CounterSummary::Stat& st : stats) {
            if (st.kernel != kernel || charted == kMaxCounterCharts) {
                continue;
            }
            ChartAdapter chart(
                QStringLiteral("%1 of %2, per dispatch").arg(st.counter, CounterSummary::kernelLabel(kernel)),
                QStringLiteral("dispatch order"), QStringLiteral("%1 (%2)").arg(st.counter, st.unit));
            chart.setUnits(ChartAdapter::Unit::count, 1,
                           st.derived ? ChartAdapter::Unit::number : ChartAdapter::Unit::count, 1);
            chart.resize(1000, 500);
            chart.setSeries({builder.counterPerDispatch(kernel, st.counter)}, ChartAdapter::Kind::line);
            const QString path = QDir(dir).filePath(
                QStringLiteral("%1-counter-%2-%3.png").arg(number++).arg(fileNamePart(kernel), st.counter));
            ++charted;
            if (chart.savePng(path, QSize(1000, 500))) {
                written << path;
            }
        }
    }
    const int expected = int(page.charts().size()) + 2 + charted;
    return written.size() == expected;
}

bool HeadlessExporter::screenshots(const QString& session, const QString& dir, QStringList& written,
                                   QString& error, const QStringList& others) {
    if (!QDir().mkpath(dir)) {
        error = QStringLiteral("%1: cannot create the directory").arg(dir);
        return false;
    }
    MainWindow window;
    window.setInteractive(false);
    window.resize(1500, 920);
    window.show();
    SessionView* view = window.openSession(session);
    std::optional<SessionError> failed;
    QObject::connect(view->reader(), &SessionReader::failed, &window,
                     [&failed](const SessionError& e) { failed = e; });
    QElapsedTimer t;
    t.start();
    while ((view->snapshot().isNull() || !view->snapshot()->regionsLoaded) && !failed &&
           t.elapsed() < 30000) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    if (failed) {
        error = describe(*failed);
        return false;
    }
    auto grab = [&](const QString& name) {
        settle(300);
        const QString path = QDir(dir).filePath(name);
        if (window.grab().save(path)) {
            written << path;
        }
    };
    window.startPage()->refresh();
    window.tabs()->setCurrentIndex(0);
    grab(QStringLiteral("start-page.png"));
    window.tabs()->setCurrentWidget(view);
    view->pages()->setCurrentWidget(view->summaryPage());
    grab(QStringLiteral("summary.png"));
    view->pages()->setCurrentWidget(view->kernelsPage());
    view->kernelsPage()->flush();
    grab(QStringLiteral("kernels.png"));
    view->pages()->setCurrentWidget(view->dispatchesPage());
    // A replayed dispatch with skips shows the most detail; else one whose dirty restores moved part of
    // its footprint; else the first replayed one.
    int row = -1;
    const SessionSnapshot s = view->snapshot();
    for (int i = 0; i < int(s->dispatches.size()) && row < 0; ++i) {
        if (s->dispatches[i].replayed() && s->dispatches[i].skips > 0) {
            row = i;
        }
    }
    for (int i = 0; i < int(s->dispatches.size()) && row < 0; ++i) {
        const DispatchRow& d = s->dispatches[std::size_t(i)];
        if (d.restores > 0 && d.movedBytes() > 0 && d.movedBytes() < d.fullRestoreBytes()) {
            row = i;
        }
    }
    for (int i = 0; i < int(s->dispatches.size()) && row < 0; ++i) {
        if (s->dispatches[i].replayed()) {
            row = i;
        }
    }
    row = std::max(row, 0);
    view->dispatchesPage()->selectRow(row);
    view->dispatchesPage()->panel()->view()->scrollTo(
        view->dispatchesPage()->panel()->proxy()->index(row, 0));
    grab(QStringLiteral("dispatches.png"));
    view->dispatchesPage()->detail()->tabs()->setCurrentIndex(1);
    grab(QStringLiteral("dispatch-passes.png"));
    view->dispatchesPage()->detail()->tabs()->setCurrentIndex(2);
    grab(QStringLiteral("dispatch-restore-skips.png"));
    view->dispatchesPage()->detail()->tabs()->setCurrentIndex(0);
    view->pages()->setCurrentWidget(view->auditPage());
    grab(QStringLiteral("audit.png"));
    view->pages()->setCurrentWidget(view->chartsPage());
    view->chartsPage()->flush();
    grab(QStringLiteral("charts.png"));
    view->pages()->setCurrentWidget(view->timelinePage());
    grab(QStringLiteral("timeline.png"));
    if (!s->counterValues.empty()) {
        // The Counters page with the chart of a counter whose values differ between dispatches (the first
        // such row), else of the first row.
        CountersPage* counters = view->countersPage();
        view->pages()->setCurrentWidget(counters);
        counters->flush();
        QAbstractItemModel* proxy = counters->panel()->proxy();
        int current = 0;
        for (int r = 0; r < proxy->rowCount(); ++r) {
            const CounterSummary::Stat& st =
                counters->model()->stat(counters->panel()->proxy()->mapToSource(proxy->index(r, 0)).row());
            if (st.minValue() != st.maxValue()) {
                current = r;
                break;
            }
        }
        counters->panel()->view()->setCurrentIndex(proxy->index(current, 0));
        counters->panel()->view()->scrollTo(proxy->index(current, 0));
        grab(QStringLiteral("counters.png"));
    }
    if (!others.isEmpty()) {
        ComparePage* page = window.compareWith(others[0]);
        bool complete = false, refused = false;
        if (page) {
            QObject::connect(page, &ComparePage::compared, page, [&] { complete = true; });
            QObject::connect(page, &ComparePage::failed, page, [&] { refused = true; });
            QElapsedTimer waited;
            waited.start();
            while (!complete && !refused && waited.elapsed() < 120000) {
                QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
            }
        }
        if (!page || !complete) {
            error = QStringLiteral("%1: cannot be compared with %2").arg(others[0], session);
            return false;
        }
        grab(QStringLiteral("compare.png"));
    }
    if (others.size() >= 3) {
        // The job is loaded on its reader thread: wait for it.
        JobView* job = window.openJob(others.mid(1));
        bool jobLoaded = false;
        std::optional<SessionError> jobFailed;
        QObject::connect(job, &JobView::loaded, &window, [&jobLoaded] { jobLoaded = true; });
        QObject::connect(job, &JobView::failed, &window,
                         [&jobFailed](const SessionError& e) { jobFailed = e; });
        QElapsedTimer jobTimer;
        jobTimer.start();
        while (!jobLoaded && !jobFailed && jobTimer.elapsed() < 30000) {
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        if (!jobLoaded) {
            error = QStringLiteral("%1: cannot be opened as one job%2")
                        .arg(others.mid(1).join(QLatin1Char(' ')),
                             jobFailed ? QStringLiteral(": ") + describe(*jobFailed) : QString());
            return false;
        }
        grab(QStringLiteral("job.png"));
        // The job's Kernels page: the ranks compared per kernel, the slowest first.
        job->pages()->setCurrentIndex(1);
        if (auto* table = job->pages()->currentWidget()->findChild<QTableView*>()) {
            table->sortByColumn(JobKernelTableModel::Imbalance, Qt::DescendingOrder);
        }
        settle(200);
        grab(QStringLiteral("job-kernels.png"));
        job->pages()->setCurrentIndex(0);
    }
    window.tabs()->setCurrentWidget(view);
    auto* launch = window.launchDialog();
    RunCommand::Options o;
    o.program = QStringLiteral("build/default/workloads/hip/demo");
    o.arguments = {QStringLiteral("--iterations"), QStringLiteral("40")};
    o.passes = 3;
    o.kernelExclude = QStringLiteral("^_Z11copy_floats");
    o.hostMemoryBudget = QStringLiteral("2G");
    o.fidelityCheck = true;
    o.simulate = true; // the demo is a HIP program: it runs on the simulated runtime with its stand-ins
    o.standins = QStringLiteral("build/default/workloads/hip/libdemo-standins.so");
    o.output = QStringLiteral("demo.rsdb");
    launch->setOptions(o);
    launch->show();
    settle(300);
    const QString launchPath = QDir(dir).filePath(QStringLiteral("launch-dialog.png"));
    if (launch->grab().save(launchPath)) {
        written << launchPath;
    }
    launch->hide();
    return true;
}

} // namespace rs::app
