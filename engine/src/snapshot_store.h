// SPDX-License-Identifier: MIT
// Where one agent's snapshot copies live between windows: a page-locked host store and a device store of
// coarse-grained memory of the agent itself, both allocated by the engine through the saved originals
// (hsa()), so never tracked and never in the inventory (docs/mechanism.md#snapshot-stores). The lock a
// window holds from its snapshot to its last restore, and the reclaim of the device store when the
// application runs out of device memory, are argued in docs/replay-window.md#snapshot-stores.
#pragma once

#include <hsa.h>
#include <hsa_ext_amd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace rs::engine {

/// Where a region's snapshot copy lives.
enum class StoreKind : uint8_t { host = 0, device = 1 };

/// The host memory of one agent's snapshots, kept between windows (one block, reused while it fits).
/// Page-locked when possible, so no hsa_memory_copy to or from it pins and unpins pages per call:
/// 1. allocated from the CPU agent's system memory pool (the coarse-grained system pool when the runtime
///    has one, else the fine-grained one; never the kernarg pool) through the saved original
///    hsa_amd_memory_pool_allocate and made accessible to the agent (hsa_amd_agents_allow_access);
/// 2. when that fails, plain host memory registered with hsa_amd_memory_lock for the agent;
/// 3. when that fails too, pageable memory (aligned operator new, std::nothrow): pinned() false,
///    pin_failure() says why (reported once per agent by the caller).
/// The page-locked blocks of every host store of the process together never exceed pin_limit() (a quarter
/// of physical memory): a block that would go beyond it is pageable from the start (step 3), so that the
/// snapshots never lock so much memory that the application and the kernel run short of it.
/// Worker thread of the agent, under AgentStores::lock().
class HostStore {
  public:
    explicit HostStore(hsa_agent_t agent) : agent_(agent) {}
    ~HostStore();
    HostStore(const HostStore&) = delete;
    HostStore& operator=(const HostStore&) = delete;

    /// A block of at least `bytes` bytes (contents undefined), or nullptr when no host memory could be
    /// had at all. Reallocates when too small, or when more than four times too large and above 64 MiB
    /// (memory goes back after a large snapshot); the old block is freed first. Invalidates earlier
    /// blocks.
    std::byte* reserve(uint64_t bytes) noexcept;
    /// The current block as the agent addresses it: hand `agent_block() + offset` to hsa_memory_copy so
    /// that the runtime finds the locked range and does not pin the pages again. Equal to the block for
    /// pool and pageable memory; hsa_amd_memory_lock's agent pointer, which may differ from the host
    /// address, for locked memory (ROCr 5.2.3 core/runtime/amd_memory_region.cpp MemoryRegion::Lock).
    /// The CPU reads and writes the block through reserve()'s pointer.
    std::byte* agent_block() const { return agent_block_; }
    /// Bytes of the current block (0 when none).
    uint64_t capacity() const { return capacity_; }
    /// The current block is page-locked (pool memory or registered with hsa_amd_memory_lock).
    bool pinned() const { return kind_ == Kind::pool || kind_ == Kind::locked; }
    /// Why the last block is pageable: user-facing text naming the refused calls; "" when pinned or when
    /// no block was allocated.
    std::string_view pin_failure() const { return pin_failure_; }
    /// Frees the block (through the saved originals; OnUnload while the runtime is up).
    void release() noexcept;

    /// Bytes the host stores of this process may keep page-locked together: a quarter of the machine's
    /// physical memory (sysconf _SC_PHYS_PAGES x _SC_PAGESIZE), unless set_pin_limit() set another. Any
    /// thread.
    static uint64_t pin_limit() noexcept;
    /// Replaces pin_limit() (bytes; 0 restores the default). For tests. Any thread; applies to blocks
    /// reserved afterwards.
    static void set_pin_limit(uint64_t bytes) noexcept;
    /// Bytes the host stores of this process hold page-locked now. Any thread.
    static uint64_t pinned_total() noexcept;

  private:
    enum class Kind : uint8_t { none, pool, locked, pageable };
    hsa_agent_t agent_;
    std::byte* block_ = nullptr;
    std::byte* agent_block_ = nullptr;
    uint64_t capacity_ = 0;
    uint64_t pinned_bytes_ = 0; ///< counted in pinned_total() (whole pages)
    Kind kind_ = Kind::none;
    std::string pin_failure_;
};

/// Device memory of one agent's snapshots: coarse-grained memory of the agent's own pool, allocated by
/// the engine through the saved original (invisible to the application and the inventory), kept between
/// windows and given back when the application runs out of device memory (AgentStores::reclaim_device).
/// available() and reserve(): worker thread, under AgentStores::lock(); capacity() from any thread.
class DeviceStore {
  public:
    explicit DeviceStore(hsa_agent_t agent) : agent_(agent) {}
    ~DeviceStore();
    DeviceStore(const DeviceStore&) = delete;
    DeviceStore& operator=(const DeviceStore&) = delete;

    /// Bytes the store may hold now: the agent's free device memory, plus what the store already holds,
    /// minus `reserve` (bytes left to the application). The free memory is HSA_AMD_AGENT_INFO_MEMORY_AVAIL
    /// (0xA015) when the runtime answers it (ROCr 6.x); otherwise (ROCr 5.2.3 has no such attribute) the
    /// coarse-grained pool's size minus `tracked_bytes` (bytes of the agent's tracked and watched
    /// allocations) minus what the store holds. 0 when the result is negative or the agent has no
    /// coarse-grained pool.
    uint64_t available(uint64_t reserve, uint64_t tracked_bytes) noexcept;
    /// Device address of a block of at least `bytes` bytes (contents undefined), or nullptr when the
    /// agent has no coarse-grained pool or the allocation fails. The same reuse and shrink rules as
    /// HostStore::reserve; the old block is freed before a new one is allocated.
    std::byte* reserve(uint64_t bytes) noexcept;
    /// Bytes the store holds (0 when none). Any thread.
    uint64_t capacity() const { return capacity_.load(std::memory_order_acquire); }
    /// Frees the block.
    void release() noexcept;

  private:
    bool find_pool() noexcept;
    hsa_agent_t agent_;
    bool pool_searched_ = false;
    hsa_amd_memory_pool_t pool_{0};
    uint64_t pool_size_ = 0;
    std::byte* block_ = nullptr;
    std::atomic<uint64_t> capacity_{0};
};

/// Both stores of one agent and the lock a window holds from its snapshot to its last restore.
class AgentStores {
  public:
    explicit AgentStores(hsa_agent_t agent) : host_(agent), device_(agent) {}

    /// Use only with lock() held.
    HostStore& host() { return host_; }
    /// Use only with lock() held (capacity() excepted).
    DeviceStore& device() { return device_; }
    /// Held by a window from its snapshot to its last restore (worker thread), and briefly by
    /// reclaim_device and release().
    std::timed_mutex& lock() { return lock_; }

    /// Frees the device store when no window holds it. Called by the allocation wrappers (any
    /// application thread) after the runtime refused an allocation from a pool of this agent; true when
    /// memory was given back (the wrapper then retries the allocation once). False at once when the store
    /// holds nothing. Tries the lock once without waiting; when a window holds it, raises the reclaim
    /// request (reclaim_requested()) so that the window stops replaying after its current pass, and waits
    /// at most `wait` for it to let go; false when the lock could not be had within `wait`.
    bool reclaim_device(std::chrono::milliseconds wait) noexcept;
    /// True while some allocation wrapper waits in reclaim_device for the lock: the window holding it
    /// runs no further pass (its final restore still runs) and lets go (docs/replay-window.md, "Snapshot
    /// stores"). Any thread.
    bool reclaim_requested() const { return reclaim_waiters_.load(std::memory_order_acquire) != 0; }
    /// Frees both stores (OnUnload, worker stopped).
    void release() noexcept;
    /// release() for a caller that holds lock().
    void release_locked() noexcept;

  private:
    std::timed_mutex lock_;
    std::atomic<uint32_t> reclaim_waiters_{0};
    HostStore host_;
    DeviceStore device_;
};

} // namespace rs::engine
