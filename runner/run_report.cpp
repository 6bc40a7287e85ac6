// SPDX-License-Identifier: MIT
#include "run_report.h"

#include "restore_summary.h"

#include "replayscope/ipc/session_store.h"
#include "replayscope/session/printable_text.h"

#include <cstdint>
#include <cstdio>

namespace rs::runner {

namespace {

std::string join_args(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) {
        s += (s.empty() ? "" : " ") + a;
    }
    return s;
}

} // namespace

void print_processes(const std::vector<rs::ipc::ProcessSummary>& processes) {
    // A process's command line is what the target reported: capped, its control characters escaped.
    for (const auto& p : processes) {
        std::string state = p.complete ? "complete" : "incomplete";
        if (p.missing > 0) { // sent = stored + missing, exactly
            state +=
                ", " + std::to_string(p.missing) + " missing of " + std::to_string(p.last_sequence) + " sent";
        }
        if (p.rejected_frames > 0) {
            state += ", " + std::to_string(p.rejected_frames) + " bad frames";
        }
        std::fprintf(
            stderr,
            "replayscope-run:   process %lld: pid %u (parent %u)%s%s: %llu events, %llu dispatches, %s\n",
            static_cast<long long>(p.process), p.identity.pid, p.identity.parent_pid,
            p.command.empty() ? "" : " ", rs::session::shown_text(p.command).c_str(),
            static_cast<unsigned long long>(p.events_stored), static_cast<unsigned long long>(p.dispatches),
            state.c_str());
    }
}

void report_run(const TargetRun& run, const SpoolImport& imported,
                const std::vector<std::string>& program_args) {
    const auto& summary = run.summary;
    const auto& processes = imported.processes;
    const std::string& output = run.session_path;
    const bool complete = imported.complete;
    std::uint64_t events = 0, dispatches = 0, missing = 0, sent = 0;
    for (const auto& p : processes) {
        events += p.events_stored;
        dispatches += p.dispatches;
        missing += p.missing;
        sent += p.last_sequence;
    }
    if (processes.empty()) {
        events = summary.events_stored;
        dispatches = summary.dispatches;
    }
    std::fprintf(stderr,
                 "replayscope-run: %s: %zu process%s, %llu events, %llu dispatches, %s (%s), %llu missing "
                 "events, %llu bad frames%s; %s exited with status %d\n",
                 output.c_str(), processes.size(), processes.size() == 1 ? "" : "es",
                 static_cast<unsigned long long>(events), static_cast<unsigned long long>(dispatches),
                 complete ? "complete" : "incomplete",
                 complete && processes.size() > 1 ? "session end received from every process"
                 : complete                       ? "session end received"
                                                  : rs::session::shown_text(summary.end_reason).c_str(),
                 static_cast<unsigned long long>(missing),
                 static_cast<unsigned long long>(imported.rejected_frames), imported.note.c_str(),
                 join_args(program_args).c_str(), run.exit_status);
    print_processes(processes);
    std::string error;
    if (rs::ipc::RestoreTotals totals; rs::ipc::read_restore_totals(output, totals, error)) {
        const std::string text = restore_summary(totals);
        for (std::size_t start = 0; start < text.size();) {
            const std::size_t end = text.find('\n', start);
            std::fprintf(stderr, "replayscope-run: %s\n", text.substr(start, end - start).c_str());
            start = end + 1;
        }
    }
    // What the engine could not apply of the options (an --agent naming no GPU, a value it refused): the
    // run went on without it, which the counts above alone would not say.
    if (std::vector<std::string> warnings; rs::ipc::read_configuration_warnings(output, warnings, error)) {
        for (const std::string& w : warnings) {
            std::fprintf(stderr, "replayscope-run: warning: %s\n", rs::session::shown_text(w).c_str());
        }
    }
    if (!summary.error.empty()) {
        std::fprintf(stderr, "replayscope-run: session file error: %s\n", summary.error.c_str());
        // A full disk may have kept the end of the session out of the file: the counts above are the
        // writer's (exact: sent = stored + missing); say so when the file records others.
        rs::ipc::EventTotals file;
        std::string why;
        const bool read = rs::ipc::read_event_totals(output, file, why);
        if (!read || file.sent != sent || file.stored != events || file.missing != missing) {
            const std::string holds = read ? "records " + std::to_string(file.stored) +
                                                 " events stored and " + std::to_string(file.missing) +
                                                 " missing of " + std::to_string(file.sent) + " sent"
                                           : "cannot be read (" + why + ")";
            std::fprintf(stderr,
                         "replayscope-run: the session file could not record the end of the session: it %s; "
                         "exactly %llu events were sent, %llu are stored and %llu missing\n",
                         holds.c_str(), static_cast<unsigned long long>(sent),
                         static_cast<unsigned long long>(events), static_cast<unsigned long long>(missing));
        }
    }
}

} // namespace rs::runner
