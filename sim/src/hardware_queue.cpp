// SPDX-License-Identifier: MIT
#include "hardware_queue.h"

#include "agent.h"
#include "aqlprofile_commands.h"
#include "clock.h"
#include "dispatch_digest.h"
#include "dispatch_geometry.h"
#include "dispatch_log.h"
#include "executable.h"
#include "gws.h"
#include "isa_executor.h"
#include "runtime.h"
#include "sim_signal.h"
#include "standin_registry.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <signal.h>

namespace sim {

namespace {

std::atomic<uint64_t> g_next_queue_id{1};

constexpr uint16_t packet_type(uint16_t header) {
    return header & 0xff;
}
constexpr bool barrier_bit(uint16_t header) {
    return (header >> HSA_PACKET_HEADER_BARRIER) & 1;
}

uint16_t load_header(const void* slot) {
    return __atomic_load_n(static_cast<const uint16_t*>(slot), __ATOMIC_ACQUIRE);
}

} // namespace

void* allocate_packet_ring(uint32_t size) {
    void* ring = std::aligned_alloc(4096, static_cast<size_t>(size) * 64);
    if (!ring) {
        return nullptr;
    }
    std::memset(ring, 0, static_cast<size_t>(size) * 64);
    for (uint32_t i = 0; i < size; ++i) {
        *reinterpret_cast<uint16_t*>(static_cast<char*>(ring) + i * 64ull) = HSA_PACKET_TYPE_INVALID;
    }
    return ring;
}

void free_packet_ring(void* ring) {
    std::free(ring);
}

HardwareQueue::HardwareQueue(Agent* agent, uint32_t size, hsa_queue_type32_t type,
                             void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data)
    : error_callback_(callback), error_data_(data) {
    doorbell_ = new Signal();
    doorbell_->value.store(-1);
    doorbell_->doorbell_of = this;
    header_.queue.type = type;
    header_.queue.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH | HSA_QUEUE_FEATURE_AGENT_DISPATCH;
    header_.queue.base_address = allocate_packet_ring(size);
    header_.queue.doorbell_signal = doorbell_->handle();
    header_.queue.size = size;
    header_.queue.id = g_next_queue_id.fetch_add(1);
    header_.controller = this;
    header_.agent = agent;
    if (type == HSA_QUEUE_TYPE_COOPERATIVE) {
        gws_ = std::make_unique<isa::GwsState>(kCooperativeGwsResources);
    }
    processor_ = std::thread([this] { process(); });
}

HardwareQueue::~HardwareQueue() {
    {
        std::unique_lock lock(mutex_);
        stopping_ = true;
        cv_.notify_all();
    }
    if (processor_.joinable()) {
        processor_.join();
    }
    for (auto& w : workers_) {
        w.join();
    }
    header_.magic = 0;
    doorbell_->doorbell_of = nullptr;
    doorbell_->destroy();
    free_packet_ring(header_.queue.base_address);
}

uint16_t HardwareQueue::slot_header(uint64_t index) const {
    const char* base = static_cast<const char*>(header_.queue.base_address);
    return load_header(base + (index % header_.queue.size) * 64);
}

void HardwareQueue::on_doorbell(int64_t value) {
    std::lock_guard lock(mutex_);
    if (value > announced_) {
        announced_ = value;
    }
    cv_.notify_all();
}

void HardwareQueue::inactivate() {
    std::lock_guard lock(mutex_);
    inactive_ = true;
    cv_.notify_all();
}

bool HardwareQueue::submit(const void* packets, uint64_t count) {
    std::lock_guard writer_lock(submit_mutex_);
    const uint64_t size = header_.queue.size;
    uint64_t write = header_.write_index.load(std::memory_order_acquire);
    do {
        if (write + count - header_.read_index.load(std::memory_order_acquire) > size) {
            return false;
        }
    } while (!header_.write_index.compare_exchange_weak(write, write + count, std::memory_order_acq_rel));
    char* base = static_cast<char*>(header_.queue.base_address);
    const char* src = static_cast<const char*>(packets);
    for (uint64_t i = 0; i < count; ++i) {
        char* slot = base + ((write + i) % size) * 64;
        // Body first, header last with release ordering (HSA 1.2 §2.9.1).
        std::memcpy(slot + 2, src + i * 64 + 2, 62);
        uint16_t h = 0;
        std::memcpy(&h, src + i * 64, 2);
        __atomic_store_n(reinterpret_cast<uint16_t*>(slot), h, __ATOMIC_RELEASE);
    }
    const auto last = static_cast<int64_t>(write + count - 1);
    doorbell_->modify([last](auto& value) {
        value.store(last);
        return last;
    });
    return true;
}

uint64_t HardwareQueue::add_space_listener(std::function<void()> listener) {
    std::lock_guard lock(listeners_mutex_);
    const uint64_t id = next_listener_id_++;
    space_listeners_.emplace_back(id, std::move(listener));
    return id;
}

void HardwareQueue::remove_space_listener(uint64_t id) {
    std::lock_guard lock(listeners_mutex_);
    space_listeners_.erase(std::remove_if(space_listeners_.begin(), space_listeners_.end(),
                                          [id](const auto& l) { return l.first == id; }),
                           space_listeners_.end());
}

void HardwareQueue::notify_space() {
    std::lock_guard lock(listeners_mutex_);
    for (auto& [id, listener] : space_listeners_) {
        listener();
    }
}

void HardwareQueue::fail(hsa_status_t status) {
    {
        std::lock_guard lock(mutex_);
        inactive_ = true;
    }
    if (error_callback_) {
        error_callback_(status, &header_.queue, error_data_);
        return;
    }
    std::fprintf(stderr, "hsa_sim: queue %llu error 0x%x with no error callback: aborting, as ROCr does\n",
                 static_cast<unsigned long long>(header_.queue.id), static_cast<unsigned>(status));
    std::abort();
}

void HardwareQueue::process() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    const uint64_t size = header_.queue.size;
    char* base = static_cast<char*>(header_.queue.base_address);
    std::unique_lock lock(mutex_);
    for (;;) {
        const uint64_t index = header_.read_index.load(std::memory_order_relaxed);
        // Wait for a published packet: announced on the doorbell and its header valid.
        cv_.wait_for(lock, std::chrono::milliseconds(5), [&] {
            return stopping_ || (!inactive_ && announced_ >= static_cast<int64_t>(index) &&
                                 packet_type(slot_header(index)) != HSA_PACKET_TYPE_INVALID);
        });
        if (stopping_) {
            cv_.wait(lock, [&] { return in_flight_ == 0; });
            return;
        }
        if (inactive_ || announced_ < static_cast<int64_t>(index) ||
            packet_type(slot_header(index)) == HSA_PACKET_TYPE_INVALID) {
            continue;
        }
        char* slot = base + (index % size) * 64;
        const uint16_t h = load_header(slot);
        if (barrier_bit(h)) {
            cv_.wait(lock, [&] { return in_flight_ == 0; });
        }
        alignas(64) unsigned char packet[64];
        std::memcpy(packet, slot, 64);
        const auto type = packet_type(h);
        if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
            cv_.wait(lock, [&] { return in_flight_ < kMaxInFlight; });
            ++in_flight_;
            hsa_kernel_dispatch_packet_t dispatch;
            std::memcpy(&dispatch, packet, 64);
            launches_.push_back(dispatch);
            if (idle_workers_ == 0 && workers_.size() < kMaxInFlight) {
                workers_.emplace_back([this] { worker(); });
            }
            cv_.notify_all();
        } else if (type == HSA_PACKET_TYPE_BARRIER_AND || type == HSA_PACKET_TYPE_BARRIER_OR) {
            hsa_barrier_and_packet_t barrier;
            std::memcpy(&barrier, packet, 64);
            lock.unlock();
            const uint64_t start = now_ns();
            // AND: every non-null dependency reaches 0. OR: any one does (a packet with none completes at
            // once).
            std::vector<Signal*> deps;
            for (auto d : barrier.dep_signal) {
                if (Signal* s = Signal::from(d)) {
                    deps.push_back(s);
                }
            }
            if (type == HSA_PACKET_TYPE_BARRIER_AND) {
                for (Signal* s : deps) {
                    while (s->wait(HSA_SIGNAL_CONDITION_EQ, 0, 5'000'000) != 0) {
                        std::lock_guard check(mutex_);
                        if (stopping_) {
                            break;
                        }
                    }
                }
            } else if (!deps.empty()) {
                for (bool done = false; !done;) {
                    uint64_t epoch = SignalMonitor::instance().epoch();
                    for (Signal* s : deps) {
                        done = done || s->value.load() == 0;
                    }
                    std::lock_guard check(mutex_);
                    if (done || stopping_) {
                        break;
                    }
                    SignalMonitor::instance().wait_for_change(epoch, now_ns() + 5'000'000);
                }
            }
            // Consume the slot before signalling completion.
            __atomic_store_n(reinterpret_cast<uint16_t*>(slot),
                             static_cast<uint16_t>(HSA_PACKET_TYPE_INVALID), __ATOMIC_RELEASE);
            header_.read_index.store(index + 1, std::memory_order_release);
            complete(barrier.completion_signal, start, now_ns());
            notify_space();
            lock.lock();
            continue;
        } else if (type == HSA_PACKET_TYPE_VENDOR_SPECIFIC && packet[2] == kAmdAqlFormatPm4Ib) {
            // An aqlprofile START / STOP / READ packet. Its PM4 commands begin by waiting for the
            // dispatches before it to finish (aqlprofile writes a wait-for-idle first), so the counters
            // see whole dispatches.
            cv_.wait(lock, [&] { return in_flight_ == 0; });
            lock.unlock();
            const uint64_t start = now_ns();
            std::string error;
            if (!header_.agent || !execute_profile_packet(packet, *header_.agent, error)) {
                std::fprintf(stderr, "hsa_sim: queue %llu: %s\n",
                             static_cast<unsigned long long>(header_.queue.id),
                             header_.agent ? error.c_str() : "a PM4 packet on a queue without an agent");
                fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
                lock.lock();
                continue;
            }
            hsa_signal_t completion;
            std::memcpy(&completion, packet + 56, sizeof(completion));
            __atomic_store_n(reinterpret_cast<uint16_t*>(slot),
                             static_cast<uint16_t>(HSA_PACKET_TYPE_INVALID), __ATOMIC_RELEASE);
            header_.read_index.store(index + 1, std::memory_order_release);
            complete(completion, start, now_ns());
            notify_space();
            lock.lock();
            continue;
        } else if (type == HSA_PACKET_TYPE_VENDOR_SPECIFIC &&
                   packet[2] == HSA_AMD_PACKET_TYPE_BARRIER_VALUE) {
            hsa_amd_barrier_value_packet_t barrier;
            std::memcpy(&barrier, packet, 64);
            Signal* watched = Signal::from(barrier.signal);
            if (!watched) {
                lock.unlock();
                fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
                lock.lock();
                continue;
            }
            lock.unlock();
            const uint64_t start = now_ns();
            if (!wait_barrier_value(*watched, barrier)) {
                lock.lock();
                continue; // the queue is being destroyed: the packet never completes
            }
            __atomic_store_n(reinterpret_cast<uint16_t*>(slot),
                             static_cast<uint16_t>(HSA_PACKET_TYPE_INVALID), __ATOMIC_RELEASE);
            header_.read_index.store(index + 1, std::memory_order_release);
            complete(barrier.completion_signal, start, now_ns());
            notify_space();
            lock.lock();
            continue;
        } else {
            lock.unlock();
            fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
            lock.lock();
            continue;
        }
        __atomic_store_n(reinterpret_cast<uint16_t*>(slot), static_cast<uint16_t>(HSA_PACKET_TYPE_INVALID),
                         __ATOMIC_RELEASE);
        header_.read_index.store(index + 1, std::memory_order_release);
        lock.unlock();
        notify_space();
        lock.lock();
    }
}

bool HardwareQueue::wait_barrier_value(Signal& watched, const hsa_amd_barrier_value_packet_t& barrier) {
    const auto condition = static_cast<hsa_signal_condition_t>(barrier.cond);
    auto& monitor = SignalMonitor::instance();
    for (;;) {
        const uint64_t epoch = monitor.epoch();
        if (Signal::satisfied(condition, watched.value.load(std::memory_order_acquire) & barrier.mask,
                              barrier.value)) {
            return true;
        }
        {
            std::lock_guard check(mutex_);
            if (stopping_) {
                return false;
            }
        }
        // Signal changes bump the monitor's epoch; stores through a value pointer do not, so poll those.
        const bool poll = watched.value_exposed.load(std::memory_order_acquire);
        monitor.wait_for_change(epoch, now_ns() + (poll ? Signal::kValuePointerPollNs : 5'000'000));
    }
}

void HardwareQueue::worker() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    std::unique_lock lock(mutex_);
    for (;;) {
        ++idle_workers_;
        cv_.wait(lock, [&] { return stopping_ || !launches_.empty(); });
        --idle_workers_;
        if (launches_.empty()) {
            return;
        }
        hsa_kernel_dispatch_packet_t packet = launches_.front();
        launches_.pop_front();
        lock.unlock();
        run_kernel(packet);
        lock.lock();
        --in_flight_;
        cv_.notify_all();
    }
}

namespace {

/// HSA_SIM_KERNEL_TIME_NS: a dispatch of `kernel` (named by its symbol, with or without ".kd") that started
/// at `start` lasts at least that long.
void wait_min_time(const KernelObject& kernel, uint64_t start) {
    const auto& config = Runtime::instance().config();
    uint64_t min_ns = config.kernel_min_time_ns(kernel.name);
    if (!min_ns && !kernel.symbol_name.empty()) {
        min_ns = config.kernel_min_time_ns(kernel.symbol_name);
    }
    if (min_ns) {
        const uint64_t until = start + min_ns;
        for (uint64_t now = now_ns(); now < until; now = now_ns()) {
            std::this_thread::sleep_for(std::chrono::nanoseconds(until - now));
        }
    }
}

/// What a dispatch run on the host (a stand-in, or a kernel of the simulator's own format) adds to the
/// agent's counters: only its waves and work-groups, from the packet's geometry; no instruction ran on
/// the interpreter, so nothing else is counted (docs/sim-fidelity.md).
void count_host_dispatch(isa::PerfCounters& counters, uint64_t session,
                         const hsa_kernel_dispatch_packet_t& packet) {
    const uint32_t grid[3] = {packet.grid_size_x, packet.grid_size_y, packet.grid_size_z};
    const uint32_t wg[3] = {packet.workgroup_size_x, packet.workgroup_size_y, packet.workgroup_size_z};
    uint64_t groups = 1, waves = 0;
    for (int d = 0; d < 3; ++d) {
        groups *= (std::max<uint32_t>(grid[d], 1) + std::max<uint32_t>(wg[d], 1) - 1) /
                  std::max<uint32_t>(wg[d], 1);
    }
    // Work-groups at the grid's edge may be partial and then have fewer waves: count per group shape.
    uint64_t full[3], last[3], count[3];
    for (int d = 0; d < 3; ++d) {
        const uint32_t g = std::max<uint32_t>(grid[d], 1), w = std::max<uint32_t>(wg[d], 1);
        count[d] = (g + w - 1) / w;
        full[d] = w;
        last[d] = g - (count[d] - 1) * w;
    }
    for (int x = 0; x < 2; ++x) {
        for (int y = 0; y < 2; ++y) {
            for (int z = 0; z < 2; ++z) {
                const uint64_t n = (x ? 1 : count[0] - 1) * (y ? 1 : count[1] - 1) * (z ? 1 : count[2] - 1);
                const uint64_t items =
                    (x ? last[0] : full[0]) * (y ? last[1] : full[1]) * (z ? last[2] : full[2]);
                waves += n * ((items + 63) / 64);
            }
        }
    }
    counters.add_dispatch(session, waves, groups, 0);
}

/// The kernel's symbol name without ".kd", as the dispatch log and digest print it.
std::string dispatch_kernel_name(const KernelObject& kernel) {
    std::string name = kernel.symbol_name.empty() ? kernel.name : kernel.symbol_name;
    if (kernel.symbol_name.empty() && name.size() > 3 && name.compare(name.size() - 3, 3, ".kd") == 0) {
        name.resize(name.size() - 3);
    }
    return name;
}

} // namespace

void HardwareQueue::run_kernel(const hsa_kernel_dispatch_packet_t& packet) {
    std::shared_ptr<KernelObject> kernel = ExecutableRegistry::instance().find_kernel(packet.kernel_object);
    if (!kernel) {
        fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
        return;
    }
    // HSA_SIM_DISPATCH_DIGEST: one dispatch at a time, from its start to its digest line (dispatch_digest.h).
    const bool digest = dispatch_digest_enabled();
    std::unique_lock digest_lock(dispatch_digest_mutex(), std::defer_lock);
    if (digest && dispatch_digest_serialises(dispatch_kernel_name(*kernel))) {
        digest_lock.lock();
    }
    if (!kernel->entry) {
        // A kernel of an AMDGPU ELF code object: the interpreter or its stand-in runs it.
        // A failure is a queue error naming the kernel; the packet never completes.
        const uint64_t start = now_ns();
        std::string error;
        auto cancelled = [this] {
            std::lock_guard check(mutex_);
            return stopping_;
        };
        if (kernel->injected_failure) {
            std::fprintf(stderr, "hsa_sim: queue %llu: kernel %s fails by HSA_SIM_FAIL_KERNEL\n",
                         static_cast<unsigned long long>(header_.queue.id), kernel->symbol_name.c_str());
            fail(HSA_STATUS_ERROR_EXCEPTION);
            return;
        }
        isa::PerfCounters* counters = header_.agent ? &header_.agent->perf_counters : nullptr;
        const uint64_t session = counters ? counters->session() : 0;
        const hsa_status_t st =
            kernel->isa
                ? run_isa_kernel(*kernel, packet, reinterpret_cast<uint64_t>(&header_.queue), gws_.get(),
                                 kGpuComputeUnitCount, counters, cancelled, error)
                : run_code_object_kernel(*kernel, packet, header_.agent ? header_.agent->gpu_index : 0,
                                         header_.agent ? header_.agent->handle().handle : 0, error);
        if (st == HSA_STATUS_INFO_BREAK) {
            return; // abandoned: the queue is being destroyed
        }
        if (st != HSA_STATUS_SUCCESS) {
            std::fprintf(stderr, "hsa_sim: queue %llu: %s\n",
                         static_cast<unsigned long long>(header_.queue.id), error.c_str());
            fail(st);
            return;
        }
        if (!kernel->isa && session) {
            count_host_dispatch(*counters, session, packet);
        }
        wait_min_time(*kernel, start);
        const uint64_t end = now_ns();
        log_dispatch(*kernel, packet, start, end);
        if (digest) {
            if (!digest_lock) {
                digest_lock.lock();
            }
            append_dispatch_digest(dispatch_kernel_name(*kernel), packet, header_.agent);
            digest_lock.unlock();
        }
        complete(packet.completion_signal, start, end);
        return;
    }
    hsa_sim_dispatch_t d{};
    copy_dispatch_geometry(packet, d);
    d.variables = kernel->variables.data();
    d.variable_count = static_cast<uint32_t>(kernel->variables.size());
    d.agent_index = header_.agent ? header_.agent->gpu_index : 0;
    d.agent_handle = header_.agent ? header_.agent->handle().handle : 0;
    isa::PerfCounters* counters = header_.agent ? &header_.agent->perf_counters : nullptr;
    const uint64_t session = counters ? counters->session() : 0;
    const uint64_t start = now_ns();
    kernel->entry(&d);
    if (session) {
        count_host_dispatch(*counters, session, packet);
    }
    wait_min_time(*kernel, start);
    const uint64_t end = now_ns();
    log_dispatch(*kernel, packet, start, end);
    if (digest) {
        if (!digest_lock) {
            digest_lock.lock();
        }
        append_dispatch_digest(dispatch_kernel_name(*kernel), packet, header_.agent);
        digest_lock.unlock();
    }
    complete(packet.completion_signal, start, end);
}

void HardwareQueue::log_dispatch(const KernelObject& kernel, const hsa_kernel_dispatch_packet_t& packet,
                                 uint64_t start, uint64_t end) {
    if (Runtime::instance().config().dispatch_log_path.empty()) {
        return;
    }
    DispatchLogRecord r;
    r.queue_id = header_.queue.id;
    r.agent_index = header_.agent ? header_.agent->gpu_index : 0;
    r.type = header_.queue.type;
    {
        std::lock_guard lock(header_.cu_mask_mutex);
        r.cu_mask = header_.cu_mask;
    }
    r.priority = header_.priority.load(std::memory_order_acquire);
    r.kernel = dispatch_kernel_name(kernel);
    r.completion = packet.completion_signal.handle;
    r.start_ns = start;
    r.end_ns = end;
    append_dispatch_log(r);
}

void HardwareQueue::complete(hsa_signal_t completion, uint64_t start, uint64_t end) {
    Signal* s = Signal::from(completion);
    if (!s) {
        return;
    }
    if (header_.profiling.load(std::memory_order_acquire)) {
        s->dispatch_start.store(start, std::memory_order_relaxed);
        s->dispatch_end.store(end, std::memory_order_release);
    }
    s->modify([](auto& value) { return value.fetch_sub(1, std::memory_order_acq_rel) - 1; });
}

} // namespace sim
