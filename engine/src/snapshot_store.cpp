// SPDX-License-Identifier: MIT
#include "snapshot_store.h"

#include "hsa_api.h"

#include <unistd.h>

#include <cstdlib>
#include <new>
#include <thread>

namespace rs::engine {

namespace {

/// HSA_AMD_AGENT_INFO_MEMORY_AVAIL: named by ROCr 6.x headers only (hsa_ext_amd.h), answered by ROCr
/// 6.x's GpuAgent::GetInfo (bytes free in the agent's device memory, uint64_t); ROCr 5.2.3 refuses it.
constexpr auto kAgentInfoMemoryAvail = static_cast<hsa_agent_info_t>(0xA015);

/// Blocks below this are never shrunk; above it a block more than four times too large is reallocated.
constexpr uint64_t kShrinkFloor = 64ull << 20;
constexpr uint64_t kPage = 4096;

/// Page-locked bytes of every HostStore of the process, and the cap set by HostStore::set_pin_limit
/// (0: a quarter of physical memory).
std::atomic<uint64_t> g_pinned_total{0};
std::atomic<uint64_t> g_pin_limit{0};

bool needs_new_block(uint64_t bytes, uint64_t capacity) {
    return bytes > capacity || (capacity > kShrinkFloor && bytes < capacity / 4);
}

std::string status_text(hsa_status_t status) {
    const char* text = nullptr;
    if (hsa().core.hsa_status_string_fn &&
        hsa().core.hsa_status_string_fn(status, &text) == HSA_STATUS_SUCCESS && text) {
        return text;
    }
    return hex(static_cast<uint64_t>(status));
}

struct PoolSearch {
    hsa_amd_memory_pool_t coarse{0};
    hsa_amd_memory_pool_t fine{0};
    uint64_t coarse_size = 0;
};

/// Collects a global pool the runtime allocates from: the first coarse-grained one and the first
/// fine-grained one that is not the kernarg pool.
hsa_status_t collect_pool(hsa_amd_memory_pool_t pool, void* data) {
    auto* search = static_cast<PoolSearch*>(data);
    const auto& amd = hsa().amd;
    uint32_t flags = 0;
    if (!allocatable_global_pool(pool, flags)) {
        return HSA_STATUS_SUCCESS;
    }
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) != 0 && search->coarse.handle == 0) {
        search->coarse = pool;
        size_t size = 0;
        if (amd.hsa_amd_memory_pool_get_info_fn(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size) ==
            HSA_STATUS_SUCCESS) {
            search->coarse_size = size;
        }
    } else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) != 0 &&
               (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) == 0 && search->fine.handle == 0) {
        search->fine = pool;
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t find_cpu(hsa_agent_t agent, void* data) {
    if (device_type(agent) != HSA_DEVICE_TYPE_CPU) {
        return HSA_STATUS_SUCCESS;
    }
    *static_cast<hsa_agent_t*>(data) = agent;
    return HSA_STATUS_INFO_BREAK;
}

/// The system pool the host store allocates from: the first CPU agent's coarse-grained pool when it has
/// one, else its fine-grained non-kernarg pool; handle 0 when there is none.
hsa_amd_memory_pool_t system_pool() {
    hsa_agent_t cpu{0};
    (void)hsa().core.hsa_iterate_agents_fn(find_cpu, &cpu);
    if (cpu.handle == 0) {
        return {0};
    }
    PoolSearch search;
    (void)hsa().amd.hsa_amd_agent_iterate_memory_pools_fn(cpu, collect_pool, &search);
    return search.coarse.handle != 0 ? search.coarse : search.fine;
}

} // namespace

// --- HostStore ---------------------------------------------------------------------------------------

HostStore::~HostStore() {
    // A block still held at process exit is left to the process (the runtime may be gone): release()
    // frees it while the runtime is up (OnUnload).
}

std::byte* HostStore::reserve(uint64_t bytes) noexcept {
    if (bytes == 0) {
        bytes = 1;
    }
    if (block_ && !needs_new_block(bytes, capacity_)) {
        return block_;
    }
    release();
    const auto& amd = hsa().amd;
    const uint64_t rounded = (bytes + kPage - 1) / kPage * kPage;
    std::string why;
    // 0. The cap on page-locked memory: beyond it the block is pageable from the start.
    const uint64_t limit = pin_limit();
    const uint64_t already = g_pinned_total.load(std::memory_order_acquire);
    const bool may_pin = rounded <= limit && already <= limit - rounded;
    if (!may_pin) {
        why = "pinning " + std::to_string(rounded) +
              " bytes would take the page-locked host memory of the "
              "snapshot stores (" +
              std::to_string(already) + " bytes now) beyond the cap of " + std::to_string(limit) +
              " bytes (a quarter of physical memory)";
    } else if (hsa_amd_memory_pool_t pool = system_pool(); pool.handle != 0) {
        // 1. Page-locked system memory from the CPU agent's pool, made accessible to the agent.
        void* p = nullptr;
        const hsa_status_t st = amd.hsa_amd_memory_pool_allocate_fn(pool, bytes, 0, &p);
        if (st == HSA_STATUS_SUCCESS && p) {
            const hsa_status_t access = amd.hsa_amd_agents_allow_access_fn(1, &agent_, nullptr, p);
            if (access == HSA_STATUS_SUCCESS) {
                block_ = static_cast<std::byte*>(p);
                agent_block_ = block_;
                capacity_ = bytes;
                kind_ = Kind::pool;
                pinned_bytes_ = rounded;
                g_pinned_total.fetch_add(rounded, std::memory_order_acq_rel);
                pin_failure_.clear();
                return block_;
            }
            (void)amd.hsa_amd_memory_pool_free_fn(p);
            why =
                "hsa_amd_agents_allow_access on the system pool's block failed (" + status_text(access) + ")";
        } else {
            why = "hsa_amd_memory_pool_allocate of " + std::to_string(bytes) +
                  " bytes from the CPU agent's "
                  "system pool failed (" +
                  status_text(st) + ")";
        }
    } else {
        why = "the CPU agent has no system memory pool the runtime allocates from";
    }
    // 2. and 3. Host memory (page-aligned, whole pages) from operator new, so that an exhausted heap
    //    surfaces as it does for every other engine allocation; registered with hsa_amd_memory_lock if
    //    the cap allows.
    void* p = ::operator new(rounded, std::align_val_t{kPage}, std::nothrow);
    if (!p) {
        pin_failure_ = why;
        return nullptr;
    }
    block_ = static_cast<std::byte*>(p);
    capacity_ = bytes;
    void* agent_ptr = nullptr;
    const hsa_status_t lock = may_pin ? amd.hsa_amd_memory_lock_fn(p, rounded, &agent_, 1, &agent_ptr)
                                      : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    if (may_pin && lock == HSA_STATUS_SUCCESS && agent_ptr) {
        agent_block_ = static_cast<std::byte*>(agent_ptr);
        kind_ = Kind::locked;
        pinned_bytes_ = rounded;
        g_pinned_total.fetch_add(rounded, std::memory_order_acq_rel);
        pin_failure_.clear();
    } else {
        agent_block_ = block_;
        kind_ = Kind::pageable;
        pin_failure_ = may_pin ? why + "; hsa_amd_memory_lock failed (" + status_text(lock) + ")" : why;
    }
    return block_;
}

void HostStore::release() noexcept {
    if (block_) {
        switch (kind_) {
        case Kind::pool:
            (void)hsa().amd.hsa_amd_memory_pool_free_fn(block_);
            break;
        case Kind::locked:
            (void)hsa().amd.hsa_amd_memory_unlock_fn(block_);
            ::operator delete(block_, std::align_val_t{kPage});
            break;
        case Kind::pageable:
        case Kind::none:
            ::operator delete(block_, std::align_val_t{kPage});
            break;
        }
    }
    g_pinned_total.fetch_sub(pinned_bytes_, std::memory_order_acq_rel);
    pinned_bytes_ = 0;
    block_ = nullptr;
    agent_block_ = nullptr;
    capacity_ = 0;
    kind_ = Kind::none;
}

uint64_t HostStore::pin_limit() noexcept {
    if (const uint64_t set = g_pin_limit.load(std::memory_order_acquire); set != 0) {
        return set;
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) {
        return UINT64_MAX; // unknown: no cap
    }
    return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 4;
}

void HostStore::set_pin_limit(uint64_t bytes) noexcept {
    g_pin_limit.store(bytes, std::memory_order_release);
}

uint64_t HostStore::pinned_total() noexcept {
    return g_pinned_total.load(std::memory_order_acquire);
}

// --- DeviceStore -------------------------------------------------------------------------------------

DeviceStore::~DeviceStore() {
    // As HostStore: freed by release() while the runtime is up.
}

bool DeviceStore::find_pool() noexcept {
    if (!pool_searched_) {
        pool_searched_ = true;
        PoolSearch search;
        (void)hsa().amd.hsa_amd_agent_iterate_memory_pools_fn(agent_, collect_pool, &search);
        pool_ = search.coarse;
        pool_size_ = search.coarse_size;
    }
    return pool_.handle != 0;
}

uint64_t DeviceStore::available(uint64_t reserve, uint64_t tracked_bytes) noexcept {
    if (!find_pool()) {
        return 0;
    }
    const uint64_t held = capacity();
    uint64_t usable = 0; // free device memory plus what the store holds
    uint64_t free_bytes = 0;
    if (hsa().core.hsa_agent_get_info_fn(agent_, kAgentInfoMemoryAvail, &free_bytes) == HSA_STATUS_SUCCESS) {
        usable = free_bytes + held;
    } else {
        // No free-memory query (ROCr 5.2.3): the pool's size less what the application holds on the
        // agent; the store's own block is part of what is free for it.
        usable = pool_size_ > tracked_bytes ? pool_size_ - tracked_bytes : 0;
    }
    return usable > reserve ? usable - reserve : 0;
}

std::byte* DeviceStore::reserve(uint64_t bytes) noexcept {
    if (bytes == 0) {
        bytes = 1;
    }
    if (block_ && !needs_new_block(bytes, capacity())) {
        return block_;
    }
    release();
    if (!find_pool()) {
        return nullptr;
    }
    // Published before the allocation: an application allocation that fails while this one holds the
    // memory sees a store to reclaim (and waits for the window's lock) rather than nothing.
    capacity_.store(bytes, std::memory_order_release);
    void* p = nullptr;
    if (hsa().amd.hsa_amd_memory_pool_allocate_fn(pool_, bytes, 0, &p) != HSA_STATUS_SUCCESS || !p) {
        capacity_.store(0, std::memory_order_release);
        return nullptr;
    }
    block_ = static_cast<std::byte*>(p);
    return block_;
}

void DeviceStore::release() noexcept {
    if (block_) {
        (void)hsa().amd.hsa_amd_memory_pool_free_fn(block_);
    }
    block_ = nullptr;
    capacity_.store(0, std::memory_order_release);
}

// --- AgentStores -------------------------------------------------------------------------------------

bool AgentStores::reclaim_device(std::chrono::milliseconds wait) noexcept {
    if (device_.capacity() == 0) {
        return false;
    }
    // Polls try_lock() in 1 ms slices rather than try_lock_for(): libstdc++ implements the latter with
    // pthread_mutex_clocklock, which ThreadSanitizer (GCC 12) does not intercept, so it would see the
    // unlock of a mutex it never saw locked. This path runs only after an allocation was refused.
    std::unique_lock lock(lock_, std::defer_lock);
    if (!lock.try_lock()) {
        // A window holds the store: ask it to stop after its current pass, and wait for it.
        reclaim_waiters_.fetch_add(1, std::memory_order_acq_rel);
        const auto deadline = std::chrono::steady_clock::now() + wait;
        bool locked = false;
        while (!(locked = lock.try_lock()) && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        reclaim_waiters_.fetch_sub(1, std::memory_order_acq_rel);
        if (!locked) {
            return false;
        }
    }
    // Under the lock the store is settled (no reserve() in progress): capacity() is the block's size.
    const uint64_t held = device_.capacity();
    device_.release();
    return held != 0;
}

void AgentStores::release() noexcept {
    std::lock_guard lock(lock_);
    release_locked();
}

void AgentStores::release_locked() noexcept {
    host_.release();
    device_.release();
}

} // namespace rs::engine
