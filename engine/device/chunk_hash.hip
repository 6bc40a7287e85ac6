// SPDX-License-Identifier: MIT
// The chunk-hash kernel of dirty-chunk restore (docs/mechanism.md, "Dirty-chunk hashing"), shipped in the
// engine as AMDGPU code objects (engine/device/CMakeLists.txt) and executed on the simulated runtime by
// its host stand-in (chunk_hash_standin.cpp, the same math).
//
// Kernel arguments (kernarg segment, 8-byte aligned):
//   offset 0  const uint64_t* chunks  pairs (device address, length in bytes), `count` of them
//   offset 8  uint64_t*       hashes  `count` results
//   offset 16 uint32_t        count
// Grid: x = count * 64 work-items, work-group x = 64. Work-group g hashes chunk g: work-item l computes
// lane l (rs_chunk_hash_lane), stores it in LDS; after the barrier work-item 0 combines the 64 lanes and
// writes hashes[g]. On a wave32 target the work-group is two waves; the result is the same.
#include <hip/hip_runtime.h>

#include "chunk_hash_math.h"

extern "C" __global__ __launch_bounds__(64) void replayscope_chunk_hash(const uint64_t* chunks,
                                                                        uint64_t* hashes, uint32_t count) {
    __shared__ uint64_t lanes[kChunkHashLanes];
    const uint32_t group = rs_device::work_group_id_x();
    const uint32_t lane = rs_device::work_item_id_x();
    if (group >= count) {
        return;
    }
    const unsigned char* data = reinterpret_cast<const unsigned char*>(chunks[2u * group]);
    const uint64_t bytes = chunks[2u * group + 1u];
    lanes[lane] = rs_chunk_hash_lane(data, bytes, lane);
    rs_device::barrier();
    if (lane == 0) {
        hashes[group] = rs_chunk_hash_combine(lanes, bytes);
    }
}
