// SPDX-License-Identifier: MIT
// The engine's process-wide state and the teardown guard (docs/mechanism.md#teardown-guard).
#pragma once

#include "agent_context.h"
#include "allocation_classifier.h"
#include "allocation_inventory.h"
#include "configuration.h"
#include "event_sink.h"
#include "executable_registry.h"
#include "held_signals.h"
#include "memory_snapshot.h"
#include "queue_interceptor.h"
#include "synchronized.h"
#include "vmem_tracker.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace rs::engine {

/// Everything the wrappers and handlers share. Created by the first successful OnLoad.
struct Engine {
    explicit Engine(Configuration c, std::unique_ptr<EventSink> s)
        : config(std::move(c)), sink(std::move(s)), snapshotter(inventory, executables, *sink) {}

    Configuration config;
    std::unique_ptr<EventSink> sink;
    AllocationInventory inventory;
    /// Excluded but kernel-visible regions owned by a GPU agent (fine-grained device memory, vmem
    /// mappings while REPLAYSCOPE_TRACK_VMEM=0): never snapshotted nor restored, only hashed by the
    /// fidelity check (docs/replay-window.md, "Fidelity check").
    AllocationInventory watched;
    /// Memory a kernel may write that no restore puts back: host and fine-grained allocations (any
    /// owner), locked host memory, managed (SVM) ranges, module variables over the snapshot's cap. A
    /// dispatch whose kernarg segment points into one is declined (kernarg_scan.h). Entries never
    /// overlap (managed ranges are merged, AllocationInventory::add_managed).
    AllocationInventory unrestorable;
    /// Host memory locked through the hsa_amd_memory_lock wrappers: its base -> allocation id and the
    /// address the agents reach it at (memory_tracker.h).
    struct LockedRange {
        uint64_t id = 0;
        uintptr_t agent_address = 0;
    };
    Synchronized<std::map<uintptr_t, LockedRange>> locked;
    AllocationClassifier classifier;
    VmemTracker vmem; ///< hsa_amd_vmem_map mappings (ROCr 6.x)
    ExecutableRegistry executables;
    MemorySnapshotter snapshotter;
    AgentDirectory agents;
    Synchronized<std::vector<std::unique_ptr<QueueContext>>>
        queues; ///< intercepted queues (never freed early)
    std::atomic<uint64_t> next_dispatch_id{1};
    /// Dispatch handlers between taking an id and reporting the decision (see forward_packet).
    std::atomic<uint64_t> open_windows{0};
    /// Synchronous copies (hsa_memory_copy, hsa_amd_memory_fill) that found no window open (this count
    /// was 0) and still run: a window's drain waits for it to be 0 before its snapshot, since such a copy
    /// looked at no agent (docs/replay-window.md, "Synchronous copies"). Incremented before the copy reads
    /// open_windows, both seq_cst, so either the copy sees a window's count or the drain sees the copy.
    std::atomic<uint64_t> unwatched_sync_copies{0};
    /// Engine-internal errors (exceptions) caught and swallowed so that the application never sees
    /// them; every such catch site increments it. Reported in the session-end record and by the log sink.
    std::atomic<uint64_t> internal_errors{0};
    /// Set (release) once hsa_amd_agents_allow_access has granted an agent access to another agent's
    /// tracked allocation; never cleared. While false nothing below is used: windows and dispatch
    /// handlers behave as in a process whose agents share no memory (docs/replay-window.md, "Agents that
    /// share memory").
    std::atomic<bool> peer_access{false};
    /// Held by a worker from before its window's drain to after its release while `peer_access` is set,
    /// so that windows that gate other agents' queues never run at the same time. Taken by worker threads
    /// only, in slices (they watch `stopping` meanwhile), never with an agent mutex held.
    std::mutex peer_windows;
    /// Completion signals that fire only after an unreleased window's release, on any agent
    /// (docs/replay-window.md, "Packets that wait on a held packet").
    HeldSignals held;
};

/// The engine, or nullptr before OnLoad and once its statics are being destroyed.
Engine* engine();

/// Records an engine-internal error that the caller caught and swallows (the application must never
/// see the engine's exceptions). Call only from inside a catch handler: counts it in
/// `e.internal_errors` and reports a warning naming `where` and the exception (code out_of_memory for
/// std::bad_alloc, internal_error otherwise); after 16 such warnings the rest are only counted (the
/// total is in the session-end record). Never throws, never blocks for long.
void note_internal_error(Engine& e, const char* where, uint64_t dispatch_id = 0) noexcept;

/// Recording gate: a relaxed atomic flag set when replay is configured
/// (docs/mechanism.md#allocation-tracking). Trivially destructible.
extern std::atomic<bool> g_recording;
/// Set when the engine's statics are destroyed: wrappers then only forward (a late free from HIP's
/// __cxa_finalize must not lock a destroyed mutex).
extern std::atomic<bool> g_finalized;
/// Set by the first of the engine's process-exit hooks to run (stop_for_exit): no window opens or runs
/// a further pass from then on (docs/replay-window.md, "Process exit and fork"). Trivially destructible.
extern std::atomic<bool> g_exiting;
/// When the exit began (steady clock, ns since its epoch; 0 before): every wait at exit shares one
/// deadline measured from it (docs/replay-window.md, "Process exit and fork").
extern std::atomic<int64_t> g_exit_started_ns;
/// Set in a child made by fork() (pthread_atfork child handler, POSIX): the engine's state, its worker
/// threads and its connection belong to the parent; in the child every wrapper only forwards and no
/// exit hook waits for anything. Trivially destructible.
extern std::atomic<bool> g_forked_child;
/// Bumped by every hsa_executable_freeze the engine sees (rearm_exit_hook).
extern std::atomic<uint64_t> g_code_loads;

/// The engine's exit-time stop, run by whichever of its exit hooks comes first (the on_exit hook of
/// OnLoad, a rearmed atexit hook, the at_quick_exit hook, the worker registry's and the EngineHolder's
/// destructors; glibc runs them on the thread that called exit/quick_exit or returned from main): sets
/// g_exiting, then stops every window worker (each abandons its window: no further pass, the final
/// restore, the release, the application's dispatch waited for, bounded by the pass timeout) and joins
/// them. Does nothing in a forked child or when it already ran. Never throws.
void stop_for_exit() noexcept;
/// Registers the exit hook again (std::atexit, C11/POSIX) when a code object was loaded since the last
/// registration made at the same point, `after_pass` false after a snapshot (the engine's chunk-hash
/// kernel ran), true after a completed pass (the application's kernel ran). Exit handlers run in the
/// reverse order of their registration (glibc, ISO C 7.22.4.4), so the hook then runs before whatever a
/// library registered when its kernels were loaded or first ran. At most two registrations per code
/// object load. Worker thread; never throws.
void rearm_exit_hook(bool after_pass) noexcept;

} // namespace rs::engine
