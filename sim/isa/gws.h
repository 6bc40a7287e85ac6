// SPDX-License-Identifier: MIT
// Global wave sync (GWS): the barrier and semaphore resources a queue owns, shared by every wave of the
// dispatches on it (CDNA2 ISA chapter 11 and §12.12, DS_GWS_INIT, DS_GWS_BARRIER, DS_GWS_SEMA_*; LLVM
// AMDGPUUsage and IntrinsicsAMDGPU.td, llvm.amdgcn.ds.gws.*). A resource is a counter with a
// generation: ds_gws_init sets the counter; a wave reaching ds_gws_barrier with the counter above zero
// decrements it and waits; the wave that finds it at zero completes the barrier, releasing the waiting
// waves, and resets the counter to the value it brings (the number of waves minus one), so the next
// barrier on the resource needs no new ds_gws_init. Semaphores count up with ds_gws_sema_v/_br, and a
// wave at ds_gws_sema_p waits until it can count down.
//
// Waves that wait are resumed by the dispatcher (dispatcher.cpp), which also asks the state whether any
// wave that shares it can still change it: when every participant waits, no barrier or semaphore can
// ever be released.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace sim::isa {

class GwsState {
  public:
    /// `resources` entries (ROCr allocates one to its cooperative queue: AqlQueue::EnableGWS(1)).
    explicit GwsState(uint32_t resources);

    uint32_t size() const { return static_cast<uint32_t>(resources_.size()); }

    /// ds_gws_init: the resource's counter becomes `value`.
    void init(uint32_t resource, uint32_t value);
    /// ds_gws_barrier arrival with `value` (waves expected minus one). False: the barrier completed with
    /// this wave, which goes on. True: the wave waits until barrier_released(resource, generation).
    bool barrier_arrive(uint32_t resource, uint32_t value, uint64_t& generation);
    /// True once the barrier the wave arrived at in `generation` has completed.
    bool barrier_released(uint32_t resource, uint64_t generation);
    /// ds_gws_sema_v (1) and ds_gws_sema_br (`count`): the counter grows by `count`.
    void sema_add(uint32_t resource, uint32_t count);
    /// ds_gws_sema_p: true when the counter was above zero and was decremented; otherwise the wave is
    /// counted as waiting on the resource (first attempt) and retries with sema_retry.
    bool sema_take(uint32_t resource);
    /// A waiting ds_gws_sema_p's retry: true when it took a count and stopped waiting.
    bool sema_retry(uint32_t resource);
    /// ds_gws_sema_release_all: the counter becomes the number of waves waiting on the resource.
    void sema_release_all(uint32_t resource);

    /// The counter of `resource` (for error messages and tests).
    uint32_t counter(uint32_t resource);

    /// A dispatch's host thread that runs waves using this state joins while it runs them.
    void join();
    void leave();

    enum class Wait { changed, timeout, deadlock };
    /// Blocks the calling participant, whose waves all wait, until the state changes after `seen`
    /// (epoch()): changed; `timeout` elapsed: timeout; or every participant waits, so nothing can
    /// change it any more: deadlock.
    Wait wait_for_change(uint64_t seen, std::chrono::milliseconds timeout);
    /// Counts changes that can release a waiting wave.
    uint64_t epoch();

  private:
    struct Resource {
        uint32_t counter = 0;
        uint64_t generation = 0; ///< completed barriers
        uint32_t sema_waiters = 0;
    };
    void changed(); ///< under mutex_

    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<Resource> resources_;
    uint64_t epoch_ = 0;
    uint32_t participants_ = 0;
    uint32_t blocked_ = 0; ///< participants waiting that have seen every change
};

} // namespace sim::isa
