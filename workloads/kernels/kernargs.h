// SPDX-License-Identifier: MIT
// Kernarg layouts shared by the workload programs (which fill them) and their simulated code objects
// (whose kernels read them). Each struct is copied verbatim into kernarg-pool memory; the code objects
// declare sizeof(struct) as the kernel's kernarg segment size.
//
// On a real GPU a kernarg cannot carry a host function pointer. The simulator runs kernels as host
// code, so the buffer-lifetime workloads pass host callbacks this way: the kernel libraries then need no
// link to the HSA runtime, while the frees and allocations still go through the real API entry points.
#ifndef RS_WORKLOADS_KERNELS_KERNARGS_H
#define RS_WORKLOADS_KERNELS_KERNARGS_H

#include <cstdint>

namespace rs::workloads {

/** vector_add.kd: c[i] = a[i] + b[i] for i < n. */
struct VectorAddArgs {
    const float* a;
    const float* b;
    float* c;
    uint32_t n;
};

/** accumulate.kd: data[i] += 1 for i < n (in place, not idempotent). */
struct AccumulateArgs {
    uint32_t* data;
    uint32_t n;
};

/** accumulate_indirect.kd: (*table)[i] += 1 for i < n: the buffer's address is read from memory, so the
 *  kernarg segment holds no pointer into it. */
struct AccumulateIndirectArgs {
    uint32_t* const* table;
    uint32_t n;
};

/** fill.kd: data[i] = value + i for i < n. */
struct FillArgs {
    uint32_t* data;
    uint32_t n;
    uint32_t value;
};

/** count_dispatch.kd: adds `increment` to the `__device__` variable dispatch_counter, once per dispatch. */
struct CountDispatchArgs {
    uint32_t increment;
};

/** table_lookup.kd: out[i] = lookup_table[i % 64] for i < n (lookup_table is a `__constant__` uint32[64]). */
struct TableLookupArgs {
    uint32_t* out;
    uint32_t n;
};

/** Host callback freeing a device allocation; returns an hsa_status_t (0 = success). */
using FreeCallback = int32_t (*)(void* ptr);
/** Host callback allocating `bytes` from memory pool `pool_handle` into `*ptr`; returns an hsa_status_t. */
using AllocateCallback = int32_t (*)(uint64_t pool_handle, uint64_t bytes, void** ptr);

/**
 * free_during_kernel.kd: reads all n values of `buffer`, writes out[i] = 2 * buffer[i] for the first half,
 * frees `buffer` through `free_buffer` (ignoring a failure: a replayed run frees it a second time), then
 * writes the second half from the values it read.
 */
struct FreeDuringKernelArgs {
    uint32_t* buffer;
    uint32_t* out;
    uint32_t n;
    FreeCallback free_buffer;
};

/** What realloc_smaller.kd reports back (written to device memory). */
struct ReallocResult {
    void* new_buffer;        ///< the replacement allocation, or null if allocating failed
    int32_t free_status;     ///< status of freeing the old buffer
    int32_t allocate_status; ///< status of allocating the new one
};

/**
 * realloc_smaller.kd: reads the n values of `buffer`, frees it, allocates `new_n` (< n) uint32 from the
 * pool `pool_handle`, writes new_buffer[i] = old[i] + 1 for i < new_n and reports into `*result`.
 */
struct ReallocSmallerArgs {
    uint32_t* buffer;
    uint32_t n;
    uint32_t new_n;
    uint64_t pool_handle;
    FreeCallback free_buffer;
    AllocateCallback allocate;
    ReallocResult* result;
};

} // namespace rs::workloads

#endif // RS_WORKLOADS_KERNELS_KERNARGS_H
