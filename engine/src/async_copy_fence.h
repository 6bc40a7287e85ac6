// SPDX-License-Identifier: MIT
// Asynchronous copies and the replay window: the original design left them unfenced; ReplayScope holds
// them back on the GPU side (docs/replay-window.md, "Asynchronous copies").
// hsa_amd_memory_async_copy and its variants are not AQL packets, so they bypass the intercept queues
// and their gates (a copy landing between snapshot and restore would be erased). The engine wraps them:
// a copy touching an agent that is gating for a window gets the window's release signal as one more
// dependency, so the runtime starts it only after the window's last restore. The calling thread never
// waits. The synchronous copies (hsa_memory_copy, hsa_amd_memory_fill) cannot be held on the GPU side:
// their calling thread waits for the window's release instead (SyncCopyWait).
#pragma once

#include <hsa.h>
#include <hsa_api_trace.h>

#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <vector>

namespace rs::engine {

struct Engine;

/// Built around the issue of one asynchronous copy. The constructor finds the agents the copy touches
/// (the agents it names, and the owners of its source and destination from hsa_amd_pointer_info); for
/// each agent gating for a window it appends the
/// window's release signal to the copy's dependencies and keeps that signal alive until unload (the
/// engine cannot observe when the runtime stops reading it). deps()/count() are the dependencies to
/// pass to the original: the application's own, followed by those release signals. The destructor
/// reports a held copy (AsyncCopyEvent, outcome held, the window's dispatch id, waited_ns 0). Copies
/// that met no window are not reported (HIP issues one per hipMemcpy). Out of memory for the
/// bookkeeping: the copy is issued with the application's dependencies only, and an internal error is
/// counted. The agents' mutexes (in handle order, the only order anyone takes two) stay held from the
/// check until the destructor, i.e. across the original's call: no agent can start gating between the
/// check and the copy's issue, since the drain cannot see a copy that was issued unheld.
class AsyncCopyFence {
  public:
    AsyncCopyFence(const void* dst, const void* src, uint64_t size, std::initializer_list<hsa_agent_t> agents,
                   uint32_t num_dep_signals, const hsa_signal_t* dep_signals);
    ~AsyncCopyFence();
    AsyncCopyFence(const AsyncCopyFence&) = delete;
    AsyncCopyFence& operator=(const AsyncCopyFence&) = delete;

    uint32_t count() const { return deps_.empty() ? num_app_deps_ : static_cast<uint32_t>(deps_.size()); }
    const hsa_signal_t* deps() const { return deps_.empty() ? app_deps_ : deps_.data(); }

  private:
    Engine* engine_ = nullptr;
    uint32_t num_app_deps_;
    const hsa_signal_t* app_deps_;
    std::vector<hsa_signal_t> deps_; ///< empty: no window met
    uint64_t agent_ = 0;
    uint64_t dst_ = 0, src_ = 0, size_ = 0;
    uint64_t dispatch_id_ = 0;
    std::vector<std::unique_lock<std::mutex>> locks_; ///< the touched agents' mutexes, until issued
};

/// Built around one synchronous copy (hsa_memory_copy, or hsa_amd_memory_fill without a source), which
/// no dependency can hold back: the calling thread itself waits (docs/replay-window.md, "Synchronous
/// copies"). Fast path, while no window is open anywhere (Engine::open_windows 0): the copy is counted in
/// Engine::unwatched_sync_copies (incremented before that load, both seq_cst) and runs; a window's drain
/// waits for that count to be 0. Otherwise the constructor finds the owners of `dst` and `src`
/// (hsa_amd_pointer_info) and, under their agent mutexes (handle order), either counts the copy in each
/// one's State::sync_copies when none of them gates for a window (the drain waits for those too), or lets
/// the mutexes go and waits for the gating window's release, polling in slices up to 2 ms, holding no
/// engine lock, at most REPLAYSCOPE_DRAIN_TIMEOUT_MS: then the copy is issued inside the window, reported
/// timed-out with a drain-timeout warning. A copy that waited is reported as an AsyncCopyEvent, outcome
/// waited, with its wait and the window's dispatch id; one that met no window is not. On a window
/// worker's thread nothing is waited for (on_window_worker). Out of memory for the bookkeeping: the copy
/// runs counted as unwatched (no wait), and an internal error is counted. The destructor, after the copy,
/// takes the counts back and reports.
class SyncCopyWait {
  public:
    SyncCopyWait(const void* dst, const void* src, uint64_t size) noexcept;
    ~SyncCopyWait();
    SyncCopyWait(const SyncCopyWait&) = delete;
    SyncCopyWait& operator=(const SyncCopyWait&) = delete;

  private:
    Engine* engine_ = nullptr;
    bool unwatched_ = false;        ///< counted in Engine::unwatched_sync_copies
    std::vector<uint64_t> counted_; ///< agents whose State::sync_copies counts this copy
    bool waited_ = false, timed_out_ = false;
    uint64_t agent_ = 0, dispatch_id_ = 0, waited_ns_ = 0;
    uint64_t dst_ = 0, src_ = 0, size_ = 0;
};

/// Stores the wrappers of hsa_memory_copy (core table) and hsa_amd_memory_fill (AMD table) in the live
/// tables, each only when the runtime provides it (SyncCopyWait).
void install_sync_copy_wait(CoreApiTable& core, AmdExtTable& amd);

/// Stores the wrappers of hsa_amd_memory_async_copy, hsa_amd_memory_async_copy_rect and (ROCr 6.x)
/// hsa_amd_memory_async_copy_on_engine in the live table, each only when the runtime provides it.
void install_async_copy_fence(AmdExtTable& amd);

} // namespace rs::engine
