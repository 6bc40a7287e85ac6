// SPDX-License-Identifier: MIT
#include "window_worker.h"

#include "agent_context.h"
#include "engine.h"
#include "hsa_api.h"
#include "queue_interceptor.h"
#include "replay_window.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace rs::engine {

struct WindowWorker::Done {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
};

namespace {

/// Set at the start of each worker thread (on_window_worker).
thread_local bool t_on_window_worker = false;

/// Agents whose worker runs, so that process exit can stop them (the engine object itself is never
/// destroyed). A function-local static: constructed with the first worker, after the runtime's statics,
/// so destroyed before them.
struct WorkerRegistry {
    std::mutex mutex;
    std::vector<AgentContext*> agents;
    ~WorkerRegistry() { stop_all_workers(); }
};

std::atomic<bool> g_registry_gone{false}; // trivially destructible

WorkerRegistry& registry() {
    static WorkerRegistry r;
    return r;
}

void register_agent(AgentContext* agent) {
    if (g_registry_gone.load(std::memory_order_acquire)) {
        return;
    }
    WorkerRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    r.agents.push_back(agent);
}

void unregister_agent(AgentContext* agent) {
    if (g_registry_gone.load(std::memory_order_acquire)) {
        return;
    }
    WorkerRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    r.agents.erase(std::remove(r.agents.begin(), r.agents.end(), agent), r.agents.end());
}

uint64_t ticks_per_ms() {
    static const uint64_t kTicks = [] {
        uint64_t frequency = 0;
        if (hsa().core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency) !=
                HSA_STATUS_SUCCESS ||
            frequency == 0) {
            frequency = 1'000'000'000;
        }
        return std::max<uint64_t>(frequency / 1000, 1);
    }();
    return kTicks;
}

} // namespace

bool on_window_worker() noexcept {
    return t_on_window_worker;
}

void stop_all_workers() noexcept {
    // In a forked child the registry's mutex may have been held by a parent thread at the fork, and the
    // workers it lists never existed here: nothing to stop.
    if (g_forked_child.load(std::memory_order_acquire) ||
        g_registry_gone.exchange(true, std::memory_order_acq_rel)) {
        return;
    }
    std::vector<AgentContext*> agents;
    {
        WorkerRegistry& r = registry();
        std::lock_guard lock(r.mutex);
        agents.swap(r.agents);
    }
    for (AgentContext* a : agents) {
        a->request_stop(); // every window abandons at once; the joins below then overlap
    }
    for (AgentContext* a : agents) {
        a->stop_worker();
    }
}

WindowWorker::WindowWorker(AgentContext& agent) : agent_(agent), done_(std::make_shared<Done>()) {}

WindowWorker::~WindowWorker() {
    if (thread_.joinable()) {
        thread_.detach();
    }
}

bool WindowWorker::start() noexcept {
    try {
        thread_ = std::thread([this, done = done_] {
            t_on_window_worker = true;
            loop();
            std::lock_guard lock(done->mutex);
            done->done = true;
            done->cv.notify_all();
        });
    } catch (...) {
        return false;
    }
    try {
        register_agent(&agent_);
    } catch (...) {
        // Not stopped at exit without hsa_shut_down: the thread only waits then.
    }
    return true;
}

std::chrono::milliseconds WindowWorker::stop_bound(const Engine& e) {
    // The longest a window can still take once the worker sees `stopping`: a drain check returns at
    // once; a pass in flight is waited for up to the pass timeout, a late one one more slice; then the
    // final restore, whose chunk hashing may wait up to eleven times the hasher's 10 s batch timeout.
    return e.config.pass_timeout + std::chrono::milliseconds(100) + std::chrono::seconds(110) +
           std::chrono::seconds(10);
}

bool WindowWorker::stop() noexcept {
    if (g_forked_child.load(std::memory_order_acquire)) {
        return false; // the thread is the parent's: never waited for, joined or detached here
    }
    try {
        unregister_agent(&agent_);
    } catch (...) {
    }
    if (detached_) {
        return false;
    }
    if (!thread_.joinable()) {
        return true;
    }
    bool finished = false;
    {
        const Engine* e = engine();
        const auto bound = e ? stop_bound(*e) : std::chrono::milliseconds(30000);
        std::unique_lock lock(done_->mutex);
        finished = done_->cv.wait_for(lock, bound, [&] { return done_->done; });
    }
    if (!finished) {
        thread_.detach();
        detached_ = true;
        return false;
    }
    thread_.join();
    return true;
}

void WindowWorker::loop() noexcept {
    Engine* e = engine();
    if (!e) {
        return;
    }
    for (;;) {
        try {
            run(*e);
            return;
        } catch (...) {
            // Out of memory in the worker's own lists: counted; the loop resumes (windows it had taken
            // were released by ReplayWindow, which never throws).
            note_internal_error(*e, "replay window worker (its loop resumes)");
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
}

void WindowWorker::run(Engine& engine_state) {
    Engine* e = &engine_state;
    AgentContext::State& st = agent_.state();
    std::vector<hsa_signal_t> unreferenced;
    std::unique_lock lock(agent_.mutex());
    while (!st.stopping) {
        for (QueueContext* q : st.queues) {
            q->gates.prune(unreferenced);
        }
        for (auto it = st.unfired_fences.begin(); it != st.unfired_fences.end();) {
            if (hsa().core.hsa_signal_load_scacquire_fn(*it) == 0) {
                unreferenced.push_back(*it);
                it = st.unfired_fences.erase(it);
            } else {
                ++it;
            }
        }
        if (!unreferenced.empty()) {
            lock.unlock();
            for (hsa_signal_t s : unreferenced) {
                destroy_signal(s);
            }
            unreferenced.clear();
            lock.lock();
            continue;
        }
        std::shared_ptr<Window> ready, expired;
        const auto now = Clock::now();
        for (auto it = st.pending.begin(); it != st.pending.end(); ++it) {
            if (hsa().core.hsa_signal_load_scacquire_fn((*it)->fence) == 0) {
                ready = *it;
                st.pending.erase(it);
                break;
            }
        }
        if (!ready) {
            for (auto it = st.pending.begin(); it != st.pending.end(); ++it) {
                if (now - (*it)->submitted >= e->config.drain_timeout) {
                    expired = *it;
                    st.pending.erase(it);
                    break;
                }
            }
        }
        if (ready) {
            lock.unlock();
            // The fence completed: nothing references it any more.
            destroy_signal(ready->fence);
            ready->fence.handle = 0;
            ReplayWindow(*e, agent_, ready).run();
            lock.lock();
            continue;
        }
        if (expired) {
            try {
                st.unfired_fences.push_back(expired->fence); // destroyed once it fires
            } catch (...) {
                // Left to the runtime.
            }
            lock.unlock();
            ReplayWindow(*e, agent_, expired).decline_unfenced();
            lock.lock();
            continue;
        }
        if (st.pending.empty()) {
            agent_.wake_condition().wait_for(lock, std::chrono::milliseconds(100));
            continue;
        }
        // Wait (1 ms at most) for the oldest window's fence; only this thread destroys it.
        const std::shared_ptr<Window> oldest = st.pending.front();
        lock.unlock();
        (void)hsa().core.hsa_signal_wait_scacquire_fn(oldest->fence, HSA_SIGNAL_CONDITION_EQ, 0,
                                                      ticks_per_ms(), HSA_WAIT_STATE_BLOCKED);
        lock.lock();
    }
}

} // namespace rs::engine
