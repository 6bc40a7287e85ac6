// SPDX-License-Identifier: MIT
#include "gws.h"

namespace sim::isa {

GwsState::GwsState(uint32_t resources) : resources_(resources) {}

void GwsState::changed() {
    ++epoch_;
    blocked_ = 0;
    cv_.notify_all();
}

void GwsState::init(uint32_t resource, uint32_t value) {
    std::lock_guard lock(mutex_);
    resources_[resource].counter = value;
    changed();
}

bool GwsState::barrier_arrive(uint32_t resource, uint32_t value, uint64_t& generation) {
    std::lock_guard lock(mutex_);
    Resource& r = resources_[resource];
    if (r.counter == 0) {
        // The last wave: release the others and re-arm for the next barrier.
        ++r.generation;
        r.counter = value;
        changed();
        return false;
    }
    --r.counter;
    generation = r.generation;
    return true;
}

bool GwsState::barrier_released(uint32_t resource, uint64_t generation) {
    std::lock_guard lock(mutex_);
    return resources_[resource].generation != generation;
}

void GwsState::sema_add(uint32_t resource, uint32_t count) {
    std::lock_guard lock(mutex_);
    resources_[resource].counter += count;
    changed();
}

bool GwsState::sema_take(uint32_t resource) {
    std::lock_guard lock(mutex_);
    Resource& r = resources_[resource];
    if (r.counter > 0) {
        --r.counter;
        return true;
    }
    ++r.sema_waiters;
    return false;
}

bool GwsState::sema_retry(uint32_t resource) {
    std::lock_guard lock(mutex_);
    Resource& r = resources_[resource];
    if (r.counter == 0) {
        return false;
    }
    --r.counter;
    --r.sema_waiters;
    return true;
}

void GwsState::sema_release_all(uint32_t resource) {
    std::lock_guard lock(mutex_);
    Resource& r = resources_[resource];
    r.counter = r.sema_waiters;
    changed();
}

uint32_t GwsState::counter(uint32_t resource) {
    std::lock_guard lock(mutex_);
    return resources_[resource].counter;
}

void GwsState::join() {
    std::lock_guard lock(mutex_);
    ++participants_;
}

void GwsState::leave() {
    std::lock_guard lock(mutex_);
    --participants_;
    cv_.notify_all(); // the others may be all that is left, all waiting
}

uint64_t GwsState::epoch() {
    std::lock_guard lock(mutex_);
    return epoch_;
}

GwsState::Wait GwsState::wait_for_change(uint64_t seen, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    if (epoch_ != seen) {
        return Wait::changed;
    }
    // Counted until the state changes (changed() forgets every waiter: each then has a change to see)
    // or the wait ends.
    ++blocked_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (epoch_ != seen) {
            return Wait::changed;
        }
        if (blocked_ >= participants_) {
            --blocked_;
            return Wait::deadlock;
        }
        if (cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
            if (epoch_ != seen) {
                return Wait::changed;
            }
            --blocked_;
            return Wait::timeout;
        }
    }
}

} // namespace sim::isa
