// SPDX-License-Identifier: MIT
// Kernarg layouts of dirty_kernels.so and dirty_variable_kernels.so, shared by workloads/dirty_restore.cpp
// and the code objects' kernels. The kernels change chosen bytes of their buffers so that a test can
// derive from the buffers' addresses and sizes exactly which snapshot chunks a dispatch makes dirty.
#ifndef RS_WORKLOADS_KERNELS_DIRTY_KERNELS_H
#define RS_WORKLOADS_KERNELS_DIRTY_KERNELS_H

#include <cstdint>

namespace rs::workloads {

/** A device buffer a kernel works on: address and length in bytes. */
struct DirtyBuffer {
    uint8_t* data;
    uint64_t bytes;
};

inline constexpr uint32_t kDirtyMaxBuffers = 4;

/** bump_chunk_starts.kd: in each of the first `count` buffers, adds 1 to the buffer's first byte and to
 *  every byte whose device address is a multiple of `stride` (a power of two): one byte in every
 *  `stride`-aligned piece of the buffer, so every chunk of that size is dirty after one execution. */
struct BumpChunkStartsArgs {
    uint64_t stride;
    uint32_t count;
    DirtyBuffer buffers[kDirtyMaxBuffers];
};

/** rewrite_same.kd: in each of the first `count` buffers, reads every byte and stores the value it read
 *  (a kernel that writes its whole output, but the same values: nothing changes). */
struct RewriteSameArgs {
    uint32_t count;
    DirtyBuffer buffers[kDirtyMaxBuffers];
};

inline constexpr uint32_t kDirtyMaxPokes = 8;

/** One byte to change: buffer address and byte offset in it. */
struct DirtyPoke {
    uint8_t* data;
    uint64_t offset;
};

/** bump_bytes.kd: adds 1 to each of the first `count` bytes named in `pokes`. */
struct BumpBytesArgs {
    uint32_t count;
    DirtyPoke pokes[kDirtyMaxPokes];
};

/** bump_variable.kd (dirty_variable_kernels.so): adds 1 to byte `offset` of the code object's
 *  `__device__` variable `dirty_table` (kDirtyTableBytes bytes, initially byte i = i % 251). */
struct BumpVariableArgs {
    uint64_t offset;
};

inline constexpr uint64_t kDirtyTableBytes = 300000;

} // namespace rs::workloads

#endif // RS_WORKLOADS_KERNELS_DIRTY_KERNELS_H
