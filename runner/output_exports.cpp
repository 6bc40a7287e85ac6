// SPDX-License-Identifier: MIT
#include "output_exports.h"

#include "diagnostics.h"
#include "file_system.h"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rs::runner {

namespace {

/// The last non-empty line of `text` ("" when none).
std::string last_line(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
        text.pop_back();
    }
    const auto newline = text.rfind('\n');
    return newline == std::string::npos ? text : text.substr(newline + 1);
}

/// Runs `args` (args[0] the program's path) with stdin from /dev/null and its stdout and stderr captured
/// into `out`; its exit status, -1 when it could not be run or was killed.
int run_capturing(const std::vector<std::string>& args, std::string& out) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
        return -1;
    }
    std::vector<char*> argv;
    for (const auto& a : args) {
        argv.push_back(const_cast<char*>(a.c_str()));
    }
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        return -1;
    }
    if (pid == 0) {
        const int null_fd = ::open("/dev/null", O_RDONLY);
        if (null_fd >= 0) {
            ::dup2(null_fd, 0);
        }
        ::dup2(pipe_fds[1], 1);
        ::dup2(pipe_fds[1], 2);
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGQUIT, SIG_DFL);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(pipe_fds[1]);
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0) {
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        out.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipe_fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return -1;
        }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> inspector_command(const ExportRequest& request) {
    std::vector<std::string> args{request.inspector};
    if (request.names == KernelNameStyle::mangled) {
        args.emplace_back("-M");
    } else if (request.names == KernelNameStyle::truncated) {
        args.emplace_back("-T");
    }
    return args;
}

} // namespace

std::string export_prefix(const std::string& session) {
    const auto slash = session.rfind('/');
    const auto dot = session.rfind('.');
    const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
    return has_extension ? session.substr(0, dot) : session;
}

std::string export_file(const std::string& session, const std::string& what) {
    const std::string prefix = export_prefix(session);
    if (what == "csv") {
        return prefix + "_counter_collection.csv";
    }
    if (what == "json") {
        return prefix + "_results.json";
    }
    if (what == "pftrace") {
        return prefix + "_results.pftrace";
    }
    return prefix + "_kernel_stats.csv";
}

int write_exports(const std::string& session, const ExportRequest& request) {
    int failed = 0;
    if (request.stats) {
        const std::string file = export_file(session, "stats");
        std::vector<KernelStats> stats;
        std::string error;
        if (read_kernel_stats(session, request.names, stats, error) &&
            write_kernel_stats_csv(stats, file, error)) {
            // The kernel that took most of the passes' time, named as in the file (-M/-T).
            std::uint64_t all = 0;
            for (const auto& k : stats) {
                all += k.total_ns;
            }
            char share[32] = "";
            if (!stats.empty() && all > 0) {
                std::snprintf(share, sizeof share, "%.1f%%",
                              static_cast<double>(stats.front().total_ns) / static_cast<double>(all) * 100.0);
            }
            note("--stats: " + file + " (" + std::to_string(stats.size()) + " kernel" +
                 (stats.size() == 1 ? "" : "s") +
                 (share[0] != '\0' ? "; most pass time: " + stats.front().name + ", " + share
                                   : std::string()) +
                 ")");
        } else {
            error_line("--stats: " + file + " not written: " + error);
            ++failed;
        }
    }
    if (request.formats.empty()) {
        return failed;
    }
    const bool inspector_found =
        is_regular_file(request.inspector) && ::access(request.inspector.c_str(), X_OK) == 0;
    bool pftrace_known = false, pftrace_supported = false;
    for (const std::string& format : request.formats) {
        const std::string file = export_file(session, format);
        if (!inspector_found) {
            error_line("--output-format " + format + ": " + file +
                       " not written: no replayscope inspector at " + request.inspector +
                       " (it writes this format)");
            ++failed;
            continue;
        }
        if (format == "pftrace") {
            if (!pftrace_known) {
                std::string help;
                run_capturing({request.inspector, "--help"}, help);
                // An inspector that writes Perfetto's format says so in its --help (--export-trace).
                for (char& c : help) {
                    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                }
                pftrace_supported =
                    help.find("pftrace") != std::string::npos || help.find("perfetto") != std::string::npos;
                pftrace_known = true;
            }
            if (!pftrace_supported) {
                error_line("--output-format pftrace: " + file + " not written: the inspector " +
                           request.inspector +
                           " cannot write Perfetto traces yet (its --export-trace writes Chrome JSON: use "
                           "--output-format json)");
                ++failed;
                continue;
            }
        }
        std::vector<std::string> args = inspector_command(request);
        args.insert(args.end(), {format == "csv" ? "--export-counters" : "--export-trace", file, session});
        ::unlink(file.c_str()); // a file of an earlier run is not taken for this one's
        std::string out;
        const int status = run_capturing(args, out);
        if (status == 0 && is_regular_file(file)) {
            note("--output-format " + format + ": " + file);
        } else {
            const std::string why = last_line(out);
            error_line(
                "--output-format " + format + ": " + file + " not written (" + request.inspector +
                (status < 0 ? " could not be run or was killed" : " exited with " + std::to_string(status)) +
                (why.empty() ? "" : ": " + why) + ")");
            ++failed;
        }
    }
    return failed;
}

} // namespace rs::runner
