// SPDX-License-Identifier: MIT
// Kernel names as people read them. A session stores the kernel descriptor's symbol as the code object
// names it (`_Z11jacobi_stepPKfPfii.kd`); rocprofv3 and Nsight Compute show the demangled function
// (`jacobi_step(float const*, float*, int, int)`), keep the mangled name on request (rocprofv3
// `-M/--mangled-kernels`) and can cut the demangled name to the function's own name (rocprofv3
// `-T/--truncate-kernels`: `jacobi_step`). The inspector, `--summary`, the CSV exports and the trace do
// the same, through the session library's Qt-free names (replayscope/session/kernel_name.h, which
// replayscope-run's --stats uses too).
#pragma once

#include <QString>

namespace rs::app {

enum class KernelNameStyle {
    demangled, ///< ".kd" dropped, then demangled when the name is a mangled C++ name (the default)
    mangled,   ///< ".kd" dropped, the symbol as the code object names it
    truncated, ///< demangled, then cut to the function's unqualified name without its arguments and
               ///< template arguments ("ns::Foo<int>::bar(float*)" -> "bar")
};

/// The style every reader uses from now on (set once from the command line: `-M`, `-T`); default demangled.
void setKernelNameStyle(KernelNameStyle style);
KernelNameStyle kernelNameStyle();

/// `symbol` (a kernel descriptor symbol, with or without ".kd") as `style` shows it. A name that is not a
/// mangled C++ name (an `extern "C"` kernel, "kernel@7f00…" of an unnamed one) stays as it is, less ".kd".
QString kernelDisplayName(const QString& symbol, KernelNameStyle style = kernelNameStyle());

/// The unqualified function name of a demangled C++ name: arguments, template arguments, return type and
/// scopes removed, respecting nesting ("void ns::f<(anonymous namespace)::T>(int (*)(int))" -> "f").
/// A name without any of those stays as it is.
QString truncatedKernelName(const QString& demangled);

} // namespace rs::app
