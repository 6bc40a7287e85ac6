// SPDX-License-Identifier: MIT
// Sessions of several processes (format 3) in the inspector: processes loaded with their own sequence
// spaces, per-process totals, the process column and filter of every table and the charts; and the file
// checks before opening: FIFOs refused without blocking, a full-disk WAL session opened with its committed
// rows (also from a read-only directory, through a checkpointed copy), user_version reported as stored,
// format 2 files still read as one process.
#include "app_test_support.h"
#include "full_disk_session.h"

#include "model/AgentSummaryModel.h"
#include "model/AllocationTableModel.h"
#include "model/AsyncCopyTableModel.h"
#include "model/ChartSeriesBuilder.h"
#include "model/DispatchTableModel.h"
#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ModuleVariableTableModel.h"
#include "model/ProcessTableModel.h"
#include "model/RegionTableModel.h"
#include "model/SessionFilterProxyModel.h"
#include "model/SessionLoader.h"
#include "model/SessionReader.h"
#include "model/TerminalSummary.h"
#include "model/WarningTableModel.h"
#include "ui/ChartsPage.h"
#include "ui/DispatchesPage.h"
#include "ui/SessionView.h"
#include "ui/SummaryPage.h"
#include "ui/TablePanel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QtEndian>

#include <algorithm>
#include <cstring>

#include <sys/stat.h>

using namespace rs::app;

namespace {

/// Rows of `model` through a proxy filtered to `process`; every row shown must carry that process.
int rowsOfProcess(QAbstractItemModel* model, int process, bool* allMatch) {
    SessionFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(model);
    proxy.setProcessFilter(process);
    *allMatch = true;
    for (int r = 0; r < proxy.rowCount(); ++r) {
        *allMatch = *allMatch && proxy.index(r, 0).data(ProcessRole).toInt() == process;
    }
    return proxy.rowCount();
}

} // namespace

class AppProcessesTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString two_; ///< two processes of 300 and 120 dispatches, overlapping sequence numbers

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        SyntheticSession::Options o;
        o.processDispatches = {300, 120};
        two_ = test::synthetic(dir_.path(), QStringLiteral("two.rsdb"), o);
        QVERIFY(!two_.isEmpty());
        // The file really has two processes whose sequence numbers overlap.
        QCOMPARE(test::sqlValue(two_, QStringLiteral("SELECT count(*) FROM processes")).toInt(), 2);
        QVERIFY(test::sqlValue(two_,
                               QStringLiteral("SELECT count(*) FROM dispatch_rows a JOIN dispatch_rows b ON "
                                              "a.id = b.id AND a.process = 1 AND b.process = 2"))
                    .toInt() > 100);
    }

    /// Both processes with their own identity and per-process totals equal to the file's own view.
    void twoProcessesLoaded() {
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(two_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(s->info.formatVersion, 7); // what the current SessionStore writes
        QCOMPARE(s->processes.size(), 2);
        QCOMPARE(s->info.processCount, 2);
        QCOMPARE(s->processes[0].pid, 4242);
        QCOMPARE(s->processes[1].pid, 4243);
        QCOMPARE(s->processes[0].parentPid, 4241);
        QCOMPARE(s->processes[1].parentPid, 4242);
        QCOMPARE(s->processes[0].dispatches, 300);
        QCOMPARE(s->processes[1].dispatches, 120);
        QCOMPARE(int(s->dispatches.size()), 420);
        for (int p = 1; p <= 2; ++p) {
            const ProcessInfo& info = s->processes[p - 1];
            QCOMPARE(info.process, p);
            QVERIFY(info.complete);
            QCOMPARE(info.missingEvents, 0);
            QCOMPARE(info.replayed + info.declined, info.dispatches);
            const QString where = QStringLiteral(" FROM process_totals WHERE process = %1").arg(p);
            QCOMPARE(info.dispatches,
                     test::sqlValue(two_, QStringLiteral("SELECT dispatches") + where).toLongLong());
            QCOMPARE(info.replayed,
                     test::sqlValue(two_, QStringLiteral("SELECT replayed") + where).toLongLong());
            QCOMPARE(info.declined,
                     test::sqlValue(two_, QStringLiteral("SELECT declined") + where).toLongLong());
            QCOMPARE(info.eventsStored,
                     test::sqlValue(two_, QStringLiteral("SELECT events_stored") + where).toLongLong());
            QVERIFY(info.eventsStored > info.dispatches);
        }
        QCOMPARE(s->processes[0].eventsStored + s->processes[1].eventsStored, s->info.eventsStored);
        // Same dispatch id in both processes: two rows, each with its own process's passes.
        const int a = s->dispatchRow.value({1, 7}, -1), b = s->dispatchRow.value({2, 7}, -1);
        QVERIFY(a >= 0 && b >= 0 && a != b);
        QCOMPARE(s->dispatches[a].process, 1);
        QCOMPARE(s->dispatches[b].process, 2);
        for (int i = s->passBegin[b]; i < s->passBegin[b + 1]; ++i) {
            QCOMPARE(s->passes[i].process, 2);
        }
        // Every allocation of process 2 keeps its own id space.
        int second = 0;
        for (const AllocationRow& row : s->allocations) {
            second += row.process == 2;
        }
        QCOMPARE(second,
                 test::sqlValue(two_, QStringLiteral("SELECT count(*) FROM allocations WHERE process = 2"))
                     .toInt());
        QVERIFY(second > 0);
    }

    /// The per-process totals model (QAbstractItemModelTester) and the process column of every table.
    void processModelsAndFilter() {
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(two_, e);
        QVERIFY(!e.isError());
        ProcessTableModel processes;
        QAbstractItemModelTester t0(&processes, QAbstractItemModelTester::FailureReportingMode::QtTest);
        processes.setSnapshot(s);
        QCOMPARE(processes.rowCount(), 2);
        QCOMPARE(processes.columnCount(), int(ProcessTableModel::ColumnCount));
        QCOMPARE(processes.index(0, ProcessTableModel::Pid).data().toString(), QStringLiteral("4242"));
        QCOMPARE(processes.index(1, ProcessTableModel::Parent).data().toString(), QStringLiteral("4242"));
        QCOMPARE(processes.index(0, ProcessTableModel::Dispatches).data().toString(), QStringLiteral("300"));
        QCOMPARE(processes.index(1, ProcessTableModel::Dispatches).data().toString(), QStringLiteral("120"));
        QCOMPARE(processes.index(1, ProcessTableModel::Complete).data().toString(), QStringLiteral("yes"));
        QCOMPARE(processes.index(1, ProcessTableModel::Missing).data().toString(), QStringLiteral("0"));
        QCOMPARE(processes.index(1, ProcessTableModel::Events).data(SortRole).toLongLong(),
                 s->processes[1].eventsStored);
        QVERIFY(processes.index(0, ProcessTableModel::Command)
                    .data()
                    .toString()
                    .contains(QStringLiteral("synthetic-session")));

        DispatchTableModel dispatches;
        AllocationTableModel allocations;
        ModuleVariableTableModel variables;
        WarningTableModel warnings;
        AsyncCopyTableModel copies;
        QAbstractItemModelTester t1(&dispatches, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&allocations, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&variables, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(&warnings, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t5(&copies, QAbstractItemModelTester::FailureReportingMode::QtTest);
        dispatches.setSnapshot(s);
        allocations.setSnapshot(s);
        variables.setSnapshot(s);
        warnings.setSnapshot(s);
        copies.setSnapshot(s);
        QCOMPARE(dispatches.headerData(DispatchTableModel::Process, Qt::Horizontal).toString(),
                 QStringLiteral("Process"));
        QCOMPARE(dispatches.index(0, DispatchTableModel::Process).data().toString(),
                 QStringLiteral("pid 4242"));
        QCOMPARE(dispatches.index(419, DispatchTableModel::Process).data().toString(),
                 QStringLiteral("pid 4243"));
        QCOMPARE(dispatches.index(419, DispatchTableModel::Process).data(SortRole).toLongLong(), 4243);

        struct Case {
            const char* name;
            QAbstractItemModel* model;
            qint64 first, second; // rows of process 1 and 2 in the snapshot
        };
        auto countOf = [&](const auto& rows, int process) {
            qint64 n = 0;
            for (const auto& row : rows) {
                n += row.process == process;
            }
            return n;
        };
        const Case cases[] = {
            {"dispatches", &dispatches, countOf(s->dispatches, 1), countOf(s->dispatches, 2)},
            {"allocations", &allocations, countOf(s->allocations, 1), countOf(s->allocations, 2)},
            {"module variables", &variables, countOf(s->moduleVariables, 1), countOf(s->moduleVariables, 2)},
            {"warnings", &warnings, countOf(s->warnings, 1), countOf(s->warnings, 2)},
            {"async copies", &copies, countOf(s->asyncCopies, 1), countOf(s->asyncCopies, 2)},
        };
        for (const Case& c : cases) {
            QVERIFY2(c.first > 0 && c.second > 0, c.name);
            QCOMPARE(c.model->rowCount(), int(c.first + c.second));
            bool allMatch = false;
            QCOMPARE(rowsOfProcess(c.model, 2, &allMatch), int(c.second));
            QVERIFY2(allMatch, c.name);
            QCOMPARE(rowsOfProcess(c.model, 1, &allMatch), int(c.first));
            QVERIFY2(allMatch, c.name);
        }
        QCOMPARE(countOf(s->dispatches, 2), 120);
    }

    /// The snapshot regions of a dispatch of process 2 are process 2's inventory (same agent handles and
    /// generations as process 1's, other rows).
    void regionsOfProcess() {
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(two_, e);
        QVERIFY(!e.isError());
        int row = -1;
        for (int r = 0; r < int(s->dispatches.size()) && row < 0; ++r) {
            if (s->dispatches[r].process == 2 && s->dispatches[r].hasSnapshot) {
                row = r;
            }
        }
        QVERIFY(row >= 0);
        const DispatchRow& d = s->dispatches[row];
        const auto range = s->regions.ranges.value({2, d.agent, d.generation}, {0, 0});
        QVERIFY(range.second > 0);
        QVERIFY(s->regions.ranges.contains({1, d.agent, d.generation}));
        RegionTableModel regions;
        QAbstractItemModelTester tester(&regions, QAbstractItemModelTester::FailureReportingMode::QtTest);
        regions.setDispatch(s, row);
        QCOMPARE(regions.rowCount(), range.second);
        QCOMPARE(regions.rowCount(), d.snapshotRegions);
        for (int i = range.first; i < range.first + range.second; ++i) {
            QCOMPARE(s->regions.process[std::size_t(i)], 2);
        }
    }

    /// Charts per dispatch with a process filter: process 2 alone has its 120 dispatches on the x axis.
    void chartsByProcess() {
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(two_, e);
        QVERIFY(!e.isError());
        auto passPoints = [](const QVector<ChartSeriesBuilder::Series>& series) {
            int n = 0;
            double maxX = -1;
            for (const auto& one : series) {
                n += int(one.points.size());
                for (const QPointF& p : one.points) {
                    maxX = std::max(maxX, p.x());
                }
            }
            return std::make_pair(n, maxX);
        };
        int passesOf2 = 0;
        for (const PassRow& p : s->passes) {
            passesOf2 += p.process == 2;
        }
        const auto all = passPoints(ChartSeriesBuilder(s).kernelTimePerPass());
        const auto second = passPoints(ChartSeriesBuilder(s, 2).kernelTimePerPass());
        QCOMPARE(all.first, int(s->passes.size()));
        QCOMPARE(second.first, passesOf2);
        QVERIFY(second.first > 0 && second.first < all.first);
        QVERIFY(second.second <= 119);
        const auto stacked = ChartSeriesBuilder(s, 2).snapshotBytesStacked();
        QVERIFY(!stacked.isEmpty());
        QCOMPARE(int(stacked.front().points.size()), 120);
    }

    /// Both processes report the same agent handles: every agent is its process's own, in the per-agent
    /// summary, the agent filter, its entries and the per-agent chart series (they were merged by handle).
    void agentsPerProcess() {
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(two_, e);
        QVERIFY(!e.isError());
        const QString gpu = QString::number(int(rs::ipc::DeviceType::gpu));
        const qint64 agents =
            test::sqlCount(two_, QStringLiteral("SELECT count(*) FROM agents WHERE device_type = ") + gpu);
        QCOMPARE(test::sqlCount(two_, QStringLiteral("SELECT count(DISTINCT handle) FROM agents WHERE "
                                                     "device_type = ") +
                                          gpu),
                 agents / 2); // the same handles in both processes
        AgentSummaryModel summary;
        QAbstractItemModelTester tester(&summary, QAbstractItemModelTester::FailureReportingMode::QtTest);
        summary.setSnapshot(s);
        QCOMPARE(qint64(summary.rowCount()), agents);
        QSet<QString> labels;
        for (int r = 0; r < summary.rowCount(); ++r) {
            const int process = summary.index(r, 0).data(ProcessRole).toInt();
            const qint64 handle = summary.index(r, 0).data(AgentRole).toLongLong();
            const QString where =
                QStringLiteral(" FROM dispatches WHERE process = %1 AND agent = %2").arg(process).arg(handle);
            QCOMPARE(summary.index(r, AgentSummaryModel::Replayed).data(SortRole).toLongLong(),
                     test::sqlCount(two_, QStringLiteral("SELECT count(*)") + where +
                                              QStringLiteral(" AND decision = 0")));
            QCOMPARE(summary.index(r, AgentSummaryModel::Declined).data(SortRole).toLongLong(),
                     test::sqlCount(two_, QStringLiteral("SELECT count(*)") + where +
                                              QStringLiteral(" AND decision != 0")));
            const QString label = summary.index(r, AgentSummaryModel::Agent).data().toString();
            QVERIFY2(label.startsWith(s.processName(process) + QStringLiteral(" · ")), qPrintable(label));
            labels.insert(label);

            // The agent filter keeps that process's dispatches of the agent only.
            DispatchTableModel dispatches;
            dispatches.setSnapshot(s);
            SessionFilterProxyModel proxy;
            proxy.setSourceModel(&dispatches);
            proxy.setAgentFilter(ProcessKey{process, handle});
            QCOMPARE(qint64(proxy.rowCount()),
                     test::sqlCount(two_, QStringLiteral("SELECT count(*)") + where));
            QVERIFY(proxy.rowCount() > 0);
        }
        QCOMPARE(qint64(labels.size()), agents);
        const auto choices = TablePanel::agentChoices(s);
        QCOMPARE(qint64(choices.size()), agents);
        QSet<QString> choiceLabels;
        for (const auto& [label, key] : choices) {
            choiceLabels.insert(label);
        }
        QCOMPARE(choiceLabels, labels);
        const auto stacked = ChartSeriesBuilder(s).snapshotBytesStacked();
        QCOMPARE(qint64(stacked.size()), agents);
        QCOMPARE(qint64(ChartSeriesBuilder(s, 2).snapshotBytesStacked().size()), agents / 2);
        // A one-process session names its agents as before: "<name> #<index among the agents>".
        QCOMPARE(s.agentName(2, s->agents.back().handle).startsWith(s->agents.back().name), true);
        QVERIFY(!s.agentName(1, s->agents[1].handle).contains(QStringLiteral("pid")));
    }

    /// The window: summary page per-process table, dispatch page process filter, charts selector.
    void windowShowsProcesses() {
        SessionView view;
        view.resize(1200, 800);
        QSignalSpy loaded(&view, &SessionView::loaded);
        view.open(two_);
        QVERIFY(loaded.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(view.snapshot()->regionsLoaded, 20000);
        auto* summary = view.findChild<SummaryPage*>();
        QVERIFY(summary);
        QCOMPARE(summary->processesPanel()->proxy()->rowCount(), 2);
        auto* dispatches = view.findChild<DispatchesPage*>();
        QVERIFY(dispatches);
        QComboBox* filter = dispatches->panel()->processFilter();
        QVERIFY(filter);
        QCOMPARE(filter->count(), 3); // all processes + 2
        QVERIFY(!filter->isHidden());
        QCOMPARE(dispatches->panel()->proxy()->rowCount(), 420);
        filter->setCurrentIndex(2);
        QCOMPARE(dispatches->panel()->proxy()->rowCount(), 120);
        filter->setCurrentIndex(0);
        QCOMPARE(dispatches->panel()->proxy()->rowCount(), 420);
        auto* charts = view.findChild<ChartsPage*>();
        QVERIFY(charts);
        QCOMPARE(charts->processSelector()->count(), 3);
        charts->setProcessFilter(2);
        QCOMPARE(charts->processFilter(), 2);
        QCOMPARE(charts->processSelector()->currentIndex(), 2);
    }

    /// A one-process session keeps the process filters hidden.
    void oneProcessHidesFilter() {
        const QString one = test::synthetic(dir_.path(), QStringLiteral("one.rsdb"));
        SessionView view;
        QSignalSpy loaded(&view, &SessionView::loaded);
        view.open(one);
        QVERIFY(loaded.wait(20000));
        auto* dispatches = view.findChild<DispatchesPage*>();
        QVERIFY(dispatches->panel()->processFilter()->isHidden());
        QCOMPARE(view.snapshot()->processes.size(), 1);
        QCOMPARE(view.snapshot()->processes[0].pid, 4242);
    }

    /// `--summary` lists every process with its totals.
    void terminalSummaryListsProcesses() {
        const test::RunResult r = test::runInspector({QStringLiteral("--summary"), two_});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.output.contains(QRegularExpression(QStringLiteral("processes: +2\n"))),
                 qPrintable(r.output));
        QVERIFY2(r.output.contains(
                     QRegularExpression(QStringLiteral("\n +4242 +4241 +\\d+ +300 +\\d+ +\\d+ +0 +0 +yes"))),
                 qPrintable(r.output));
        QVERIFY2(r.output.contains(
                     QRegularExpression(QStringLiteral("\n +4243 +4242 +\\d+ +120 +\\d+ +\\d+ +0 +0 +yes"))),
                 qPrintable(r.output));
        QVERIFY(r.output.contains(QStringLiteral("dispatches:  420 (")));
    }

    /// A real run: `sh -c` starting two instrumented programs of different sizes, recorded by
    /// replayscope-run on the simulated runtime: both processes, each with all of its dispatches.
    void realShellRun() {
        const QString session = dir_.filePath(QStringLiteral("sh.rsdb"));
        const QString w = QStringLiteral(RS_WORKLOAD_DIR "/accumulate_n");
        const test::RunResult run =
            test::runPipeline({QStringLiteral("--simulate"), QStringLiteral("--no-progress"),
                               QStringLiteral("-o"), session, QStringLiteral("--"), QStringLiteral("/bin/sh"),
                               QStringLiteral("-c"), QStringLiteral("%1 40; %1 25").arg(w)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        QList<qint64> pids;
        const QRegularExpression printed(
            QStringLiteral("accumulate_n: pid (\\d+) ppid (\\d+) dispatches (\\d+)"));
        for (auto it = printed.globalMatch(run.output); it.hasNext();) {
            pids << it.next().captured(1).toLongLong();
        }
        QCOMPARE(pids.size(), 2);
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(session, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(s->processes.size(), 2);
        QVERIFY(s->info.complete);
        QHash<qint64, qint64> dispatchesByPid;
        for (const ProcessInfo& p : s->processes) {
            QVERIFY2(p.complete, qPrintable(p.endReason));
            QCOMPARE(p.missingEvents, 0);
            dispatchesByPid.insert(p.pid, p.dispatches);
        }
        QCOMPARE(dispatchesByPid.value(pids[0]), 40);
        QCOMPARE(dispatchesByPid.value(pids[1]), 25);
        DispatchTableModel model;
        model.setSnapshot(s);
        bool allMatch = false;
        const int second = s->processes[0].pid == pids[1] ? 1 : 2;
        QCOMPARE(rowsOfProcess(&model, second, &allMatch), 25);
        QVERIFY(allMatch);
    }

    /// A FIFO given as the session: refused at once by --summary, --export-charts and the reader (an
    /// open for reading would block forever without a writer).
    void fifoRefused() {
        const QString fifo = dir_.filePath(QStringLiteral("fifo.rsdb"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QElapsedTimer t;
        t.start();
        bool finished = false;
        test::RunResult r = test::runInspector({QStringLiteral("--summary"), fifo}, 10000, &finished);
        QVERIFY2(finished, "replayscope --summary hangs on a FIFO");
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.output.contains(QStringLiteral("FIFO")), qPrintable(r.output));
        r = test::runInspector(
            {QStringLiteral("--export-charts"), fifo, dir_.filePath(QStringLiteral("charts"))}, 10000,
            &finished);
        QVERIFY2(finished, "replayscope --export-charts hangs on a FIFO");
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.output.contains(QStringLiteral("FIFO")), qPrintable(r.output));
        QVERIFY(t.elapsed() < 15000);

        SessionReader reader;
        QSignalSpy failed(&reader, &SessionReader::failed);
        reader.open(fifo);
        QVERIFY(failed.wait(5000));
        QCOMPARE(int(failed.first().first().value<SessionError>().kind), int(SessionError::Kind::notRegular));
        QCOMPARE(failed.first().first().value<SessionError>().title(), QStringLiteral("Not a regular file"));

        // A FIFO as the -wal beside a valid session is refused too (SQLite would open it).
        const QString session = test::synthetic(dir_.path(), QStringLiteral("walfifo.rsdb"));
        QCOMPARE(::mkfifo(QFile::encodeName(session + QStringLiteral("-wal")).constData(), 0600), 0);
        SessionError e;
        QVERIFY(SessionLoader::loadAll(session, e).isNull());
        QCOMPARE(int(e.kind), int(SessionError::Kind::notRegular));
        QVERIFY2(e.message.contains(QStringLiteral("-wal")), qPrintable(e.message));
    }

    /// A session left by a full disk: WAL mode, page 1 already checkpointed with the new page count while
    /// the file stayed shorter (the rest of the pages only in the WAL). SQLite reads it: the inspector
    /// opens it with every committed row (before: refused as "Truncated session file"); from a
    /// read-only directory through a checkpointed copy, which the status says.
    void fullDiskSessionOpens() {
        QTemporaryDir full;
        QVERIFY(full.isValid());
        SyntheticSession::Options o;
        o.dispatches = 200;
        const QString base = test::synthetic(dir_.path(), QStringLiteral("disk.rsdb"), o);
        const QString work = dir_.filePath(QStringLiteral("disk-work.rsdb"));
        QFile::remove(work);
        QVERIFY(QFile::copy(base, work));
        const QString path = full.filePath(QStringLiteral("full.rsdb"));
        qint64 pages = 0, pageSize = 0;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("writer"));
            db.setDatabaseName(work);
            QVERIFY(db.open());
            QSqlQuery q(db);
            // The collector's mode: WAL; the rows of the last commits are still in the WAL only.
            QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode=WAL")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA wal_autocheckpoint=0")));
            QVERIFY(q.exec(QStringLiteral("CREATE TEMP TABLE more AS SELECT * FROM dispatch_rows")));
            QVERIFY(q.exec(QStringLiteral("UPDATE more SET key = key + 100000"))); // key: process << 40 | id
            // The stored (not generated) columns of dispatch_rows.
            QVERIFY(
                q.exec(QStringLiteral("SELECT group_concat(name) FROM pragma_table_info('dispatch_rows')")) &&
                q.next());
            const QString columns = q.value(0).toString();
            QVERIFY2(q.exec(QStringLiteral("INSERT INTO dispatch_rows(%1) SELECT %1 FROM more").arg(columns)),
                     qPrintable(q.lastError().text()));
            QVERIFY(q.exec(QStringLiteral("PRAGMA page_count")) && q.next());
            pages = q.value(0).toLongLong();
            QVERIFY(q.exec(QStringLiteral("PRAGMA page_size")) && q.next());
            pageSize = q.value(0).toLongLong();
            // What the disk holds when the writer's checkpoint hit ENOSPC: the file and its WAL as
            // they are now (the connection is still open, nothing checkpointed).
            QVERIFY(QFile::copy(work, path));
            QVERIFY(QFile::copy(work + QStringLiteral("-wal"), path + QStringLiteral("-wal")));
            q.finish();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("writer"));
        // Page 1 written back with the new page count, the file not extended.
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.size() < pages * pageSize);
            QByteArray header = f.read(100);
            qToBigEndian<quint32>(quint32(pages), header.data() + 28);
            std::memcpy(header.data() + 24, header.constData() + 92, 4); // header page count valid
            QVERIFY(f.seek(0));
            QCOMPARE(f.write(header), qint64(100));
        }
        QVERIFY(SessionLoader::checkFile(path).kind != SessionError::Kind::truncated);
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(path, e);
        QVERIFY2(!e.isError(), qPrintable(e.title() + QStringLiteral(": ") + e.message));
        QCOMPARE(int(s->dispatches.size()), 400); // the rows in the WAL included
        QVERIFY(s->info.openedCopy.isEmpty());
        const test::RunResult r = test::runInspector({QStringLiteral("--summary"), path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.output.contains(QStringLiteral("dispatches:  400 (")), qPrintable(r.output));

        // The same file in a read-only directory: SQLite cannot create the -shm the WAL needs, so the
        // inspector reads a checkpointed copy and says so. A private mount namespace makes the directory
        // read-only even for root.
        QFile::remove(path + QStringLiteral("-shm"));
        QProcess probe;
        probe.start(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("true")});
        if (!probe.waitForFinished(10000) || probe.exitCode() != 0) {
            QSKIP("no private mount namespace here (unshare -m) for a read-only directory");
        }
        QProcess ro;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        ro.setProcessEnvironment(env);
        ro.setProcessChannelMode(QProcess::MergedChannels);
        ro.start(QStringLiteral("unshare"),
                 {QStringLiteral("-m"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                  QStringLiteral("mount --make-rprivate / 2>/dev/null; mount --bind \"$1\" \"$1\" && "
                                 "mount -o remount,bind,ro \"$1\" && touch \"$1/x\" 2>/dev/null && "
                                 "echo still-writable; exec \"$2\" --summary \"$1/full.rsdb\""),
                  QStringLiteral("sh"), full.path(), QStringLiteral(RS_REPLAYSCOPE)});
        QVERIFY(ro.waitForFinished(30000));
        const QString out = QString::fromLocal8Bit(ro.readAll());
        if (out.contains(QStringLiteral("still-writable")) || out.contains(QStringLiteral("mount:"))) {
            QSKIP(qPrintable(QStringLiteral("cannot make a read-only directory here: ") + out));
        }
        QCOMPARE(ro.exitCode(), 0);
        QVERIFY2(out.contains(QStringLiteral("dispatches:  400 (")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("checkpointed copy")), qPrintable(out));
        QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
    }

    /// A real full-disk run: replayscope-run whose session file hits ENOSPC (tests/support shim) leaves a
    /// file the inspector opens, with exactly the rows the runner's summary counted.
    void realFullDiskRunOpens() {
        const QString session = dir_.filePath(QStringLiteral("enospc.rsdb"));
        // Since format 4 a replayed dispatch also writes its snapshot store and restore rows: 400 KiB no
        // longer holds the first commit (10,000 rows), and 3,000 dispatches (750 KB) may fit in 1 MiB
        // whole. The byte budget counts the WAL reserve's allocation (1 MiB) and the frames written into
        // it alike: 2 MiB with 20,000 dispatches (about 5 MB) fills up after the first commits.
        const auto run = rs::test::record_full_disk_session(
            QStringLiteral(RS_REPLAYSCOPE_RUN), QStringLiteral(RS_ENOSPC_SHIM), session, 2 * 1024 * 1024,
            {QStringLiteral(RS_WORKLOAD_DIR "/accumulate_n"), QStringLiteral("20000")});
        QVERIFY2(run.shim_injected, qPrintable(run.output));
        QVERIFY2(run.summary_dispatches > 0 && run.summary_dispatches < 20000, qPrintable(run.output));
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(session, e);
        QVERIFY2(!e.isError(), qPrintable(e.title() + QStringLiteral(": ") + e.message));
        QCOMPARE(qint64(s->dispatches.size()), qint64(run.summary_dispatches));
        QCOMPARE(s->info.eventsStored, qint64(run.summary_events));
        QVERIFY(!s->info.complete);
        const test::RunResult r = test::runInspector({QStringLiteral("--summary"), session});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(
            r.output.contains(QStringLiteral("dispatches:  %1 (").arg(format::count(run.summary_dispatches))),
            qPrintable(r.output));
    }

    /// A disk that fills during the run and stays full (the shim's usage mode: the space the session's
    /// files may occupy, from 25 to 80% of the most a run on a free disk occupied): the inspector reports
    /// the events lost as missing, as the runner does, and sent = stored + missing exactly (the free
    /// run's count), in the window's model and in --summary. Whatever the commits' timing (a loaded
    /// machine), the end rows fit in the part of the WAL no other transaction may use.
    void fullDiskLossShownAsMissing() {
        const QStringList program{QStringLiteral(RS_WORKLOAD_DIR "/accumulate_n"), QStringLiteral("3000")};
        const auto free = rs::test::record_full_disk_session(
            QStringLiteral(RS_REPLAYSCOPE_RUN), QStringLiteral(RS_ENOSPC_SHIM),
            dir_.filePath(QStringLiteral("free.rsdb")), 1LL << 40, program, 120000, true);
        QVERIFY2(free.processes.size() == 1 && free.processes[0].complete && free.shim_total > 0,
                 qPrintable(free.output));
        const qint64 sent = free.processes[0].events;
        int lossy = 0;
        for (const int percent : {25, 30, 35, 40, 50, 65, 80}) {
            const QString session = dir_.filePath(QStringLiteral("lossy-%1.rsdb").arg(percent));
            const auto run = rs::test::record_full_disk_session(
                QStringLiteral(RS_REPLAYSCOPE_RUN), QStringLiteral(RS_ENOSPC_SHIM), session,
                free.shim_total * percent / 100, program, 120000, true);
            QVERIFY2(run.shim_injected && run.processes.size() == 1, qPrintable(run.output));
            const auto& p = run.processes[0];
            QVERIFY2(p.events + p.missing == sent, qPrintable(run.output));
            lossy += p.missing > 0 ? 1 : 0;
            SessionError e;
            const SessionSnapshot s = SessionLoader::loadAll(session, e);
            QVERIFY2(!e.isError(), qPrintable(e.title() + QStringLiteral(": ") + e.message));
            QCOMPARE(s->info.eventsStored, qint64(p.events));
            QCOMPARE(s->info.missingEvents, qint64(p.missing));
            QCOMPARE(s->processes.size(), 1);
            QCOMPARE(s->processes[0].lastSequence, sent);
            QCOMPARE(s->processes[0].eventsStored + s->processes[0].missingEvents, sent);
            QCOMPARE(s->processes[0].complete, p.complete);
            QCOMPARE(s->info.complete, p.complete);
            QVERIFY2(!s->info.endReason.isEmpty(), qPrintable(run.output)); // the end rows are there
            // The runner found nothing to correct in the file.
            QVERIFY2(!run.output.contains(QStringLiteral("could not record the end")),
                     qPrintable(run.output));
            const test::RunResult r = test::runInspector({QStringLiteral("--summary"), session});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.output.contains(QStringLiteral("%1 events, %2 missing")
                                           .arg(format::count(p.events), format::count(p.missing))),
                     qPrintable(r.output));
        }
        QVERIFY2(lossy > 0, "no budget lost events");
    }

    /// user_version is reported as stored: -1 is -1 (was reported as 0).
    void userVersionAsStored() {
        const QString path = test::synthetic(dir_.path(), QStringLiteral("minus.rsdb"));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("uv"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = -1")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("uv"));
        SessionError e;
        QVERIFY(SessionLoader::loadAll(path, e).isNull());
        QVERIFY2(e.message.contains(QStringLiteral("user_version -1")), qPrintable(e.message));
    }

    /// A format-2 file (written by the build before format 3; tests/app/data) reads as one process.
    void formatTwoStillLoads() {
        const QString path = dir_.filePath(QStringLiteral("format2.rsdb"));
        QFile::remove(path);
        QVERIFY(QFile::copy(QStringLiteral(RS_APP_TEST_DATA "/format2.rsdb"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(test::sqlValue(path, QStringLiteral("PRAGMA user_version")).toInt(), 2);
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(path, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(s->info.formatVersion, 2);
        QCOMPARE(s->processes.size(), 1);
        QCOMPARE(s->processes[0].pid, 4242);
        QCOMPARE(int(s->dispatches.size()), 60);
        QCOMPARE(s->processes[0].dispatches, 60);
        QVERIFY(s->processes[0].complete);
        QCOMPARE(s->processes[0].eventsStored, s->info.eventsStored);
        QCOMPARE(s->info.eventsStored,
                 test::sqlValue(path, QStringLiteral("SELECT events_stored FROM session")).toLongLong());
        QVERIFY(s->regionsLoaded);
        QVERIFY(!s->regions.ranges.isEmpty());
        for (const DispatchRow& d : s->dispatches) {
            QCOMPARE(d.process, 1);
        }
        DispatchTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(s);
        QCOMPARE(model.index(0, DispatchTableModel::Process).data().toString(), QStringLiteral("pid 4242"));
    }
};

QTEST_MAIN(AppProcessesTest)
#include "tst_app_processes.moc"
