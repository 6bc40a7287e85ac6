// SPDX-License-Identifier: MIT
// What every simulated queue (hardware or intercept proxy) shares: the hsa_queue_t the application sees,
// its read/write indices, and the reaction to a doorbell store.
#pragma once

#include <hsa.h>

#include <hsa_ext_amd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace sim {

struct Agent;
class QueueController;

/// The application-visible queue. `queue` is first, so an hsa_queue_t* converts back to this header.
struct QueueHeader {
    static constexpr uint64_t kMagic = 0x6873615f71756575ull; // "hsa_queu"
    hsa_queue_t queue{};
    uint64_t magic = kMagic;
    std::atomic<uint64_t> read_index{0};
    std::atomic<uint64_t> write_index{0};
    std::atomic<bool> profiling{false};
    QueueController* controller = nullptr;
    Agent* agent = nullptr;
    /// hsa_amd_queue_set_priority: recorded only (one processor thread per queue, no scheduling classes).
    std::atomic<int> priority{HSA_AMD_QUEUE_PRIORITY_NORMAL};
    /// hsa_amd_queue_cu_set_mask: the mask as last set (bit i = compute unit i; empty: all units).
    /// Recorded only: kernels run on host threads whatever the mask says.
    std::mutex cu_mask_mutex;
    std::vector<uint32_t> cu_mask;

    /// The header behind an application's queue pointer, or nullptr when it is not a simulator queue.
    static QueueHeader* from(const hsa_queue_t* q) {
        auto* h = reinterpret_cast<QueueHeader*>(const_cast<hsa_queue_t*>(q));
        return (h && h->magic == kMagic) ? h : nullptr;
    }
};

/// Owner of one queue: reacts to doorbell stores and is destroyed by hsa_queue_destroy.
class QueueController {
  public:
    virtual ~QueueController() = default;
    /// A store to the queue's doorbell signal with `value` (the index of the last packet published).
    virtual void on_doorbell(int64_t value) = 0;
    /// Stops launching packets (hsa_queue_inactivate).
    virtual void inactivate() = 0;
    virtual QueueHeader& header() = 0;
    /// The header holding the queue's priority and CU mask: its own, or for an intercept proxy the lower
    /// queue's (ROCr 5.2.3 core/inc/intercept_queue.h, QueueWrapper::SetPriority / SetCUMasking /
    /// GetCUMasking forward to the wrapped queue).
    virtual QueueHeader& settings() { return header(); }
    /// hsa_amd_profiling_set_profiler_enabled: record dispatch start/end ticks on completion signals.
    virtual void set_profiling(bool on) { header().profiling.store(on, std::memory_order_release); }
};

/// Allocates a ring of `size` 64-byte packets with every header set to INVALID.
void* allocate_packet_ring(uint32_t size);
void free_packet_ring(void* ring);

} // namespace sim
