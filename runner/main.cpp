// SPDX-License-Identifier: MIT
// replayscope-run: runs a program under the ReplayScope engine and records its session file.
//
//   replayscope-run [options] [-d DIR] -o SESSION.rsdb -- PROGRAM [ARGS...]
//   replayscope-run --import-spool FILE|DIR [--force-import] -o SESSION.rsdb
//
// Exit status: the program's (128+signal when it was killed); 125 when replayscope-run itself fails
// before or instead of running the program (bad option, engine missing, session file refused, the
// session path claimed by another live run).
//
// main only wires the steps, one file each: parse (options.cpp), run (target_run.cpp), import
// (spool_import_step.cpp), report (run_report.cpp) and exports (output_exports.cpp).
#include "command_line.h"
#include "diagnostics.h"
#include "install_layout.h"
#include "options.h"
#include "output_exports.h"
#include "output_pattern.h"
#include "run_report.h"
#include "spool_import_step.h"
#include "target_run.h"

#include "replayscope/ipc/session_store.h"

#include <cstdint>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace rs::runner;
    const ParsedOptions parsed = parse_options(argc, argv);
    if (!parsed.options) {
        return parsed.exit_status;
    }
    const RunOptions& options = *parsed.options;
    if (!options.import_spool.empty()) {
        return import_spool_option(options);
    }
    const auto run = run_target(options);
    if (!run) {
        return kToolFailure;
    }
    // The run holds its output's claim until it returns, so no other run writes the file; a file removed
    // or replaced by hand meanwhile gets neither the spools nor the exit status of this run.
    if (!session_file_is_the_runs(*run)) {
        note(run->session_path + " was removed or replaced during the run: this run's spools and exit status "
                                 "are not written into it");
        return run->exit_status;
    }
    const SpoolImport imported =
        import_run_spools(run->session_path, run->run_id, run->spool_claim, run->summary);
    // The closing report is the run's notes (info); below that level only its session file error stays.
    if (logs(LogLevel::info)) {
        report_run(*run, imported, options.program_args);
    } else if (!run->summary.error.empty()) {
        error_line("session file error: " + run->summary.error);
    }
    if (std::string error;
        !rs::ipc::record_exit_status(run->session_path, static_cast<std::uint32_t>(run->pid),
                                     run->exit_status, run->term_signal, error)) {
        error_line(error);
    }
    // The derived metrics asked for, so the inspector computes and shows them.
    if (std::string error;
        !rs::ipc::record_derived_counters(run->session_path, options.replay.derived_counters, error)) {
        error_line(error);
    }
    // The command line whole: the engine's settings string is cut at the protocol's string limit.
    if (std::string error; !rs::ipc::record_runner_command(
            run->session_path, shell_command_line(std::vector<std::string>(argv, argv + argc)), error)) {
        error_line(error);
    }
    // The rank of a job process (the one -o's %r names) reaches the file for the inspector's job view.
    if (const auto rank = job_rank(); rank) {
        if (std::string error; !rs::ipc::record_job_rank(run->session_path, *rank, error)) {
            error_line(error);
        }
    }
    // --stats and --output-format, from the finished file; a file not written is said, and the exit
    // status stays the program's.
    if (options.stats || !options.output_formats.empty()) {
        ExportRequest request;
        request.formats = options.output_formats;
        request.stats = options.stats;
        request.names = options.mangled_kernels    ? KernelNameStyle::mangled
                        : options.truncate_kernels ? KernelNameStyle::truncated
                                                   : KernelNameStyle::demangled;
        request.inspector = InstallLayout::from_running_binary().inspector_path();
        write_exports(run->session_path, request);
    }
    return run->exit_status;
}
