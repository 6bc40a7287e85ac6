// SPDX-License-Identifier: MIT
#include "agent.h"

#include <cstdlib>

namespace sim {

namespace {
constexpr size_t kPage = 4096;
constexpr size_t kMaxCachedBlocks = 64;
size_t round_up(size_t n) {
    return (n + kPage - 1) / kPage * kPage;
}
} // namespace

void* MemoryPool::take_block(size_t bytes, size_t& capacity) {
    const size_t want = round_up(bytes == 0 ? 1 : bytes);
    if (device) {
        std::lock_guard lock(cache_mutex_);
        for (auto it = cache_.rbegin(); it != cache_.rend(); ++it) {
            if (it->capacity >= want && want * 2 >= it->capacity) {
                void* p = it->ptr;
                capacity = it->capacity;
                cache_.erase(std::next(it).base());
                return p;
            }
        }
    }
    void* p = std::aligned_alloc(kPage, want);
    capacity = p ? want : 0;
    return p;
}

void MemoryPool::give_back(void* block, size_t capacity) {
    if (!device) {
        std::free(block);
        return;
    }
    std::lock_guard lock(cache_mutex_);
    cache_.push_back({block, capacity});
    if (cache_.size() > kMaxCachedBlocks) {
        std::free(cache_.front().ptr);
        cache_.erase(cache_.begin());
    }
}

uint64_t MemoryPool::charged_size(uint64_t bytes) {
    return round_up(bytes == 0 ? 1 : bytes);
}

bool MemoryPool::charge(uint64_t bytes) {
    if (device && owner) {
        // One budget for the agent: a compare-and-swap so concurrent allocations never overshoot it.
        uint64_t used = owner->device_memory_used.load(std::memory_order_relaxed);
        do {
            if (bytes > owner->device_memory || used > owner->device_memory - bytes) {
                return false;
            }
        } while (
            !owner->device_memory_used.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    }
    live_bytes_.fetch_add(bytes, std::memory_order_relaxed);
    return true;
}

void MemoryPool::refund(uint64_t bytes) {
    live_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
    if (device && owner) {
        owner->device_memory_used.fetch_sub(bytes, std::memory_order_relaxed);
    }
}

void MemoryPool::release_cache() {
    std::lock_guard lock(cache_mutex_);
    for (auto& b : cache_) {
        std::free(b.ptr);
    }
    cache_.clear();
}

} // namespace sim
