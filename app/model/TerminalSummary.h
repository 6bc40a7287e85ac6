// SPDX-License-Identifier: MIT
// The text `replayscope --summary SESSION` prints, and of several files (the ranks of a job) the job's.
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>

namespace rs::app {

class TerminalSummary {
  public:
    static QString text(const SessionSnapshot& snapshot);
    /// The summary of a job (MergedSession of its rank files): files, ranks and hosts, one line per rank
    /// (host, dispatches, replayed, declined, missing events, complete, file), the job's totals, then the
    /// kernels and counters sections over every rank together. `maxRanks`: rank lines shown at most (the
    /// slowest ones by snapshot and restore time first, then a line saying how many more).
    static QString jobText(const class MergedSession& job, int maxRanks = 64);
};

} // namespace rs::app
