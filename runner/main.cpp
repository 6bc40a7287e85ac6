// replayscope-run: runs a program under the ReplayScope engine and records its session file.
//
//   replayscope-run [options] -o SESSION.rsdb -- PROGRAM [ARGS...]
//   replayscope-run --import-spool FILE -o SESSION.rsdb
//
// Exit status: the program's (128+signal when it was killed); 125 when replayscope-run itself fails
// before or instead of running the program (bad option, engine missing, session file refused).
#include "replayscope/ipc/collector.hpp"
#include "replayscope/ipc/environment.hpp"
#include "replayscope/ipc/session_store.hpp"
#include "run_support.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef RS_VERSION
#define RS_VERSION "unknown"
#endif

namespace {

constexpr int kToolFailure = 125;

int fail(const std::string& message) {
    std::fprintf(stderr, "replayscope-run: %s\n", message.c_str());
    return kToolFailure;
}

/// `path` made absolute against the current directory (lexically: no symlink is resolved and the file
/// need not exist). The session path goes into the target's environment (the spool path and the
/// follow-children claim derive from it), and the target may change directory before it opens them.
std::string absolutePath(const std::string& path) {
    if (path.empty() || path.front() == '/') {
        return path;
    }
    std::string cwd(PATH_MAX, '\0');
    if (::getcwd(cwd.data(), cwd.size()) == nullptr) {
        return path;
    }
    cwd.resize(std::strlen(cwd.c_str()));
    std::string relative = path;
    while (relative.rfind("./", 0) == 0) {
        relative.erase(0, 2);
    }
    return cwd == "/" ? "/" + relative : cwd + "/" + relative;
}

/// Raises the soft RLIMIT_NOFILE to the hard limit: the collector holds one descriptor per connected
/// process (and up to 64 pending ones). The target inherits the raised soft limit. Best effort.
void raiseDescriptorLimit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
}

bool fileExists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

/// The spool files of `session`: `<session>.spool.<pid>` (one per emitter process, sorted by pid),
/// then the legacy `<session>.spool` when it exists.
std::vector<std::string> spoolFiles(const std::string& session) {
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
    if (fileExists(session + ".spool")) {
        files.push_back(session + ".spool");
    }
    return files;
}

/// One line per process: "  process 2: pid 4711 (parent 4700) ./b 3000: 3006 events, 3000 dispatches,
/// complete" (or "incomplete, N missing, M bad frames").
void printProcesses(const std::vector<rs::ipc::ProcessSummary>& processes) {
    for (const auto& p : processes) {
        std::string state = p.complete ? "complete" : "incomplete";
        if (p.missing > 0) {
            state += ", " + std::to_string(p.missing) + " missing";
        }
        if (p.rejected_frames > 0) {
            state += ", " + std::to_string(p.rejected_frames) + " bad frames";
        }
        std::fprintf(
            stderr,
            "replayscope-run:   process %lld: pid %u (parent %u)%s%s: %llu events, %llu dispatches, %s\n",
            static_cast<long long>(p.process), p.identity.pid, p.identity.parent_pid,
            p.command.empty() ? "" : " ", p.command.c_str(), static_cast<unsigned long long>(p.events_stored),
            static_cast<unsigned long long>(p.dispatches), state.c_str());
    }
}

std::string joinArgs(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) {
        s += (s.empty() ? "" : " ") + a;
    }
    return s;
}

volatile std::sig_atomic_t g_forward_pid = 0;
void forwardSignal(int sig) {
    if (g_forward_pid > 0) {
        ::kill(static_cast<pid_t>(g_forward_pid), sig);
    }
}

} // namespace

int main(int argc, char** argv) {
    // Split at the first "--": options before, program and its arguments after.
    std::vector<std::string> program_args;
    int option_argc = argc;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--") {
            option_argc = i;
            for (int j = i + 1; j < argc; ++j) {
                program_args.emplace_back(argv[j]);
            }
            break;
        }
    }

    CLI::App app{"Runs PROGRAM under the ReplayScope kernel-replay engine and records every decision in a "
                 "session file.\n  replayscope-run [options] -o SESSION.rsdb -- PROGRAM [ARGS...]\n"
                 "  replayscope-run --import-spool FILE -o SESSION.rsdb",
                 "replayscope-run"};
    app.get_formatter()->column_width(32); // option and description two spaces apart (help2man)
    app.set_version_flag("--version", std::string("replayscope-run ") + RS_VERSION);
    std::string output, engine, import_spool, host_budget_text, preload = "auto";
    bool force = false, simulate = false, no_progress = false;
    unsigned drain_ms = 5000;
    rs::runner::ReplayOptions replay;
    app.add_option("-o,--output", output,
                   "Session file to write (.rsdb); %r becomes the MPI/Slurm rank (else the pid), %p the pid")
        ->required();
    app.add_flag("-f,--force", force, "Overwrite an existing session file");
    app.add_option("--passes", replay.passes, "Passes per replayed dispatch")
        ->check(CLI::Range(1u, 1000u))
        ->capture_default_str();
    app.add_option("--kernel-include-regex", replay.kernel_include_regex,
                   "Replay only kernels whose name matches (ECMAScript regex)");
    app.add_option("--kernel-exclude-regex", replay.kernel_exclude_regex,
                   "Never replay kernels whose name matches (ECMAScript regex)");
    app.add_option("--dispatch-skip,--launch-skip", replay.dispatch_skip,
                   "Let this many matching dispatches through before replaying");
    app.add_option("--dispatch-count,--launch-count", replay.dispatch_count,
                   "Replay at most this many dispatches (0: no limit)");
    app.add_option("--agent", replay.agent_filter,
                   "Replay only on these agents (comma-separated indices or names)");
    app.add_option("--host-memory-budget", host_budget_text,
                   "Decline a replay whose snapshot would exceed this many host bytes (suffix K/M/G/T)");
    app.add_flag("--fidelity-check", replay.fidelity_check,
                 "Hash tracked regions after each pass and record whether the output matched pass 1");
    bool no_track_vmem = false;
    app.add_flag("--no-track-vmem", no_track_vmem,
                 "Leave hsa_amd_vmem_map mappings (ROCr 6.x) out of the snapshot, as the original mechanism "
                 "did; with --fidelity-check the leak is then flagged");
    unsigned replay_drain_ms = 0, replay_pass_ms = 0;
    auto* replay_drain_option =
        app.add_option("--replay-drain-timeout-ms", replay_drain_ms,
                       "Milliseconds a replay waits for the queue to drain before declining the dispatch "
                       "(REPLAYSCOPE_DRAIN_TIMEOUT_MS; default: the engine's)");
    auto* replay_pass_option =
        app.add_option("--replay-pass-timeout-ms", replay_pass_ms,
                       "Milliseconds a replay waits for one pass to complete (REPLAYSCOPE_PASS_TIMEOUT_MS; "
                       "default: the engine's)");
    rs::runner::StoreOptionText store_text;
    app.add_option("--snapshot-store", store_text.snapshot_store,
                   "Where snapshots are kept: auto (device memory of the agent while it fits beyond the "
                   "reserve, else the pinned host store), host, or device (regions that do not fit go to the "
                   "host store, reported)")
        ->capture_default_str();
    app.add_option("--device-store-reserve", store_text.device_store_reserve,
                   "Device memory left free for the program when the device store is sized (SIZE: bytes with "
                   "an optional K/M/G/T or KiB/MiB/GiB/TiB suffix; default: the engine's, 1G)");
    app.add_option("--restore", store_text.restore,
                   "How a snapshot is restored before each pass: dirty (only the chunks whose hash changed, "
                   "hashed on the device), dirty-host (the same, hashed on the host) or full")
        ->capture_default_str();
    app.add_option("--restore-chunk-size", store_text.restore_chunk_size,
                   "Chunk size of the dirty restore (SIZE, a power of two from 4K to 1G; default: the "
                   "engine's, 64K)");
    app.add_flag("--simulate", simulate, "Run the program on ReplayScope's simulated HSA runtime");
    std::string standins;
    app.add_option("--standins", standins,
                   "With --simulate: host stand-in libraries of the program's HIP kernels (made by "
                   "replayscope-standins), comma-separated; passed as HSA_SIM_STANDINS");
    app.add_option("--engine", engine, "Engine library to inject (default: next to this binary)");
    app.add_option(
           "--preload-engine", preload,
           "Also LD_PRELOAD the engine (needed only for the hipGraphLaunch interposer): auto (when the "
           "program, or an executable among its arguments as with `timeout 60 ./app`, links "
           "libamdhip64), on, off")
        ->check(CLI::IsMember({"auto", "on", "off"}))
        ->capture_default_str();
    app.add_option("--import-spool", import_spool,
                   "Ingest a spool file into SESSION instead of running a program");
    app.add_option("--drain-timeout", drain_ms,
                   "Milliseconds to wait for the event stream after the program ends")
        ->capture_default_str();
    app.add_flag("--no-progress", no_progress, "No progress line on the terminal");
    std::string follow_children = "yes";
    app.add_option("--follow-children", follow_children,
                   "Record every instrumented process of the run (yes: children and programs they start, "
                   "e.g. from a shell script), or only the first one (no)")
        ->check(CLI::IsMember({"yes", "no"}))
        ->capture_default_str();
    try {
        app.parse(option_argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : kToolFailure;
    }
    output = rs::runner::expandOutputPattern(output, ::getpid());
    if (replay_drain_option->count() > 0) {
        replay.drain_timeout_ms = replay_drain_ms;
    }
    if (replay_pass_option->count() > 0) {
        replay.pass_timeout_ms = replay_pass_ms;
    }
    replay.track_vmem = !no_track_vmem;
    if (std::string store_error; !rs::runner::parseStoreOptions(store_text, replay, store_error)) {
        return fail(store_error);
    }
    if (!host_budget_text.empty()) {
        const auto bytes = rs::runner::parseBytes(host_budget_text);
        if (!bytes) {
            return fail("--host-memory-budget: not a byte count: " + host_budget_text);
        }
        replay.host_memory_budget = *bytes;
    }

    // --import-spool: no program.
    if (!import_spool.empty()) {
        if (!program_args.empty()) {
            return fail("--import-spool takes no program");
        }
        const auto result = rs::ipc::SpoolImporter::import(import_spool, output);
        if (!result.ok) {
            return fail(result.message);
        }
        if (!result.message.empty()) {
            std::fprintf(stderr, "replayscope-run: %s\n", result.message.c_str());
        }
        std::fprintf(
            stderr,
            "replayscope-run: imported %llu frames from %s into %s (%llu new events, %llu bad frames "
            "skipped); session %s, %zu process%s\n",
            static_cast<unsigned long long>(result.frames_read), import_spool.c_str(), output.c_str(),
            static_cast<unsigned long long>(result.events_stored),
            static_cast<unsigned long long>(result.rejected_frames),
            result.complete ? "complete" : "incomplete", result.processes.size(),
            result.processes.size() == 1 ? "" : "es");
        printProcesses(result.processes);
        return 0;
    }
    if (program_args.empty()) {
        return fail("no program given: replayscope-run [options] -o SESSION.rsdb -- PROGRAM [ARGS...]");
    }

    const auto layout = rs::runner::InstallLayout::fromRunningBinary();
    if (engine.empty()) {
        engine = layout.defaultEnginePath();
    }
    if (!fileExists(engine)) {
        return fail("engine library not found: " + engine +
                    " (build the replayscope_engine target, or pass --engine PATH)");
    }
    char resolved_engine[PATH_MAX];
    if (::realpath(engine.c_str(), resolved_engine) != nullptr) {
        engine = resolved_engine;
    }
    const std::string program = rs::runner::resolveProgram(program_args.front());
    if (program.empty()) {
        return fail("program not found or not executable: " + program_args.front());
    }

    rs::runner::TargetEnvironment env;
    if (simulate) {
        const std::string sim = layout.simulatorDirectory();
        if (sim.empty()) {
            std::string where;
            for (const auto& c : layout.simulatorCandidates()) {
                where += " " + c;
            }
            return fail("--simulate: no simulated runtime (libhsa-runtime64.so.1) in:" + where);
        }
        env.prepend("LD_LIBRARY_PATH", sim);
    }
    if (!standins.empty()) {
        if (!simulate) {
            return fail("--standins needs --simulate (only the simulated runtime runs stand-ins)");
        }
        std::string standins_error;
        const auto value = rs::runner::standinsVariable(standins, standins_error);
        if (!value) {
            return fail(standins_error);
        }
        env.set("HSA_SIM_STANDINS", *value);
    }
    if (simulate) {
        // The engine's chunk-hash kernel runs through its host stand-in on the simulated runtime, as a
        // program's kernels do: always in the list, after the program's own.
        const std::string chunk_hash = rs::runner::chunkHashStandin(engine);
        if (chunk_hash.empty()) {
            std::fprintf(
                stderr,
                "replayscope-run: warning: no libreplayscope_chunk_hash_standins.so beside %s: the "
                "engine's chunk-hash kernel cannot run on the simulated runtime (dirty restores fall "
                "back)\n",
                engine.c_str());
        } else {
            env.set("HSA_SIM_STANDINS",
                    rs::runner::withChunkHashStandin(env.get("HSA_SIM_STANDINS").value_or(""), chunk_hash));
        }
    }

    raiseDescriptorLimit();
    output = absolutePath(output);
    std::string error;
    rs::ipc::CollectorOptions options;
    options.session_path = output;
    options.overwrite = force;
    // The session file is created last by Collector::create, and removed again when the run never
    // starts: no empty session file is left behind.
    const bool session_existed = fileExists(output);
    auto removeUnstartedSession = [&] {
        if (!session_existed || force) {
            for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
                ::unlink((output + suffix).c_str());
            }
        }
    };
    auto collector = rs::ipc::Collector::create(options, error);
    if (!collector) {
        if (!session_existed) {
            for (const char* suffix : {"-wal", "-shm", "-journal"}) {
                ::unlink((output + suffix).c_str());
            }
            struct stat st {};
            if (::stat(output.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
                ::unlink(output.c_str());
            }
        }
        return fail(error);
    }
    namespace envn = rs::ipc::env;
    env.set("HSA_TOOLS_LIB", engine);
    env.set("HSA_TOOLS_ROCPROFILER_V1_TOOLS", "1");
    env.set(envn::kSocket, collector->socketPath());
    env.set(envn::kToken, collector->token());
    env.set(envn::kSpool, collector->spoolPath());
    env.setReplayOptions(replay);
    env.set(envn::kFollowChildren, follow_children == "no" ? "0" : "1");
    if (preload == "on" || (preload == "auto" && rs::runner::commandUsesHip(program, program_args))) {
        env.prepend("LD_PRELOAD", engine);
    }
    for (const auto& stale : spoolFiles(output)) {
        ::unlink(stale.c_str()); // a stale spool of an earlier run must not be imported
    }
    // The engine's --follow-children=no claim beside the spool (used when the socket directory cannot
    // take it): one left by an earlier run would make every process of this one inert.
    const std::string spool_claim = collector->spoolPath() + ".first";
    ::unlink(spool_claim.c_str());

    if (!collector->start()) {
        collector.reset();
        removeUnstartedSession();
        return fail("cannot start the collector thread");
    }
    // Like system(): the terminal's SIGINT/SIGQUIT reach the program; we keep collecting until it ends.
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGQUIT, SIG_IGN);
    rs::runner::ProgramLauncher launcher;
    if (!launcher.launch(program, program_args, env, error)) {
        collector->finish(std::chrono::milliseconds(0));
        collector.reset();
        removeUnstartedSession();
        return fail(error);
    }
    g_forward_pid = launcher.pid();
    std::signal(SIGTERM, forwardSignal);
    std::signal(SIGHUP, forwardSignal);

    rs::runner::ProgressLine progress(!no_progress);
    const auto started = std::chrono::steady_clock::now();
    std::optional<int> status;
    int ticks = 0;
    while (!(status = launcher.poll())) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (++ticks % 10 == 0) {
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            progress.update(collector->eventsStored(), collector->dispatchesStored(), s);
        }
    }
    g_forward_pid = 0;
    progress.clear();
    const auto summary = collector->finish(std::chrono::milliseconds(drain_ms));
    collector.reset();

    // Every process's spool (and a legacy single spool): imported into the same session, each frame
    // attributed to its process through the spool's hello frames.
    std::string spool_note;
    std::vector<rs::ipc::ProcessSummary> processes = summary.processes;
    bool complete = summary.complete;
    std::uint64_t imported_events = 0, spool_count = 0, rejected = summary.rejected_frames;
    for (const auto& spool : spoolFiles(output)) {
        if (rs::ipc::SpoolImporter::writerAlive(spool)) {
            // A process of the run (one that outlived the program, past the drain timeout) still has it
            // open: importing and removing it now would lose what it writes next.
            spool_note += ", spool " + spool +
                          " left in place: its process is still writing it (import it later with "
                          "--import-spool)";
            continue;
        }
        const auto imported = rs::ipc::SpoolImporter::import(spool, output);
        if (imported.ok) {
            ++spool_count;
            imported_events += imported.events_stored;
            rejected += imported.rejected_frames;
            processes = imported.processes;
            complete = imported.complete;
            ::unlink(spool.c_str());
            if (!imported.message.empty()) {
                std::fprintf(stderr, "replayscope-run: %s\n", imported.message.c_str());
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
    std::uint64_t events = 0, dispatches = 0, missing = 0;
    for (const auto& p : processes) {
        events += p.events_stored;
        dispatches += p.dispatches;
        missing += p.missing;
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
                                                  : summary.end_reason.c_str(),
                 static_cast<unsigned long long>(missing), static_cast<unsigned long long>(rejected),
                 spool_note.c_str(), joinArgs(program_args).c_str(), *status);
    printProcesses(processes);
    if (rs::ipc::RestoreTotals totals; rs::ipc::readRestoreTotals(output, totals, error)) {
        const std::string text = rs::runner::restoreSummary(totals);
        for (std::size_t start = 0; start < text.size();) {
            const std::size_t end = text.find('\n', start);
            std::fprintf(stderr, "replayscope-run: %s\n", text.substr(start, end - start).c_str());
            start = end + 1;
        }
    }
    if (!summary.error.empty()) {
        std::fprintf(stderr, "replayscope-run: session file error: %s\n", summary.error.c_str());
    }
    if (!rs::ipc::recordExitStatus(output, static_cast<std::uint32_t>(launcher.pid()), *status,
                                   launcher.termSignal(), error)) {
        std::fprintf(stderr, "replayscope-run: %s\n", error.c_str());
    }
    return *status;
}
