// SPDX-License-Identifier: MIT
#include "target_run.h"

#include "diagnostics.h"
#include "file_system.h"
#include "hip_detection.h"
#include "install_layout.h"
#include "program_launcher.h"
#include "progress_line.h"
#include "spool_import_step.h"
#include "standins.h"
#include "target_environment.h"

#include "replayscope/ipc/environment.h"
#include "replayscope/ipc/spool_importer.h"

#include <replayscope/counters/derived.h>

#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace rs::runner {

namespace {

/// Raises the soft RLIMIT_NOFILE to the hard limit: the collector holds one descriptor per connected
/// process (and up to 64 pending ones). The target inherits the raised soft limit. Best effort.
void raise_descriptor_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
}

volatile std::sig_atomic_t g_forward_pid = 0;
void forward_signal(int sig) {
    if (g_forward_pid > 0) {
        ::kill(static_cast<pid_t>(g_forward_pid), sig);
    }
}

/// Prints `message` (note) and gives run_target's failure.
std::nullopt_t failed(const std::string& message) {
    fatal(message);
    return std::nullopt;
}

} // namespace

std::optional<TargetRun> run_target(const RunOptions& o) {
    const std::vector<std::string>& program_args = o.program_args;
    const bool simulate = o.simulate;
    const bool force = o.force;
    std::string engine = o.engine;
    std::string output = o.output;
    if (program_args.empty()) {
        return failed("no program given: replayscope-run [options] -o SESSION.rsdb -- PROGRAM [ARGS...]");
    }

    const auto layout = InstallLayout::from_running_binary();
    if (engine.empty()) {
        engine = layout.default_engine_path();
    }
    if (!path_exists(engine)) {
        return failed("engine library not found: " + engine +
                      " (build the replayscope_engine target, or pass --engine PATH)");
    }
    char resolved_engine[PATH_MAX];
    if (::realpath(engine.c_str(), resolved_engine) != nullptr) {
        engine = resolved_engine;
    }
    const std::string program = resolve_program(program_args.front());
    if (program.empty()) {
        return failed("program not found or not executable: " + program_args.front());
    }

    TargetEnvironment env;
    if (simulate) {
        const std::string sim = layout.simulator_directory();
        if (sim.empty()) {
            std::string where;
            for (const auto& c : layout.simulator_candidates()) {
                where += " " + c;
            }
            return failed("--simulate: no simulated runtime (libhsa-runtime64.so.1) in:" + where);
        }
        env.prepend("LD_LIBRARY_PATH", sim);
    }
    if (!o.standins.empty()) {
        if (!simulate) {
            return failed("--standins needs --simulate (only the simulated runtime runs stand-ins)");
        }
        std::string standins_error;
        const auto value = standins_variable(o.standins, standins_error);
        if (!value) {
            return failed(standins_error);
        }
        env.set("HSA_SIM_STANDINS", *value);
    }
    if (!o.executor.empty() && !simulate) {
        return failed("--executor needs --simulate (it chooses what runs kernels on the simulated runtime)");
    }
    const std::string executor = !o.executor.empty() ? o.executor : !o.standins.empty() ? "standin" : "isa";
    if (simulate) {
        env.set("HSA_SIM_EXECUTOR", executor);
    }
    if (simulate && executor == "standin") {
        // With stand-ins, the engine's chunk-hash kernel runs through its host stand-in too: always in
        // the list, after the program's own. The interpreter runs the real kernel instead.
        const std::string chunk_hash = chunk_hash_standin(engine);
        if (chunk_hash.empty()) {
            warn("no libreplayscope_chunk_hash_standins.so beside " + engine +
                 ": the engine's chunk-hash kernel cannot run on the simulated runtime (dirty restores "
                 "fall back)");
        } else {
            env.set("HSA_SIM_STANDINS",
                    with_chunk_hash_standin(env.get("HSA_SIM_STANDINS").value_or(""), chunk_hash));
        }
    }

    raise_descriptor_limit();
    output = absolute_path(output);
    std::string error;
    // One writer per output: claimed before anything touches the session file, and held until the exit
    // status is written (by the returned run). A claim another live run holds ends here: -f removes
    // nothing and the program never starts.
    std::string claim_note;
    // -d and -o may name directories that do not exist yet (mkdir -p, as rocprofv3 makes its output
    // directory).
    if (!create_parent_directories(output, error)) {
        return failed(error);
    }
    auto claim = OutputClaim::acquire(output, error, claim_note);
    if (!claim) {
        return failed(error);
    }
    if (!claim_note.empty()) {
        note(claim_note);
    }
    // A run killed before it imported its spools (its replayscope-run got SIGKILL while the program
    // went on spooling) left them in the session's spool directory: say so, and how to import them,
    // before this run is refused for the existing session or replaces it (-f). They are not imported
    // here: without -f the run ends anyway, with -f the session they belong to is about to go.
    note_leftover_spools(output, force);
    rs::ipc::CollectorOptions options;
    options.session_path = output;
    options.overwrite = force;
    // The collector's lines (a process connected, a connection refused) are notes: below --log-level info
    // (--quiet among them) they are not printed.
    options.log = [](const std::string& line) {
        if (logs(LogLevel::info)) {
            std::fprintf(stderr, "replayscope-run: %s\n", line.c_str());
        }
    };
    // The run id names this run's spools and goes into their hello and the session: 16 hex characters of
    // their own draw, not of the secret token (never all '0', which names no run).
    std::string run_id;
    try {
        do {
            run_id = rs::ipc::make_session_token().substr(0, 16);
        } while (run_id.find_first_not_of('0') == std::string::npos);
    } catch (const std::exception& e) {
        return failed(std::string("cannot draw a run id: ") + e.what());
    }
    // The spools go into the session's private directory (0700, of this user), made or checked here
    // before anything else is created: a directory or link someone else put there refuses the run.
    const std::string spool_dir = rs::ipc::spool_directory(output);
    bool spool_dir_created = false;
    if (!prepare_spool_directory(spool_dir, spool_dir_created, error)) {
        return failed(error);
    }
    auto remove_unused_spool_dir = [&] {
        if (spool_dir_created) {
            ::rmdir(spool_dir.c_str()); // only when empty
        }
    };
    // SPOOL_DIR/RUNID.%p: each emitter replaces %p by its pid (the collector's own spool_path() has no
    // run id).
    const std::string spool_path = spool_dir + "/" + run_id + ".%p";
    // The session file is created last by Collector::create, and removed again when the run never
    // starts: no empty session file is left behind.
    const bool session_existed = path_exists(output);
    auto remove_unstarted_session = [&] {
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
            struct stat st{};
            if (::stat(output.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
                ::unlink(output.c_str());
            }
        }
        remove_unused_spool_dir();
        return failed(error);
    }
    struct stat session_st{};
    ::stat(output.c_str(), &session_st);
    // The session names its run, so that spools left by this run (if replayscope-run is killed) are
    // recognised as the session's by the next run, --import-spool and the inspector. The collector's
    // thread has not started: nothing else writes the file now.
    if (std::string run_id_error; !rs::ipc::record_session_run_id(output, run_id, run_id_error)) {
        note(run_id_error + " (this run's spools are still imported at its end)");
    }
    namespace envn = rs::ipc::env;
    env.set("HSA_TOOLS_LIB", engine);
    env.set("HSA_TOOLS_ROCPROFILER_V1_TOOLS", "1");
    env.set(envn::kSocket, collector->socket_path());
    env.set(envn::kToken, collector->token());
    env.set(envn::kSpool, spool_path);
    env.set(envn::kRunId, run_id);
    env.set_replay_options(o.replay);
    if (!o.replay.counter_plan.empty()) {
        note("counters: " + rs::counters::plan_text(o.replay.counter_plan, o.replay.passes));
        if (!o.replay.derived_counters.empty()) {
            note("derived metrics (computed from those counters when the session is read): " +
                 rs::counters::derived_text(o.replay.derived_counters));
        }
    }
    env.set(envn::kFollowChildren, o.follow_children == "no" ? "0" : "1");
    if (o.preload == "on" || (o.preload == "auto" && command_uses_hip(program, program_args))) {
        env.prepend("LD_PRELOAD", engine);
    }
    // The engine's --follow-children=no claim beside the spool (used when the socket directory cannot
    // take it): one left by an earlier run would make every process of this one inert.
    const std::string spool_claim = spool_path + ".first";
    ::unlink(spool_claim.c_str());

    if (!collector->start()) {
        collector.reset();
        remove_unstarted_session();
        remove_unused_spool_dir();
        return failed("cannot start the collector thread");
    }
    // Like system(): the terminal's SIGINT/SIGQUIT reach the program; we keep collecting until it ends.
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGQUIT, SIG_IGN);
    if (logs(LogLevel::trace)) {
        for (const std::string& entry : env.entries()) {
            const std::string name = entry.substr(0, entry.find('='));
            if (name == envn::kToken) {
                trace("environment: " + name + "=(secret, not shown)");
            } else if (name.rfind("REPLAYSCOPE_", 0) == 0 || name.rfind("HSA_", 0) == 0 ||
                       name == "LD_PRELOAD" || name == "LD_LIBRARY_PATH") {
                trace("environment: " + entry);
            }
        }
    }
    ProgramLauncher launcher;
    if (!launcher.launch(program, program_args, env, error)) {
        collector->finish(std::chrono::milliseconds(0));
        collector.reset();
        remove_unstarted_session();
        remove_unused_spool_dir();
        return failed(error);
    }
    g_forward_pid = launcher.pid();
    std::signal(SIGTERM, forward_signal);
    std::signal(SIGHUP, forward_signal);

    ProgressLine progress(!o.no_progress && !o.quiet);
    const auto started = std::chrono::steady_clock::now();
    std::optional<int> status;
    int ticks = 0;
    while (!(status = launcher.poll())) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (++ticks % 10 == 0) {
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            progress.update(collector->events_stored(), collector->dispatches_stored(), s);
        }
    }
    g_forward_pid = 0;
    progress.clear();
    auto summary = collector->finish(std::chrono::milliseconds(o.drain_ms));
    collector.reset();
    return TargetRun{output,
                     spool_claim,
                     run_id,
                     launcher.pid(),
                     *status,
                     launcher.term_signal(),
                     std::move(summary),
                     std::move(claim),
                     session_st.st_dev,
                     session_st.st_ino};
}

bool session_file_is_the_runs(const TargetRun& run) {
    struct stat st{};
    return ::stat(run.session_path.c_str(), &st) == 0 && st.st_dev == run.session_device &&
           st.st_ino == run.session_inode;
}

} // namespace rs::runner
