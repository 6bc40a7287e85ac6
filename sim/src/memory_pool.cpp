// SPDX-License-Identifier: MIT
#include "agent.h"
#include "dispatch_digest.h"

#include <cstdlib>
#include <cstring>

namespace sim {

namespace {
constexpr size_t kPage = 4096;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kMaxCachedBlocks = 64;
size_t round_up(size_t n) {
    return (n + kPage - 1) / kPage * kPage;
}

/// The alignment of a block of `bytes` (page rounded): the largest power of two not above it, from the
/// page up to the 2 MiB huge page. libhsakmt places every GPU-addressable allocation so ("Align big
/// buffers to the next power-of-2 up to huge page size", ROCT-Thunk-Interface rocm-5.2.3 src/fmm.c,
/// reserved_aperture_allocate_aligned and mmap_aperture_allocate_aligned; HSA_MAX_VA_ALIGN defaults to
/// 2 MiB), and device code relies on it: the device malloc of ockl (ROCm-Device-Libs rocm-5.2.3
/// ockl/src/dm.cl) takes 2 MiB slabs from the runtime (hostcall SERVICE_DEVMEM, which ROCclr serves with
/// a buffer of that size) and finds the slab of a block it frees by clearing the address's low 21 bits.
/// For sizes that are no multiple of the alignment the reserved aperture aligns the block's end instead;
/// the simulator aligns the start in every case.
size_t block_alignment(size_t bytes) {
    size_t align = kPage;
    while (align < kHugePage && bytes >= align << 1) {
        align <<= 1;
    }
    return align;
}
} // namespace

void* MemoryPool::take_block(size_t bytes, size_t& capacity) {
    const size_t want = round_up(bytes == 0 ? 1 : bytes);
    const size_t align = block_alignment(want);
    if (device) {
        std::lock_guard lock(cache_mutex_);
        for (auto it = cache_.rbegin(); it != cache_.rend(); ++it) {
            if (it->capacity >= want && want * 2 >= it->capacity &&
                reinterpret_cast<uintptr_t>(it->ptr) % align == 0) {
                void* p = it->ptr;
                capacity = it->capacity;
                cache_.erase(std::next(it).base());
                return p;
            }
        }
    }
    void* p = std::aligned_alloc(align, want);
    capacity = p ? want : 0;
    // HSA_SIM_DISPATCH_DIGEST hashes whole allocations, bytes no kernel wrote included: a fresh block
    // starts zeroed rather than with whatever the host heap held, which differs from run to run.
    if (p && device && dispatch_digest_enabled()) {
        std::memset(p, 0, want);
    }
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
