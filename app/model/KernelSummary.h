// SPDX-License-Identifier: MIT
// Per kernel: what replay did with its dispatches and what it cost (the inspector's Kernels page and the
// kernels section of `replayscope --summary`). A kernel is a name as shown (model/KernelName.h); in a file of
// several processes its dispatches are counted together. Times are in ns (the passes' timestamps are
// HSA system timestamps), sizes in bytes.
#pragma once

#include "model/SessionSnapshot.h"

#include <QMap>
#include <QString>

#include <vector>

namespace rs::app {

class KernelSummary {
  public:
    struct Stat {
        int kernel = -1;       ///< index in SessionData::kernelNames
        QString name, symbol;  ///< as shown; as stored
        qint64 dispatches = 0; ///< dispatches of the kernel
        qint64 replayed = 0;   ///< of them replayed
        /// The declined ones by DispatchDecision code (enum `decision` of the file).
        QMap<int, qint64> declined;
        qint64 passes = 0; ///< passes run over its replayed dispatches
        /// Over every timed pass (end >= start, end > 0) of its dispatches, ns; -1 without one.
        qint64 passMin = -1, passMedian = -1, passMax = -1;
        qint64 snapshotNs = 0, restoreNs = 0; ///< sums over its dispatches: snapshot, restores
        qint64 snapshotBytes = 0;             ///< sum of its snapshots' footprints
        qint64 movedBytes = 0;                ///< bytes its restores copied back (host link + device)
        qint64 declinedCount() const { return dispatches - replayed; }
    };

    /// Per kernel, in the order of the kernels' first dispatch. O(dispatches + passes).
    static std::vector<Stat> stats(const SessionSnapshot& snapshot);
    /// "3 multi-packet, 1 footprint-budget": the declines of `s` by reason name, most frequent first.
    static QString declinedText(const SessionSnapshot& snapshot, const Stat& s);
    /// The kernels section of `--summary`: one line per kernel, most dispatches first (at most `limit`, then
    /// a line saying how many more): dispatches, replayed, declined with reasons, passes, pass time
    /// min/median/max, snapshot and restore time, bytes moved. Empty without dispatches.
    static QString text(const SessionSnapshot& snapshot, int limit = 20);
};

} // namespace rs::app
