// SPDX-License-Identifier: MIT
#include "agent.h"
#include "dispatch_digest.h"

#include <sys/mman.h>

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
/// Blocks of at least this many bytes are anonymous mappings of their own, as KFD maps device memory:
/// their pages cost nothing until touched and go back to the kernel at once when released. From the
/// host heap, the sanitizers' allocators would shadow a 16 GiB block at a cost of seconds (AddressSanitizer
/// poisons its shadow when mapping it, ThreadSanitizer walks its metadata when freeing it), which the
/// engine's timing tests would count as the engine's.
constexpr size_t kMappedBlock = size_t{1} << 20;
} // namespace

void* MemoryPool::allocate_block(size_t capacity, size_t align) {
    if (capacity < kMappedBlock) {
        // posix_memalign, not aligned_alloc: the size need not be a multiple of the alignment (C11's
        // aligned_alloc requires it, and the sanitizers' allocators refuse it otherwise).
        void* p = nullptr;
        return posix_memalign(&p, align, capacity) == 0 ? p : nullptr;
    }
    // Map `align - kPage` bytes more and unmap what lies before the first aligned address and after the
    // block (mmap returns page-aligned addresses).
    const size_t span = capacity + align - kPage;
    void* m = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        return nullptr;
    }
    const auto base = reinterpret_cast<uintptr_t>(m);
    const uintptr_t start = (base + align - 1) / align * align;
    if (start > base) {
        munmap(m, start - base);
    }
    if (const uintptr_t end = base + span; end > start + capacity) {
        munmap(reinterpret_cast<void*>(start + capacity), end - start - capacity);
    }
    return reinterpret_cast<void*>(start);
}

void MemoryPool::release_block(void* block, size_t capacity) {
    if (capacity < kMappedBlock) {
        std::free(block);
    } else {
        munmap(block, capacity);
    }
}

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
    void* p = allocate_block(want, align);
    capacity = p ? want : 0;
    // HSA_SIM_DISPATCH_DIGEST hashes whole allocations, bytes no kernel wrote included: a fresh block
    // starts zeroed rather than with whatever the host heap held, which differs from run to run. A
    // mapped block is zero already, and writing it would commit every page.
    if (p && device && want < kMappedBlock && dispatch_digest_enabled()) {
        std::memset(p, 0, want);
    }
    return p;
}

void MemoryPool::give_back(void* block, size_t capacity) {
    if (!device) {
        release_block(block, capacity);
        return;
    }
    std::lock_guard lock(cache_mutex_);
    cache_.push_back({block, capacity});
    if (cache_.size() > kMaxCachedBlocks) {
        release_block(cache_.front().ptr, cache_.front().capacity);
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
        release_block(b.ptr, b.capacity);
    }
    cache_.clear();
}

} // namespace sim
