// SPDX-License-Identifier: MIT
// The merged view of one job's session files (MergedSession, RankColumnModel, RankTotalsModel, JobView,
// MainWindow's "Job (N ranks)" tab), on two rank files the engine recorded: replayscope-run --simulate
// -o run-%r.rsdb under OMPI_COMM_WORLD_RANK 0 and 1. Every table holds the sum of the files' rows with a
// rank column and a rank filter; the per-rank totals equal each file's own.
#include "app_test_support.h"

#include "model/AllocationTableModel.h"
#include "model/DispatchTableModel.h"
#include "model/MergedSession.h"
#include "model/ModelRoles.h"
#include "model/RankColumnModel.h"
#include "model/RankTotalsModel.h"
#include "model/SessionLoader.h"
#include "model/WarningTableModel.h"
#include "ui/ChartAdapter.h"
#include "ui/JobView.h"
#include "ui/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFileInfo>
#include <QTabWidget>
#include <QTemporaryDir>

using namespace rs::app;

namespace {

/// replayscope-run --simulate of `workload` as rank `rank` of a job, writing `dir`/run-%r.rsdb.
QString rankSession(const QString& dir, int rank, const QString& workload) {
    const test::RunResult r =
        test::runPipeline({QStringLiteral("--simulate"), QStringLiteral("--passes"), QStringLiteral("2"),
                           QStringLiteral("-o"), dir + QStringLiteral("/run-%r.rsdb"), QStringLiteral("--"),
                           QStringLiteral(RS_WORKLOAD_DIR "/") + workload},
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

} // namespace

class AppMergedTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString rank0_, rank1_;
    SessionSnapshot s0_, s1_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Two ranks of different size: rank 0 runs accumulate, rank 1 two_agents.
        rank0_ = rankSession(dir_.path(), 0, QStringLiteral("accumulate"));
        rank1_ = rankSession(dir_.path(), 1, QStringLiteral("two_agents"));
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

    /// Every table of the merged view: the rows of both files, a last column "Rank", a rank filter.
    void rankTables() {
        SessionError e;
        const MergedSession m = MergedSession::load({rank0_, rank1_}, e);
        QVERIFY(!e.isError());
        DispatchTableModel dispatches;
        AllocationTableModel allocations;
        WarningTableModel warnings;
        dispatches.setSnapshot(m.snapshot());
        allocations.setSnapshot(m.snapshot());
        warnings.setSnapshot(m.snapshot());
        const struct {
            QAbstractItemModel* source;
            int rows0, rows1;
        } tables[] = {{&dispatches, int(s0_->dispatches.size()), int(s1_->dispatches.size())},
                      {&allocations, int(s0_->allocations.size()), int(s1_->allocations.size())},
                      {&warnings, int(s0_->warnings.size()), int(s1_->warnings.size())}};
        for (const auto& t : tables) {
            RankColumnModel model(t.source, m);
            QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
            QCOMPARE(model.rowCount(), t.rows0 + t.rows1);
            QCOMPARE(model.columnCount(), t.source->columnCount() + 1);
            QCOMPARE(model.rankColumn(), t.source->columnCount());
            QCOMPARE(model.headerData(model.rankColumn(), Qt::Horizontal).toString(), QStringLiteral("Rank"));
            int ones = 0;
            for (int r = 0; r < model.rowCount(); ++r) {
                ones += model.index(r, model.rankColumn()).data(SortRole).toInt() == 1;
            }
            QCOMPARE(ones, t.rows1);
            model.setRankFilter(0);
            QCOMPARE(model.rowCount(), t.rows0);
            model.setRankFilter(1);
            QCOMPARE(model.rowCount(), t.rows1);
            for (int r = 0; r < model.rowCount(); ++r) {
                QCOMPARE(model.index(r, model.rankColumn()).data().toString(), QStringLiteral("1"));
                QCOMPARE(model.index(r, 0).data(), t.source->index(model.sourceRow(r), 0).data());
            }
            model.setRankFilter(std::nullopt);
            QCOMPARE(model.rowCount(), t.rows0 + t.rows1);
        }
    }

    /// Per-rank totals equal each file's own session totals.
    void rankTotals() {
        SessionError e;
        const MergedSession m = MergedSession::load({rank0_, rank1_}, e);
        QVERIFY(!e.isError());
        RankTotalsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setMerged(m);
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
            QCOMPARE(model.bars(RankTotalsModel::Dispatches)[r].value, double(t.dispatches));
            QCOMPARE(model.bars(RankTotalsModel::Dispatches)[r].label, QStringLiteral("rank %1").arg(r));
        }
        QVERIFY(model.index(0, RankTotalsModel::Replayed).data(SortRole).toLongLong() > 0);
    }

    /// Opening both files: their own tabs and a "Job (2 ranks)" tab whose rank filter drives every table.
    void jobTab() {
        MainWindow window;
        window.setInteractive(false);
        JobView* job = window.openJob({rank0_, rank1_});
        QVERIFY(job);
        QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(job)), QStringLiteral("Job (2 ranks)"));
        QCOMPARE(job->rankFilter()->count(), 3);
        QCOMPARE(job->rankTables().size(), 3);
        QCOMPARE(job->charts().size(), 7);
        QCOMPARE(job->dispatches()->rowCount(), int(s0_->dispatches.size() + s1_->dispatches.size()));
        job->rankFilter()->setCurrentIndex(2); // rank 1
        QCOMPARE(job->dispatches()->rowCount(), int(s1_->dispatches.size()));
        QCOMPARE(job->rankTables()[1]->rowCount(), int(s1_->allocations.size()));
        job->rankFilter()->setCurrentIndex(0);
        QCOMPARE(job->rankTables()[1]->rowCount(), int(s0_->allocations.size() + s1_->allocations.size()));
        QCOMPARE(job->totalsModel()->rowCount(), 2);
        QVERIFY(!window.openJob({rank0_, dir_.filePath(QStringLiteral("missing.rsdb"))}));
    }
};

QTEST_MAIN(AppMergedTest)
#include "tst_app_merged.moc"
