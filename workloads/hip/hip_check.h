// SPDX-License-Identifier: MIT
// Small helpers shared by the HIP programs of workloads/hip: every HIP call is checked, and a failed
// check or a wrong result ends the program with exit status 1 and one line on stderr naming it.
#ifndef RS_WORKLOADS_HIP_CHECK_H
#define RS_WORKLOADS_HIP_CHECK_H

#include <hip/hip_runtime.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace rs_hip {

/** Prints "PROGRAM: FAIL: <message>" on stderr and exits with status 1. */
[[noreturn]] inline void fail(const char* program, const char* format, ...) {
    std::va_list args;
    va_start(args, format);
    std::fprintf(stderr, "%s: FAIL: ", program);
    std::vfprintf(stderr, format, args);
    std::fputc('\n', stderr);
    va_end(args);
    std::exit(1);
}

/** Ends the program (fail) when `status` is not hipSuccess, naming the call and HIP's error string. */
inline void check(const char* program, hipError_t status, const char* call) {
    if (status != hipSuccess) {
        fail(program, "%s returned %d (%s)", call, static_cast<int>(status), hipGetErrorString(status));
    }
}

/** A pointer as a signed 64-bit integer, the way the session file stores addresses. */
inline long long address_of(const void* p) {
    return static_cast<long long>(reinterpret_cast<std::uintptr_t>(p));
}

} // namespace rs_hip

/** HIP_CHECK(call): check() with the call's text; needs `kProgram` (the program's name) in scope. */
#define HIP_CHECK(call) ::rs_hip::check(kProgram, (call), #call)

#endif
