// Per-agent replay state: the replay lock, the count of forwarded application packets still in flight,
// and the private queue passes run on (docs/rocm-behaviour.md#a-replay-window-that-fits-these-rules).
#pragma once

#include "hsa_api.h"
#include "memory_snapshot.h"
#include "synchronized.h"

#include <hsa.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>

namespace rs::engine {

struct Configuration;

/// AQL packet helpers (HSA 1.2 §2.9): 64-byte packets, header word stored last.
hsa_barrier_and_packet_t make_barrier_and(hsa_signal_t dependency, hsa_signal_t completion);
uint16_t packet_header(uint8_t type, bool barrier);

class AgentContext {
  public:
    AgentContext(hsa_agent_t agent, uint32_t gpu_index, std::string name, bool selected);
    ~AgentContext();
    AgentContext(const AgentContext&) = delete;
    AgentContext& operator=(const AgentContext&) = delete;

    hsa_agent_t agent() const { return agent_; }
    uint32_t gpu_index() const { return gpu_index_; }
    const std::string& name() const { return name_; }
    /// Passes the agent filter (queues of an unselected agent are not intercepted).
    bool selected() const { return selected_ && in_flight_.handle != 0; }

    /// Exclusive: one replay window at a time on this agent. Shared: forwarding application packets of
    /// its intercepted queues, so nothing new is forwarded while a window runs.
    std::shared_timed_mutex& replay_lock() { return replay_lock_; }
    /// Dispatch id of the replay window holding the agent (0: none). Set and cleared by the window under
    /// the exclusive replay lock; read by the async-copy fence to name the window a copy waited for.
    std::atomic<uint64_t>& window_dispatch() { return window_dispatch_; }
    /// Forwarded application packets not yet completed: incremented before forwarding, decremented by
    /// the marker barrier-AND (barrier bit) the engine appends behind them.
    hsa_signal_t in_flight() const { return in_flight_; }

    /// Writes `count` packets to the agent's private queue (created on first use with the original
    /// hsa_queue_create, profiling enabled) and rings its doorbell. False when there is no queue.
    bool submit_private(const void* packets, uint32_t count);

    /// Host memory of this agent's snapshots (used under the exclusive replay lock).
    HostArena& arena() { return arena_; }
    /// Inventory generation last reported for this agent (under the exclusive replay lock); an
    /// inventory is sent only when a snapshot's generation differs from it.
    uint64_t& reported_generation() { return reported_generation_; }

    /// Destroys the private queue and the in-flight signal through the saved originals (OnUnload, while
    /// the runtime is still up). The context is unusable afterwards.
    void release_runtime_objects();

  private:
    hsa_queue_t* private_queue();

    hsa_agent_t agent_;
    uint32_t gpu_index_;
    std::string name_;
    bool selected_;
    std::shared_timed_mutex replay_lock_;
    std::atomic<uint64_t> window_dispatch_{0};
    hsa_signal_t in_flight_{0};
    std::mutex queue_mutex_;
    hsa_queue_t* queue_ = nullptr;
    bool queue_failed_ = false;
    HostArena arena_;
    uint64_t reported_generation_ = UINT64_MAX;
};

/// GPU agents by handle, created on first use (index = position among GPU agents of hsa_iterate_agents).
class AgentDirectory {
  public:
    /// The context of `agent`, or nullptr for a non-GPU agent.
    AgentContext* get(hsa_agent_t agent, const Configuration& config);
    /// The context of `agent` if one exists (never creates one: an agent without intercepted queues
    /// has no replay window).
    AgentContext* find(uint64_t agent) const;
    /// Releases every context's runtime objects and forgets them (OnUnload: a later hsa_init has new
    /// agents, signals and queues).
    void clear();

  private:
    Synchronized<std::map<uint64_t, std::unique_ptr<AgentContext>>> agents_;
};

} // namespace rs::engine
