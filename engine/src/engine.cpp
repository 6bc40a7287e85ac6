// SPDX-License-Identifier: MIT
// Tool entry points (docs/rocm-behaviour.md#tool-loading, #table-layout-and-versions).
#include "engine.h"

#include "async_copy_fence.h"
#include "counter_collection.h"
#include "graph_launch.h"
#include "hsa_api.h"
#include "memory_tracker.h"
#include "queue_interceptor.h"
#include "session_claim.h"
#include "vmem_tracker.h"
#include "window_worker.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace rs::engine {

std::atomic<bool> g_recording{false};
std::atomic<bool> g_finalized{false};
std::atomic<bool> g_exiting{false};
std::atomic<int64_t> g_exit_started_ns{0};
std::atomic<bool> g_forked_child{false};
std::atomic<uint64_t> g_code_loads{1};

namespace {

std::atomic<Engine*> g_engine{nullptr};

/// The status the process passed to exit(), as its parent sees it (0..255), or -1 while unknown (the
/// process has not called exit, or the hook could not be registered). Set by note_exit_status.
std::atomic<int32_t> g_exit_status{-1};

/// on_exit hook (glibc): keeps the exit status for the session end. Order: exit() runs the functions
/// registered with atexit/on_exit/__cxa_atexit in the reverse order of their registration. The
/// EngineHolder's destructor (the engine's exit-time stop, which emits session_end) is registered
/// through __cxa_atexit when the library's static initialisers run, i.e. when the runtime dlopens it
/// (or at start-up when it is LD_PRELOADed), always before the runtime calls OnLoad; this hook is
/// registered in OnLoad, so it runs before the destructor and the status is known when the session
/// ends. The library is linked -z nodelete, so the hook's code stays mapped until exit.
void note_exit_status(int status, void*) {
    g_exit_status.store(status & 0xff, std::memory_order_release);
    stop_for_exit();
}

/// The rearmed exit hook (rearm_exit_hook): the same stop, registered later.
void exit_hook() {
    stop_for_exit();
}

/// Code-object loads last covered by a registration after a snapshot and after a pass (rearm_exit_hook).
std::atomic<uint64_t> g_armed_after_snapshot{0};
std::atomic<uint64_t> g_armed_after_pass{0};

/// pthread_atfork child handler (POSIX): runs in the child, whose only thread is the one that called
/// fork. Only stores to lock-free atomics (async-signal-safe, as POSIX requires of a multithreaded
/// parent's child): the engine becomes unreachable (engine() answers nullptr), so wrappers and handlers
/// forward to the runtime, and the exit hooks return at once instead of waiting for worker threads that
/// exist only in the parent. The parent's locks, held or not at the fork, are never touched again.
void forked_child() {
    g_forked_child.store(true, std::memory_order_release);
    g_recording.store(false, std::memory_order_relaxed);
    g_engine.store(nullptr, std::memory_order_release);
}

/// Owns the engine; its destructor is the teardown guard: wrappers stay in the table for the process
/// lifetime, so a free arriving after this point must only forward. It is also the engine's exit-time
/// stop: the session end it emits carries the exit status note_exit_status kept.
struct EngineHolder {
    std::unique_ptr<Engine> engine;
    ~EngineHolder() {
        // First the windows (a no-op when an earlier exit hook stopped them, or in a forked child).
        stop_for_exit();
        g_recording.store(false, std::memory_order_relaxed);
        g_finalized.store(true, std::memory_order_release);
        g_engine.store(nullptr, std::memory_order_release);
        if (engine && !g_forked_child.load(std::memory_order_acquire)) {
            engine->sink->finish(engine->internal_errors.load(std::memory_order_relaxed),
                                 g_exit_status.load(std::memory_order_acquire));
        }
        // The Engine object itself is left allocated: a handler or wrapper racing with exit on another
        // thread may still hold a pointer to it. The process is ending.
        (void)engine.release();
    }
};
EngineHolder g_holder;
std::mutex g_load_mutex;

/// The SIGABRT disposition in place before abort_flush was installed (chained to).
struct sigaction g_previous_abort_action{};
std::atomic<bool> g_abort_flushed{false};
/// How long the abort flush waits for queued events to go out.
constexpr auto kAbortFlushBound = std::chrono::milliseconds(500);

/// SIGABRT handler: the process is about to die, e.g. through HIP's queue error callback (ROCclr's
/// Device::callbackQueue calls abort() for a dispatch that failed on the application's queue) or the
/// runtime's memory-fault report. The events already queued (the dispatch's decline among them: the
/// worker queues it before the release) are sent, bounded, then the previous disposition takes over:
/// the default one is restored and the signal raised again, so the process ends by SIGABRT as it would
/// have. Only async-signal-safe calls (sigaction, raise, atomics, the emitter's drain).
void abort_flush(int signo, siginfo_t* info, void* context) {
    const int saved_errno = errno;
    Engine* e = g_engine.load(std::memory_order_acquire);
    if (e && !g_forked_child.load(std::memory_order_acquire) && !g_abort_flushed.exchange(true)) {
        e->sink->flush_before_abort(kAbortFlushBound);
    }
    const struct sigaction previous = g_previous_abort_action;
    if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction) {
        previous.sa_sigaction(signo, info, context);
    } else if (previous.sa_handler == SIG_DFL) {
        struct sigaction dfl{};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        (void)sigaction(SIGABRT, &dfl, nullptr);
        (void)raise(SIGABRT); // delivered when this handler returns (SIGABRT is blocked inside it)
    } else if (previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signo);
    }
    errno = saved_errno;
}

/// Installs abort_flush, keeping the previous disposition to chain to. Once per process (OnLoad; a
/// handler the application installs later replaces it, and the flush is then the application's to skip).
void install_abort_flush() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action{};
        action.sa_sigaction = abort_flush;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGABRT, &action, &g_previous_abort_action) != 0) {
            std::fputs("replayscope: sigaction(SIGABRT) failed: events queued when the process aborts may "
                       "not reach the session\n",
                       stderr);
        }
    });
}

/// at_quick_exit hook (C11): quick_exit runs neither atexit handlers nor static destructors, so this
/// is the engine's whole exit: the windows are abandoned and the session ends (exit status unknown).
void quick_exit_hook() {
    stop_for_exit();
    if (g_forked_child.load(std::memory_order_acquire) || g_finalized.exchange(true)) {
        return;
    }
    g_recording.store(false, std::memory_order_relaxed);
    Engine* e = g_engine.exchange(nullptr, std::memory_order_acq_rel);
    if (e) {
        e->sink->finish(e->internal_errors.load(std::memory_order_relaxed), -1);
    }
}

hsa_status_t executable_freeze(hsa_executable_t exe, const char* options) {
    const hsa_status_t st = hsa().core.hsa_executable_freeze_fn(exe, options);
    if (st == HSA_STATUS_SUCCESS) {
        g_code_loads.fetch_add(1, std::memory_order_relaxed);
    }
    Engine* e = engine();
    if (st == HSA_STATUS_SUCCESS && e && !g_finalized.load(std::memory_order_acquire)) {
        try {
            std::vector<ExecutableRegistry::Variable> oversized;
            const uint32_t kernels = e->executables.add(exe, oversized);
            // Never snapshotted (kMaxModuleVariableBytes): a pointer to one in a kernarg segment, like a
            // kernel of this executable, is not replayed.
            for (const ExecutableRegistry::Variable& v : oversized) {
                e->unrestorable.add({0, v.address, v.size, 0, false});
            }
            // One record per loaded code object, with its URI (loader extension; not from inside
            // iterate_executables, which would block executable create/destroy).
            const std::vector<LoadedCodeObject> objects = loaded_code_objects(exe);
            for (const LoadedCodeObject& c : objects) {
                e->sink->executable({exe.handle, c.handle, c.agent, c.uri, kernels});
            }
            if (objects.empty()) {
                e->sink->executable({exe.handle, 0, 0, {}, kernels});
            }
        } catch (...) {
            note_internal_error(*e, "hsa_executable_freeze (kernel names of the executable not indexed)");
        }
    }
    return st;
}

struct AgentScan {
    std::vector<hsa_agent_t> agents;
};

hsa_status_t collect_agent(hsa_agent_t agent, void* data) {
    static_cast<AgentScan*>(data)->agents.push_back(agent);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t first_isa(hsa_isa_t isa, void* data) {
    *static_cast<hsa_isa_t*>(data) = isa;
    return HSA_STATUS_INFO_BREAK;
}

/// One agent record per agent of this runtime instance (handles change across hsa_shut_down/hsa_init).
void report_agents(EventSink& sink) {
    const CoreApiTable& core = hsa().core;
    AgentScan scan;
    (void)core.hsa_iterate_agents_fn(collect_agent, &scan);
    for (hsa_agent_t agent : scan.agents) {
        uint32_t node = 0;
        (void)core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_NODE, &node);
        hsa_isa_t isa{0};
        std::string isa_name;
        (void)core.hsa_agent_iterate_isas_fn(agent, first_isa, &isa);
        uint32_t length = 0;
        if (isa.handle != 0 &&
            core.hsa_isa_get_info_alt_fn(isa, HSA_ISA_INFO_NAME_LENGTH, &length) == HSA_STATUS_SUCCESS &&
            length > 0) {
            isa_name.assign(length, '\0');
            if (core.hsa_isa_get_info_alt_fn(isa, HSA_ISA_INFO_NAME, isa_name.data()) != HSA_STATUS_SUCCESS) {
                isa_name.clear();
            }
            while (!isa_name.empty() && isa_name.back() == '\0') {
                isa_name.pop_back();
            }
        }
        const std::string agent_label = agent_name(agent);
        const hsa_device_type_t type = device_type(agent);
        sink.agent({agent.handle, agent_label, isa_name,
                    type <= HSA_DEVICE_TYPE_DSP ? static_cast<DeviceType>(type) : DeviceType::other, node});
    }
}

hsa_status_t executable_destroy(hsa_executable_t exe) {
    Engine* e = engine();
    if (e && !g_finalized.load(std::memory_order_acquire)) {
        try {
            for (const ExecutableRegistry::Variable& v : e->executables.remove(exe)) {
                (void)e->unrestorable.remove(v.address);
            }
        } catch (...) {
            note_internal_error(*e, "hsa_executable_destroy");
        }
    }
    return hsa().core.hsa_executable_destroy_fn(exe);
}

/// The ROCr generation whose tables this build expects (docs/rocm-behaviour.md#table-layout-and-versions:
/// 5.2.3 has every major 1; ROCm 6.0 raised HsaApiTable to 3, core and AMD extension to 2, and inserted
/// two AmdExtTable entries, so a table of the other generation must never be touched).
#if HSA_API_TABLE_MAJOR_VERSION >= 3
constexpr const char* kBuiltForVersion = "ROCr 6.1.2";
#else
constexpr const char* kBuiltForVersion = "ROCr 5.2.3";
#endif

/// The generation a HsaApiTable major version belongs to.
const char* generation_of_major(uint32_t major) {
    return major == 1 ? "ROCr 5.x" : major == 3 ? "ROCr 6.x" : "an unknown ROCr generation";
}

/// One stderr line naming what was found and what this build expects; false when unusable. Both
/// generations are named: "built for ROCr 5.2.3 tables (HsaApiTable major 1), runtime offers major 3
/// (ROCr 6.x)".
bool check_versions(const HsaApiTable* table) {
    if (!table || !table->core_ || !table->amd_ext_) {
        std::fprintf(stderr,
                     "replayscope: refusing to load: HSA API table %s is missing (built for %s tables, "
                     "which have core and AMD extension tables)\n",
                     !table          ? ""
                     : !table->core_ ? "core_"
                                     : "amd_ext_",
                     kBuiltForVersion);
        return false;
    }
    if (table->version.major_id != HSA_API_TABLE_MAJOR_VERSION) {
        std::fprintf(stderr,
                     "replayscope: refusing to load: built for %s tables (HsaApiTable major %u), runtime "
                     "offers major %u (%s); use the engine built against this runtime's headers\n",
                     kBuiltForVersion, unsigned{HSA_API_TABLE_MAJOR_VERSION}, table->version.major_id,
                     generation_of_major(table->version.major_id));
        return false;
    }
    const ApiTableVersion& core = table->core_->version;
    if (core.major_id != HSA_CORE_API_TABLE_MAJOR_VERSION || core.minor_id < sizeof(CoreApiTable)) {
        std::fprintf(stderr,
                     "replayscope: refusing to load: built for %s tables (CoreApiTable major %u, at least "
                     "%zu bytes), runtime offers major %u with %u bytes\n",
                     kBuiltForVersion, unsigned{HSA_CORE_API_TABLE_MAJOR_VERSION}, sizeof(CoreApiTable),
                     core.major_id, core.minor_id);
        return false;
    }
    const ApiTableVersion& amd = table->amd_ext_->version;
    if (amd.major_id != HSA_AMD_EXT_API_TABLE_MAJOR_VERSION || amd.minor_id < sizeof(AmdExtTable)) {
        std::fprintf(stderr,
                     "replayscope: refusing to load: built for %s tables (AmdExtTable major %u, at least %zu "
                     "bytes), runtime offers major %u with %u bytes (%s; ROCm 6.0 inserted entries into "
                     "this table)\n",
                     kBuiltForVersion, unsigned{HSA_AMD_EXT_API_TABLE_MAJOR_VERSION}, sizeof(AmdExtTable),
                     amd.major_id, amd.minor_id, amd.major_id >= 2 ? "ROCr 6.x" : "ROCr 5.x");
        return false;
    }
    return true;
}

std::unique_ptr<EventSink> make_sink(const Configuration& config) {
    std::unique_ptr<EventSink> emitter = make_emitter_sink();
    std::unique_ptr<EventSink> log = config.log ? make_log_sink() : nullptr;
    return make_tee_sink(std::move(log), std::move(emitter));
}

} // namespace

Engine* engine() {
    return g_engine.load(std::memory_order_acquire);
}

void stop_for_exit() noexcept {
    if (g_forked_child.load(std::memory_order_acquire)) {
        return;
    }
    // The start is stored before g_exiting, so whoever sees g_exiting also sees when the exit began.
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch());
    int64_t unset = 0;
    if (!g_exit_started_ns.compare_exchange_strong(unset, std::max<int64_t>(1, now.count()),
                                                   std::memory_order_acq_rel)) {
        return; // another hook began the exit
    }
    g_exiting.store(true, std::memory_order_release);
    stop_all_workers();
}

void rearm_exit_hook(bool after_pass) noexcept {
    if (g_exiting.load(std::memory_order_acquire)) {
        return;
    }
    const uint64_t loads = g_code_loads.load(std::memory_order_relaxed);
    std::atomic<uint64_t>& armed = after_pass ? g_armed_after_pass : g_armed_after_snapshot;
    if (armed.exchange(loads, std::memory_order_relaxed) != loads) {
        (void)std::atexit(exit_hook); // on failure the earlier registrations still run, later
    }
}

void note_internal_error(Engine& e, const char* where, uint64_t dispatch_id) noexcept {
    constexpr uint64_t kWarned = 16;
    const uint64_t n = e.internal_errors.fetch_add(1, std::memory_order_relaxed) + 1;
    if (n > kWarned + 1) {
        return;
    }
    WarningCode code = WarningCode::internal_error;
    const char* what = "an exception of unknown type";
    try {
        throw;
    } catch (const std::bad_alloc&) {
        code = WarningCode::out_of_memory;
        what = "std::bad_alloc (host memory exhausted)";
    } catch (const std::exception& x) {
        what = x.what();
    } catch (...) {
    }
    char text[512];
    if (n == kWarned + 1) {
        std::snprintf(text, sizeof text,
                      "%s: %s caught and swallowed; further engine-internal errors are only counted "
                      "(session end, internal_errors)",
                      where, what);
    } else {
        std::snprintf(text, sizeof text, "%s: %s caught and swallowed", where, what);
    }
    e.sink->warning(code, dispatch_id, text);
}

} // namespace rs::engine

using namespace rs::engine;

extern "C" __attribute__((visibility("default"))) bool OnLoad(HsaApiTable* table, uint64_t runtime_version,
                                                              uint64_t failed_tool_count,
                                                              const char* const* failed_tool_names) {
    (void)runtime_version;
    (void)failed_tool_count;
    (void)failed_tool_names;
    if (g_forked_child.load(std::memory_order_acquire)) {
        // A child of fork() that did not exec and initialises the runtime again: the engine's state is
        // its parent's (and unusable here), so it stays out of the way and the child runs plain.
        static std::atomic<bool> said{false};
        if (!said.exchange(true)) {
            std::fputs("replayscope: not recording this forked process (fork without exec)\n", stderr);
        }
        return true;
    }
    try {
        std::lock_guard lock(g_load_mutex);
        if (!check_versions(table)) {
            return false;
        }
        // --follow-children=no: a process that finds the run's session claimed touches nothing (no
        // wrapper, no emitter, no exit hook) and says so once; the runtime keeps it loaded as a tool.
        if (claim_session() == SessionClaim::inert) {
            static bool said = false;
            if (!said) {
                std::fputs("replayscope: not recording this process (--follow-children=no)\n", stderr);
            }
            said = true;
            return true;
        }
        CoreApiTable& core = *table->core_;
        AmdExtTable& amd = *table->amd_ext_;
        // Save the originals unless this table already carries our wrappers (a second OnLoad on the
        // same table would otherwise save the wrappers as "originals" and recurse: first instance only).
        if (core.hsa_executable_freeze_fn != executable_freeze) {
            hsa().core = core;
            hsa().amd = amd;
            load_loader_extension();
            load_aqlprofile_extension();
        }
        if (!g_holder.engine) {
            Configuration config = Configuration::from_environment();
            auto sink = make_sink(config);
            g_holder.engine = std::make_unique<Engine>(std::move(config), std::move(sink));
            Engine& e = *g_holder.engine;
            // After the EngineHolder's registration, so that it runs first (note_exit_status).
            if (::on_exit(note_exit_status, nullptr) != 0) {
                std::fputs("replayscope: on_exit failed: the session end will not carry the exit status\n",
                           stderr);
            }
            // After the emitter's own handlers (registered when it started, in make_sink); both only
            // touch their own state in the child.
            if (::pthread_atfork(nullptr, nullptr, forked_child) != 0) {
                std::fputs("replayscope: pthread_atfork failed: a forked child that exits without exec "
                           "may wait for the engine\n",
                           stderr);
            }
            (void)std::at_quick_exit(quick_exit_hook);
            install_abort_flush();
            e.sink->session_start(e.config.describe());
            for (const std::string& problem : e.config.problems) {
                e.sink->warning(WarningCode::configuration, 0, problem);
            }
            report_counter_extension(e.config, *e.sink);
            if (graph_launch_interposer_missing()) {
                e.sink->warning(WarningCode::configuration, 0,
                                "libamdhip64 is loaded but the engine's hipGraphLaunch interposer is not in "
                                "front of it (the engine was not LD_PRELOADed): dispatches of HIP graph "
                                "launches cannot be recognised and are replayed like any other");
            }
        }
        Engine& e = *g_holder.engine;
        g_engine.store(&e, std::memory_order_release);
        report_agents(*e.sink);
        for (const std::string& entry : AgentDirectory::unmatched_filters(e.config)) {
            e.sink->warning(WarningCode::configuration, 0,
                            "--agent " + entry + ": it names no GPU agent, so nothing on it is replayed");
        }
        install_memory_tracker(core, amd);
        install_vmem_tracker(amd);
        install_async_copy_fence(amd);
        install_sync_copy_wait(core, amd);
        if (core.hsa_executable_freeze_fn != executable_freeze) {
            core.hsa_executable_freeze_fn = executable_freeze;
            core.hsa_executable_destroy_fn = executable_destroy;
        }
        install_queue_interceptor(core, amd);
        g_recording.store(e.config.replay_enabled(), std::memory_order_relaxed);
        return true;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "replayscope: refusing to load: out of host memory while starting the engine\n");
        return false;
    } catch (const std::exception& x) {
        std::fprintf(stderr, "replayscope: refusing to load: the engine could not start: %s\n", x.what());
        return false;
    } catch (...) {
        std::fprintf(
            stderr,
            "replayscope: refusing to load: the engine could not start (an exception of unknown type)\n");
        return false;
    }
}

/// hsa_shut_down: the runtime is about to destroy every agent-side object and reset its table. The
/// engine (linked -z nodelete, so a later hsa_init finds the same instance) forgets what belonged to this
/// runtime instance and keeps its session open; the session ends at process exit (EngineHolder).
extern "C" __attribute__((visibility("default"))) void OnUnload() {
    if (g_forked_child.load(std::memory_order_acquire)) {
        return; // nothing of the parent's runtime instance is the child's to release
    }
    std::lock_guard lock(g_load_mutex);
    g_recording.store(false, std::memory_order_relaxed);
    Engine* e = engine();
    if (!e) {
        return;
    }
    try {
        release_intercepted_queues();
        e->agents.clear();
        e->inventory.clear();
        e->watched.clear();
        e->unrestorable.clear();
        e->locked.wlock([](auto& m) { m.clear(); });
        e->vmem.clear();
        e->executables.clear();
    } catch (...) {
        note_internal_error(*e, "OnUnload (engine state of this runtime instance not fully cleared)");
    }
}
