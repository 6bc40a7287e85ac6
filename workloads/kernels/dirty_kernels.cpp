// SPDX-License-Identifier: MIT
// Simulated code object dirty_kernels.so: bump_chunk_starts.kd, rewrite_same.kd and bump_bytes.kd
// (layouts in dirty_kernels.h), for workloads/dirty_restore.cpp. No module variables, so a snapshot of
// a dispatch holds exactly the program's own coarse-grained buffers.
#include "dirty_kernels.h"

#include <hsa_sim/code_object.h>

namespace {

using namespace rs::workloads;

void bump_chunk_starts(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const BumpChunkStartsArgs*>(dispatch->kernarg);
    for (uint32_t b = 0; b < args->count && b < kDirtyMaxBuffers; ++b) {
        const DirtyBuffer& buffer = args->buffers[b];
        if (buffer.bytes == 0) {
            continue;
        }
        const auto base = reinterpret_cast<uintptr_t>(buffer.data);
        buffer.data[0] += 1;
        // The first stride-aligned address after the base, then every stride.
        for (uintptr_t a = (base / args->stride + 1) * args->stride; a < base + buffer.bytes;
             a += args->stride) {
            buffer.data[a - base] += 1;
        }
    }
}

void rewrite_same(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const RewriteSameArgs*>(dispatch->kernarg);
    for (uint32_t b = 0; b < args->count && b < kDirtyMaxBuffers; ++b) {
        volatile uint8_t* data = args->buffers[b].data;
        for (uint64_t i = 0; i < args->buffers[b].bytes; ++i) {
            data[i] = data[i];
        }
    }
}

void bump_bytes(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const BumpBytesArgs*>(dispatch->kernarg);
    for (uint32_t p = 0; p < args->count && p < kDirtyMaxPokes; ++p) {
        args->pokes[p].data[args->pokes[p].offset] += 1;
    }
}

const hsa_sim_kernel_t kKernels[] = {
    {"bump_chunk_starts.kd", bump_chunk_starts, sizeof(BumpChunkStartsArgs), 0, 0},
    {"rewrite_same.kd", rewrite_same, sizeof(RewriteSameArgs), 0, 0},
    {"bump_bytes.kd", bump_bytes, sizeof(BumpBytesArgs), 0, 0},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 3, kKernels, 0, nullptr,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
