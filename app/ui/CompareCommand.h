// SPDX-License-Identifier: MIT
// `replayscope --compare BASE NEW [--export-charts DIR]`: the comparison of two sessions as a text table on
// stdout (kernel figures, then the hardware counters collected in both) and, with a directory, its
// difference charts as PNG, one per chart metric and per counter (ComparePage::exportPngs, through
// ChartAdapter like --export-charts). Needs a QApplication for the charts (the offscreen platform is fine).
#pragma once

#include <QString>

#include <cstdio>

namespace rs::app {

class CompareCommand {
  public:
    /// Loads `base` and `now`, prints the table to `out` (then the PNG paths written to `chartDir` when it
    /// is not empty). Returns the exit status: 0 on success; 1 with one line on `err` naming the file and
    /// its problem when a file is refused, or when a chart cannot be written.
    static int run(const QString& base, const QString& now, const QString& chartDir, std::FILE* out,
                   std::FILE* err);
};

} // namespace rs::app
