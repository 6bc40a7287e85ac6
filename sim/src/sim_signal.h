// SPDX-License-Identifier: MIT
// HSA signals: a 64-bit value with blocking and timed waits, plus the monitor behind
// hsa_amd_signal_async_handler and hsa_amd_signal_wait_any.
#pragma once

#include <hsa.h>
#include <hsa_ext_amd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace sim {

class QueueController;

/// One signal. Every change goes through `changed()`, which wakes waiters, the monitor, and (for a
/// queue's doorbell signal) the queue.
struct Signal {
    static constexpr uint64_t kMagic = 0x6873615f7369676eull; // "hsa_sign"
    uint64_t magic = kMagic;
    std::atomic<int64_t> value{0};
    std::mutex mutex;
    std::condition_variable cv;
    std::atomic<uint32_t> waiters{0};
    /// Runtime-side operations in progress (a change being published). hsa_signal_destroy waits for 0, so
    /// an application that destroys a signal as soon as it observes the completion value never frees it
    /// under the packet processor's feet.
    std::atomic<uint32_t> users{0};
    QueueController* doorbell_of = nullptr; ///< set for a queue's doorbell signal
    /// Set once hsa_amd_signal_value_pointer handed out the address of `value`: stores through it bypass
    /// `changed()`, so waits on this signal poll (kValuePointerPollNs slices) instead of sleeping unbounded.
    std::atomic<bool> value_exposed{false};
    /// Longest a waiter on a signal with an exposed value sleeps before re-reading the value (ns).
    static constexpr uint64_t kValuePointerPollNs = 100'000;
    /// Profiling: ticks (ns) of the last dispatch that completed this signal.
    std::atomic<uint64_t> dispatch_start{0};
    std::atomic<uint64_t> dispatch_end{0};
    /// Set when an async copy completed this signal with copy profiling on: dispatch_start/end then hold
    /// the copy's ticks (ROCr keeps both in the same signal fields), for
    /// hsa_amd_profiling_get_async_copy_time.
    std::atomic<bool> async_copy_timed{false};

    /// The signal behind a handle, or nullptr for a null or destroyed handle.
    static Signal* from(hsa_signal_t s) {
        auto* p = reinterpret_cast<Signal*>(s.handle);
        return (p && p->magic == kMagic) ? p : nullptr;
    }
    hsa_signal_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }

    /// Call after every modification of `value`; `stored` is the new value.
    void changed(int64_t stored);

    /// Applies `op` to `value` (it returns the stored value) and publishes the change, holding a use count
    /// throughout so the signal outlives the publication.
    template <typename Op>
    int64_t modify(Op op) {
        users.fetch_add(1, std::memory_order_seq_cst);
        int64_t stored = op(value);
        changed(stored);
        users.fetch_sub(1, std::memory_order_seq_cst);
        return stored;
    }

    /// Invalidates the handle and frees the signal once no runtime operation is still using it.
    void destroy();

    /// Waits until `condition` holds for the value or `timeout_ns` passes (UINT64_MAX: no limit);
    /// returns the last value observed (HSA 1.2 §2.3.1: the caller re-checks the condition).
    int64_t wait(hsa_signal_condition_t condition, int64_t compare, uint64_t timeout_ns);

    static bool satisfied(hsa_signal_condition_t condition, int64_t value, int64_t compare);
};

/// A background thread that runs hsa_amd_signal_async_handler callbacks, and the wake-up source of
/// hsa_amd_signal_wait_any: every signal change bumps an epoch it waits on.
class SignalMonitor {
  public:
    static SignalMonitor& instance();

    /// Registers `handler` to run once `condition` holds for `signal` (re-armed while it returns true).
    void add_handler(Signal* signal, hsa_signal_condition_t condition, int64_t value,
                     hsa_amd_signal_handler handler, void* arg);
    /// Any signal changed.
    void poke();
    /// Waits for any signal change after `epoch` or until `deadline_ns`.
    void wait_for_change(uint64_t epoch, uint64_t deadline_ns);
    uint64_t epoch() const { return epoch_.load(std::memory_order_acquire); }
    /// Drops every registration and joins the thread (hsa_shut_down).
    void stop();

  private:
    struct Registration {
        Signal* signal;
        hsa_signal_condition_t condition;
        int64_t value;
        hsa_amd_signal_handler handler;
        void* arg;
    };
    void run();
    std::mutex mutex_;
    std::condition_variable cv_;
    std::atomic<uint64_t> epoch_{0};
    std::atomic<uint32_t> sleepers_{0};
    std::vector<Registration> registrations_;
    std::thread thread_;
    bool stopping_ = false;
};

} // namespace sim
