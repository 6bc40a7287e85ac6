// SPDX-License-Identifier: MIT
// librs_alloc_fail_shim.so: an LD_PRELOAD library for the engine's failure-path tests. It interposes the
// four ordinary forms of operator new (plain and array, throwing and std::nothrow) and the aligned
// std::nothrow form of plain operator new, and makes them fail,
// as an exhausted heap would (throwing forms: std::bad_alloc; nothrow forms: nullptr), for requests that
//   - arrive after the program called rs_alloc_fail_arm() (a workload arms it right before the dispatch
//     whose snapshot is to fail; without the shim the call is simply not found),
//   - ask for at least RS_ALLOC_FAIL_MIN_BYTES bytes, and
//   - come from code of a loaded object whose path contains RS_ALLOC_FAIL_CALLER (e.g.
//     "libreplayscope_engine"), judged by the return address of the operator new call (dladdr).
// RS_ALLOC_FAIL_LIMIT (default 1; 0 = no limit) caps how many requests fail, so later windows succeed
// again. Each injected failure prints one line "alloc-fail shim: ..." on stderr. Every other request is
// passed to the next definition in the lookup order (libstdc++, or a sanitizer runtime), so allocation
// and deallocation stay paired.
//
// Which engine requests this reaches: the allocation inventory's listing of an agent's tracked
// allocations (std::vector reserve, throwing operator new: snapshot failure `inventory_reserve`) and
// the agent's host store when the CPU agent's system pool refused it (aligned operator new with
// std::nothrow: `host_allocation`; the test fails the pool allocation with HSA_SIM_FAIL_ALLOC); see
// engine/src/allocation_inventory.cpp and engine/src/snapshot_store.cpp.
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

std::atomic<bool> g_armed{false};
std::atomic<long> g_attempts{0};
std::atomic<long> g_injected{0};

struct Settings {
    const char* caller = nullptr;
    std::size_t min_bytes = 0;
    long limit = 1;
};

Settings read_settings() {
    Settings s;
    const char* caller = std::getenv("RS_ALLOC_FAIL_CALLER");
    s.caller = caller && *caller ? caller : nullptr;
    if (const char* v = std::getenv("RS_ALLOC_FAIL_MIN_BYTES")) {
        s.min_bytes = std::strtoull(v, nullptr, 10);
    }
    if (const char* v = std::getenv("RS_ALLOC_FAIL_LIMIT")) {
        s.limit = std::strtol(v, nullptr, 10);
    }
    return s;
}

/// Whether a request of `bytes` made from `return_address` (inside the caller of operator new) fails.
bool should_fail(std::size_t bytes, const void* return_address, const char* form) {
    if (!g_armed.load(std::memory_order_acquire)) {
        return false;
    }
    static const Settings kSettings = read_settings();
    if (!kSettings.caller || bytes < kSettings.min_bytes) {
        return false;
    }
    Dl_info info{};
    if (dladdr(return_address, &info) == 0 || !info.dli_fname ||
        !std::strstr(info.dli_fname, kSettings.caller)) {
        return false;
    }
    const long n = g_attempts.fetch_add(1, std::memory_order_acq_rel);
    if (kSettings.limit > 0 && n >= kSettings.limit) {
        return false;
    }
    g_injected.fetch_add(1, std::memory_order_acq_rel);
    std::fprintf(stderr, "alloc-fail shim: failed %s of %zu bytes from %s\n", form, bytes, info.dli_fname);
    return true;
}

template <typename Fn>
Fn next(const char* symbol) {
    void* f = dlsym(RTLD_NEXT, symbol);
    if (!f) {
        std::fprintf(stderr, "alloc-fail shim: no next definition of %s\n", symbol);
        std::abort();
    }
    return reinterpret_cast<Fn>(f);
}

using New = void* (*)(std::size_t);
using NewNothrow = void* (*)(std::size_t, const std::nothrow_t&);
using NewAlignedNothrow = void* (*)(std::size_t, std::align_val_t, const std::nothrow_t&);

} // namespace

extern "C" {
/// Starts injecting failures (see the file comment). Exported for the workloads (dlsym).
__attribute__((visibility("default"))) void rs_alloc_fail_arm(void) {
    g_armed.store(true, std::memory_order_release);
}
/// How many requests failed by injection so far.
__attribute__((visibility("default"))) long rs_alloc_fail_injected(void) {
    return g_injected.load(std::memory_order_acquire);
}
}

__attribute__((visibility("default"))) void* operator new(std::size_t bytes) {
    if (should_fail(bytes, __builtin_return_address(0), "operator new")) {
        throw std::bad_alloc();
    }
    static const New kReal = next<New>("_Znwm");
    return kReal(bytes);
}

__attribute__((visibility("default"))) void* operator new[](std::size_t bytes) {
    if (should_fail(bytes, __builtin_return_address(0), "operator new[]")) {
        throw std::bad_alloc();
    }
    static const New kReal = next<New>("_Znam");
    return kReal(bytes);
}

__attribute__((visibility("default"))) void* operator new(std::size_t bytes,
                                                          const std::nothrow_t& tag) noexcept {
    if (should_fail(bytes, __builtin_return_address(0), "operator new(nothrow)")) {
        return nullptr;
    }
    static const NewNothrow kReal = next<NewNothrow>("_ZnwmRKSt9nothrow_t");
    return kReal(bytes, tag);
}

__attribute__((visibility("default"))) void* operator new[](std::size_t bytes,
                                                            const std::nothrow_t& tag) noexcept {
    if (should_fail(bytes, __builtin_return_address(0), "operator new[](nothrow)")) {
        return nullptr;
    }
    static const NewNothrow kReal = next<NewNothrow>("_ZnamRKSt9nothrow_t");
    return kReal(bytes, tag);
}

__attribute__((visibility("default"))) void* operator new(std::size_t bytes, std::align_val_t alignment,
                                                          const std::nothrow_t& tag) noexcept {
    if (should_fail(bytes, __builtin_return_address(0), "aligned operator new(nothrow)")) {
        return nullptr;
    }
    static const NewAlignedNothrow kReal = next<NewAlignedNothrow>("_ZnwmSt11align_val_tRKSt9nothrow_t");
    return kReal(bytes, alignment, tag);
}
