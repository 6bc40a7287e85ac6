// SPDX-License-Identifier: MIT
// Host stand-in of the chunk-hash kernel (chunk_hash.hip) for the simulated runtime
// (sim/include/hsa_sim/standin.h): the simulator runs it for every dispatch of the kernel
// "replayscope_chunk_hash" in an engine-loaded code object, in place of the GPU code: one work-group
// (chunk) at a time, with rs_chunk_hash_host, which gathers the 64 lanes in one sequential pass instead
// of lane by lane as the kernel's work-items do (tst_device_hasher checks both give the same value).
// Device addresses are host addresses on the simulator.
#include "../device/chunk_hash_math.h"
#include "hsa_sim/standin.h"

#include <cstdio>
#include <cstring>

namespace {

template <typename T>
T kernarg(const hsa_sim_standin_launch_t* launch, size_t offset) {
    T value;
    std::memcpy(&value, static_cast<const char*>(launch->kernarg) + offset, sizeof(T));
    return value;
}

// replayscope_chunk_hash(const uint64_t* chunks, uint64_t* hashes, uint32_t count): offsets 0, 8, 16.
int chunk_hash(const hsa_sim_standin_launch_t* launch, char* error, size_t error_size) {
    if (launch->kernarg_segment_size < 20) {
        std::snprintf(error, error_size, "kernarg segment of %u bytes, the kernel takes 20",
                      launch->kernarg_segment_size);
        return 1;
    }
    if (launch->dimensions != 1 || launch->workgroup_size[0] != kChunkHashLanes) {
        std::snprintf(error, error_size, "needs a 1-dimensional dispatch with %u work-items per work-group",
                      kChunkHashLanes);
        return 1;
    }
    const auto* chunks = kernarg<const uint64_t*>(launch, 0);
    auto* hashes = kernarg<uint64_t*>(launch, 8);
    const auto count = kernarg<uint32_t>(launch, 16);
    const uint32_t groups = (launch->grid_size[0] + kChunkHashLanes - 1) / kChunkHashLanes;
    for (uint32_t group = 0; group < groups && group < count; ++group) {
        // The whole work-group at once: the same lanes, gathered in one sequential pass over the chunk.
        const auto* data = reinterpret_cast<const void*>(chunks[2u * group]);
        hashes[group] = rs_chunk_hash_host(data, chunks[2u * group + 1u]);
    }
    return 0;
}

const hsa_sim_standin_kernel_t kKernels[] = {{"replayscope_chunk_hash", &chunk_hash}};
const hsa_sim_standin_library_t kLibrary = {HSA_SIM_STANDIN_ABI_VERSION, 1, kKernels, 0, nullptr};

} // namespace

extern "C" __attribute__((visibility("default"))) const hsa_sim_standin_library_t* hsa_sim_standin_library() {
    return &kLibrary;
}
