// SPDX-License-Identifier: MIT
#include "spool_import_step.h"

#include "diagnostics.h"
#include "file_system.h"
#include "output_claim.h"
#include "run_report.h"

#include "replayscope/ipc/spool_importer.h"

#include <replayscope/session/file_check.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace rs::runner {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

/// How a run id reads in messages.
std::string run_name(const std::string& run_id, const char* none) {
    return run_id.empty() ? std::string(none) : "run " + run_id;
}

/// Removes the spools imported (`ok`) and then `directory` when that left it empty.
void remove_imported(const rs::ipc::SpoolImporter::Result& result, const std::string& directory) {
    for (const auto& spool : result.spools) {
        if (spool.ok) {
            ::unlink(spool.path.c_str());
        }
    }
    ::rmdir(directory.c_str()); // fails, harmlessly, while anything is left in it
}

/// The spools in `directory` of this user a forced import takes: every regular file (lstat) of this user
/// whose writer has ended, of whatever run, with the run each names.
std::vector<std::pair<std::string, std::string>> every_spool(const std::string& directory) {
    const rs::ipc::RunSpools found = rs::ipc::find_run_spools(directory, std::string());
    std::vector<std::pair<std::string, std::string>> spools;
    for (const auto& path : found.foreign) {
        std::string run_id, error;
        if (rs::ipc::read_spool_run_id(path, run_id, error) && !rs::ipc::SpoolImporter::writer_alive(path)) {
            spools.emplace_back(path, run_id);
        }
    }
    return spools;
}

} // namespace

SpoolFiles spool_files(const std::string& session, const std::string& run_id) {
    SpoolFiles files;
    const std::string directory = rs::ipc::spool_directory(session);
    // Spools of older builds beside the session (SESSION.spool, SESSION.spool.*): never this run's.
    const auto slash = session.rfind('/');
    const std::string parent = slash == std::string::npos ? std::string(".") : session.substr(0, slash);
    const std::string spool = (slash == std::string::npos ? session : session.substr(slash + 1)) + ".spool";
    if (DIR* d = ::opendir(parent.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name.compare(0, spool.size(), spool) != 0 ||
                (name.size() > spool.size() && name[spool.size()] != '.') || name == spool + ".d") {
                continue;
            }
            files.foreign.push_back(slash == std::string::npos ? name : parent + "/" + name);
        }
        ::closedir(d);
    }
    std::string why;
    if (rs::ipc::spool_directory_is_private(directory, why)) {
        rs::ipc::RunSpools found = rs::ipc::find_run_spools(directory, run_id);
        files.own = std::move(found.own);
        files.writing = std::move(found.writing);
        files.foreign.insert(files.foreign.end(), found.foreign.begin(), found.foreign.end());
    } else if (path_exists(directory)) {
        files.foreign.push_back(directory); // replaced during the run: nothing in it is trusted
    }
    std::sort(files.foreign.begin(), files.foreign.end());
    return files;
}

bool prepare_spool_directory(const std::string& directory, bool& created, std::string& error) {
    created = false;
    if (::mkdir(directory.c_str(), 0700) == 0) {
        created = true;
        // The umask may have taken bits away: exactly 0700 on the directory just made (not following a
        // link that replaced it meanwhile; the check below sees any such swap).
        const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
            (void)::fchmod(fd, 0700);
            ::close(fd);
        }
    } else if (errno != EEXIST) {
        error = directory + ": cannot create the spool directory: " + std::strerror(errno) + "; not started";
        return false;
    }
    std::string why;
    if (!rs::ipc::spool_directory_is_private(directory, why)) {
        error = why + "; spools are written only into a directory of this user with mode 0700: not "
                      "started (remove it or choose another -o)";
        return false;
    }
    return true;
}

void note_leftover_spools(const std::string& session, bool replaced) {
    if (!is_regular_file(session)) {
        return;
    }
    const std::vector<std::string> left = rs::ipc::leftover_spools(session);
    if (left.empty()) {
        return;
    }
    const std::string directory = rs::ipc::spool_directory(session);
    note(session + ": " + std::to_string(left.size()) + " spool file" + (left.size() == 1 ? "" : "s") +
         " of its run never imported (its replayscope-run ended before importing them): " + joined(left) +
         "; import them with: replayscope-run --import-spool " + directory + " -o " + session +
         (replaced ? " (--force replaces that session now; the spools stay where they are)" : ""));
}

int import_spool_option(const RunOptions& o) {
    if (!o.program_args.empty()) {
        return fail("--import-spool takes no program");
    }
    // The session is written here too: claimed like a run's output, for as long as the import lasts.
    std::string error, claim_note;
    if (!create_parent_directories(absolute_path(o.output), error)) {
        return fail(error);
    }
    const auto claim = OutputClaim::acquire(absolute_path(o.output), error, claim_note);
    if (!claim) {
        return fail(error);
    }
    if (!claim_note.empty()) {
        note(claim_note);
    }
    // The session's run: the spools must name it (a new session takes the run of the first spool).
    const bool new_session = !path_exists(o.output);
    std::string session_run;
    if (!new_session && !rs::ipc::read_session_run_id(o.output, session_run, error)) {
        const auto check = rs::session::check_session_file(o.output);
        return fail(check.ok ? error : check.message);
    }
    struct stat st{};
    const bool directory = ::lstat(o.import_spool.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    std::vector<std::pair<std::string, std::string>> spools; // path, its run id
    std::vector<std::string> left_alone;
    if (directory) {
        if (!rs::ipc::spool_directory_is_private(o.import_spool, error)) {
            return fail(error + ": not a private spool directory, nothing imported");
        }
        if (o.force_import) {
            spools = every_spool(o.import_spool);
        } else if (session_run.empty()) {
            return fail(o.output + " records no run, so no spool of " + o.import_spool +
                        " is known to be its: name the spool files, or add --force-import to merge them all");
        } else {
            const rs::ipc::RunSpools found = rs::ipc::find_run_spools(o.import_spool, session_run);
            for (const auto& path : found.own) {
                spools.emplace_back(path, session_run);
            }
            left_alone = found.foreign;
            left_alone.insert(left_alone.end(), found.writing.begin(), found.writing.end());
        }
        if (!left_alone.empty()) {
            note("spool files not of " + o.output + "'s run " + session_run +
                 " (or still being written) left alone (not imported): " + joined(left_alone));
        }
        if (spools.empty()) {
            note("no spool of " + run_name(session_run, "the session's run") + " in " + o.import_spool +
                 ": nothing imported");
            return 0;
        }
    } else {
        std::string spool_run;
        if (!rs::ipc::read_spool_run_id(o.import_spool, spool_run, error)) {
            return fail(error + ": not imported");
        }
        if (new_session) {
            session_run = spool_run;
        }
        spools.emplace_back(o.import_spool, spool_run);
    }
    std::vector<std::string> paths;
    std::vector<std::string> foreign_notes;
    for (const auto& [path, run_id] : spools) {
        if (run_id != session_run) {
            const std::string what = path + " is a spool of " + run_name(run_id, "no run (an older build)") +
                                     ", " + o.output + " the session of " +
                                     run_name(session_run, "no run (an older build)");
            if (!o.force_import) {
                return fail(what + ": not imported (--force-import merges it)");
            }
            foreign_notes.push_back(what + "; merged by --force-import");
        }
        paths.push_back(path);
    }
    const auto result = rs::ipc::SpoolImporter::import_all(paths, o.output);
    if (!result.ok) {
        return fail(result.message);
    }
    const bool any_read =
        std::any_of(result.spools.begin(), result.spools.end(), [](const auto& spool) { return spool.ok; });
    if (!any_read) {
        return fail(result.message);
    }
    if (!result.message.empty()) {
        note(result.message);
    }
    if (new_session && !session_run.empty()) {
        if (std::string why; !rs::ipc::record_session_run_id(o.output, session_run, why)) {
            note(why);
        }
    }
    for (std::size_t i = 0; i < foreign_notes.size(); ++i) {
        note(foreign_notes[i]);
        if (std::string why; !rs::ipc::record_foreign_spool(o.output, foreign_notes[i], why)) {
            note(why);
        }
    }
    if (directory) {
        remove_imported(result, o.import_spool);
    }
    std::size_t read = 0;
    for (const auto& spool : result.spools) {
        read += spool.ok ? 1 : 0;
    }
    const std::string source =
        directory ? std::to_string(read) + " spool file" + (read == 1 ? "" : "s") + " of " + o.import_spool
                  : o.import_spool;
    if (!logs(LogLevel::info)) { // the import's report is a note
        return 0;
    }
    std::fprintf(stderr,
                 "replayscope-run: imported %llu frames from %s into %s (%llu new events, %llu bad frames "
                 "skipped); session %s, %zu process%s\n",
                 static_cast<unsigned long long>(result.frames_read), source.c_str(), o.output.c_str(),
                 static_cast<unsigned long long>(result.events_stored),
                 static_cast<unsigned long long>(result.rejected_frames),
                 result.complete ? "complete" : "incomplete", result.processes.size(),
                 result.processes.size() == 1 ? "" : "es");
    print_processes(result.processes);
    return 0;
}

SpoolImport import_run_spools(const std::string& session, const std::string& run_id,
                              const std::string& spool_claim, const rs::ipc::CollectorSummary& summary) {
    std::string spool_note;
    std::vector<rs::ipc::ProcessSummary> processes = summary.processes;
    bool complete = summary.complete;
    std::uint64_t rejected = summary.rejected_frames;
    ::unlink(spool_claim.c_str());
    const SpoolFiles files = spool_files(session, run_id);
    if (!files.foreign.empty()) {
        // Another run's spools, an older build's, or files put there by someone else: this run did not
        // write them, so they are neither imported nor removed (--import-spool imports them by hand).
        note("spool files not of this run left alone (not imported): " + joined(files.foreign));
    }
    for (const auto& spool : files.writing) {
        // A process of the run (one that outlived the program, past the drain timeout) still has it
        // open: importing and removing it now would lose what it writes next.
        spool_note += ", spool " + spool +
                      " left in place: its process is still writing it (import it later with "
                      "--import-spool)";
    }
    const std::string directory = rs::ipc::spool_directory(session);
    if (!files.own.empty()) {
        // Every process's spool into the session at once: one open and one finish however many there are.
        const auto imported = rs::ipc::SpoolImporter::import_all(files.own, session);
        if (imported.ok) {
            std::size_t spool_count = 0;
            for (const auto& spool : imported.spools) {
                if (spool.ok) {
                    ++spool_count;
                } else {
                    spool_note += ", spool " + spool.path + " not imported: " + spool.message;
                }
            }
            rejected += imported.rejected_frames;
            processes = imported.processes;
            complete = imported.complete;
            if (!imported.message.empty()) {
                note(imported.message);
            }
            spool_note = ", " + std::to_string(imported.events_stored) + " events imported from " +
                         std::to_string(spool_count) + " spool file" + (spool_count == 1 ? "" : "s") +
                         spool_note;
            remove_imported(imported, directory);
        } else {
            spool_note += ", spools not imported (" + imported.message +
                          "; import them with --import-spool " + directory + ")";
        }
    } else {
        ::rmdir(directory.c_str()); // empty: no process spooled
    }
    return SpoolImport{std::move(processes), complete, rejected, std::move(spool_note)};
}

} // namespace rs::runner
