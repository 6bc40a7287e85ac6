// SPDX-License-Identifier: MIT
#include "allocation_classifier.h"

#include "hsa_api.h"

namespace rs::engine {

Classification AllocationClassifier::classify(const void* ptr, uint64_t size, uint32_t allocate_flags,
                                              uint32_t pool_flags) const {
    Classification c;
    c.size = size;
    c.pool_flags = pool_flags;
    // HIP's kernarg pools and profiler buffers live in coarse memory with this flag: filter first.
    if (allocate_flags & kExecutableAllocationFlag) {
        c.classification = AllocationClass::excluded_executable;
        return c;
    }
    hsa_amd_pointer_info_t info{};
    info.size = sizeof(info);
    if (hsa().amd.hsa_amd_pointer_info_fn(ptr, &info, nullptr, nullptr, nullptr) != HSA_STATUS_SUCCESS ||
        info.type == HSA_EXT_POINTER_TYPE_UNKNOWN) {
        c.classification = AllocationClass::excluded_unknown_pointer;
        return c;
    }
    switch (info.type) {
    case HSA_EXT_POINTER_TYPE_HSA:
        c.pointer_type = PointerType::hsa;
        break;
    case HSA_EXT_POINTER_TYPE_LOCKED:
        c.pointer_type = PointerType::locked;
        break;
    case HSA_EXT_POINTER_TYPE_GRAPHICS:
        c.pointer_type = PointerType::graphics;
        break;
    case HSA_EXT_POINTER_TYPE_IPC:
        c.pointer_type = PointerType::ipc;
        break;
    default:
        c.pointer_type = PointerType::unknown;
        break;
    }
    c.agent = info.agentOwner.handle;
    const uint32_t flags = info.global_flags | pool_flags;
    c.pool_flags = flags;
    if (info.sizeInBytes > c.size) {
        c.size = info.sizeInBytes;
    }
    if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
        c.classification = AllocationClass::excluded_kernarg;
    } else if (info.type == HSA_EXT_POINTER_TYPE_LOCKED || c.agent == 0 ||
               device_type(info.agentOwner) != HSA_DEVICE_TYPE_GPU) {
        c.classification = info.type == HSA_EXT_POINTER_TYPE_HSA || info.type == HSA_EXT_POINTER_TYPE_LOCKED
                               ? AllocationClass::excluded_host
                               : AllocationClass::excluded_not_owned;
    } else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) {
        c.classification = AllocationClass::excluded_fine_grained;
    } else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
        c.classification = AllocationClass::tracked;
    } else {
        c.classification = AllocationClass::excluded_fine_grained;
    }
    return c;
}

} // namespace rs::engine
