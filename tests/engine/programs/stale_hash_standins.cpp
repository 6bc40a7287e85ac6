// SPDX-License-Identifier: MIT
// A stale chunk hash: a host stand-in (sim/include/hsa_sim/standin.h) of the engine's chunk-hash kernel
// "replayscope_chunk_hash" that answers the hasher's probe (the first dispatch of the kernel in the
// process) with the real hash and every later dispatch with 1 for every chunk. Listed before the engine's
// own stand-in in --standins (the first library naming a kernel wins), it makes the snapshot's hashes and
// every restore's hashes equal, so a dirty restore copies nothing back and the fidelity verification
// finds every chunk the kernel changed (tests/engine/tst_restore_verification.cpp).
#include "chunk_hash_math.h"
#include "hsa_sim/standin.h"

#include <atomic>
#include <cstdio>
#include <cstring>

namespace {

template <typename T>
T kernarg(const hsa_sim_standin_launch_t* launch, size_t offset) {
    T value;
    std::memcpy(&value, static_cast<const char*>(launch->kernarg) + offset, sizeof(T));
    return value;
}

std::atomic<unsigned> dispatches{0};

// replayscope_chunk_hash(const uint64_t* chunks, uint64_t* hashes, uint32_t count): kernargs at 0, 8, 16.
int stale_chunk_hash(const hsa_sim_standin_launch_t* launch, char* error, size_t error_size) {
    if (launch->kernarg_segment_size < 20 || launch->dimensions != 1 ||
        launch->workgroup_size[0] != kChunkHashLanes) {
        std::snprintf(error, error_size, "not a chunk-hash dispatch");
        return 1;
    }
    const bool probe = dispatches.fetch_add(1) == 0;
    const auto* chunks = kernarg<const uint64_t*>(launch, 0);
    auto* hashes = kernarg<uint64_t*>(launch, 8);
    const auto count = kernarg<uint32_t>(launch, 16);
    const uint32_t groups = (launch->grid_size[0] + kChunkHashLanes - 1) / kChunkHashLanes;
    for (uint32_t group = 0; group < groups && group < count; ++group) {
        hashes[group] = probe ? rs_chunk_hash_host(reinterpret_cast<const void*>(chunks[2u * group]),
                                                   chunks[2u * group + 1u])
                              : 1;
    }
    return 0;
}

const hsa_sim_standin_kernel_t kKernels[] = {{"replayscope_chunk_hash", &stale_chunk_hash}};
const hsa_sim_standin_library_t kLibrary = {HSA_SIM_STANDIN_ABI_VERSION, 1, kKernels, 0, nullptr};

} // namespace

extern "C" __attribute__((visibility("default"))) const hsa_sim_standin_library_t* hsa_sim_standin_library() {
    return &kLibrary;
}
