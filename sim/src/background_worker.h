// SPDX-License-Identifier: MIT
// A single thread running queued tasks in order: the simulator's copy engine (async copies) and its
// deferred-doorbell thread (doorbell stores made from inside an intercept handler).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace sim {

class BackgroundWorker {
  public:
    BackgroundWorker() = default;
    BackgroundWorker(const BackgroundWorker&) = delete;
    BackgroundWorker& operator=(const BackgroundWorker&) = delete;
    ~BackgroundWorker() { stop(); }

    /// Queues a task; starts the thread on first use.
    void post(std::function<void()> task);
    /// Runs what is queued, then joins the thread. Safe to call twice.
    void stop();

  private:
    void run();
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> tasks_;
    std::thread thread_;
    bool stopping_ = false;
};

} // namespace sim
