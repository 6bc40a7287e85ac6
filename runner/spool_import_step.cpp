// SPDX-License-Identifier: MIT
#include "spool_import_step.h"

#include "diagnostics.h"
#include "file_system.h"
#include "output_claim.h"
#include "run_report.h"

#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <unistd.h>
#include <utility>

namespace rs::runner {

std::vector<std::string> spool_files(const std::string& session) {
    const auto slash = session.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string(".") : session.substr(0, slash);
    const std::string prefix = (slash == std::string::npos ? session : session.substr(slash + 1)) + ".spool.";
    std::vector<std::pair<unsigned long long, std::string>> found;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) {
                continue;
            }
            const std::string pid = name.substr(prefix.size());
            if (pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 10) {
                continue;
            }
            found.emplace_back(std::stoull(pid), (slash == std::string::npos ? name : dir + "/" + name));
        }
        ::closedir(d);
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> files;
    for (auto& f : found) {
        files.push_back(std::move(f.second));
    }
    if (path_exists(session + ".spool")) {
        files.push_back(session + ".spool");
    }
    return files;
}

int import_spool_option(const RunOptions& o) {
    if (!o.program_args.empty()) {
        return fail("--import-spool takes no program");
    }
    // The session is written here too: claimed like a run's output, for as long as the import lasts.
    std::string error, claim_note;
    const auto claim = OutputClaim::acquire(absolute_path(o.output), error, claim_note);
    if (!claim) {
        return fail(error);
    }
    if (!claim_note.empty()) {
        note(claim_note);
    }
    const auto result = rs::ipc::SpoolImporter::import(o.import_spool, o.output);
    if (!result.ok) {
        return fail(result.message);
    }
    if (!result.message.empty()) {
        note(result.message);
    }
    std::fprintf(stderr,
                 "replayscope-run: imported %llu frames from %s into %s (%llu new events, %llu bad frames "
                 "skipped); session %s, %zu process%s\n",
                 static_cast<unsigned long long>(result.frames_read), o.import_spool.c_str(),
                 o.output.c_str(), static_cast<unsigned long long>(result.events_stored),
                 static_cast<unsigned long long>(result.rejected_frames),
                 result.complete ? "complete" : "incomplete", result.processes.size(),
                 result.processes.size() == 1 ? "" : "es");
    print_processes(result.processes);
    return 0;
}

SpoolImport import_run_spools(const std::string& session, const std::string& spool_claim,
                              const rs::ipc::CollectorSummary& summary) {
    // Every process's spool (and a legacy single spool): imported into the same session, each frame
    // attributed to its process through the spool's hello frames.
    std::string spool_note;
    std::vector<rs::ipc::ProcessSummary> processes = summary.processes;
    bool complete = summary.complete;
    std::uint64_t imported_events = 0, spool_count = 0, rejected = summary.rejected_frames;
    for (const auto& spool : spool_files(session)) {
        if (rs::ipc::SpoolImporter::writer_alive(spool)) {
            // A process of the run (one that outlived the program, past the drain timeout) still has it
            // open: importing and removing it now would lose what it writes next.
            spool_note += ", spool " + spool +
                          " left in place: its process is still writing it (import it later with "
                          "--import-spool)";
            continue;
        }
        const auto imported = rs::ipc::SpoolImporter::import(spool, session);
        if (imported.ok) {
            ++spool_count;
            imported_events += imported.events_stored;
            rejected += imported.rejected_frames;
            processes = imported.processes;
            complete = imported.complete;
            ::unlink(spool.c_str());
            if (!imported.message.empty()) {
                note(imported.message);
            }
        } else {
            spool_note += ", spool " + spool + " not imported: " + imported.message;
        }
    }
    ::unlink(spool_claim.c_str());
    if (spool_count > 0) {
        spool_note = ", " + std::to_string(imported_events) + " events imported from " +
                     std::to_string(spool_count) + " spool file" + (spool_count == 1 ? "" : "s") + spool_note;
    }
    return SpoolImport{std::move(processes), complete, rejected, std::move(spool_note)};
}

} // namespace rs::runner
