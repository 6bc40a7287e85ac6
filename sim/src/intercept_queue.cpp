// SPDX-License-Identifier: MIT
#include "intercept_queue.h"

#include "runtime.h"
#include "sim_signal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace sim {

thread_local InterceptQueue::Invocation* InterceptQueue::current = nullptr;

InterceptQueue::InterceptQueue(Agent* agent, uint32_t size, hsa_queue_type32_t type,
                               void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data) {
    if (type == HSA_QUEUE_TYPE_COOPERATIVE) {
        hardware_ = Runtime::instance().acquire_cooperative_queue(agent, callback, data);
    } else {
        owned_ = std::make_unique<HardwareQueue>(agent, size, type, callback, data);
        hardware_ = owned_.get();
    }
    multiple_writer_calls_ = Runtime::instance().config().multiple_writer_calls;
    doorbell_ = new Signal();
    doorbell_->value.store(-1);
    doorbell_->doorbell_of = this;
    header_.controller = this;
    header_.agent = agent;
    if (!hardware_) {
        header_.queue.doorbell_signal = doorbell_->handle();
        return; // valid() is false: creation fails
    }
    // Same type, features, size and id as the lower queue (ROCr's QueueWrapper copies its amd_queue_t).
    header_.queue = hardware_->header().queue;
    header_.queue.base_address = allocate_packet_ring(header_.queue.size);
    header_.queue.doorbell_signal = doorbell_->handle();
    space_listener_ = hardware_->add_space_listener([this] { drain_overflow(); });
}

InterceptQueue::~InterceptQueue() {
    {
        std::lock_guard lock(liveness_->mutex);
        liveness_->alive = false;
    }
    if (hardware_) {
        hardware_->remove_space_listener(space_listener_);
        if (!owned_) {
            Runtime::instance().release_cooperative_queue(header_.agent);
        }
    }
    owned_.reset();
    hardware_ = nullptr;
    header_.magic = 0;
    doorbell_->doorbell_of = nullptr;
    doorbell_->destroy();
    free_packet_ring(header_.queue.base_address);
}

void InterceptQueue::add_handler(hsa_amd_queue_intercept_handler handler, void* data) {
    std::lock_guard lock(lock_);
    handlers_.push_back({handler, data});
}

void InterceptQueue::inactivate() {
    hardware_->inactivate();
}

void InterceptQueue::on_doorbell(int64_t value) {
    if (current != nullptr) {
        // A store from inside a handler on this thread would re-enter the proxy lock: ROCr defers it.
        Runtime::instance().doorbell_deferral().post([this, value, liveness = liveness_] {
            std::lock_guard lock(liveness->mutex);
            if (liveness->alive) {
                process_published(value);
            }
        });
        return;
    }
    process_published(value);
}

void InterceptQueue::process_published(int64_t announced) {
    std::lock_guard lock(lock_);
    const uint64_t size = header_.queue.size;
    char* base = static_cast<char*>(header_.queue.base_address);
    for (;;) {
        const uint64_t index = header_.read_index.load(std::memory_order_acquire);
        if (static_cast<int64_t>(index) > announced) {
            break;
        }
        char* slot = base + (index % size) * 64;
        const uint16_t h = __atomic_load_n(reinterpret_cast<uint16_t*>(slot), __ATOMIC_ACQUIRE);
        if ((h & 0xff) == HSA_PACKET_TYPE_INVALID) {
            break;
        }
        alignas(64) unsigned char packet[64];
        std::memcpy(packet, slot, 64);
        if (handlers_.empty()) {
            forward_to_hardware(packet, 1);
        } else {
            Invocation inv{this, index, static_cast<int>(handlers_.size()) - 1,
                           std::vector<bool>(handlers_.size(), false)};
            Invocation* outer = current;
            current = &inv;
            const Handler& top = handlers_.back();
            top.fn(packet, 1, index, top.data, &InterceptQueue::writer);
            current = outer;
        }
        __atomic_store_n(reinterpret_cast<uint16_t*>(slot), static_cast<uint16_t>(HSA_PACKET_TYPE_INVALID),
                         __ATOMIC_RELEASE);
        header_.read_index.store(index + 1, std::memory_order_release);
    }
}

void InterceptQueue::writer(const void* packets, uint64_t count) {
    Invocation* inv = current;
    if (!inv) {
        std::fprintf(stderr,
                     "hsa_sim: intercept queue writer called outside a handler invocation: aborting\n");
        std::abort();
    }
    InterceptQueue* q = inv->queue;
    const int level = inv->level;
    if (level < 0 || (!q->multiple_writer_calls_ && inv->writer_used[static_cast<size_t>(level)])) {
        std::fprintf(stderr,
                     "hsa_sim: intercept handler called the packet writer a second time in one invocation "
                     "(packet %llu). ROCr 5.2.3 allows one writer call per invocation: the second walks past "
                     "the handler list (fixed in ROCm 6.0). Aborting.\n",
                     static_cast<unsigned long long>(inv->user_packet_index));
        std::abort();
    }
    inv->writer_used[static_cast<size_t>(level)] = true;
    if (level == 0) {
        q->forward_to_hardware(packets, count);
    } else {
        inv->level = level - 1;
        const Handler& next = q->handlers_[static_cast<size_t>(level - 1)];
        next.fn(packets, count, inv->user_packet_index, next.data, &InterceptQueue::writer);
    }
    // ROCr 6.x restores the walk so the same handler may write again; 5.2.3 does not.
    if (q->multiple_writer_calls_) {
        inv->level = level;
    }
}

void InterceptQueue::forward_to_hardware(const void* packets, uint64_t count) {
    std::lock_guard lock(overflow_mutex_);
    if (overflow_.empty() && hardware_->submit(packets, count)) {
        return;
    }
    // Ring full (or earlier packets still stashed): keep order by stashing behind them.
    const auto* bytes = static_cast<const unsigned char*>(packets);
    for (uint64_t i = 0; i < count; ++i) {
        overflow_.emplace_back(bytes + i * 64, bytes + (i + 1) * 64);
    }
}

void InterceptQueue::drain_overflow() {
    std::lock_guard lock(overflow_mutex_);
    while (!overflow_.empty() && hardware_->submit(overflow_.front().data(), 1)) {
        overflow_.pop_front();
    }
}

} // namespace sim
