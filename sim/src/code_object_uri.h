// SPDX-License-Identifier: MIT
// Code object URIs (hsa_ven_amd_loader.h HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI) formed as ROCr
// 5.2.3 forms them (src/core/runtime/amd_hsa_loader.cpp): see docs/sim-fidelity.md.
#pragma once

#include <cstddef>
#include <string>

namespace sim {

/// URI of a code object read from file descriptor `fd`: "file://" + the descriptor's path (characters
/// other than alphanumerics and "/-_.~" percent-encoded), followed by "#offset=N&size=M" (decimal) unless
/// `complete_file` (the object is the whole file). When the descriptor has no path, the memory URI of
/// `memory`/`size` instead.
std::string uri_from_file(int fd, size_t offset, size_t size, bool complete_file, const void* memory);

/// URI of a code object handed over in memory: when `memory` lies in a PT_LOAD segment of a file the
/// process has loaded (the program or a shared library, as a HIP fat binary does), "file://PATH#offset=N&
/// size=M" with the offset in that file; otherwise "memory://PID#offset=0xADDRESS&size=M".
std::string uri_from_memory(const void* memory, size_t size);

} // namespace sim
