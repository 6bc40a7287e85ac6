// SPDX-License-Identifier: MIT
// Simulated agents and their memory pools (also presented as regions for hsa_memory_allocate).
#pragma once

#include <hsa.h>
#include <hsa_ext_amd.h>

#include "isa.h"
#include "perf_counters.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace sim {

struct Agent;

/// A memory pool of an agent. The same object answers as an hsa_region_t (hsa_agent_iterate_regions,
/// hsa_memory_allocate). Memory is host memory; device pools reuse recently freed blocks the way ROCr's
/// fragment allocator does, so a free followed by a smaller allocation can land at the same address.
struct MemoryPool {
    static constexpr uint64_t kMagic = 0x6873615f706f6f6cull; // "hsa_pool"
    uint64_t magic = kMagic;
    Agent* owner = nullptr;
    uint32_t global_flags = 0; ///< hsa_amd_memory_pool_global_flag_t bits
    size_t size = 0;           ///< bytes reported as the pool size
    bool device = false;       ///< owned by a GPU agent
    /// HSA_AMD_MEMORY_POOL_INFO_SEGMENT: GLOBAL for memory pools, GROUP for a GPU agent's LDS pool.
    hsa_amd_segment_t segment = HSA_AMD_SEGMENT_GLOBAL;
    /// HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED: false for the GROUP pool, which only reports LDS.
    bool allocatable = true;
    std::string name;

    /// Returns a block of at least `bytes` (aligned as libhsakmt aligns it, see memory_pool.cpp), reusing a
    /// recently freed one when the request fits it and is at least half its capacity; nullptr when host
    /// memory is exhausted.
    void* take_block(size_t bytes, size_t& capacity);
    /// Returns a block; kept for reuse (up to a small number of blocks), otherwise released.
    void give_back(void* block, size_t capacity);
    /// Releases every cached block (hsa_shut_down).
    void release_cache();
    /// A new block of `capacity` bytes (a multiple of the page size) aligned to `align` bytes (a power of
    /// two from the page to 2 MiB); nullptr when host memory is exhausted. Blocks of 1 MiB and more are
    /// anonymous mappings of their own (memory_pool.cpp).
    static void* allocate_block(size_t capacity, size_t align);
    /// Releases a block allocate_block() returned for the same `capacity`.
    static void release_block(void* block, size_t capacity);

    /// Accounts `bytes` more of this pool's memory (an allocation or a virtual-memory handle). A pool of
    /// a GPU agent draws on the agent's device memory (Agent::device_memory), which its coarse- and
    /// fine-grained pools share as they share VRAM on ROCr; false (nothing accounted) when that would
    /// exceed it. Pools of the CPU agent only count. Thread-safe.
    bool charge(uint64_t bytes);
    /// Gives back what charge() accounted.
    void refund(uint64_t bytes);
    /// Bytes of live allocations and handles of this pool (page-rounded sizes, cached free blocks excluded).
    uint64_t live_bytes() const { return live_bytes_.load(std::memory_order_relaxed); }
    /// Bytes a charge() accounts for an allocation of `bytes`: rounded up to the 4 KiB page.
    static uint64_t charged_size(uint64_t bytes);

    hsa_amd_memory_pool_t pool_handle() const { return {reinterpret_cast<uint64_t>(this)}; }
    hsa_region_t region_handle() const { return {reinterpret_cast<uint64_t>(this)}; }

  private:
    struct CachedBlock {
        void* ptr;
        size_t capacity;
    };
    std::mutex cache_mutex_;
    std::vector<CachedBlock> cache_; ///< most recent last
    std::atomic<uint64_t> live_bytes_{0};
};

/// A simulated agent: the CPU agent (node 0) or a GPU agent (nodes 1..N).
struct Agent {
    static constexpr uint64_t kMagic = 0x6873615f6167656eull; // "hsa_agen"
    uint64_t magic = kMagic;
    hsa_device_type_t type = HSA_DEVICE_TYPE_CPU;
    uint32_t node = 0;
    uint32_t gpu_index = 0; ///< 0-based among GPU agents
    std::string name;       ///< HSA_AGENT_INFO_NAME
    std::string product_name;
    std::vector<MemoryPool*> pools; ///< owned by the Runtime
    /// Stand-ins for the two HDP flush registers a GPU agent reports through HSA_AMD_AGENT_INFO_HDP_FLUSH
    /// (ROCr maps the real MMIO registers; HIP writes 1 to HDP_MEM_FLUSH_CNTL to flush). Nothing reads them.
    uint32_t hdp_mem_flush_cntl = 0;
    uint32_t hdp_reg_flush_cntl = 0;
    /// hsa_amd_coherency_get/set_type (GPU agents): recorded only, host memory is always coherent here.
    hsa_amd_coherency_type_t coherency = HSA_AMD_COHERENCY_TYPE_COHERENT;

    /// Device memory of a GPU agent in bytes (HSA_SIM_DEVICE_MEMORY, default 16 GiB; 0 for the CPU): the
    /// size each of its global pools reports and the most their live allocations may hold together.
    uint64_t device_memory = 0;
    /// Bytes of device memory held by live allocations of the agent's pools (MemoryPool::charge).
    std::atomic<uint64_t> device_memory_used{0};
    /// Device memory not held by live allocations: what HSA_AMD_AGENT_INFO_MEMORY_AVAIL answers.
    /// The GPU agent's hardware performance counters (aqlprofile START/STOP/READ packets; perf_counters.h).
    isa::PerfCounters perf_counters;

    uint64_t device_memory_free() const {
        const uint64_t used = device_memory_used.load(std::memory_order_relaxed);
        return used >= device_memory ? 0 : device_memory - used;
    }

    hsa_agent_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }
    bool is_gpu() const { return type == HSA_DEVICE_TYPE_GPU; }
};

/// Compute units of each GPU agent (HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, an MI210's 104); the
/// interpreter bounds the work-groups of a cooperative dispatch by them.
inline constexpr uint32_t kGpuComputeUnitCount = 104;

/// Size of the GROUP-segment (LDS) pool of each GPU agent: 64 KiB per workgroup on gfx90a, as ROCr reports
/// it (KFD's LDS size, ROCr 5.2.3 src/core/runtime/amd_gpu_agent.cpp InitRegionList).
inline constexpr size_t kGpuGroupSegmentBytes = 64 * 1024;

/// HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY (uint64_t, Hz): named by ROCr headers newer than 5.2.3, answered by
/// the simulator on every header generation (a documented difference, docs/sim-fidelity.md).
inline constexpr int kAgentInfoTimestampFrequency = 0xA016;
/// Timestamp frequency the simulated GPU agents report through that attribute.
inline constexpr uint64_t kGpuTimestampFrequency = 100'000'000ull;

} // namespace sim
