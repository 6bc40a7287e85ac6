#include "async_copy_fence.h"

#include "agent_context.h"
#include "engine.h"
#include "hsa_api.h"

#include <algorithm>

namespace rs::engine {

namespace {

thread_local bool t_in_window = false;

uint64_t owner_of(const void* ptr) {
    if (!ptr)
        return 0;
    hsa_amd_pointer_info_t info{};
    info.size = sizeof(info);
    if (hsa().amd.hsa_amd_pointer_info_fn(ptr, &info, nullptr, nullptr, nullptr) != HSA_STATUS_SUCCESS ||
        info.type == HSA_EXT_POINTER_TYPE_UNKNOWN)
        return 0;
    return info.agentOwner.handle;
}

} // namespace

AsyncCopyFence::WindowScope::WindowScope() {
    t_in_window = true;
}
AsyncCopyFence::WindowScope::~WindowScope() {
    t_in_window = false;
}

AsyncCopyFence::AsyncCopyFence(const void* dst, const void* src, uint64_t size,
                               std::initializer_list<hsa_agent_t> agents)
    : dst_(reinterpret_cast<uint64_t>(dst)), src_(reinterpret_cast<uint64_t>(src)), size_(size) {
    if (!g_recording.load(std::memory_order_relaxed) || g_finalized.load(std::memory_order_acquire))
        return;
    Engine* e = engine();
    if (!e)
        return;
    try {
        std::vector<uint64_t> handles{owner_of(dst), owner_of(src)};
        for (hsa_agent_t a : agents)
            handles.push_back(a.handle);
        std::sort(handles.begin(), handles.end());
        handles.erase(std::unique(handles.begin(), handles.end()), handles.end());
        std::vector<AgentContext*> contexts;
        for (uint64_t h : handles)
            if (h != 0)
                if (AgentContext* c = e->agents.find(h); c && c->selected())
                    contexts.push_back(c);
        if (contexts.empty())
            return;
        if (t_in_window) {
            // Never happens (see the class comment); if it did, waiting would be a self-deadlock.
            for (AgentContext* c : contexts)
                if (const uint64_t id = c->window_dispatch().load(std::memory_order_acquire); id != 0) {
                    engine_ = e;
                    report_ = true;
                    agent_ = c->agent().handle;
                    dispatch_id_ = id;
                }
            return;
        }
        engine_ = e;
        agent_ = contexts.front()->agent().handle;
        const auto start = Clock::now();
        const auto deadline = start + e->config.drain_timeout;
        for (AgentContext* c : contexts) {
            std::shared_lock lock(c->replay_lock(), std::try_to_lock);
            if (!lock.owns_lock()) {
                // A replay window holds the agent: name it, then wait for it to close (bounded).
                if (const uint64_t id = c->window_dispatch().load(std::memory_order_acquire); id != 0) {
                    dispatch_id_ = id;
                    agent_ = c->agent().handle;
                }
                waited_ = true;
                if (!lock.try_lock_until(deadline)) {
                    timed_out_ = true;
                    agent_ = c->agent().handle;
                    continue; // proceeds without this agent's lock
                }
                // Pairs with the window's release store of 0 made after its last restore and before it
                // released the lock: the copy is ordered after the window's writes also for tools that do
                // not model the timed rwlock calls (ThreadSanitizer does not intercept
                // pthread_rwlock_clockrdlock, which try_lock_until uses).
                (void)c->window_dispatch().load(std::memory_order_acquire);
            }
            locks_.push_back(std::move(lock));
        }
        report_ = waited_; // only copies that met a window are reported
        if (waited_)
            waited_ns_ = static_cast<uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
    } catch (...) {
        // Out of memory for the bookkeeping: the copy is issued unfenced (locks taken so far released).
    }
}

AsyncCopyFence::~AsyncCopyFence() {
    locks_.clear();
    if (!report_ || !engine_)
        return;
    AsyncCopyEvent ev{};
    ev.agent = agent_;
    ev.dst = dst_;
    ev.src = src_;
    ev.size = size_;
    ev.dispatch_id = dispatch_id_;
    ev.waited_ns = waited_ns_;
    ev.outcome = timed_out_ ? AsyncCopyOutcome::timed_out
                 : waited_  ? AsyncCopyOutcome::waited
                            : AsyncCopyOutcome::not_fenced;
    engine_->sink->async_copy(ev);
    if (timed_out_)
        engine_->sink->warning(WarningCode::general, dispatch_id_,
                               "async copy waited REPLAYSCOPE_DRAIN_TIMEOUT_MS for a replay window and was "
                               "issued while it was still open");
}

namespace {

hsa_status_t async_copy(void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent, size_t size,
                        uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                        hsa_signal_t completion_signal) {
    AsyncCopyFence fence(dst, src, size, {dst_agent, src_agent});
    return hsa().amd.hsa_amd_memory_async_copy_fn(dst, dst_agent, src, src_agent, size, num_dep_signals,
                                                  dep_signals, completion_signal);
}

hsa_status_t async_copy_rect(const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset,
                             const hsa_pitched_ptr_t* src, const hsa_dim3_t* src_offset,
                             const hsa_dim3_t* range, hsa_agent_t copy_agent, hsa_amd_copy_direction_t dir,
                             uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                             hsa_signal_t completion_signal) {
    const uint64_t bytes = range ? uint64_t{range->x} * range->y * range->z : 0;
    AsyncCopyFence fence(dst ? dst->base : nullptr, src ? src->base : nullptr, bytes, {copy_agent});
    return hsa().amd.hsa_amd_memory_async_copy_rect_fn(dst, dst_offset, src, src_offset, range, copy_agent,
                                                       dir, num_dep_signals, dep_signals, completion_signal);
}

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
hsa_status_t async_copy_on_engine(void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent,
                                  size_t size, uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                                  hsa_signal_t completion_signal, hsa_amd_sdma_engine_id_t engine_id,
                                  bool force_copy_on_sdma) {
    AsyncCopyFence fence(dst, src, size, {dst_agent, src_agent});
    return hsa().amd.hsa_amd_memory_async_copy_on_engine_fn(dst, dst_agent, src, src_agent, size,
                                                            num_dep_signals, dep_signals, completion_signal,
                                                            engine_id, force_copy_on_sdma);
}
#endif

} // namespace

void install_async_copy_fence(AmdExtTable& amd) {
    if (amd.hsa_amd_memory_async_copy_fn && amd.hsa_amd_memory_async_copy_fn != async_copy)
        amd.hsa_amd_memory_async_copy_fn = async_copy;
    if (amd.hsa_amd_memory_async_copy_rect_fn && amd.hsa_amd_memory_async_copy_rect_fn != async_copy_rect)
        amd.hsa_amd_memory_async_copy_rect_fn = async_copy_rect;
#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
    if (amd.hsa_amd_memory_async_copy_on_engine_fn &&
        amd.hsa_amd_memory_async_copy_on_engine_fn != async_copy_on_engine)
        amd.hsa_amd_memory_async_copy_on_engine_fn = async_copy_on_engine;
#endif
}

} // namespace rs::engine
