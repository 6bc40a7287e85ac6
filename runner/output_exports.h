// SPDX-License-Identifier: MIT
// Step 5 of replayscope-run: the files --output-format and --stats ask for, written beside the session
// after the run, in rocprofv3's file layout (<name>_<what>.<ext>).
#pragma once

#include "kernel_stats.h"

#include <string>
#include <vector>

namespace rs::runner {

/// The files asked for besides the session.
struct ExportRequest {
    std::vector<std::string> formats;                   ///< csv, json, pftrace (--output-format without rsdb)
    bool stats = false;                                 ///< --stats
    KernelNameStyle names = KernelNameStyle::demangled; ///< -M / -T
    std::string inspector; ///< the replayscope binary that writes csv, json and pftrace
};

/// `session` without the extension of its last component ("out/run.rsdb" -> "out/run"): the prefix of
/// the files written beside it, as rocprofv3 prefixes its files with -o's name.
std::string export_prefix(const std::string& session);

/// The file a format or --stats ("stats") is written to for `session`: <prefix>_counter_collection.csv
/// (csv), <prefix>_results.json (json), <prefix>_results.pftrace (pftrace), <prefix>_kernel_stats.csv
/// (stats), rocprofv3's names (source/lib/output/generateCSV.cpp and output_file.cpp in
/// rocprofiler-sdk).
std::string export_file(const std::string& session, const std::string& what);

/// Writes what `request` asks for from the finished session file `session`: --stats here
/// (read_kernel_stats, write_kernel_stats_csv; its line names the kernel with most of the passes' time,
/// in the file's name style); csv, json and pftrace by running the inspector headless
/// (`replayscope [-M|-T] --export-counters FILE SESSION`, `--export-trace FILE SESSION`). pftrace is
/// asked only of an inspector whose --help names pftrace or Perfetto; otherwise one line says it was not
/// written (never JSON in a .pftrace file). Each file written is named on one line (info); each failure on
/// one line (error). Returns the number of files not written.
int write_exports(const std::string& session, const ExportRequest& request);

} // namespace rs::runner
