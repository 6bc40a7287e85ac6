#include "agent_context.h"

#include "configuration.h"

#include <cstring>
#include <thread>
#include <vector>

namespace rs::engine {

uint16_t packet_header(uint8_t type, bool barrier) {
    return static_cast<uint16_t>((type << HSA_PACKET_HEADER_TYPE) |
                                 ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

hsa_barrier_and_packet_t make_barrier_and(hsa_signal_t dependency, hsa_signal_t completion) {
    hsa_barrier_and_packet_t b{};
    b.header = packet_header(HSA_PACKET_TYPE_BARRIER_AND, true);
    b.dep_signal[0] = dependency;
    b.completion_signal = completion;
    return b;
}

AgentContext::AgentContext(hsa_agent_t agent, uint32_t gpu_index, std::string name, bool selected)
    : agent_(agent), gpu_index_(gpu_index), name_(std::move(name)), selected_(selected) {
    bool ok = false;
    in_flight_ = create_signal(0, ok);
    if (!ok)
        in_flight_.handle = 0;
}

AgentContext::~AgentContext() {
    // Runtime objects are released by release_runtime_objects() (OnUnload); a context destroyed without
    // it (process exit) leaves them to the runtime, which may already be gone.
}

void AgentContext::release_runtime_objects() {
    std::lock_guard lock(queue_mutex_);
    if (queue_)
        (void)hsa().core.hsa_queue_destroy_fn(queue_);
    queue_ = nullptr;
    queue_failed_ = true;
    destroy_signal(in_flight_);
    in_flight_.handle = 0;
}

hsa_queue_t* AgentContext::private_queue() {
    std::lock_guard lock(queue_mutex_);
    if (!queue_ && !queue_failed_) {
        hsa_queue_t* q = nullptr;
        if (hsa().core.hsa_queue_create_fn(agent_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                           UINT32_MAX, &q) == HSA_STATUS_SUCCESS &&
            q) {
            (void)hsa().amd.hsa_amd_profiling_set_profiler_enabled_fn(q, 1);
            queue_ = q;
        } else {
            queue_failed_ = true;
        }
    }
    return queue_;
}

bool AgentContext::submit_private(const void* packets, uint32_t count) {
    hsa_queue_t* q = private_queue();
    if (!q)
        return false;
    const auto& core = hsa().core;
    const uint64_t first = core.hsa_queue_add_write_index_scacq_screl_fn(q, count);
    // The private queue holds at most a few packets (one window or fallback at a time per caller), so
    // room appears as soon as the packet processor consumes earlier ones.
    while (first + count - core.hsa_queue_load_read_index_scacquire_fn(q) > q->size)
        std::this_thread::yield();
    auto* base = static_cast<unsigned char*>(q->base_address);
    const auto* src = static_cast<const unsigned char*>(packets);
    for (uint32_t i = 0; i < count; ++i) {
        unsigned char* slot = base + ((first + i) % q->size) * 64;
        std::memcpy(slot + 4, src + i * 64 + 4, 60);
        uint32_t word = 0;
        std::memcpy(&word, src + i * 64, 4);
        __atomic_store_n(reinterpret_cast<uint32_t*>(slot), word, __ATOMIC_RELEASE);
    }
    core.hsa_signal_store_screlease_fn(q->doorbell_signal,
                                       static_cast<hsa_signal_value_t>(first + count - 1));
    return true;
}

namespace {

hsa_status_t collect_gpu(hsa_agent_t agent, void* data) {
    if (device_type(agent) == HSA_DEVICE_TYPE_GPU)
        static_cast<std::vector<hsa_agent_t>*>(data)->push_back(agent);
    return HSA_STATUS_SUCCESS;
}

} // namespace

void AgentDirectory::clear() {
    agents_.wlock([](auto& m) {
        for (auto& [handle, context] : m)
            context->release_runtime_objects();
        m.clear();
    });
}

AgentContext* AgentDirectory::find(uint64_t agent) const {
    return agents_.rlock([&](const auto& m) -> AgentContext* {
        auto it = m.find(agent);
        return it == m.end() ? nullptr : it->second.get();
    });
}

AgentContext* AgentDirectory::get(hsa_agent_t agent, const Configuration& config) {
    AgentContext* found = agents_.rlock([&](const auto& m) -> AgentContext* {
        auto it = m.find(agent.handle);
        return it == m.end() ? nullptr : it->second.get();
    });
    if (found || device_type(agent) != HSA_DEVICE_TYPE_GPU)
        return found;
    std::vector<hsa_agent_t> gpus;
    (void)hsa().core.hsa_iterate_agents_fn(collect_gpu, &gpus);
    uint32_t index = 0;
    for (uint32_t i = 0; i < gpus.size(); ++i)
        if (gpus[i].handle == agent.handle)
            index = i;
    std::string name = agent_name(agent);
    const bool selected = config.agent_selected(index, name);
    return agents_.wlock([&](auto& m) {
        auto& slot = m[agent.handle];
        if (!slot)
            slot = std::make_unique<AgentContext>(agent, index, name, selected);
        return slot.get();
    });
}

} // namespace rs::engine
