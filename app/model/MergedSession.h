// SPDX-License-Identifier: MIT
// The session files of one job (one per rank: `replayscope-run -o run-%r.rsdb` under mpirun/srun) as one
// session: their rows concatenated, each file's processes renumbered after the previous file's, and every
// process tagged with the rank of its file (recorded by replayscope-run, else the file's position). Pure
// data, no widgets: the job view's tables show the rows of the ranks selected (JobSummary holds what is
// shown of every rank).
#pragma once

#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace rs::app {

class MergedSession {
  public:
    /// The rank replayscope-run recorded in the session file `path` (the `session` row's `job_rank`,
    /// from the launcher's OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID), or -1: recorded
    /// outside a job, by a build before the column, or the file cannot be read.
    static int recordedRank(const QString& path);

    /// Concatenates `files` (each loaded with every row, in the order given). The rank of file i is
    /// `recorded[i]` when that is >= 0, else i (its 0-based position). Two files of the same rank keep it
    /// (JobSummary::problems names them). Processes are renumbered: file i's process p becomes process
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
    QStringList paths() const { return paths_; }

  private:
    SessionSnapshot snapshot_;
    QVector<int> ranks_;        ///< per file
    QVector<bool> recorded_;    ///< per file: rank from the file
    QVector<int> process_rank_; ///< per merged process (index process - 1)
    QVector<int> process_file_; ///< per merged process (index process - 1)
    QStringList paths_;
};

} // namespace rs::app
