// SPDX-License-Identifier: MIT
// The text `replayscope --summary SESSION` prints, and of several files (the ranks of a job) the job's.
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>

namespace rs::app {

class TerminalSummary {
  public:
    static QString text(const SessionSnapshot& snapshot);
    /// The summary of a job (JobSummary of its rank files): files, ranks and hosts, the job's totals, one
    /// line per rank (host, dispatches, replayed, declined, missing events, replay ms, complete, file; the
    /// most snapshot and restore time first, at most `maxRanks`, then a line saying how many more), then per
    /// kernel the ranks, dispatches, replayed, declined and the smallest, median and largest of the ranks'
    /// median pass times with the slowest rank.
    static QString jobText(const class JobSummary& job, int maxRanks = 64);
};

} // namespace rs::app
