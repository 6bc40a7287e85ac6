// SPDX-License-Identifier: MIT
// Built-in stand-ins for the blit kernels ROCclr 5.2.3 compiles at device creation (its blit program
// source, kept as strings in libamdhip64: fill/copy buffer kernels, stream operations, GWS init, images,
// scheduler), with the semantics of ROCm-Device-Libs 5.2's opencl/src/misc/amdblit.cl. Arguments are read
// at the offsets of the kernel's metadata `.args`. See docs/sim-fidelity.md.
#pragma once

#include "elf_code_object.h"
#include "hsa_sim/standin.h"

#include <cstddef>
#include <functional>
#include <string_view>

namespace sim {

/// A built-in kernel: runs every work-item of `launch`, reading its arguments through `metadata`.
/// Returns 0 on success, 1 on failure with a reason in `error` (NUL-terminated, at most `error_size`
/// bytes), 2 when abandoned because `cancelled()` became true.
using BuiltinKernelFn = int (*)(const hsa_sim_standin_launch_t& launch, const elf::KernelMetadata& metadata,
                                const std::function<bool()>& cancelled, char* error, size_t error_size);

/// The built-in of that kernel symbol name (without ".kd"), e.g. "__amd_rocclr_copyBuffer"; nullptr
/// when there is none.
BuiltinKernelFn find_builtin_kernel(std::string_view symbol);

} // namespace sim
