// SPDX-License-Identifier: MIT
/*
 * hip/hip_cooperative_groups.h for host stand-ins: the work-group level only. A thread block's sync() is
 * __syncthreads(); grid-wide sync and tiled partitions fail the dispatch with an error naming them.
 */
#ifndef HSA_SIM_STANDIN_HIP_COOPERATIVE_GROUPS_H
#define HSA_SIM_STANDIN_HIP_COOPERATIVE_GROUPS_H

#include <hip/hip_runtime.h>

namespace cooperative_groups {

/** The calling work-item's work-group. */
class thread_block {
  public:
    void sync() const { __syncthreads(); }
    unsigned thread_rank() const {
        return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    }
    unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    dim3 group_index() const { return blockIdx; }
    dim3 thread_index() const { return threadIdx; }
};

/** The whole grid: its sync() needs every work-group resident at once, which stand-ins do not provide. */
class grid_group {
  public:
    void sync() const { ::hsa_sim::unsupported("cooperative_groups::grid_group::sync (grid-wide barrier)"); }
    bool is_valid() const { return false; }
    unsigned long long size() const {
        return 1ull * gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
    }
};

inline thread_block this_thread_block() {
    return {};
}
inline grid_group this_grid() {
    return {};
}
inline void sync(const thread_block& g) {
    g.sync();
}
inline void sync(const grid_group& g) {
    g.sync();
}

template <class Group>
inline thread_block tiled_partition(const Group&, unsigned) {
    ::hsa_sim::unsupported("cooperative_groups::tiled_partition (wavefront-level groups)");
}

} // namespace cooperative_groups

#endif
