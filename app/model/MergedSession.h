// SPDX-License-Identifier: MIT
// The session files of one job (one per rank: `replayscope-run -o run-%r.rsdb` under mpirun/srun) as one
// session: their rows concatenated, each file's processes renumbered after the previous file's, and every
// process tagged with the rank of its file (recorded by replayscope-run, else the file's position). Pure
// data, no widgets: the job view shows it with a rank column, a rank filter, per-rank totals and charts.
#pragma once

#include "model/ChartSeriesBuilder.h"
#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace rs::app {

/// Totals of one rank (over every process of its file): counts, bytes, ns.
struct RankTotals {
    int rank = 0;
    QString path; ///< the rank's session file
    QString host; ///< the host it ran on (the file's first process's, as recorded)
    qint64 dispatches = 0, replayed = 0, declined = 0;
    qint64 snapshotBytes = 0;             ///< sum of the snapshots' bytes
    qint64 restoredBytes = -1;            ///< bytes moved by restores (host link + device); -1 not recorded
    qint64 snapshotNs = 0, restoreNs = 0; ///< snapshot and restore time
};

/// Grouped bars of a merged job: one category per file ("rank N"), one set per figure (a kernel, a decline
/// reason, snapshot / restore), for ChartAdapter::setGroupedBars.
struct RankChart {
    QStringList categories;                   ///< "rank N", in file order (with the file name on a clash)
    QVector<ChartSeriesBuilder::BarSet> sets; ///< values: one per category
};

class MergedSession {
  public:
    /// The rank replayscope-run recorded in the session file `path` (the `session` row's `job_rank`,
    /// from the launcher's OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID), or -1: recorded
    /// outside a job, by a build before the column, or the file cannot be read.
    static int recordedRank(const QString& path);

    /// Concatenates `files` (each loaded with every row, in the order given). The rank of file i is
    /// `recorded[i]` when that is >= 0, else i (its 0-based position). Two files of the same rank keep it
    /// and are reported in problems(). Processes are renumbered: file i's process p becomes process
    /// (processes of files 0..i-1) + p. Kernel names are merged by name; the enum vocabulary is the union
    /// (the first file's names win on a clash).
    static MergedSession merge(const QVector<SessionSnapshot>& files, const QVector<int>& recorded = {});
    /// Loads `paths` (SessionLoader::loadAll, recordedRank) and merges them; the first refused file sets
    /// `error` and gives an empty result. Runs on any thread (opens its own database connections).
    static MergedSession load(const QStringList& paths, SessionError& error);

    bool isNull() const { return snapshot_.isNull(); }
    /// The merged session (SessionData::info.path: the first file's; processCount: every process).
    SessionSnapshot snapshot() const { return snapshot_; }
    /// Rank of merged process `process` (1-based), -1 when unknown.
    int rankOfProcess(int process) const;
    /// File index (0-based, order of merge()) of merged process `process`, -1 when unknown.
    int fileOfProcess(int process) const;
    /// Ranks in file order (one per file).
    QVector<int> ranks() const { return ranks_; }
    /// Whether rank of file i came from the file (else: its position).
    QVector<bool> rankRecorded() const { return recorded_; }
    /// Each rank once, ascending (the rank filter's entries).
    QVector<int> distinctRanks() const;
    QStringList paths() const { return paths_; }
    /// The files as loaded, in file order.
    QVector<SessionSnapshot> files() const { return files_; }
    /// What the merge found wrong, one sentence each: two files of the same rank.
    QStringList problems() const { return problems_; }
    /// Totals per file, in file order.
    QVector<RankTotals> totals() const;

    /// Chart category of file i: "rank N" ("rank N (file name)" when another file has rank N).
    QString rankLabel(int file) const;
    /// Per file the median kernel time per pass of each kernel (ns: agent ticks at 1 GHz; the median over
    /// the kernel's dispatches of their median pass, KernelFigures), for the `maxKernels` kernels with the
    /// most replayed dispatches over the job; 0 where a rank did not time that kernel.
    RankChart kernelMedianByRank(int maxKernels = 8) const;
    /// Per file the snapshot time and the restore time (ns), sets "snapshot" and "restore".
    RankChart snapshotRestoreTimeByRank() const;
    /// Per file the bytes snapshotted and restored (host link, device; bytes), sets "snapshot",
    /// "restored over the host link", "restored inside the device".
    RankChart bytesByRank() const;
    /// Per file the declined dispatches of each decline reason (the vocabulary's name), a set per reason
    /// that occurs in the job.
    RankChart declinesByRank() const;

  private:
    SessionSnapshot snapshot_;
    QVector<int> ranks_;        ///< per file
    QVector<bool> recorded_;    ///< per file: rank from the file
    QVector<int> process_rank_; ///< per merged process (index process - 1)
    QVector<int> process_file_; ///< per merged process (index process - 1)
    QStringList paths_;
    QStringList problems_;
    QVector<SessionSnapshot> files_;
};

} // namespace rs::app
