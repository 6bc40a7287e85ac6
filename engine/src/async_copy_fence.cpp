// SPDX-License-Identifier: MIT
#include "async_copy_fence.h"

#include "agent_context.h"
#include "engine.h"
#include "hsa_api.h"
#include "window_worker.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

namespace rs::engine {

namespace {

uint64_t owner_of(const void* ptr) {
    if (!ptr) {
        return 0;
    }
    hsa_amd_pointer_info_t info{};
    info.size = sizeof(info);
    if (hsa().amd.hsa_amd_pointer_info_fn(ptr, &info, nullptr, nullptr, nullptr) != HSA_STATUS_SUCCESS ||
        info.type == HSA_EXT_POINTER_TYPE_UNKNOWN) {
        return 0;
    }
    return info.agentOwner.handle;
}

} // namespace

AsyncCopyFence::AsyncCopyFence(const void* dst, const void* src, uint64_t size,
                               std::initializer_list<hsa_agent_t> agents, uint32_t num_dep_signals,
                               const hsa_signal_t* dep_signals)
    : num_app_deps_(num_dep_signals), app_deps_(dep_signals), dst_(reinterpret_cast<uint64_t>(dst)),
      src_(reinterpret_cast<uint64_t>(src)), size_(size) {
    if (!g_recording.load(std::memory_order_relaxed) || g_finalized.load(std::memory_order_acquire)) {
        return;
    }
    Engine* e = engine();
    if (!e) {
        return;
    }
    try {
        std::vector<uint64_t> handles{owner_of(dst), owner_of(src)};
        for (hsa_agent_t a : agents) {
            handles.push_back(a.handle);
        }
        std::sort(handles.begin(), handles.end());
        handles.erase(std::unique(handles.begin(), handles.end()), handles.end());
        std::vector<hsa_signal_t> held;
        for (uint64_t h : handles) {
            AgentContext* c = h != 0 ? e->agents.find(h) : nullptr;
            if (!c || !c->selected()) {
                continue;
            }
            held.reserve(held.size() + 1);
            locks_.reserve(locks_.size() + 1);
            locks_.emplace_back(c->mutex());
            const std::shared_ptr<Window>& w = c->state().gating;
            if (!w) {
                continue;
            }
            w->retain_until_unload = true;
            held.push_back(w->release);
            agent_ = c->agent().handle;
            dispatch_id_ = w->dispatch_id;
        }
        if (held.empty()) {
            return;
        }
        std::vector<hsa_signal_t> deps(dep_signals, dep_signals + num_dep_signals);
        deps.insert(deps.end(), held.begin(), held.end());
        deps_ = std::move(deps);
        engine_ = e;
    } catch (...) {
        // Out of memory for the bookkeeping: issued with the application's dependencies only. A window
        // marked retain_until_unload before the failure only keeps its signal longer.
        note_internal_error(*e, "asynchronous copy wrapper (the copy is issued unheld)");
        deps_.clear();
        engine_ = nullptr;
    }
}

AsyncCopyFence::~AsyncCopyFence() {
    locks_.clear(); // the copy has been issued: gating may start
    if (!engine_) {
        return;
    }
    engine_->sink->async_copy(
        AsyncCopyEvent{agent_, dst_, src_, size_, dispatch_id_, 0, AsyncCopyOutcome::held});
}

SyncCopyWait::SyncCopyWait(const void* dst, const void* src, uint64_t size) noexcept
    : dst_(reinterpret_cast<uint64_t>(dst)), src_(reinterpret_cast<uint64_t>(src)), size_(size) {
    if (!g_recording.load(std::memory_order_relaxed) || g_finalized.load(std::memory_order_acquire) ||
        on_window_worker()) {
        return;
    }
    Engine* e = engine();
    if (!e) {
        return;
    }
    engine_ = e;
    // Counted before open_windows is read (both seq_cst): a window counted open after this load sees the
    // copy in its drain; one counted before is seen here, and the copy takes the watched path.
    e->unwatched_sync_copies.fetch_add(1);
    if (e->open_windows.load() == 0) {
        unwatched_ = true;
        return;
    }
    e->unwatched_sync_copies.fetch_sub(1);
    try {
        std::vector<uint64_t> handles{owner_of(dst), owner_of(src)};
        std::sort(handles.begin(), handles.end());
        handles.erase(std::unique(handles.begin(), handles.end()), handles.end());
        const auto start = Clock::now();
        const auto deadline = start + e->config.drain_timeout;
        auto slice = std::chrono::microseconds(20);
        std::vector<AgentContext*> contexts;
        std::vector<std::unique_lock<std::mutex>> locks;
        contexts.reserve(handles.size());
        locks.reserve(handles.size());
        counted_.reserve(handles.size());
        for (;;) {
            // Found again on every check: the wait below holds no pointer, no lock, no signal.
            contexts.clear();
            uint64_t gating_agent = 0, gating_dispatch = 0;
            for (uint64_t h : handles) {
                AgentContext* c = h != 0 ? e->agents.find(h) : nullptr;
                if (!c || !c->selected()) {
                    continue;
                }
                locks.emplace_back(c->mutex());
                contexts.push_back(c);
                if (const std::shared_ptr<Window>& w = c->state().gating) {
                    gating_agent = c->agent().handle;
                    gating_dispatch = w->dispatch_id;
                }
            }
            const bool open = gating_agent != 0;
            if (open) {
                waited_ = true;
                agent_ = gating_agent;
                dispatch_id_ = gating_dispatch;
            }
            if (!open || Clock::now() >= deadline) {
                // Counted under the mutexes that showed no gating window: the drain of the next window
                // waits for this copy (after a timeout too, for the windows that follow).
                timed_out_ = open;
                for (AgentContext* c : contexts) {
                    ++c->state().sync_copies;
                    counted_.push_back(c->agent().handle);
                }
                locks.clear();
                break;
            }
            locks.clear();
            std::this_thread::sleep_for(std::min<Clock::duration>(slice, deadline - Clock::now()));
            slice = std::min<std::chrono::microseconds>(slice * 2, std::chrono::milliseconds(2));
        }
        if (waited_) {
            waited_ns_ = static_cast<uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
        }
    } catch (...) {
        // Only the lists throw, before any count was taken: the copy runs counted as unwatched, so a
        // window's drain still waits for it, unreported.
        note_internal_error(*e, "synchronous copy wrapper (the copy is issued without waiting)");
        counted_.clear();
        waited_ = timed_out_ = false;
        e->unwatched_sync_copies.fetch_add(1);
        unwatched_ = true;
    }
}

SyncCopyWait::~SyncCopyWait() {
    if (!engine_) {
        return;
    }
    if (unwatched_) {
        engine_->unwatched_sync_copies.fetch_sub(1);
        return;
    }
    try {
        for (uint64_t h : counted_) {
            if (AgentContext* c = engine_->agents.find(h)) {
                std::lock_guard lock(c->mutex());
                uint32_t& count = c->state().sync_copies;
                if (count != 0) { // 0: the agents were forgotten (OnUnload) while the copy ran
                    --count;
                }
            }
        }
    } catch (...) {
        note_internal_error(*engine_, "synchronous copy wrapper (a count of running copies stays taken)");
    }
    if (!waited_) {
        return;
    }
    engine_->sink->async_copy(
        AsyncCopyEvent{agent_, dst_, src_, size_, dispatch_id_, waited_ns_,
                       timed_out_ ? AsyncCopyOutcome::timed_out : AsyncCopyOutcome::waited});
    if (timed_out_) {
        try {
            engine_->sink->warning(WarningCode::drain_timeout, dispatch_id_,
                                   "drain-timeout: a synchronous copy waited " +
                                       std::to_string(waited_ns_ / 1000000) +
                                       " ms (REPLAYSCOPE_DRAIN_TIMEOUT_MS) for the replay window and ran "
                                       "while it was still open: its restore may have undone the copy");
        } catch (...) {
            note_internal_error(*engine_, "synchronous copy wrapper's warning", dispatch_id_);
        }
    }
}

namespace {

hsa_status_t memory_copy(void* dst, const void* src, size_t size) {
    SyncCopyWait wait(dst, src, size);
    return hsa().core.hsa_memory_copy_fn(dst, src, size);
}

hsa_status_t memory_fill(void* ptr, uint32_t value, size_t count) {
    SyncCopyWait wait(ptr, nullptr, uint64_t{count} * sizeof(uint32_t));
    return hsa().amd.hsa_amd_memory_fill_fn(ptr, value, count);
}

hsa_status_t async_copy(void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent, size_t size,
                        uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                        hsa_signal_t completion_signal) {
    AsyncCopyFence fence(dst, src, size, {dst_agent, src_agent}, num_dep_signals, dep_signals);
    return hsa().amd.hsa_amd_memory_async_copy_fn(dst, dst_agent, src, src_agent, size, fence.count(),
                                                  fence.deps(), completion_signal);
}

hsa_status_t async_copy_rect(const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset,
                             const hsa_pitched_ptr_t* src, const hsa_dim3_t* src_offset,
                             const hsa_dim3_t* range, hsa_agent_t copy_agent, hsa_amd_copy_direction_t dir,
                             uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                             hsa_signal_t completion_signal) {
    const uint64_t bytes = range ? uint64_t{range->x} * range->y * range->z : 0;
    AsyncCopyFence fence(dst ? dst->base : nullptr, src ? src->base : nullptr, bytes, {copy_agent},
                         num_dep_signals, dep_signals);
    return hsa().amd.hsa_amd_memory_async_copy_rect_fn(dst, dst_offset, src, src_offset, range, copy_agent,
                                                       dir, fence.count(), fence.deps(), completion_signal);
}

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
hsa_status_t async_copy_on_engine(void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent,
                                  size_t size, uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                                  hsa_signal_t completion_signal, hsa_amd_sdma_engine_id_t engine_id,
                                  bool force_copy_on_sdma) {
    AsyncCopyFence fence(dst, src, size, {dst_agent, src_agent}, num_dep_signals, dep_signals);
    return hsa().amd.hsa_amd_memory_async_copy_on_engine_fn(dst, dst_agent, src, src_agent, size,
                                                            fence.count(), fence.deps(), completion_signal,
                                                            engine_id, force_copy_on_sdma);
}
#endif

} // namespace

void install_sync_copy_wait(CoreApiTable& core, AmdExtTable& amd) {
    if (core.hsa_memory_copy_fn && core.hsa_memory_copy_fn != memory_copy) {
        core.hsa_memory_copy_fn = memory_copy;
    }
    if (amd.hsa_amd_memory_fill_fn && amd.hsa_amd_memory_fill_fn != memory_fill) {
        amd.hsa_amd_memory_fill_fn = memory_fill;
    }
}

void install_async_copy_fence(AmdExtTable& amd) {
    if (amd.hsa_amd_memory_async_copy_fn && amd.hsa_amd_memory_async_copy_fn != async_copy) {
        amd.hsa_amd_memory_async_copy_fn = async_copy;
    }
    if (amd.hsa_amd_memory_async_copy_rect_fn && amd.hsa_amd_memory_async_copy_rect_fn != async_copy_rect) {
        amd.hsa_amd_memory_async_copy_rect_fn = async_copy_rect;
    }
#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
    if (amd.hsa_amd_memory_async_copy_on_engine_fn &&
        amd.hsa_amd_memory_async_copy_on_engine_fn != async_copy_on_engine) {
        amd.hsa_amd_memory_async_copy_on_engine_fn = async_copy_on_engine;
    }
#endif
}

} // namespace rs::engine
