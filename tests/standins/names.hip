// SPDX-License-Identifier: MIT
// Names of HIP's built-in coordinates (threadIdx, blockIdx, blockDim, gridDim) and warpSize used by
// ordinary host code as members, locals and parameters, which hipcc accepts; and kernels mixing the
// coordinates with integers, templates and dim3. Built into its own stand-in library by
// replayscope-standins (tests/standins/CMakeLists.txt) and checked for hipcc's acceptance too.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory> // libstdc++ spells __attribute__((__noinline__)) itself
#include <type_traits>

// Host code naming its own things like the built-ins.
struct launch_shape {
    dim3 gridDim;
    dim3 blockDim;
    unsigned threadIdx;
    int warpSize;
};

static unsigned items(dim3 gridDim, dim3 blockDim) {
    return gridDim.x * blockDim.x * gridDim.y * blockDim.y;
}

template <class T>
__device__ T twice(T v) {
    return v + v;
}

__device__ __noinline__ unsigned scaled(unsigned blockDim) { // a parameter shadowing the built-in
    return blockDim * 3u;
}

static_assert(std::is_same<decltype(blockIdx.x * blockDim.x + threadIdx.x), uint32_t>::value,
              "index arithmetic is unsigned");
#ifdef HSA_SIM_STANDIN_COMPILE
// Stand-ins only: hipcc's members are proxies (HIP 5.2 amd_hip_runtime.h __HIP_Coordinates::__X).
static_assert(std::is_same<decltype(threadIdx.x), uint32_t>::value, "threadIdx.x is a uint32_t");
static_assert(std::is_same<decltype(gridDim.z), uint32_t>::value, "gridDim.z is a uint32_t");
#endif

/** Eight values per work-item of a 2D grid, at out[8 * flat_id + k]. */
__global__ void coordinates_mix(unsigned* out, unsigned n, int m) {
    const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned* o = out + 8u * (gy * (gridDim.x * blockDim.x) + gx);
    auto i = threadIdx.x;
    dim3 d = blockDim;
    o[0] = gx;
    o[2] = static_cast<unsigned>(min(threadIdx.x, m) + 100);
#ifdef HSA_SIM_STANDIN_COMPILE
    static_assert(std::is_same<decltype(i), unsigned int>::value, "auto gives an unsigned int");
    static_assert(std::is_same<decltype(min(threadIdx.x, m)), int>::value, "mixed min is int, as in hipcc");
    o[1] = min(threadIdx.x, n); // ambiguous in hipcc 5.2 (the proxy converts to int, float and double)
    o[3] = twice(threadIdx.y);
    o[4] = std::max(threadIdx.x, n);
#else
    o[1] = min(static_cast<unsigned>(threadIdx.x), n);
    o[3] = twice<unsigned>(threadIdx.y);
    o[4] = max(static_cast<unsigned>(threadIdx.x), n);
#endif
    o[5] = d.x * 1000u + d.y;
    o[6] = i + gridDim.x * 100u + gridDim.y * 10000u;
    o[7] = hipThreadIdx_y + hipBlockDim_x * hipBlockIdx_y + scaled(warpSize);
}

int main() {
    hipLaunchParams lp{};
    lp.func = reinterpret_cast<void*>(coordinates_mix);
    lp.gridDim = dim3(1);
    lp.blockDim = dim3(64);
    hipKernelNodeParams kp{};
    kp.gridDim = dim3(2);
    kp.blockDim = dim3(32);
    dim3 gridDim(4), blockDim(64);
    launch_shape shape{gridDim, blockDim, 7u, 64};
    shape.threadIdx = items(shape.gridDim, shape.blockDim);
    unsigned* out = nullptr;
    hipMalloc(&out, 8 * 64 * 4 * sizeof(unsigned)); // unused result: a warning only with --warnings
    coordinates_mix<<<gridDim, blockDim>>>(out, 5u, 3);
    hipLaunchKernelGGL(coordinates_mix, gridDim, blockDim, 0, 0, out, 5u, 3);
    return static_cast<int>(lp.gridDim.x + kp.blockDim.x + shape.threadIdx);
}
