// SPDX-License-Identifier: MIT
#include "sim_signal.h"

#include "clock.h"
#include "queue_controller.h"

#include <chrono>

namespace sim {

bool Signal::satisfied(hsa_signal_condition_t condition, int64_t value, int64_t compare) {
    switch (condition) {
    case HSA_SIGNAL_CONDITION_EQ:
        return value == compare;
    case HSA_SIGNAL_CONDITION_NE:
        return value != compare;
    case HSA_SIGNAL_CONDITION_LT:
        return value < compare;
    case HSA_SIGNAL_CONDITION_GTE:
        return value >= compare;
    }
    return false;
}

void Signal::changed(int64_t stored) {
    if (waiters.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard lock(mutex);
        cv.notify_all();
    }
    SignalMonitor::instance().poke();
    if (doorbell_of) {
        doorbell_of->on_doorbell(stored);
    }
}

void Signal::destroy() {
    magic = 0;
    while (users.load(std::memory_order_seq_cst) != 0) {
        std::this_thread::yield();
    }
    // The publication ends with a lock of `mutex`; taking it once more orders the delete after it.
    {
        std::lock_guard lock(mutex);
    }
    delete this;
}

int64_t Signal::wait(hsa_signal_condition_t condition, int64_t compare, uint64_t timeout_ns) {
    int64_t v = value.load(std::memory_order_seq_cst);
    if (satisfied(condition, v, compare) || timeout_ns == 0) {
        return v;
    }
    const bool bounded = timeout_ns != UINT64_MAX;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::nanoseconds(bounded ? timeout_ns : 0);
    waiters.fetch_add(1, std::memory_order_seq_cst);
    std::unique_lock lock(mutex);
    for (;;) {
        v = value.load(std::memory_order_seq_cst);
        if (satisfied(condition, v, compare)) {
            break;
        }
        // A store through the value pointer (hsa_amd_signal_value_pointer) does not notify: poll then.
        const bool poll = value_exposed.load(std::memory_order_acquire);
        const auto slice = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kValuePointerPollNs);
        if (bounded) {
            if (std::chrono::steady_clock::now() >= deadline) {
                v = value.load(std::memory_order_seq_cst);
                break;
            }
            cv.wait_until(lock, poll ? std::min(deadline, slice) : deadline);
        } else if (poll) {
            cv.wait_until(lock, slice);
        } else {
            cv.wait(lock);
        }
    }
    lock.unlock();
    waiters.fetch_sub(1, std::memory_order_seq_cst);
    return v;
}

SignalMonitor& SignalMonitor::instance() {
    static SignalMonitor* m = new SignalMonitor();
    return *m;
}

void SignalMonitor::poke() {
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard lock(mutex_);
        cv_.notify_all();
    }
}

void SignalMonitor::wait_for_change(uint64_t epoch, uint64_t deadline_ns) {
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    {
        std::unique_lock lock(mutex_);
        while (epoch_.load(std::memory_order_seq_cst) == epoch && !stopping_) {
            uint64_t now = now_ns();
            if (now >= deadline_ns) {
                break;
            }
            // Bounded slices: a change that raced the sleeper count is still seen within 1 ms.
            uint64_t slice = std::min<uint64_t>(deadline_ns - now, 1'000'000);
            cv_.wait_for(lock, std::chrono::nanoseconds(slice));
        }
    }
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
}

void SignalMonitor::add_handler(Signal* signal, hsa_signal_condition_t condition, int64_t value,
                                hsa_amd_signal_handler handler, void* arg) {
    std::lock_guard lock(mutex_);
    registrations_.push_back({signal, condition, value, handler, arg});
    if (!thread_.joinable()) {
        stopping_ = false;
        thread_ = std::thread([this] { run(); });
    }
    cv_.notify_all();
}

void SignalMonitor::run() {
    for (;;) {
        uint64_t seen = epoch();
        std::vector<Registration> due;
        bool poll = false; // some watched signal's value pointer was handed out: its stores are silent
        {
            std::lock_guard lock(mutex_);
            if (stopping_) {
                return;
            }
            for (auto it = registrations_.begin(); it != registrations_.end();) {
                poll = poll || it->signal->value_exposed.load(std::memory_order_acquire);
                int64_t v = it->signal->value.load(std::memory_order_acquire);
                if (Signal::satisfied(it->condition, v, it->value)) {
                    due.push_back(*it);
                    it = registrations_.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (auto& r : due) {
            // ROCr passes the value that satisfied the condition; a handler returning true stays armed.
            int64_t v = r.signal->value.load(std::memory_order_acquire);
            if (r.handler(v, r.arg)) {
                std::lock_guard lock(mutex_);
                registrations_.push_back(r);
            }
        }
        if (due.empty()) {
            wait_for_change(seen, now_ns() + (poll ? Signal::kValuePointerPollNs : 50'000'000));
        }
    }
}

void SignalMonitor::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        registrations_.clear();
        cv_.notify_all();
    }
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) {
        thread_.join();
    }
    std::lock_guard lock(mutex_);
    stopping_ = false;
}

} // namespace sim
