// SPDX-License-Identifier: MIT
// Which allocations a snapshot may capture (docs/mechanism.md#what-is-tracked;
// docs/rocm-behaviour.md#memory-classification).
#pragma once

#include "event_sink.h"

#include <hsa.h>
#include <hsa_ext_amd.h>

#include <cstdint>

namespace rs::engine {

/// Executable allocation flag of hsa_amd_memory_pool_allocate (1 << 2; reserved in ROCr 5.2.3, named
/// HSA_AMD_MEMORY_POOL_EXECUTABLE_FLAG in later ROCr).
inline constexpr uint32_t kExecutableAllocationFlag = 1u << 2;

struct Classification {
    AllocationClass classification = AllocationClass::excluded_unknown_pointer;
    PointerType pointer_type = PointerType::unknown;
    uint64_t agent = 0;
    uint32_t pool_flags = 0;
    uint64_t size = 0;
};

/// Keeps coarse-grained, non-kernarg device memory owned by a GPU agent. Excludes, in this order:
/// executable-flagged allocations (from `allocate_flags`, before any pointer query), unknown pointers,
/// kernarg, host (locked, or owned by a CPU agent), fine-grained, anything not coarse-grained.
/// `pool_flags` are the pool's/region's global flags when the caller knows them (0 otherwise).
class AllocationClassifier {
  public:
    Classification classify(const void* ptr, uint64_t size, uint32_t allocate_flags,
                            uint32_t pool_flags) const;
};

} // namespace rs::engine
