// SPDX-License-Identifier: MIT
// What a code object's metadata says about its kernels' pointer arguments: which kernarg words a kernel
// only reads through (docs/replay-failures.md, "Arguments in unrestorable memory").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rs::engine {

/// Kernel name (the metadata's `.symbol` without its ".kd" suffix, i.e. the kernel symbol's name) ->
/// ascending byte offsets of its read-only pointer arguments.
using ReadOnlyArguments = std::map<std::string, std::vector<uint32_t>>;

/// Reads the NT_AMDGPU_METADATA note (msgpack; LLVM AMDGPUUsage, "Code Object V3 Metadata", which v4
/// and v5 extend) of the AMDGPU ELF image `[image, image + size)` (code object v3 to v5) and lists, per
/// kernel, the `.offset` of every `.args` entry that is an 8-byte `global_buffer` the kernel cannot
/// write through:
///   - `.address_space: constant` (memory a kernel never writes, AMDGPUUsage "Address Spaces"), or
///   - `.actual_access: read_only` (the access the compiler found), or, without `.actual_access`,
///     `.access: read_only` or `.is_const: true` (AMDGPUUsage: without `.actual_access` the runtime
///     assumes what `.access` and `.is_const` imply).
/// LLVM writes `.access: read_only` for a HIP pointer argument it marked `noalias readonly`, i.e.
/// `const T* __restrict__` that the kernel provably never writes through (AMDGPUHSAMetadataStreamer,
/// clang 15 / HIP 5.2.3). Hidden arguments, by-value arguments and pointers without such a key are
/// never listed. Bounds-checked: a malformed image, note or msgpack document yields an empty map,
/// never an out-of-range read. Throws std::bad_alloc only.
ReadOnlyArguments read_only_arguments(const void* image, size_t size);

} // namespace rs::engine
