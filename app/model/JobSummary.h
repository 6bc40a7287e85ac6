// SPDX-License-Identifier: MIT
// What the job view holds of every rank of a job (one session file per rank: `replayscope-run -o
// run-%r.rsdb` under mpirun/srun) without holding their rows: per file a RankDigest (totals, per-kernel
// figures, declines by reason), read in parallel through SessionLoader::loadFigures and the rows dropped.
// A job of 512 ranks of 1,000 dispatches each is a few MB here, against about 800 MB as merged rows
// (docs/performance.md, "A job of many ranks"). The rows of the ranks a user selects are loaded apart
// (MergedSession). Pure data, no widgets.
#pragma once

#include "model/ChartSeriesBuilder.h"
#include "model/SessionComparison.h"
#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>
#include <optional>

namespace rs::app {

/// Totals of one rank (over every process of its file): counts, bytes, ns.
struct RankTotals {
    int rank = 0;
    QString path; ///< the rank's session file
    QString host; ///< the host it ran on (the file's, as recorded)
    qint64 dispatches = 0, replayed = 0, declined = 0;
    qint64 snapshotBytes = 0;             ///< sum of the snapshots' bytes
    qint64 restoredBytes = -1;            ///< bytes moved by restores (host link + device); -1 not recorded
    qint64 snapshotNs = 0, restoreNs = 0; ///< snapshot and restore time
};

/// A figure per file of a job: one category per file ("rank N"), one set per figure (a kernel, a decline
/// reason, snapshot / restore), for ChartAdapter::setGroupedBars or, for many ranks, RankDistribution.
struct RankChart {
    QStringList categories;                   ///< "rank N", in file order (with the file name on a clash)
    QVector<ChartSeriesBuilder::BarSet> sets; ///< values: one per category
};

/// What a job's summary keeps of one rank's session file.
struct RankDigest {
    QString path;
    /// The file's session row (host, start, end, missing events, complete; jobRank: the rank
    /// replayscope-run recorded, -1 none).
    SessionInfo info;
    RankTotals totals; ///< rank not set here (JobSummary assigns it)
    /// Bytes restores copied back over the host link and inside the device (0 when none recorded).
    qint64 movedHost = 0, movedDevice = 0;
    QMap<QString, qint64> declines;       ///< decline reason (the file's vocabulary) -> dispatches
    QMap<QString, KernelFigures> kernels; ///< by kernel name as shown (KernelFigures::of)
    /// Per kernel (as the counters name it: CounterSummary::Stat::kernel) each counter's and derived
    /// metric's median over the kernel's dispatches (CounterSummary, Grouping::kernel).
    QMap<QString, QMap<QString, double>> counterMedians;
    QStringList
        counterNames; ///< the counters and derived metrics of counterMedians, in CounterSummary's order

    /// The digest of a loaded session (every figure above from its rows).
    static RankDigest of(const SessionSnapshot& snapshot);
    /// Reads `path` (SessionLoader::open + loadFigures) and digests it; on refusal sets `error` and returns
    /// an empty digest. The rows are freed before it returns. Runs on any thread (own connection).
    static RankDigest read(const QString& path, SessionError& error);
};

/// One kernel over a job: how its ranks compare.
struct JobKernel {
    QString name;
    int ranks = 0;         ///< ranks that dispatched it
    qint64 dispatches = 0; ///< over the job
    qint64 replayed = 0;
    qint64 declined = 0;
    /// Over the ranks that timed it, of each rank's median pass time (KernelFigures::kernelMedianNs), ns:
    /// the smallest, the median and the largest; -1 when no rank timed it.
    double rankMedianMinNs = -1, rankMedianNs = -1, rankMedianMaxNs = -1;
    int slowestFile = -1;                 ///< file whose median is rankMedianMaxNs (-1 none)
    qint64 snapshotNs = 0, restoreNs = 0; ///< over the job
    qint64 movedBytes = 0;                ///< restores' bytes over the job (host link + device)
    /// Per counter (and derived metric) collected for the kernel: the median over the ranks of each rank's
    /// median (RankDigest::counterMedians).
    QMap<QString, double> counterMedians;
};

class JobSummary {
  public:
    /// Reads `paths` (RankDigest::read) on up to QThread::idealThreadCount() threads, in the order given;
    /// the first refused file (in that order) sets `error` and gives an empty summary. Runs on any thread.
    static JobSummary load(const QStringList& paths, SessionError& error);
    /// The summary of `digests` (file i's rank: its recorded rank, else its position i among them), its
    /// files ordered by rank (ties in the order given). Two files of one rank keep it and are named in
    /// problems().
    static JobSummary of(const QVector<RankDigest>& digests);

    /// `paths` with each directory replaced by the session files in it (`*.rsdb`, not its subdirectories)
    /// in natural order ("rank-2" before "rank-10"): what opening a job's output directory means.
    static QStringList expandDirectories(const QStringList& paths);

    /// The ranks a text names, as MPI tools write rank sets: "0-3,17" gives 0, 1, 2, 3, 17 (ascending,
    /// each once); "" or "all" gives none (meaning every rank); anything else (a negative rank, a range
    /// from high to low, a stray character) nullopt.
    static std::optional<QVector<int>> parseRanks(const QString& text);
    /// The ranks as parseRanks reads them, consecutive ones as ranges ("0-3,17").
    static QString rankText(QVector<int> ranks);

    bool isNull() const { return digests_.isEmpty(); }
    int fileCount() const { return int(digests_.size()); }
    const QVector<RankDigest>& digests() const { return digests_; }
    QStringList paths() const;
    /// Rank of each file (recorded, else its 0-based position).
    QVector<int> ranks() const { return ranks_; }
    /// Each rank once, ascending.
    QVector<int> distinctRanks() const;
    /// Hosts in order of first appearance.
    QStringList hosts() const;
    /// Chart category of file i: "rank N" ("rank N (file name)" when another file has rank N).
    QString rankLabel(int file) const;
    /// What the summary found wrong, one sentence each: two files of the same rank.
    QStringList problems() const { return problems_; }
    /// Totals per file, in file order (with rank and host).
    QVector<RankTotals> totals() const;
    qint64 dispatches() const; ///< over the job

    /// Files `files` (indices; empty: every file) as chart categories, with per file the median kernel time
    /// per pass of each kernel (ns; KernelFigures::kernelMedianNs) for the `maxKernels` kernels with the most
    /// replayed dispatches over those files; 0 where a rank did not time that kernel.
    RankChart kernelMedianByRank(const QVector<int>& files = {}, int maxKernels = 8) const;
    /// Per file the snapshot time and the restore time (ns), sets "snapshot" and "restore".
    RankChart snapshotRestoreTimeByRank(const QVector<int>& files = {}) const;
    /// Per file the bytes snapshotted and restored (bytes): "snapshot", "restored over the host link",
    /// "restored inside the device".
    RankChart bytesByRank(const QVector<int>& files = {}) const;
    /// Per file the declined dispatches of each reason occurring in those files (a set per reason).
    RankChart declinesByRank(const QVector<int>& files = {}) const;
    /// Per file the dispatches replayed and declined.
    RankChart dispatchesByRank(const QVector<int>& files = {}) const;
    /// Per kernel over files `files` (empty: every file), most dispatches first.
    QVector<JobKernel> kernels(const QVector<int>& files = {}) const;
    /// The counters and derived metrics of files `files` (empty: every file), in order of first appearance.
    QStringList counterNames(const QVector<int>& files = {}) const;

  private:
    /// One set of a chart by rank: its name and the figure it takes of each rank's digest.
    struct Figure {
        QString name;
        std::function<qint64(const RankDigest&)> of;
    };
    /// Files `files` (empty: every file) as categories, a set per figure.
    RankChart figuresByRank(const QVector<int>& files, const QList<Figure>& figures) const;
    QVector<int> fileList(const QVector<int>& files) const;
    RankChart categoriesOf(const QVector<int>& files) const;

    QVector<RankDigest> digests_;
    QVector<int> ranks_;
    QStringList problems_;
};

} // namespace rs::app
