// SPDX-License-Identifier: MIT
// Step 4 of replayscope-run: what the run recorded, on the terminal.
#pragma once

#include "spool_import_step.h"
#include "target_run.h"

#include "replayscope/ipc/collector.h"

#include <string>
#include <vector>

namespace rs::runner {

/// One line per process on stderr: "replayscope-run:   process 2: pid 4711 (parent 4700) ./b 3000:
/// 3006 events, 3000 dispatches, complete" (or "incomplete, N missing, M bad frames").
void print_processes(const std::vector<rs::ipc::ProcessSummary>& processes);

/// The run's closing report on stderr: the session line (processes, events, dispatches, complete or why
/// not, missing events, bad frames, the spool notes, the program's exit status), one line per process,
/// the restore summary read back from the session file (restore_summary; none when the file cannot be
/// read) and the collector's session file error, if any.
void report_run(const TargetRun& run, const SpoolImport& imported,
                const std::vector<std::string>& program_args);

} // namespace rs::runner
