// SPDX-License-Identifier: MIT
#include "spool_import_step.h"

#include "diagnostics.h"
#include "file_system.h"
#include "output_claim.h"
#include "run_report.h"

#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace rs::runner {

SpoolFiles spool_files(const std::string& session, const std::string& run_id) {
    const auto slash = session.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string(".") : session.substr(0, slash);
    const std::string spool = (slash == std::string::npos ? session : session.substr(slash + 1)) + ".spool";
    const std::string own_prefix = spool + "." + run_id + ".";
    std::vector<std::pair<unsigned long long, std::string>> own;
    SpoolFiles files;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name.compare(0, spool.size(), spool) != 0 ||
                (name.size() > spool.size() && name[spool.size()] != '.')) {
                continue;
            }
            const std::string path = slash == std::string::npos ? name : dir + "/" + name;
            if (!run_id.empty() && name.size() > own_prefix.size() &&
                name.compare(0, own_prefix.size(), own_prefix) == 0) {
                const std::string pid = name.substr(own_prefix.size());
                if (pid.find_first_not_of("0123456789") != std::string::npos) {
                    continue; // the run's follow-children claim (".%p.first")
                }
                struct stat st{};
                if (pid.size() <= 10 && ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                    st.st_uid == ::geteuid()) {
                    own.emplace_back(std::stoull(pid), path);
                    continue;
                }
            }
            files.foreign.push_back(path);
        }
        ::closedir(d);
    }
    std::sort(own.begin(), own.end());
    for (auto& f : own) {
        files.own.push_back(std::move(f.second));
    }
    std::sort(files.foreign.begin(), files.foreign.end());
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

SpoolImport import_run_spools(const std::string& session, const std::string& run_id,
                              const std::string& spool_claim, const rs::ipc::CollectorSummary& summary) {
    // Every process's spool (and a legacy single spool): imported into the same session, each frame
    // attributed to its process through the spool's hello frames.
    std::string spool_note;
    std::vector<rs::ipc::ProcessSummary> processes = summary.processes;
    bool complete = summary.complete;
    std::uint64_t imported_events = 0, spool_count = 0, rejected = summary.rejected_frames;
    const SpoolFiles files = spool_files(session, run_id);
    if (!files.foreign.empty()) {
        // Another run's spools, an older build's, or files put there by someone else: this run did not
        // write them, so they are neither imported nor removed (--import-spool imports one by hand).
        std::string names;
        for (const auto& f : files.foreign) {
            names += (names.empty() ? "" : ", ") + f;
        }
        note("spool files not of this run left alone (not imported): " + names);
    }
    for (const auto& spool : files.own) {
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
