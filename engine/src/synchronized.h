// SPDX-License-Identifier: MIT
// A value behind a reader/writer lock, reachable only through rlock()/wlock() (like
// rocprofiler-sdk's `common::Synchronized`: no bare mutex at call sites;
// docs/mechanism.md#allocation-tracking).
#pragma once

#include <mutex>
#include <shared_mutex>
#include <utility>

namespace rs::engine {

/// Holds a `T` and a shared mutex; every access runs a callable under the read or the write lock.
template <typename T>
class Synchronized {
  public:
    Synchronized() = default;
    template <typename... Args>
    explicit Synchronized(std::in_place_t, Args&&... args) : value_(std::forward<Args>(args)...) {}

    /// Runs `fn(const T&)` under the shared (read) lock and returns its result.
    template <typename Fn>
    decltype(auto) rlock(Fn&& fn) const {
        std::shared_lock lock(mutex_);
        return std::forward<Fn>(fn)(static_cast<const T&>(value_));
    }

    /// Runs `fn(T&)` under the exclusive (write) lock and returns its result.
    template <typename Fn>
    decltype(auto) wlock(Fn&& fn) {
        std::unique_lock lock(mutex_);
        return std::forward<Fn>(fn)(value_);
    }

  private:
    mutable std::shared_mutex mutex_;
    T value_{};
};

} // namespace rs::engine
