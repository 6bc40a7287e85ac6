// SPDX-License-Identifier: MIT
// The view of one job's session files (JobSummary, MergedSession, RankColumnModel, RankTotalsModel,
// JobKernelTableModel, RankDistribution, JobView, MainWindow's "Job (N ranks)" tab), on two rank files the
// engine recorded: replayscope-run --simulate -o run-%r.rsdb under OMPI_COMM_WORLD_RANK 0 and 1, and on
// jobs of 20 copies of them under other ranks and hosts. Every table holds the sum of the listed files'
// rows (counted with SQL on each file) with a rank column; the rank is the one the file records; the
// per-rank totals, kernels and charts (bars, or boxes over many ranks) equal each file's own figures read
// with SQL; a job over the listing budget lists the rows of the selected ranks only.
#include "app_test_support.h"

#include "model/AgentSummaryModel.h"

#include "model/AllocationTableModel.h"
#include "model/DispatchTableModel.h"
#include "model/Format.h"
#include "model/JobKernelTableModel.h"
#include "model/JobSummary.h"
#include "model/KernelName.h"
#include "model/MergedSession.h"
#include "model/ModelRoles.h"
#include "model/RankColumnModel.h"
#include "model/RankDistribution.h"
#include "model/RankTotalsModel.h"
#include "model/SessionFilterProxyModel.h"
#include "model/SessionLoader.h"
#include "model/TerminalSummary.h"
#include "model/WarningTableModel.h"
#include "synthetic/SyntheticSession.h"
#include "ui/ChartAdapter.h"
#include "ui/JobView.h"
#include "ui/MainWindow.h"
#include "ui/TablePanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>

using namespace rs::app;

namespace {

/// replayscope-run --simulate of `program` `args` as rank `rank` of a job, writing `dir`/run-%r.rsdb.
QString rankSession(const QString& dir, int rank, const QString& program, const QStringList& args = {}) {
    const test::RunResult r =
        test::runPipeline(QStringList{QStringLiteral("--simulate"), QStringLiteral("--passes"),
                                      QStringLiteral("2"), QStringLiteral("-o"),
                                      dir + QStringLiteral("/run-%r.rsdb"), QStringLiteral("--"), program} +
                              args,
                          {QStringLiteral("OMPI_COMM_WORLD_RANK=%1").arg(rank), QStringLiteral("PMIX_RANK="),
                           QStringLiteral("PMI_RANK="), QStringLiteral("SLURM_PROCID="),
                           QStringLiteral("HSA_SIM_GPU_AGENTS=2")});
    const QString path = dir + QStringLiteral("/run-%1.rsdb").arg(rank);
    if (r.exitCode != 0 || !QFileInfo::exists(path)) {
        qWarning("rank %d: %d\n%s", rank, r.exitCode, qPrintable(r.output));
        return {};
    }
    return path;
}

/// Median as the inspector defines it for one dispatch's passes (agent ticks, integer midpoint).
qint64 tickMedian(std::vector<qint64> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Median of doubles (mean of the two middle values for an even count).
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Timed passes (end tick >= start tick, end tick > 0: what the dispatch table counts) of each replayed
/// dispatch of `path`, by (process, dispatch id), with the dispatch's kernel name: read with SQL.
struct TimedDispatch {
    QString kernel;
    std::vector<qint64> ticks;
};
std::map<std::pair<qint64, qint64>, TimedDispatch> timedDispatches(const QString& path) {
    std::map<std::pair<qint64, qint64>, TimedDispatch> out;
    const auto rows = test::sqlRows(
        path,
        QStringLiteral(
            "SELECT p.process, p.dispatch_id, s.text, p.end_tick - p.start_tick FROM passes p "
            "JOIN dispatches d ON d.process = p.process AND d.id = p.dispatch_id "
            "JOIN strings s ON s.process = d.process AND s.id = d.kernel_name_id "
            "WHERE p.end_tick >= p.start_tick AND p.end_tick > 0 AND NOT EXISTS "
            "(SELECT 1 FROM declines x WHERE x.process = p.process AND x.dispatch_id = p.dispatch_id)"));
    for (const QVariantList& r : rows) {
        TimedDispatch& t = out[{r[0].toLongLong(), r[1].toLongLong()}];
        t.kernel = kernelDisplayName(r[2].toString()); // as the inspector shows it
        t.ticks.push_back(r[3].toLongLong());
    }
    return out;
}

/// Rows of table `name` of the job view in session file `path`, counted with SQL (the per-dispatch tables:
/// over every dispatch).
qint64 sqlRowsOf(const QString& path, const QString& name, double spreadThreshold) {
    auto count = [&](const char* table) {
        return test::sqlCount(path, QStringLiteral("SELECT count(*) FROM ") + QLatin1String(table));
    };
    if (name == QLatin1String("jobProcesses")) {
        return count("processes");
    }
    if (name == QLatin1String("jobAgents")) {
        // One row per GPU agent of each process (a handle repeats across the processes of a file).
        return test::sqlCount(path, QStringLiteral("SELECT count(*) FROM agents WHERE device_type = %1")
                                        .arg(int(rs::ipc::DeviceType::gpu)));
    }
    if (name == QLatin1String("jobDispatches")) {
        return count("dispatches");
    }
    if (name == QLatin1String("jobRegions")) {
        return test::sqlCount(path,
                              QStringLiteral("SELECT count(*) FROM snapshots s JOIN inventory_regions r ON "
                                             "r.process = s.process AND r.agent = s.agent AND "
                                             "r.generation = s.generation"));
    }
    if (name == QLatin1String("jobPasses")) {
        // Every pass, and the restore after the last pass as a last row "final".
        return count("passes") +
               test::sqlCount(path, QStringLiteral("SELECT count(*) FROM restores WHERE final = 1"));
    }
    if (name == QLatin1String("jobRestoreSkips")) {
        // Skips, snapshot failures, failed restores, regions that differed from pass 1, missed chunks.
        return count("restore_skips") + count("snapshot_failures") + count("restore_failures") +
               count("fidelity_mismatches") + count("restore_misses");
    }
    if (name == QLatin1String("jobAllocations")) {
        return count("allocations");
    }
    if (name == QLatin1String("jobModuleVariables")) {
        return count("module_variables");
    }
    if (name == QLatin1String("jobAsyncCopies")) {
        return count("async_copies");
    }
    if (name == QLatin1String("jobRestoreMisses")) {
        return count("restore_misses");
    }
    if (name == QLatin1String("jobWarnings")) {
        return count("warnings");
    }
    if (name == QLatin1String("jobPassSpread")) {
        qint64 n = 0;
        for (const auto& [key, t] : timedDispatches(path)) {
            const qint64 lo = *std::min_element(t.ticks.begin(), t.ticks.end());
            const qint64 hi = *std::max_element(t.ticks.begin(), t.ticks.end());
            n += t.ticks.size() >= 2 && lo > 0 && double(hi) / double(lo) - 1.0 > spreadThreshold;
        }
        return n;
    }
    return -1;
}

/// A copy of `from` named `name` in `dir`, after `sql` (may be empty) ran on it.
QString copyWith(const QString& dir, const QString& from, const QString& name, const QString& sql) {
    const QString to = dir + QLatin1Char('/') + name;
    QFile::remove(to);
    if (!QFile::copy(from, to)) {
        return {};
    }
    QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    if (!sql.isEmpty()) {
        bool ok = false;
        test::sqlRows(to, sql, true, &ok);
        if (!ok) {
            return {};
        }
    }
    return to;
}

/// Opens `paths` in `view` (its reader thread) and waits until it shows them.
bool show(JobView& view, const QStringList& paths) {
    QSignalSpy loaded(&view, &JobView::loaded);
    view.open(paths);
    return loaded.wait(60000);
}

/// Lists the rows of ranks `ranks` (empty: every rank shown) in `view` and waits until they are listed.
bool listRanks(JobView& view, const QVector<int>& ranks) {
    QSignalSpy listed(&view, &JobView::rowsListed);
    view.selectRanks(ranks);
    return !listed.isEmpty() || listed.wait(60000);
}

JobSummary summaryOf(const QStringList& paths) {
    SessionError e;
    const JobSummary job = JobSummary::load(paths, e);
    if (e.isError()) {
        qWarning("%s: %s", qPrintable(e.path), qPrintable(e.message));
    }
    return job;
}

} // namespace

class AppMergedTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString rank0_, rank1_;
    SessionSnapshot s0_, s1_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Two ranks of different size: rank 0 runs three programs one after the other (three processes: an
        // accumulation, a module variable, a buffer freed during the kernel, whose restores skip it), rank 1
        // two_agents.
        const QString w = QStringLiteral(RS_WORKLOAD_DIR "/");
        rank0_ =
            rankSession(dir_.path(), 0, QStringLiteral("/bin/sh"),
                        {QStringLiteral("-c"),
                         QStringLiteral("%1accumulate && %1constant_table && %1free_during_kernel").arg(w)});
        rank1_ = rankSession(dir_.path(), 1, w + QStringLiteral("two_agents"));
        QVERIFY(!rank0_.isEmpty() && !rank1_.isEmpty());
        SessionError e;
        s0_ = SessionLoader::loadAll(rank0_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        s1_ = SessionLoader::loadAll(rank1_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QVERIFY(!s0_->dispatches.empty() && !s1_->dispatches.empty());
        QVERIFY(s0_->dispatches.size() != s1_->dispatches.size() || s0_->agents.size() != s1_->agents.size());
    }

    /// The merged session holds the sum of both files' rows, each under a renumbered process with its
    /// file's rank; per-dispatch indices still point at the dispatch's own passes.
    void rowsAreSums() {
        SessionError e;
        const MergedSession m = MergedSession::load({rank0_, rank1_}, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        const SessionData& d = m.snapshot().data();
        QCOMPARE(m.ranks(), (QVector<int>{0, 1}));
        QCOMPARE(d.dispatches.size(), s0_->dispatches.size() + s1_->dispatches.size());
        QCOMPARE(d.passes.size(), s0_->passes.size() + s1_->passes.size());
        QCOMPARE(d.allocations.size(), s0_->allocations.size() + s1_->allocations.size());
        QCOMPARE(d.warnings.size(), s0_->warnings.size() + s1_->warnings.size());
        QCOMPARE(d.restores.size(), s0_->restores.size() + s1_->restores.size());
        QCOMPARE(d.moduleVariables.size(), s0_->moduleVariables.size() + s1_->moduleVariables.size());
        QCOMPARE(d.regions.address.size(), s0_->regions.address.size() + s1_->regions.address.size());
        QCOMPARE(d.processes.size(), s0_->processes.size() + s1_->processes.size());
        QCOMPARE(d.info.processCount, int(d.processes.size()));
        QCOMPARE(d.passBegin.size(), d.dispatches.size() + 1);
        const int first1 = int(s0_->processes.size()) + 1; // rank 1's first process
        QCOMPARE(m.rankOfProcess(1), 0);
        QCOMPARE(m.rankOfProcess(first1), 1);
        QCOMPARE(m.rankOfProcess(int(d.processes.size()) + 1), -1);
        for (std::size_t r = 0; r < s1_->dispatches.size(); ++r) {
            const DispatchRow& a = s1_->dispatches[r];
            const std::size_t mr = s0_->dispatches.size() + r;
            const DispatchRow& b = d.dispatches[mr];
            QCOMPARE(b.process, a.process + first1 - 1);
            QCOMPARE(b.id, a.id);
            QCOMPARE(d.kernelNames[b.kernel], s1_->kernelNames[a.kernel]);
            QCOMPARE(d.passBegin[mr + 1] - d.passBegin[mr], s1_->passBegin[r + 1] - s1_->passBegin[r]);
            for (int p = d.passBegin[mr]; p < d.passBegin[mr + 1]; ++p) {
                QCOMPARE(d.passes[std::size_t(p)].dispatchId, a.id);
                QCOMPARE(d.passes[std::size_t(p)].process, b.process);
            }
            QCOMPARE(m.snapshot().dispatchRow(b.process, b.id), int(mr));
        }
    }

    /// The rank replayscope-run recorded (the session row's job_rank, read with SQL) is the file's rank,
    /// whatever the order the files are given in; a file without one takes its position; two files of one
    /// rank are reported.
    void recordedRank() {
        QCOMPARE(test::sqlCount(rank0_, QStringLiteral("SELECT job_rank FROM session")), qint64(0));
        QCOMPARE(test::sqlCount(rank1_, QStringLiteral("SELECT job_rank FROM session")), qint64(1));
        QCOMPARE(
            test::sqlCount(rank1_, QStringLiteral("SELECT count(*) FROM session WHERE job_rank IS NULL")),
            qint64(0));
        QCOMPARE(MergedSession::recordedRank(rank0_), 0);
        QCOMPARE(MergedSession::recordedRank(rank1_), 1);
        // replayscope-run also records its command line whole, which --summary shows.
        QVERIFY2(s1_->info.runnerCommand.contains(QStringLiteral(" --simulate --passes 2 -o ")),
                 qPrintable(s1_->info.runnerCommand));
        QVERIFY(
            TerminalSummary::text(s1_).contains(QStringLiteral("\nrun with:    ") + s1_->info.runnerCommand));
        SessionError e;
        // Reversed: the ranks follow the files, not their positions.
        const MergedSession reversed = MergedSession::load({rank1_, rank0_}, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(reversed.ranks(), (QVector<int>{1, 0}));
        QCOMPARE(reversed.rankRecorded(), (QVector<bool>{true, true}));
        QCOMPARE(reversed.rankOfProcess(1), 1);
        QCOMPARE(reversed.rankOfProcess(int(s1_->processes.size()) + 1), 0);
        // The job's summary orders its files by rank, whatever order they are given in.
        QCOMPARE(summaryOf({rank1_, rank0_}).ranks(), (QVector<int>{0, 1}));
        QCOMPARE(summaryOf({rank1_, rank0_}).paths(), (QStringList{rank0_, rank1_}));
        QVERIFY(summaryOf({rank1_, rank0_}).problems().isEmpty());

        // No rank recorded (NULL; and a file of a build before the column): the position.
        const QString none = copyWith(dir_.path(), rank1_, QStringLiteral("none.rsdb"),
                                      QStringLiteral("UPDATE session SET job_rank = NULL"));
        const QString old = copyWith(dir_.path(), rank1_, QStringLiteral("old.rsdb"),
                                     QStringLiteral("ALTER TABLE session DROP COLUMN job_rank"));
        QVERIFY(!none.isEmpty() && !old.isEmpty());
        QCOMPARE(MergedSession::recordedRank(none), -1);
        QCOMPARE(MergedSession::recordedRank(old), -1);
        QCOMPARE(MergedSession::recordedRank(dir_.filePath(QStringLiteral("missing.rsdb"))), -1);
        const MergedSession fallback = MergedSession::load({old, rank1_}, e);
        QVERIFY(!e.isError());
        QCOMPARE(fallback.ranks(), (QVector<int>{0, 1}));
        QCOMPARE(fallback.rankRecorded(), (QVector<bool>{false, true}));
        QCOMPARE(summaryOf({old, rank1_}).ranks(), (QVector<int>{0, 1}));
        QVERIFY(summaryOf({old, rank1_}).problems().isEmpty());

        // Two files of rank 0: both kept, reported, a label per file in the charts, both listed for rank 0.
        const QString twin = copyWith(dir_.path(), rank0_, QStringLiteral("twin.rsdb"), {});
        const JobSummary twins = summaryOf({rank0_, twin});
        QCOMPARE(twins.ranks(), (QVector<int>{0, 0}));
        QCOMPARE(twins.problems().size(), 1);
        QVERIFY(twins.problems()[0].contains(QFileInfo(rank0_).fileName()));
        QVERIFY(twins.problems()[0].contains(QStringLiteral("twin.rsdb")));
        QCOMPARE(twins.distinctRanks(), (QVector<int>{0}));
        QCOMPARE(twins.totals().size(), 2);
        QCOMPARE(twins.totals()[1].dispatches, qint64(s0_->dispatches.size()));
        QVERIFY(twins.rankLabel(0) != twins.rankLabel(1));
        JobView view;
        QVERIFY(show(view, {rank0_, twin}));
        QVERIFY(!view.problems()->isHidden());
        QCOMPARE(view.problems()->text(), twins.problems()[0]);
        QVERIFY(listRanks(view, {0})); // rank 0: both files
        QCOMPARE(view.dispatches()->rowCount(), int(2 * s0_->dispatches.size()));
    }

    /// Every table of the job view (all that a session's own tab has): the rows of both files (counted with
    /// SQL on each), a last column "Rank" with each row's rank; selecting a rank lists its file's rows only.
    void everyTable() {
        JobView view;
        const QStringList names = view.rankTableNames();
        QCOMPARE(names.size(), 12);
        std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
        for (RankColumnModel* t : view.rankTables()) {
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                t, QAbstractItemModelTester::FailureReportingMode::QtTest));
        }
        QVERIFY(show(view, {rank0_, rank1_}));
        const MergedSession m = view.merged();
        QVERIFY(view.rowsNotice()->isHidden());
        const QStringList perDispatch = {QStringLiteral("jobRegions"), QStringLiteral("jobPasses"),
                                         QStringLiteral("jobRestoreSkips")};
        QVERIFY(!m.isNull());
        // The dispatches of the rows listed (both files, or the one selected).
        const auto dispatches = [&view] {
            const SessionSnapshot listed = view.merged().snapshot();
            return listed.isNull() ? 0 : int(listed.data().dispatches.size());
        };
        // Rows of table `t`: for the tables of one dispatch, summed over every dispatch; and how many of
        // them show rank 1 in the rank column.
        auto rows = [&](const QString& name, int* ones) {
            RankColumnModel* t = view.rankTable(name);
            int n = 0;
            *ones = 0;
            auto countModel = [&] {
                n += t->rowCount();
                for (int r = 0; r < t->rowCount(); ++r) {
                    *ones += t->index(r, t->rankColumn()).data(SortRole).toInt() == 1;
                }
            };
            if (perDispatch.contains(name)) {
                for (int d = 0; d < dispatches(); ++d) {
                    view.selectDispatch(d);
                    countModel();
                }
                view.selectDispatch(-1);
            } else {
                countModel();
            }
            return n;
        };
        const double threshold = 0.05; // PassSpreadModel's default
        qint64 nonEmpty = 0;
        for (const QString& name : names) {
            RankColumnModel* t = view.rankTable(name);
            QVERIFY2(t, qPrintable(name));
            const qint64 sql0 = sqlRowsOf(rank0_, name, threshold), sql1 = sqlRowsOf(rank1_, name, threshold);
            QVERIFY2(sql0 >= 0 && sql1 >= 0, qPrintable(name));
            nonEmpty += sql0 + sql1 > 0;
            QCOMPARE(t->rankColumn(), t->columnCount() - 1);
            QCOMPARE(t->headerData(t->rankColumn(), Qt::Horizontal).toString(), QStringLiteral("Rank"));
            int ones = 0;
            QVERIFY2(qint64(rows(name, &ones)) == sql0 + sql1,
                     qPrintable(QStringLiteral("%1: %2 rows, SQL %3 + %4")
                                    .arg(name)
                                    .arg(rows(name, &ones))
                                    .arg(sql0)
                                    .arg(sql1)));
            rows(name, &ones);
            QCOMPARE(qint64(ones), sql1);
            for (int rank : {0, 1}) {
                QVERIFY(listRanks(view, {rank}));
                QCOMPARE(view.merged().paths(), QStringList{rank == 0 ? rank0_ : rank1_});
                QCOMPARE(qint64(rows(name, &ones)), rank == 0 ? sql0 : sql1);
                QCOMPARE(qint64(ones), rank == 0 ? 0 : sql1);
            }
            QVERIFY(listRanks(view, {}));
            QCOMPARE(view.merged().paths(), (QStringList{rank0_, rank1_}));
        }
        // The recordings fill most tables (not async copies, restore misses or warnings, which these
        // workloads do not cause): the sums above are not all 0 = 0.
        QVERIFY2(nonEmpty >= 8, qPrintable(QString::number(nonEmpty)));
        // The agents table: per rank, the replayed and declined dispatches of its rows add up to the
        // file's, and each row's are those of its own process and agent (SQL on the file).
        RankColumnModel* agents = view.rankTable(QStringLiteral("jobAgents"));
        const QString files[] = {rank0_, rank1_};
        for (int rank : {0, 1}) {
            QVERIFY(listRanks(view, {rank}));
            const int firstProcess = 1; // the rank's file alone is listed
            qint64 replayed = 0, declined = 0;
            for (int r = 0; r < agents->rowCount(); ++r) {
                const int process = agents->index(r, 0).data(ProcessRole).toInt() - firstProcess + 1;
                const qint64 handle = agents->index(r, 0).data(AgentRole).toLongLong();
                const qint64 rowReplayed =
                    agents->index(r, AgentSummaryModel::Replayed).data(SortRole).toLongLong();
                replayed += rowReplayed;
                declined += agents->index(r, AgentSummaryModel::Declined).data(SortRole).toLongLong();
                QCOMPARE(
                    rowReplayed,
                    test::sqlCount(files[rank],
                                   QStringLiteral("SELECT count(*) FROM dispatches WHERE process = %1 AND "
                                                  "agent = %2 AND decision = 0")
                                       .arg(process)
                                       .arg(handle)));
            }
            QCOMPARE(replayed, test::sqlCount(files[rank], QStringLiteral("SELECT count(*) FROM dispatches "
                                                                          "WHERE decision = 0")));
            QCOMPARE(replayed + declined,
                     test::sqlCount(files[rank], QStringLiteral("SELECT count(*) FROM dispatches")));
        }
        // A row's own columns are the source's: the rank-1 dispatches are rank 1's rows, in order.
        QVERIFY(listRanks(view, {1}));
        RankColumnModel* d = view.dispatches();
        QCOMPARE(d->rowCount(), int(s1_->dispatches.size()));
        for (int r = 0; r < d->rowCount(); ++r) {
            QCOMPARE(d->index(r, DispatchTableModel::Id).data(SortRole).toLongLong(),
                     s1_->dispatches[std::size_t(r)].id);
            QCOMPARE(d->index(r, d->rankColumn()).data().toString(), QStringLiteral("1"));
        }
    }

    /// RankColumnModel follows its source's changes as they are announced (rows inserted, removed, data
    /// changed, reset) under a rank filter, checked by QAbstractItemModelTester.
    void followsTheSource() {
        SessionError e;
        const MergedSession m = MergedSession::load({rank0_, rank1_}, e);
        QVERIFY(!e.isError());
        const int first1 = int(s0_->processes.size()) + 1; // a process of rank 1
        QStandardItemModel source(0, 2);
        auto row = [](int process, const QString& text) {
            auto* a = new QStandardItem(text);
            a->setData(process, ProcessRole);
            return QList<QStandardItem*>{a, new QStandardItem(text + QStringLiteral("-b"))};
        };
        source.appendRow(row(1, QStringLiteral("a")));
        source.appendRow(row(first1, QStringLiteral("b")));
        RankColumnModel model(&source, m);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRankFilter(1);
        auto texts = [&] {
            QStringList out;
            for (int r = 0; r < model.rowCount(); ++r) {
                out << model.index(r, 0).data().toString();
            }
            return out;
        };
        QCOMPARE(texts(), (QStringList{QStringLiteral("b")}));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        source.insertRow(0, row(first1, QStringLiteral("c")));
        source.insertRow(1, row(1, QStringLiteral("d"))); // rank 0: filtered out
        source.appendRow(row(first1, QStringLiteral("e")));
        QCOMPARE(texts(), (QStringList{QStringLiteral("c"), QStringLiteral("b"), QStringLiteral("e")}));
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(model.sourceRow(2), 4);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        source.removeRows(0, 2); // c and d
        QCOMPARE(texts(), (QStringList{QStringLiteral("b"), QStringLiteral("e")}));
        QCOMPARE(removed.size(), 1);
        QCOMPARE(model.sourceRow(0), 1);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        source.item(1, 0)->setText(QStringLiteral("B"));
        QCOMPARE(texts(), (QStringList{QStringLiteral("B"), QStringLiteral("e")}));
        QCOMPARE(changed.size(), 1);
        source.item(0, 0)->setData(first1, ProcessRole); // "a" moves to rank 1
        QCOMPARE(texts(), (QStringList{QStringLiteral("a"), QStringLiteral("B"), QStringLiteral("e")}));
        QCOMPARE(model.index(0, model.rankColumn()).data(SortRole).toInt(), 1);
        source.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 1);
    }

    /// The charts per rank hold each file's own figures, read with SQL: kernel time per pass (median) by
    /// kernel, snapshot and restore time, bytes, declines by reason, dispatches.
    void perRankCharts() {
        const JobSummary m = summaryOf({rank0_, rank1_});
        QVERIFY(!m.isNull());
        const QString files[] = {rank0_, rank1_};
        const QStringList categories = {QStringLiteral("rank 0"), QStringLiteral("rank 1")};

        const RankChart time = m.snapshotRestoreTimeByRank();
        QCOMPARE(time.categories, categories);
        QCOMPARE(time.sets.size(), 2);
        const RankChart bytes = m.bytesByRank();
        QCOMPARE(bytes.sets.size(), 3);
        for (int f = 0; f < 2; ++f) {
            QCOMPARE(qint64(time.sets[0].values[f]),
                     test::sqlCount(files[f], QStringLiteral("SELECT sum(duration_ns) FROM snapshots")));
            QCOMPARE(qint64(time.sets[1].values[f]),
                     test::sqlCount(files[f], QStringLiteral("SELECT sum(restore_ns) FROM restores")));
            QCOMPARE(qint64(bytes.sets[0].values[f]),
                     test::sqlCount(files[f], QStringLiteral("SELECT sum(footprint) FROM dispatches")));
            QCOMPARE(
                qint64(bytes.sets[1].values[f]),
                test::sqlCount(files[f], QStringLiteral("SELECT sum(restored_bytes_host) FROM restores")));
            QCOMPARE(
                qint64(bytes.sets[2].values[f]),
                test::sqlCount(files[f], QStringLiteral("SELECT sum(restored_bytes_device) FROM restores")));
        }
        QVERIFY(time.sets[0].values[0] > 0 && time.sets[1].values[1] > 0);

        // Declines: one set per reason of the job, a value per rank.
        std::map<QString, std::vector<qint64>> declines;
        for (int f = 0; f < 2; ++f) {
            for (const QVariantList& r : test::sqlRows(
                     files[f], QStringLiteral("SELECT reason, count(*) FROM declines GROUP BY reason"))) {
                auto& v = declines[r[0].toString()];
                v.resize(2);
                v[std::size_t(f)] = r[1].toLongLong();
            }
        }
        const RankChart declined = m.declinesByRank();
        QCOMPARE(declined.sets.size(), int(declines.size()));
        for (const auto& set : declined.sets) {
            QVERIFY2(declines.count(set.name), qPrintable(set.name));
            for (int f = 0; f < 2; ++f) {
                QCOMPARE(qint64(set.values[f]), declines[set.name][std::size_t(f)]);
            }
        }

        // Kernel time per pass: per rank and kernel the median over its dispatches of their median pass.
        std::map<QString, std::vector<std::vector<double>>> medians; // kernel -> per file the dispatches'
        for (int f = 0; f < 2; ++f) {
            for (const auto& [key, t] : timedDispatches(files[f])) {
                auto& v = medians[t.kernel];
                v.resize(2);
                v[std::size_t(f)].push_back(double(tickMedian(t.ticks)));
            }
        }
        QVERIFY(!medians.empty());
        const RankChart kernels = m.kernelMedianByRank({}, 100);
        QCOMPARE(kernels.categories, categories);
        QCOMPARE(kernels.sets.size(), int(medians.size()));
        for (const auto& set : kernels.sets) {
            QVERIFY2(medians.count(set.name), qPrintable(set.name));
            for (int f = 0; f < 2; ++f) {
                const auto& samples = medians[set.name][std::size_t(f)];
                QCOMPARE(set.values[f], samples.empty() ? 0.0 : median(samples));
            }
        }
        QCOMPARE(m.kernelMedianByRank({}, 1).sets.size(), 1);
        // The Kernels page over the job: per kernel the smallest, median and largest of the ranks' medians,
        // and the slowest rank.
        JobKernelTableModel kernelTable;
        QAbstractItemModelTester kernelTester(&kernelTable,
                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        kernelTable.setJob(m);
        int timedKernels = 0;
        for (const JobKernel& k : kernelTable.kernels()) {
            qint64 sqlDispatches = 0;
            for (int f = 0; f < 2; ++f) {
                for (const QVariantList& r : test::sqlRows(
                         files[f], QStringLiteral("SELECT s.text FROM dispatches d JOIN strings s ON "
                                                  "s.process = d.process AND s.id = d.kernel_name_id"))) {
                    sqlDispatches += kernelDisplayName(r[0].toString()) == k.name;
                }
            }
            QCOMPARE(k.dispatches, sqlDispatches);
            std::vector<double> rankMedians;
            int slowest = -1;
            for (int f = 0; f < 2; ++f) {
                const auto it = medians.find(k.name);
                if (it != medians.end() && !it->second[std::size_t(f)].empty()) {
                    rankMedians.push_back(median(it->second[std::size_t(f)]));
                    if (slowest < 0 || rankMedians.back() > median(it->second[std::size_t(slowest)])) {
                        slowest = f;
                    }
                }
            }
            if (rankMedians.empty()) {
                QCOMPARE(k.rankMedianNs, -1.0);
                continue;
            }
            ++timedKernels;
            QCOMPARE(k.ranks, 1 + int(medians[k.name][1].size() > 0 && medians[k.name][0].size() > 0));
            QCOMPARE(k.rankMedianMinNs, *std::min_element(rankMedians.begin(), rankMedians.end()));
            QCOMPARE(k.rankMedianMaxNs, *std::max_element(rankMedians.begin(), rankMedians.end()));
            QCOMPARE(k.rankMedianNs, median(rankMedians));
            QCOMPARE(k.slowestFile, slowest);
        }
        QVERIFY(timedKernels >= 2);

        // The job view draws them, one chart each (and one of the dispatches replayed and declined).
        JobView view;
        QVERIFY(show(view, {rank0_, rank1_}));
        QCOMPARE(view.charts().size(), 5);
        QVERIFY(view.charts()[0]->title().contains(QStringLiteral("Kernel time per pass")));
    }

    /// Per-rank totals equal each file's own session totals.
    void rankTotals() {
        const JobSummary m = summaryOf({rank0_, rank1_});
        QVERIFY(!m.isNull());
        RankTotalsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJob(m);
        QCOMPARE(model.rowCount(), 2);
        const SessionSnapshot files[] = {s0_, s1_};
        for (int r = 0; r < 2; ++r) {
            const SessionTotals t = sessionTotals(files[r]->dispatches);
            qint64 snapshotNs = 0, restoreNs = 0;
            for (const DispatchRow& d : files[r]->dispatches) {
                snapshotNs += d.snapshotNs;
                restoreNs += d.restoreNs;
            }
            auto cell = [&](int c) { return model.index(r, c).data(SortRole).toLongLong(); };
            QCOMPARE(cell(RankTotalsModel::Rank), qint64(r));
            QCOMPARE(cell(RankTotalsModel::Dispatches), t.dispatches);
            QCOMPARE(cell(RankTotalsModel::Replayed), t.replayed);
            QCOMPARE(cell(RankTotalsModel::Declined), t.declined());
            QCOMPARE(cell(RankTotalsModel::SnapshotBytes), t.snapshotBytes);
            QCOMPARE(cell(RankTotalsModel::RestoredBytes), t.restores.movedHost + t.restores.movedDevice);
            QCOMPARE(cell(RankTotalsModel::SnapshotTime), snapshotNs);
            QCOMPARE(cell(RankTotalsModel::RestoreTime), restoreNs);
            QCOMPARE(model.index(r, RankTotalsModel::File).data().toString(),
                     QFileInfo(r == 0 ? rank0_ : rank1_).fileName());
            // The host the file records (its session row's).
            QCOMPARE(model.index(r, RankTotalsModel::Host).data().toString(),
                     test::sqlRows(r == 0 ? rank0_ : rank1_,
                                   QStringLiteral("SELECT s.text FROM session x JOIN strings s ON s.id = "
                                                  "x.hostname_id AND s.process = 1"))
                         .value(0)
                         .value(0)
                         .toString());
            QVERIFY(!model.index(r, RankTotalsModel::Host).data().toString().isEmpty());
            QCOMPARE(model.bars(RankTotalsModel::Dispatches)[r].value, double(t.dispatches));
            QCOMPARE(model.bars(RankTotalsModel::Dispatches)[r].label, QStringLiteral("rank %1").arg(r));
        }
        QVERIFY(model.index(0, RankTotalsModel::Replayed).data(SortRole).toLongLong() > 0);
        // What the job reads of each file (SessionLoader::loadFigures) gives the figures of a full load.
        for (int r = 0; r < 2; ++r) {
            SessionError e;
            const RankDigest lean = RankDigest::read(r == 0 ? rank0_ : rank1_, e);
            QVERIFY(!e.isError());
            const RankDigest full = RankDigest::of(files[r]);
            QCOMPARE(lean.info.jobRank, r);
            QCOMPARE(lean.totals.dispatches, full.totals.dispatches);
            QCOMPARE(lean.totals.replayed, full.totals.replayed);
            QCOMPARE(lean.totals.snapshotBytes, full.totals.snapshotBytes);
            QCOMPARE(lean.totals.restoredBytes, full.totals.restoredBytes);
            QCOMPARE(lean.totals.snapshotNs, full.totals.snapshotNs);
            QCOMPARE(lean.totals.restoreNs, full.totals.restoreNs);
            QCOMPARE(lean.movedHost, full.movedHost);
            QCOMPARE(lean.movedDevice, full.movedDevice);
            QCOMPARE(lean.declines, full.declines);
            QCOMPARE(lean.kernels.keys(), full.kernels.keys());
            for (auto it = full.kernels.cbegin(); it != full.kernels.cend(); ++it) {
                const KernelFigures& k = lean.kernels[it.key()];
                QCOMPARE(k.dispatches, it->dispatches);
                QCOMPARE(k.replayed, it->replayed);
                QCOMPARE(k.passes, it->passes);
                QCOMPARE(k.kernelMedianNs, it->kernelMedianNs);
                QCOMPARE(k.movedHost, it->movedHost);
                QCOMPARE(k.mismatches, it->mismatches);
            }
        }
    }

    /// Counters over a job of three ranks (synthetic sessions collecting two counters): per kernel and
    /// counter, the median over the ranks of each rank's median over the kernel's dispatches (SQL on each
    /// file), in the Kernels page's counter columns and in the job's --summary text.
    void countersOverTheJob() {
        QStringList files;
        for (int r = 0; r < 3; ++r) {
            SyntheticSession::Options o;
            o.dispatches = 60 + 20 * r;
            o.seed = unsigned(7 + r);
            o.jobRank = r;
            o.counters = {{"SQ_WAVES", 100}, {"SQ_INSTS_VALU", 1000 + 10 * std::uint64_t(r)}};
            files << dir_.filePath(QStringLiteral("counters-%1.rsdb").arg(r));
            QString error;
            QVERIFY2(SyntheticSession::write(files.back(), o, &error), qPrintable(error));
        }
        const JobSummary job = summaryOf(files);
        QCOMPARE(job.counterNames().size(), 2);
        JobKernelTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJob(job);
        QCOMPARE(model.columnCount(), int(JobKernelTableModel::ColumnCount) + 2);
        int checked = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const JobKernel& k = model.kernels()[row];
            for (int column = JobKernelTableModel::ColumnCount; column < model.columnCount(); ++column) {
                const QString counter = model.counterOfColumn(column);
                std::vector<double> rankMedians;
                for (const QString& f : files) {
                    std::vector<double> values;
                    for (const QVariantList& v : test::sqlRows(
                             f, QStringLiteral(
                                    "SELECT s.text, v.value FROM pass_counter_values v JOIN dispatches "
                                    "d ON d.process = v.process AND d.id = v.dispatch JOIN strings s "
                                    "ON s.process = d.process AND s.id = d.kernel_name_id WHERE "
                                    "v.counter = '%1'")
                                    .arg(counter))) {
                        if (kernelDisplayName(v[0].toString()) == k.name) {
                            values.push_back(v[1].toDouble());
                        }
                    }
                    if (!values.empty()) {
                        rankMedians.push_back(median(values));
                    }
                }
                const QVariant shown = model.index(row, column).data(SortRole);
                if (rankMedians.empty()) {
                    QVERIFY(!shown.isValid());
                    continue;
                }
                QCOMPARE(shown.toDouble(), median(rankMedians));
                ++checked;
            }
        }
        QVERIFY2(checked >= 4, qPrintable(QString::number(checked)));
        QVERIFY(TerminalSummary::jobText(job).contains(QStringLiteral("\ncounters over the job")));
    }

    /// Rank sets as typed ("0-3,17"), their text, a job directory's files in natural order, and the
    /// quantiles of the rank distributions (type 7: NumPy's default).
    void rankSetsAndDirectories() {
        QCOMPARE(JobSummary::parseRanks(QStringLiteral("0-3, 17,2")), (QVector<int>{0, 1, 2, 3, 17}));
        QCOMPARE(JobSummary::parseRanks(QStringLiteral("")), QVector<int>{});
        QCOMPARE(JobSummary::parseRanks(QStringLiteral("All")), QVector<int>{});
        for (const char* bad : {"3-1", "-1", "1-", "a", "1,,2", "1-2-3"}) {
            QVERIFY2(!JobSummary::parseRanks(QString::fromLatin1(bad)), bad);
        }
        QCOMPARE(JobSummary::rankText({17, 0, 1, 2, 3, 5, 6}), QStringLiteral("0-3,5-6,17"));
        QTemporaryDir dir;
        for (const char* name :
             {"rank-10.rsdb", "rank-2.rsdb", "rank-1.rsdb", "notes.txt", "rank-02b.rsdb"}) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub.rsdb")));
        QCOMPARE(JobSummary::expandDirectories({QStringLiteral("a.rsdb"), dir.path()}),
                 (QStringList{QStringLiteral("a.rsdb"), dir.filePath(QStringLiteral("rank-1.rsdb")),
                              dir.filePath(QStringLiteral("rank-2.rsdb")),
                              dir.filePath(QStringLiteral("rank-02b.rsdb")),
                              dir.filePath(QStringLiteral("rank-10.rsdb"))}));
        const QVector<double> v{1, 2, 3, 4};
        QCOMPARE(RankDistribution::quantile(v, 0.25), 1.75);
        QCOMPARE(RankDistribution::quantile(v, 0.5), 2.5);
        QCOMPARE(RankDistribution::quantile(v, 1.0), 4.0);
        QCOMPARE(RankDistribution::quantile({7}, 0.75), 7.0);
    }

    /// A job of 20 ranks (copies of the two files under ranks 0..19; hosts node-a for ranks 0..11, node-b
    /// after): each chart is a box per figure over the ranks, with the five numbers of the files' own figures
    /// (SQL) and the highest and lowest ranks named; over the listing budget no row is listed until ranks are
    /// selected, then only theirs; the host filter narrows the totals, kernels and charts (8 ranks: bars).
    void manyRanks() {
        QStringList files;
        QVector<double> dispatches, replayed;
        for (int i = 0; i < 20; ++i) {
            const QString from = i % 3 == 0 ? rank1_ : rank0_;
            const QString copy = copyWith(dir_.path(), from, QStringLiteral("job20-%1.rsdb").arg(i),
                                          QStringLiteral("UPDATE session SET job_rank = %1").arg(i));
            bool ok = false;
            test::sqlRows(copy,
                          QStringLiteral("UPDATE strings SET text = '%1' WHERE process = 1 AND id = "
                                         "(SELECT hostname_id FROM session)")
                              .arg(i < 12 ? QStringLiteral("node-a") : QStringLiteral("node-b")),
                          true, &ok);
            QVERIFY(ok);
            files << copy;
            dispatches << double(test::sqlCount(copy, QStringLiteral("SELECT count(*) FROM dispatches")));
            replayed << double(
                test::sqlCount(copy, QStringLiteral("SELECT count(*) FROM dispatches WHERE decision = 0")));
        }
        const qint64 total = qint64(std::accumulate(dispatches.begin(), dispatches.end(), 0.0));
        JobView view;
        view.setDetailBudget(total - 1);
        QVERIFY(show(view, files));
        QCOMPARE(view.hostFilter()->count(), 3);
        QVERIFY(!view.hostFilter()->isHidden());
        QCOMPARE(view.totalsModel()->rowCount(), 20);
        // Over the budget: nothing listed, and the notice says why.
        QVERIFY(view.merged().isNull());
        QCOMPARE(view.dispatches()->rowCount(), 0);
        QVERIFY(!view.rowsNotice()->isHidden());
        QVERIFY2(view.rowsNotice()->text().contains(QLocale().toString(total)),
                 qPrintable(view.rowsNotice()->text()));

        // The dispatches chart: boxes "replayed" and "declined" over the 20 ranks, type-7 quartiles.
        ChartAdapter* chart = view.charts()[4];
        QVERIFY(chart->title().contains(QStringLiteral("distribution over 20 ranks")));
        const auto boxes = chart->boxesShown();
        QCOMPARE(boxes.size(), 2);
        QVector<double> sorted = replayed;
        std::sort(sorted.begin(), sorted.end());
        const auto q = [&sorted](double p) {
            const double h = p * double(sorted.size() - 1);
            const int lo = int(h);
            return sorted[lo] + (h - lo) * (sorted[std::min(lo + 1, int(sorted.size()) - 1)] - sorted[lo]);
        };
        QCOMPARE(boxes[0].name, QStringLiteral("replayed"));
        QCOMPARE(boxes[0].min, sorted.front());
        QCOMPARE(boxes[0].lowerQuartile, q(0.25));
        QCOMPARE(boxes[0].median, q(0.5));
        QCOMPARE(boxes[0].upperQuartile, q(0.75));
        QCOMPARE(boxes[0].max, sorted.back());
        QVERIFY(sorted.front() != sorted.back()); // the two files differ: the box is not a line
        // The highest ranks by dispatches (ties in rank order), named under the chart.
        QStringList highest;
        const double most = *std::max_element(dispatches.begin(), dispatches.end());
        for (int i = 0; i < 20 && highest.size() < 3; ++i) {
            if (dispatches[i] == most) {
                highest << QStringLiteral("rank %1").arg(i);
            }
        }
        QVERIFY(!view.chartExtremes()[4]->isHidden());
        QVERIFY2(view.chartExtremes()[4]->text().startsWith(
                     QStringLiteral("Highest: %1.").arg(highest.join(QStringLiteral(", ")))),
                 qPrintable(view.chartExtremes()[4]->text()));

        // Ranks 2 and 3 selected: their rows only.
        QVERIFY(listRanks(view, {2, 3}));
        QCOMPARE(view.merged().paths(), (QStringList{files[2], files[3]}));
        QCOMPARE(view.dispatches()->rowCount(), int(dispatches[2] + dispatches[3]));
        QVERIFY(view.rowsNotice()->isHidden());

        // Host node-b: its 8 ranks in the totals, the kernels and the charts (bars again); ranks 2 and 3
        // are not on it; with no selection its 8 ranks fit the budget and are listed.
        view.hostFilter()->setCurrentIndex(view.hostFilter()->findData(QStringLiteral("node-b")));
        QCOMPARE(view.totalsModel()->rowCount(), 8);
        QCOMPARE(view.shownFiles().size(), 8);
        qint64 nodeB = 0;
        for (int i = 12; i < 20; ++i) {
            nodeB += qint64(dispatches[i]);
        }
        qint64 kernelDispatches = 0;
        for (const JobKernel& k : view.kernelsModel()->kernels()) {
            kernelDispatches += k.dispatches;
        }
        QCOMPARE(kernelDispatches, nodeB);
        QVERIFY(view.charts()[4]->boxesShown().isEmpty());
        QVERIFY(view.chartExtremes()[4]->isHidden());
        QCOMPARE(view.dispatches()->rowCount(), 0);
        QVERIFY(view.rowsNotice()->text().contains(QStringLiteral("host filter")));
        QVERIFY(listRanks(view, {}));
        QCOMPARE(view.merged().paths(), files.mid(12));
        QCOMPARE(view.dispatches()->rowCount(), int(nodeB));
    }

    /// `replayscope --summary` of both files prints the job's summary: files, ranks and hosts, the totals,
    /// one line per rank with its host and counts (the files' own, by SQL), the kernels over both ranks.
    void summaryOfSeveralFiles() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(RS_REPLAYSCOPE), {QStringLiteral("--summary"), rank0_, rank1_});
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
        QVERIFY2(p.exitCode() == 0, qPrintable(out + QString::fromLocal8Bit(p.readAllStandardError())));
        QVERIFY2(out.startsWith(QStringLiteral("job:        2 files, 2 ranks, 1 host (")), qPrintable(out));
        qint64 all = 0;
        for (int r = 0; r < 2; ++r) {
            const QString file = r == 0 ? rank0_ : rank1_;
            const qint64 dispatches = test::sqlCount(file, QStringLiteral("SELECT count(*) FROM dispatches"));
            const qint64 declined = test::sqlCount(file, QStringLiteral("SELECT count(*) FROM declines"));
            const QString host =
                test::sqlRows(file, QStringLiteral("SELECT s.text FROM session x JOIN strings s "
                                                   "ON s.id = x.hostname_id LIMIT 1"))
                    .value(0)
                    .value(0)
                    .toString();
            all += dispatches;
            const QRegularExpression line(QStringLiteral("^ +%1 %2 +%3 +%4 +%5 .*%6$")
                                              .arg(r)
                                              .arg(QRegularExpression::escape(host))
                                              .arg(dispatches)
                                              .arg(dispatches - declined)
                                              .arg(declined)
                                              .arg(QRegularExpression::escape(file)),
                                          QRegularExpression::MultilineOption);
            QVERIFY2(line.match(out).hasMatch(), qPrintable(line.pattern() + QStringLiteral("\n") + out));
        }
        QVERIFY2(out.contains(QStringLiteral("dispatches: %1 (").arg(format::count(all))), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("\nkernels over the job")), qPrintable(out));
        // A directory of the files (a job's output directory) is the same job, also for --export-trace.
        const QString job = dir_.filePath(QStringLiteral("jobdir"));
        QVERIFY(QDir().mkpath(job));
        QFile::remove(job + QStringLiteral("/run-1.rsdb"));
        QFile::remove(job + QStringLiteral("/run-10.rsdb"));
        QVERIFY(QFile::copy(rank1_, job + QStringLiteral("/run-1.rsdb")));
        QVERIFY(QFile::copy(rank0_, job + QStringLiteral("/run-10.rsdb")));
        p.start(QStringLiteral(RS_REPLAYSCOPE), {QStringLiteral("--summary"), job});
        QVERIFY(p.waitForFinished(60000));
        const QString fromDirectory = QString::fromLocal8Bit(p.readAllStandardOutput());
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(fromDirectory.section(QStringLiteral("\n\n"), 2), out.section(QStringLiteral("\n\n"), 2));
        QVERIFY2(fromDirectory.startsWith(QStringLiteral("job:        2 files, 2 ranks")),
                 qPrintable(fromDirectory));
        const QString trace = dir_.filePath(QStringLiteral("job.json"));
        p.start(QStringLiteral(RS_REPLAYSCOPE), {QStringLiteral("--export-trace"), trace, job});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QFileInfo(trace).size() > 0);
    }

    /// Opening both files: a "Job (2 ranks)" tab loaded on the reader thread, whose rank filter drives
    /// every table; a refused file closes the tab and reports it.
    /// A job of more files than MainWindow::kMaxRankTabs opens as its Job tab alone (no tab per rank); a
    /// double click on a rank of its Ranks table opens that rank's file in a tab of its own. Up to the cap,
    /// every file also gets its tab.
    void manyRanksOpenAsOneJobTab() {
        QStringList files;
        for (int i = 0; i <= MainWindow::kMaxRankTabs; ++i) {
            const QString copy = dir_.filePath(QStringLiteral("many-%1.rsdb").arg(i));
            QFile::remove(copy);
            QVERIFY(QFile::copy(i % 2 == 0 ? rank0_ : rank1_, copy));
            files << copy;
        }
        MainWindow window;
        window.setInteractive(false);
        window.openFiles(files);
        QCOMPARE(window.tabs()->count(), 2); // the start page and the job
        auto* job = qobject_cast<JobView*>(window.tabs()->widget(1));
        QVERIFY(job);
        QSignalSpy loaded(job, &JobView::loaded);
        QVERIFY(loaded.wait(30000));
        QCOMPARE(job->totalsModel()->rowCount(), files.size());
        auto* ranks = job->findChild<QTableView*>(QStringLiteral("rankTotalsView"));
        QVERIFY(ranks);
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(ranks->model());
        QVERIFY(proxy);
        emit ranks->doubleClicked(proxy->index(3, 0));
        QCOMPARE(window.tabs()->count(), 3);
        const QString opened = window.tabs()->tabToolTip(2);
        const QModelIndex source = proxy->mapToSource(proxy->index(3, 0));
        QCOMPARE(opened,
                 job->totalsModel()->index(source.row(), RankTotalsModel::File).data(SortRole).toString());
        MainWindow few;
        few.setInteractive(false);
        few.openFiles(files.mid(0, 2));
        QCOMPARE(few.tabs()->count(), 4); // start, the two files, the job
    }

    void jobTab() {
        MainWindow window;
        window.setInteractive(false);
        JobView* job = window.openJob({rank0_, rank1_});
        QVERIFY(job);
        QSignalSpy loaded(job, &JobView::loaded);
        QVERIFY(loaded.wait(30000));
        QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(job)), QStringLiteral("Job (2 ranks)"));
        QVERIFY(job->hostFilter()->isHidden()); // one host
        QCOMPARE(job->rankTables().size(), 12);
        QCOMPARE(job->dispatches()->rowCount(),
                 int(test::sqlCount(rank0_, QStringLiteral("SELECT count(*) FROM dispatches")) +
                     test::sqlCount(rank1_, QStringLiteral("SELECT count(*) FROM dispatches"))));
        // Rank 1 selected in the Ranks table: its rows alone, and the rank field says so.
        job->ranksView()->selectRow(1);
        QCOMPARE(job->rankSelection()->text(), QStringLiteral("1"));
        QSignalSpy listed(job, &JobView::rowsListed);
        QVERIFY(listed.wait(30000));
        QCOMPARE(job->dispatches()->rowCount(), int(s1_->dispatches.size()));
        QCOMPARE(job->rankTable(QStringLiteral("jobAllocations"))->rowCount(), int(s1_->allocations.size()));
        QVERIFY(listRanks(*job, {}));
        QCOMPARE(job->rankTable(QStringLiteral("jobAllocations"))->rowCount(),
                 int(s0_->allocations.size() + s1_->allocations.size()));
        QCOMPARE(job->totalsModel()->rowCount(), 2);
        // A click on a dispatch of rank 1 shows its passes, with rank 1 in their rank column.
        TablePanel* panel = job->panel(QStringLiteral("jobDispatches"));
        const int last = panel->proxy()->rowCount() - 1;
        panel->view()->setCurrentIndex(panel->proxy()->index(last, 0));
        RankColumnModel* passes = job->rankTable(QStringLiteral("jobPasses"));
        const int row =
            job->dispatches()->sourceRow(panel->proxy()->mapToSource(panel->proxy()->index(last, 0)).row());
        const SessionData& d = job->merged().snapshot().data();
        int finals = 0; // the restore after the last pass: a last row "final"
        for (int i = d.restoreBegin[std::size_t(row)]; i < d.restoreBegin[std::size_t(row) + 1]; ++i) {
            finals += d.restores[std::size_t(i)].finalRestore;
        }
        QCOMPARE(passes->rowCount(),
                 d.passBegin[std::size_t(row) + 1] - d.passBegin[std::size_t(row)] + finals);
        for (int r = 0; r < passes->rowCount(); ++r) {
            QCOMPARE(passes->index(r, passes->rankColumn()).data(SortRole).toInt(),
                     job->merged().rankOfProcess(d.dispatches[std::size_t(row)].process));
        }

        const int tabs = window.tabs()->count();
        QSignalSpy failed(&window, &MainWindow::openFailed);
        JobView* broken = window.openJob({rank0_, dir_.filePath(QStringLiteral("missing.rsdb"))});
        QVERIFY(broken);
        QCOMPARE(window.tabs()->count(), tabs + 1);
        QVERIFY(failed.wait(30000));
        QCOMPARE(window.tabs()->count(), tabs);
        QCOMPARE(failed.first().first().value<SessionError>().path,
                 dir_.filePath(QStringLiteral("missing.rsdb")));
    }
};

QTEST_MAIN(AppMergedTest)
#include "tst_app_merged.moc"
