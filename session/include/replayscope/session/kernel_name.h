// SPDX-License-Identifier: MIT
// Kernel names as people read them, Qt-free (the inspector's KernelName and replayscope-run's --stats and
// exports use the same code). A session stores the kernel descriptor's symbol
// (`_Z11jacobi_stepPKfPfii.kd`); rocprofv3 and Nsight Compute show the demangled function, keep the
// mangled name on request (rocprofv3 -M) or cut it to the function's own name (-T). Demangling is the C++
// runtime's `abi::__cxa_demangle` (the Itanium C++ ABI's, which binutils' c++filt also implements).
#pragma once

#include <string>

namespace rs::session {

enum class KernelNameStyle {
    demangled, ///< ".kd" dropped, then demangled when the name is a mangled C++ name (the default)
    mangled,   ///< ".kd" dropped, the symbol as the code object names it (-M)
    truncated, ///< demangled, then cut to the function's unqualified name without its arguments and
               ///< template arguments ("ns::Foo<int>::bar(float*)" -> "bar"; -T)
};

/// `symbol` (a kernel descriptor symbol, with or without ".kd") in `style`. A name that is not a mangled
/// C++ name ("_Z"), or that does not demangle, stays as it is, less ".kd".
std::string kernel_display_name(const std::string& symbol, KernelNameStyle style);

/// The unqualified function name of a demangled C++ name: arguments, template arguments, return type and
/// scopes removed, respecting nesting ("void ns::f<(anonymous namespace)::T>(int (*)(int))" -> "f"; a
/// name without any of those stays as it is).
std::string truncated_kernel_name(const std::string& demangled);

} // namespace rs::session
