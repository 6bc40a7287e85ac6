// SPDX-License-Identifier: MIT
// The few HIP device-side names chunk_hash.hip uses, for its device-only compile (clang -x hip
// --cuda-device-only -nogpuinc -nogpulib): no ROCm headers or device libraries are needed at build time.
// Work-item and work-group ids and the barrier map to the AMDGPU builtins (LLVM AMDGPUUsage, "AMDGPU
// builtins"; clang's __builtin_amdgcn_* as HIP's own headers use them).
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

#define __launch_bounds__(threads) __attribute__((amdgpu_flat_work_group_size(1, threads)))

namespace rs_device {
__device__ inline unsigned work_item_id_x() {
    return __builtin_amdgcn_workitem_id_x();
}
__device__ inline unsigned work_group_id_x() {
    return __builtin_amdgcn_workgroup_id_x();
}
/// Work-group barrier with work-group-scope release/acquire of LDS and global memory (what HIP's
/// __syncthreads does).
__device__ inline void barrier() {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
} // namespace rs_device
