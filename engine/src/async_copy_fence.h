// Asynchronous copies and the replay window: the original design left them unfenced; ReplayScope fences
// them (docs/mechanism.md#known-limitations-of-the-original-design).
// hsa_amd_memory_async_copy and its variants are not AQL packets, so they bypass the intercept queues
// and the agent's replay lock (a copy landing between snapshot and restore would be erased). The
// engine wraps them so that a copy touching an agent whose replay window is open waits until it closes.
#pragma once

#include <hsa.h>
#include <hsa_api_trace.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace rs::engine {

class AgentContext;
struct Engine;

/// Held around the issue of one asynchronous copy. The constructor finds the agents the copy touches
/// (the agents it names, and the owners of its source and destination from hsa_amd_pointer_info), takes
/// each one's replay lock SHARED, in handle order, waiting (bounded by REPLAYSCOPE_DRAIN_TIMEOUT_MS, one
/// deadline for all) while a window holds it exclusively; the destructor releases them after the
/// runtime accepted the copy, and reports the copy (AsyncCopyEvent) when it met a window: outcome waited
/// (waited_ns, the window's dispatch id) or timed_out; not_fenced for a copy issued from a window's own
/// thread (which must not wait, see below). Copies that met no window are not reported (HIP issues one
/// per hipMemcpy).
///
/// No deadlock: a window holds exactly one agent's lock, exclusively, and never waits for a shared
/// holder of another agent; a copy waits for each lock with a deadline and, on timeout, proceeds
/// without it (outcome timed_out). A window runs inside the intercept handler, on the thread that
/// stored the doorbell (docs/rocm-behaviour.md#intercept-queues-in-rocr-523), which is inside that store and
/// so cannot be issuing a copy; the engine itself issues none. A thread-local flag set while a window runs
/// makes the fence step aside anyway if that ever happened (a shared lock taken on a thread that holds
/// the exclusive one would never be granted).
class AsyncCopyFence {
  public:
    AsyncCopyFence(const void* dst, const void* src, uint64_t size,
                   std::initializer_list<hsa_agent_t> agents);
    ~AsyncCopyFence();
    AsyncCopyFence(const AsyncCopyFence&) = delete;
    AsyncCopyFence& operator=(const AsyncCopyFence&) = delete;

    /// Marks the calling thread as running a replay window (set by ReplayWindow for its lifetime).
    struct WindowScope {
        WindowScope();
        ~WindowScope();
        WindowScope(const WindowScope&) = delete;
        WindowScope& operator=(const WindowScope&) = delete;
    };

  private:
    Engine* engine_ = nullptr;
    std::vector<std::shared_lock<std::shared_timed_mutex>> locks_;
    uint64_t agent_ = 0;
    uint64_t dst_ = 0, src_ = 0, size_ = 0;
    uint64_t dispatch_id_ = 0;
    uint64_t waited_ns_ = 0;
    bool waited_ = false, timed_out_ = false, report_ = false;
};

/// Stores the wrappers of hsa_amd_memory_async_copy, hsa_amd_memory_async_copy_rect and (ROCr 6.x)
/// hsa_amd_memory_async_copy_on_engine in the live table, each only when the runtime provides it.
void install_async_copy_fence(AmdExtTable& amd);

} // namespace rs::engine
