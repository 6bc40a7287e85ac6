// SPDX-License-Identifier: MIT
/*
 * The device side of HIP for host stand-ins (replayscope-standins), included through hip/hip_runtime.h.
 *
 * A stand-in compiles the kernels of a HIP source file as ordinary host functions; the stand-in runtime
 * (hsa_sim_standin/runtime.cpp, linked into every stand-in library) runs one function call per work-item,
 * each work-item of a work-group on its own fiber of one OS thread, so that __syncthreads() is a real
 * barrier. What each construct becomes:
 *  - __global__: a function with protected visibility (how replayscope-standins finds the kernels);
 *  - __device__ / __constant__ / __managed__ variables: default visibility in an otherwise hidden library
 *    (how it finds the module-scope variables); __device__ functions: plain functions;
 *  - __shared__: thread_local (one work-group runs on one OS thread at a time, so its work-items share it);
 *    `extern __shared__ T x[]` / HIP_DYNAMIC_SHARED: thread_local storage defined by replayscope-standins,
 *    HSA_SIM_STANDIN_MAX_DYNAMIC_LDS bytes, of which the dispatch's dynamic_group_segment_size is usable;
 *  - threadIdx/blockIdx/blockDim/gridDim: thread-local objects whose uint32_t members x, y, z hold the
 *    current work-item's coordinates (blockDim of a partial last work-group is its actual size, as
 *    __ockl_get_local_size reports); hipThreadIdx_x etc. are macros over them, as in HIP. No macro here
 *    takes a name user code may use for its own members, variables or parameters;
 *  - atomics: GCC/Clang __atomic builtins on the host memory (sequentially consistent);
 *  - warp-level operations (__shfl*, __ballot, __any, __all, __activemask, __syncwarp), grid sync and
 *    __builtin_amdgcn_* compile, but fail the dispatch with an error naming the feature: stand-ins run the
 *    work-items of a wavefront one after another, not in lock-step.
 * __noinline__ stays as HIP's host_defines.h defines it for a non-HIP compiler: empty (a hint only).
 * The compilation defines HSA_SIM_STANDIN_COMPILE=1 and __HIPCC__=1, not __HIP_DEVICE_COMPILE__.
 */
#ifndef HSA_SIM_STANDIN_DEVICE_H
#define HSA_SIM_STANDIN_DEVICE_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIP_PLATFORM_HCC__
#define __HIP_PLATFORM_HCC__ 1
#endif
#ifndef __HIPCC__
#define __HIPCC__ 1
#endif
#define HSA_SIM_STANDIN_COMPILE 1

#include <hip/hip_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <math.h>
#include <tuple>
#include <type_traits>
#include <utility>

#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __constant__
#undef __managed__
#undef __forceinline__
#undef __launch_bounds__
#undef __align__

#define __global__ __attribute__((visibility("protected"), used))
#define __device__ __attribute__((visibility("default")))
#define __constant__ __attribute__((visibility("default")))
#define __managed__ __attribute__((visibility("default")))
#define __host__
#define __shared__ thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#ifndef HIP_SYMBOL
#define HIP_SYMBOL(X) X
#endif
#define HIP_DYNAMIC_SHARED(type, var) extern thread_local type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

/** Bytes of storage behind every `extern __shared__` array (the LDS size of gfx90a). */
#define HSA_SIM_STANDIN_MAX_DYNAMIC_LDS 65536u

namespace hsa_sim {

/** Coordinates of the work-item running on this OS thread (set by the stand-in runtime). */
struct work_item_ids {
    dim3 thread_idx;
    dim3 block_idx;
    dim3 block_dim;
    dim3 grid_dim;
};

/** Coordinates of the current work-item in one dimension kind (threadIdx, blockIdx, blockDim, gridDim). */
struct coordinates {
    uint32_t x;
    uint32_t y;
    uint32_t z;
    constexpr operator dim3() const { return dim3(x, y, z); }
};

/** The current work-item; fails the dispatch when called outside one (host code calling device code). */
const work_item_ids& current_work_item();

/** Work-group barrier of the current work-item (__syncthreads). */
void barrier();

/**
 * Barrier that also counts: returns how many work-items at this barrier passed a non-zero `predicate`;
 * `arrived` (if not null) receives how many work-items reached it (those that ended are not counted).
 */
int barrier_count(int predicate, int* arrived);

/** Fails the current dispatch: `feature` is not available in host stand-ins. Never returns. */
[[noreturn]] void unsupported(const char* feature);

/** Host code's kernel launches end here at compile time; host code is never run in a stand-in. */
template <class... Args>
inline void launch_sink(const Args&...) {}

/** Any value: the result of an unsupported builtin, convertible to whatever the caller expects. */
struct any_value {
    template <class T>
    operator T() const {
        return T();
    }
};

/** `__builtin_amdgcn_NAME(args)` becomes `unsupported_call("__builtin_amdgcn_NAME")(args)`. */
struct unsupported_call {
    const char* name;
    template <class... Args>
    any_value operator()(const Args&...) const {
        unsupported(name);
    }
};

/** Atomic read-modify-write through compare-and-swap: stores op(old, value), returns old. */
template <class T>
inline T atomic_rmw_cas(T* address, T (*op)(T, T), T value) {
    T old;
    __atomic_load(address, &old, __ATOMIC_SEQ_CST);
    for (;;) {
        T desired = op(old, value);
        if (__atomic_compare_exchange(address, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            return old;
        }
    }
}

} // namespace hsa_sim

/** The AMDGPU builtins stand-ins implement (replayscope-standins rewrites `__builtin_amdgcn_NAME(`). */
namespace hsa_sim::amdgcn {
inline void s_barrier() {
    barrier();
}
inline unsigned workitem_id_x() {
    return current_work_item().thread_idx.x;
}
inline unsigned workitem_id_y() {
    return current_work_item().thread_idx.y;
}
inline unsigned workitem_id_z() {
    return current_work_item().thread_idx.z;
}
inline unsigned workgroup_id_x() {
    return current_work_item().block_idx.x;
}
inline unsigned workgroup_id_y() {
    return current_work_item().block_idx.y;
}
inline unsigned workgroup_id_z() {
    return current_work_item().block_idx.z;
}
inline void s_sleep(int) {}
inline void fence(int, const char*) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
unsigned long long s_memtime();
inline unsigned long long s_memrealtime() {
    return s_memtime();
}
inline unsigned long long s_getpc() {
    return 0;
}
} // namespace hsa_sim::amdgcn

/*
 * threadIdx, blockIdx, blockDim, gridDim: objects, not macros (as in HIP's amd_hip_runtime.h), so that host
 * code may use the names for members (hipLaunchParams::gridDim), locals and parameters. HIP's members are
 * proxies converting to uint32_t; here they are plain uint32_t, which every use hipcc accepts also
 * accepts (and `auto i = threadIdx.x` is an unsigned int). One copy per OS thread: the stand-in runtime
 * stores the coordinates of a work-item before it resumes the work-item's fiber.
 */
#define HSA_SIM_STANDIN_COORDINATES                                                                          \
    __attribute__((visibility("hidden"))) inline thread_local ::hsa_sim::coordinates
HSA_SIM_STANDIN_COORDINATES threadIdx{0u, 0u, 0u};
HSA_SIM_STANDIN_COORDINATES blockIdx{0u, 0u, 0u};
HSA_SIM_STANDIN_COORDINATES blockDim{1u, 1u, 1u};
HSA_SIM_STANDIN_COORDINATES gridDim{1u, 1u, 1u};
#undef HSA_SIM_STANDIN_COORDINATES
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

/** Wavefront size of gfx90a. */
static constexpr int warpSize = 64;

/* Host code: launches compile, never run (the chevrons are rewritten by replayscope-standins). */
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...)                                         \
    do {                                                                                                     \
        ::hsa_sim::launch_sink(grid, block, shared, stream);                                                 \
        kernel(__VA_ARGS__);                                                                                 \
    } while (0)

/* Host code of hip/hip_ext.h's hipExtLaunchKernelGGL (and HIP_TEMPLATE_KERNEL_LAUNCH): the argument
 * packing helpers HIP's amd_hip_runtime.h provides. They compile the launch; it is never run. */
template <std::size_t index, typename... Ts>
inline void pArgs(const std::tuple<Ts...>&, void**) {}

template <typename... Formals, typename... Actuals>
inline std::tuple<Formals...> validateArgsCountType(void (*)(Formals...), std::tuple<Actuals...> actuals) {
    static_assert(sizeof...(Formals) == sizeof...(Actuals), "kernel argument count mismatch");
    return std::tuple<Formals...>(std::move(actuals));
}

/* Synchronisation. */
inline void __syncthreads() {
    ::hsa_sim::barrier();
}
inline int __syncthreads_count(int predicate) {
    return ::hsa_sim::barrier_count(predicate, nullptr);
}
inline int __syncthreads_and(int predicate) {
    int arrived = 0;
    return ::hsa_sim::barrier_count(predicate, &arrived) == arrived;
}
inline int __syncthreads_or(int predicate) {
    return ::hsa_sim::barrier_count(predicate, nullptr) != 0;
}
inline void __threadfence() {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_block() {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_system() {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Wavefront-level operations: not available (work-items of a wavefront do not run in lock-step). */
template <class T, class... A>
inline T __shfl(T, A...) {
    ::hsa_sim::unsupported("__shfl (warp shuffle)");
}
template <class T, class... A>
inline T __shfl_up(T, A...) {
    ::hsa_sim::unsupported("__shfl_up (warp shuffle)");
}
template <class T, class... A>
inline T __shfl_down(T, A...) {
    ::hsa_sim::unsupported("__shfl_down (warp shuffle)");
}
template <class T, class... A>
inline T __shfl_xor(T, A...) {
    ::hsa_sim::unsupported("__shfl_xor (warp shuffle)");
}
template <class M, class T, class... A>
inline T __shfl_sync(M, T, A...) {
    ::hsa_sim::unsupported("__shfl_sync (warp shuffle)");
}
template <class M, class T, class... A>
inline T __shfl_down_sync(M, T, A...) {
    ::hsa_sim::unsupported("__shfl_down_sync (warp shuffle)");
}
template <class M, class T, class... A>
inline T __shfl_up_sync(M, T, A...) {
    ::hsa_sim::unsupported("__shfl_up_sync (warp shuffle)");
}
template <class M, class T, class... A>
inline T __shfl_xor_sync(M, T, A...) {
    ::hsa_sim::unsupported("__shfl_xor_sync (warp shuffle)");
}
inline unsigned long long __ballot(int) {
    ::hsa_sim::unsupported("__ballot (warp vote)");
}
inline unsigned long long __ballot64(int) {
    ::hsa_sim::unsupported("__ballot64 (warp vote)");
}
inline int __any(int) {
    ::hsa_sim::unsupported("__any (warp vote)");
}
inline int __all(int) {
    ::hsa_sim::unsupported("__all (warp vote)");
}
inline unsigned long long __activemask() {
    ::hsa_sim::unsupported("__activemask (warp vote)");
}
template <class... A>
inline void __syncwarp(A...) {
    ::hsa_sim::unsupported("__syncwarp (wavefront barrier)");
}
/** Lane of the current work-item in its 64-wide wavefront (flat work-item id modulo 64). */
inline unsigned __lane_id() {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 64u;
}

/* Atomics: return the old value, like HIP's. */
#define HSA_SIM_ATOMIC_INT(T)                                                                                \
    inline T atomicAdd(T* a, T v) {                                                                          \
        return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                                   \
    }                                                                                                        \
    inline T atomicSub(T* a, T v) {                                                                          \
        return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                                   \
    }                                                                                                        \
    inline T atomicExch(T* a, T v) {                                                                         \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                                        \
    inline T atomicAnd(T* a, T v) {                                                                          \
        return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                                   \
    }                                                                                                        \
    inline T atomicOr(T* a, T v) {                                                                           \
        return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                                    \
    }                                                                                                        \
    inline T atomicXor(T* a, T v) {                                                                          \
        return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                                   \
    }                                                                                                        \
    inline T atomicMin(T* a, T v) {                                                                          \
        return ::hsa_sim::atomic_rmw_cas<T>(a, [](T o, T n) { return n < o ? n : o; }, v);                   \
    }                                                                                                        \
    inline T atomicMax(T* a, T v) {                                                                          \
        return ::hsa_sim::atomic_rmw_cas<T>(a, [](T o, T n) { return n > o ? n : o; }, v);                   \
    }                                                                                                        \
    inline T atomicCAS(T* a, T compare, T v) {                                                               \
        __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
        return compare;                                                                                      \
    }                                                                                                        \
    inline T atomicAdd_system(T* a, T v) {                                                                   \
        return atomicAdd(a, v);                                                                              \
    }                                                                                                        \
    inline T atomicCAS_system(T* a, T c, T v) {                                                              \
        return atomicCAS(a, c, v);                                                                           \
    }                                                                                                        \
    inline T atomicExch_system(T* a, T v) {                                                                  \
        return atomicExch(a, v);                                                                             \
    }

HSA_SIM_ATOMIC_INT(int)
HSA_SIM_ATOMIC_INT(unsigned int)
HSA_SIM_ATOMIC_INT(unsigned long)
HSA_SIM_ATOMIC_INT(unsigned long long)
HSA_SIM_ATOMIC_INT(long long)
#undef HSA_SIM_ATOMIC_INT

#define HSA_SIM_ATOMIC_FLOAT(T)                                                                              \
    inline T atomicAdd(T* a, T v) {                                                                          \
        return ::hsa_sim::atomic_rmw_cas<T>(a, [](T o, T n) { return o + n; }, v);                           \
    }                                                                                                        \
    inline T atomicSub(T* a, T v) {                                                                          \
        return ::hsa_sim::atomic_rmw_cas<T>(a, [](T o, T n) { return o - n; }, v);                           \
    }                                                                                                        \
    inline T atomicMin(T* a, T v) {                                                                          \
        return ::hsa_sim::atomic_rmw_cas<T>(a, [](T o, T n) { return n < o ? n : o; }, v);                   \
    }                                                                                                        \
    inline T atomicMax(T* a, T v) {                                                                          \
        return ::hsa_sim::atomic_rmw_cas<T>(a, [](T o, T n) { return n > o ? n : o; }, v);                   \
    }                                                                                                        \
    inline T atomicExch(T* a, T v) {                                                                         \
        T old;                                                                                               \
        __atomic_exchange(a, &v, &old, __ATOMIC_SEQ_CST);                                                    \
        return old;                                                                                          \
    }                                                                                                        \
    inline T atomicAdd_system(T* a, T v) {                                                                   \
        return atomicAdd(a, v);                                                                              \
    }                                                                                                        \
    inline T atomicExch_system(T* a, T v) {                                                                  \
        return atomicExch(a, v);                                                                             \
    }                                                                                                        \
    inline T unsafeAtomicAdd(T* a, T v) {                                                                    \
        return atomicAdd(a, v);                                                                              \
    }                                                                                                        \
    inline T safeAtomicAdd(T* a, T v) {                                                                      \
        return atomicAdd(a, v);                                                                              \
    }

HSA_SIM_ATOMIC_FLOAT(float)
HSA_SIM_ATOMIC_FLOAT(double)
#undef HSA_SIM_ATOMIC_FLOAT

/** ((old >= v) ? 0 : old + 1), stored; returns old (HIP/CUDA semantics). */
inline unsigned atomicInc(unsigned* a, unsigned v) {
    return ::hsa_sim::atomic_rmw_cas<unsigned>(
        a, [](unsigned o, unsigned n) { return o >= n ? 0u : o + 1u; }, v);
}
/** ((old == 0 || old > v) ? v : old - 1), stored; returns old. */
inline unsigned atomicDec(unsigned* a, unsigned v) {
    return ::hsa_sim::atomic_rmw_cas<unsigned>(
        a, [](unsigned o, unsigned n) { return (o == 0u || o > n) ? n : o - 1u; }, v);
}

/* Integer min/max of HIP's device library (non-templates, so that std::min stays a worse match). */
#define HSA_SIM_MINMAX(T)                                                                                    \
    inline T min(T a, T b) {                                                                                 \
        return b < a ? b : a;                                                                                \
    }                                                                                                        \
    inline T max(T a, T b) {                                                                                 \
        return a < b ? b : a;                                                                                \
    }
HSA_SIM_MINMAX(int)
HSA_SIM_MINMAX(unsigned int)
HSA_SIM_MINMAX(long)
HSA_SIM_MINMAX(unsigned long)
HSA_SIM_MINMAX(long long)
HSA_SIM_MINMAX(unsigned long long)
#undef HSA_SIM_MINMAX
/** Integers of two different types: hipcc (clang's __clang_hip_math.h) picks min(int, int) for them. */
template <
    class T, class U,
    std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value && !std::is_same<T, U>::value,
                     int> = 0>
inline int min(T a, U b) {
    return min(static_cast<int>(a), static_cast<int>(b));
}
template <
    class T, class U,
    std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value && !std::is_same<T, U>::value,
                     int> = 0>
inline int max(T a, U b) {
    return max(static_cast<int>(a), static_cast<int>(b));
}
inline float min(float a, float b) {
    return std::fmin(a, b);
}
inline float max(float a, float b) {
    return std::fmax(a, b);
}
inline double min(double a, double b) {
    return std::fmin(a, b);
}
inline double max(double a, double b) {
    return std::fmax(a, b);
}

/* Math intrinsics: the host's correctly rounded functions (more precise than the fast device forms). */
inline float __expf(float x) {
    return ::expf(x);
}
inline float __exp10f(float x) {
    return ::powf(10.0f, x);
}
inline float __logf(float x) {
    return ::logf(x);
}
inline float __log2f(float x) {
    return ::log2f(x);
}
inline float __log10f(float x) {
    return ::log10f(x);
}
inline float __sinf(float x) {
    return ::sinf(x);
}
inline float __cosf(float x) {
    return ::cosf(x);
}
inline float __tanf(float x) {
    return ::tanf(x);
}
inline void __sincosf(float x, float* s, float* c) {
    *s = ::sinf(x);
    *c = ::cosf(x);
}
inline float __powf(float x, float y) {
    return ::powf(x, y);
}
inline float __fdividef(float x, float y) {
    return x / y;
}
inline float __fdiv_rn(float x, float y) {
    return x / y;
}
inline float __fadd_rn(float x, float y) {
    return x + y;
}
inline float __fsub_rn(float x, float y) {
    return x - y;
}
inline float __fmul_rn(float x, float y) {
    return x * y;
}
inline float __fmaf_rn(float x, float y, float z) {
    return ::fmaf(x, y, z);
}
inline float __fsqrt_rn(float x) {
    return ::sqrtf(x);
}
inline float __frcp_rn(float x) {
    return 1.0f / x;
}
inline float __frsqrt_rn(float x) {
    return 1.0f / ::sqrtf(x);
}
inline double __dadd_rn(double x, double y) {
    return x + y;
}
inline double __dmul_rn(double x, double y) {
    return x * y;
}
inline double __ddiv_rn(double x, double y) {
    return x / y;
}
inline double __fma_rn(double x, double y, double z) {
    return ::fma(x, y, z);
}
inline double __dsqrt_rn(double x) {
    return ::sqrt(x);
}
inline float rsqrtf(float x) {
    return 1.0f / ::sqrtf(x);
}
inline double rsqrt(double x) {
    return 1.0 / ::sqrt(x);
}
inline float rcbrtf(float x) {
    return 1.0f / ::cbrtf(x);
}
inline double rcbrt(double x) {
    return 1.0 / ::cbrt(x);
}
inline float __saturatef(float x) {
    return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}
inline float exp10f(float x) {
    return ::powf(10.0f, x);
}
inline float sinpif(float x) {
    return ::sinf(static_cast<float>(M_PI) * x);
}
inline float cospif(float x) {
    return ::cosf(static_cast<float>(M_PI) * x);
}
inline double sinpi(double x) {
    return ::sin(M_PI * x);
}
inline double cospi(double x) {
    return ::cos(M_PI * x);
}
inline float normcdff(float x) {
    return 0.5f * ::erfcf(-x / static_cast<float>(M_SQRT2));
}
inline double normcdf(double x) {
    return 0.5 * ::erfc(-x / M_SQRT2);
}

/* Bit manipulation and conversions. */
inline int __float_as_int(float x) {
    int i;
    std::memcpy(&i, &x, sizeof i);
    return i;
}
inline unsigned __float_as_uint(float x) {
    unsigned i;
    std::memcpy(&i, &x, sizeof i);
    return i;
}
inline float __int_as_float(int i) {
    float x;
    std::memcpy(&x, &i, sizeof x);
    return x;
}
inline float __uint_as_float(unsigned i) {
    float x;
    std::memcpy(&x, &i, sizeof x);
    return x;
}
inline long long __double_as_longlong(double x) {
    long long i;
    std::memcpy(&i, &x, sizeof i);
    return i;
}
inline double __longlong_as_double(long long i) {
    double x;
    std::memcpy(&x, &i, sizeof x);
    return x;
}
inline int __popc(unsigned x) {
    return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) {
    return __builtin_popcountll(x);
}
inline int __clz(int x) {
    return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
inline int __clzll(long long x) {
    return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) {
    return __builtin_ffs(x);
}
inline int __ffsll(long long x) {
    return __builtin_ffsll(x);
}
inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i) {
        r |= ((x >> i) & 1u) << (31 - i);
    }
    return r;
}
inline int __mul24(int x, int y) {
    return x * y;
}
inline unsigned __umul24(unsigned x, unsigned y) {
    return x * y;
}
inline int __mulhi(int x, int y) {
    return static_cast<int>((static_cast<long long>(x) * y) >> 32);
}
inline unsigned __umulhi(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline int __float2int_rn(float x) {
    return static_cast<int>(::nearbyintf(x));
}
inline int __float2int_rz(float x) {
    return static_cast<int>(x);
}
inline int __float2int_rd(float x) {
    return static_cast<int>(::floorf(x));
}
inline int __float2int_ru(float x) {
    return static_cast<int>(::ceilf(x));
}
inline float __int2float_rn(int x) {
    return static_cast<float>(x);
}
inline float __uint2float_rn(unsigned x) {
    return static_cast<float>(x);
}
template <class T>
inline T __ldg(const T* p) {
    return *p;
}

/* Clocks: host nanoseconds. */
long long clock64();
inline long long __clock64() {
    return clock64();
}
inline long long wall_clock64() {
    return clock64();
}

#endif
