// SPDX-License-Identifier: MIT
// The session files of one job (one per rank: `replayscope-run -o run-%r.rsdb` under mpirun/srun) as one
// session: their rows concatenated, each file's processes renumbered after the previous file's, and every
// process tagged with the rank of its file. Pure data, no widgets: the job view shows it with a rank
// column, a rank filter, per-rank totals and charts.
#pragma once

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
    qint64 dispatches = 0, replayed = 0, declined = 0;
    qint64 snapshotBytes = 0;             ///< sum of the snapshots' bytes
    qint64 restoredBytes = -1;            ///< bytes moved by restores (host link + device); -1 not recorded
    qint64 snapshotNs = 0, restoreNs = 0; ///< snapshot and restore time
};

class MergedSession {
  public:
    /// The rank recorded in `snapshot`, or -1. A session file records no rank: its `session` and
    /// `processes` rows hold pids, commands and the engine's settings (the `REPLAYSCOPE_*` values), not the
    /// launcher's environment; the rank only reaches the file name through `-o`'s `%r`. So this is -1 for
    /// every file today and the rank is the file's position (see merge()).
    static int recordedRank(const SessionSnapshot& snapshot);

    /// Concatenates `files` (each loaded with every row, in the order given). The rank of each file is its
    /// recorded rank when it has one, else its index in `files` (0-based). Processes are renumbered:
    /// file i's process p becomes process (processes of files 0..i-1) + p. Kernel names are merged
    /// by name; the enum vocabulary is the union (the first file's names win on a clash).
    static MergedSession merge(const QVector<SessionSnapshot>& files);
    /// Loads `paths` (SessionLoader::loadAll) and merges them; the first refused file sets `error` and
    /// gives an empty result.
    static MergedSession load(const QStringList& paths, SessionError& error);

    bool isNull() const { return snapshot_.isNull(); }
    /// The merged session (SessionData::info.path: the first file's; processCount: every process).
    SessionSnapshot snapshot() const { return snapshot_; }
    /// Rank of merged process `process` (1-based), -1 when unknown.
    int rankOfProcess(int process) const;
    /// Ranks in file order (one per file).
    QVector<int> ranks() const { return ranks_; }
    QStringList paths() const { return paths_; }
    /// Totals per rank, in file order.
    QVector<RankTotals> totals() const;

  private:
    SessionSnapshot snapshot_;
    QVector<int> ranks_;        ///< per file
    QVector<int> process_rank_; ///< per merged process (index process - 1)
    QStringList paths_;
};

} // namespace rs::app
