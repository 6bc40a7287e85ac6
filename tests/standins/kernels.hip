// SPDX-License-Identifier: MIT
// Kernels of the stand-in test suite (tst_standins.cpp): compiled by replayscope-standins into a stand-in
// library, and by hipcc --offload-arch=gfx90a into a code object whose symbols and kernarg offsets the
// suite compares with the library's. The host code at the end is compiled in both, run by neither.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include "kernel_params.h"

__device__ unsigned int launch_counter;
__constant__ float poly_coeffs[4];

__device__ inline float square(float x) {
    return x * x;
}

__global__ void vadd(float* out, const float* a, const float* b, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] + b[i];
    }
}

// 2D: a grid that is not a multiple of the work-group size (partial work-groups at the edges).
__global__ void fill2d(int* out, int width, int height) {
    const int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    const int y = hipBlockIdx_y * hipBlockDim_y + hipThreadIdx_y;
    if (x < width && y < height) {
        out[y * width + x] = x * 1000 + y;
    }
}

// 3D: every coordinate of every work-item, packed.
__global__ void index3d(unsigned* out, unsigned nx, unsigned ny) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
    out[(z * ny + y) * nx + x] = (threadIdx.x << 0) | (threadIdx.y << 4) | (threadIdx.z << 8) |
                                 (blockIdx.x << 12) | (blockIdx.y << 16) | (blockIdx.z << 20) |
                                 (gridDim.x << 24) | (gridDim.z << 28);
}

// Work-group tree reduction in __shared__ memory (256 work-items per group).
__global__ void block_sum(const float* in, float* out) {
    __shared__ float partial[256];
    const unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            partial[t] += partial[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = partial[0];
    }
}

// Tiled transpose through a 16x17 __shared__ tile.
__global__ void transpose(float* out, const float* in, int width, int height) {
    __shared__ float tile[16][17];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    if (x < width && y < height) {
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    }
    __syncthreads();
    x = blockIdx.y * 16 + threadIdx.x;
    y = blockIdx.x * 16 + threadIdx.y;
    if (x < height && y < width) {
        out[y * height + x] = tile[threadIdx.x][threadIdx.y];
    }
}

// Atomics of every kind on every type.
__global__ void atomics(int* i, unsigned* u, unsigned long long* ull, float* f, double* d) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&i[0], 1);
    atomicSub(&i[1], 2);
    atomicMax(&i[2], id);
    atomicMin(&i[3], -id);
    atomicOr(&u[0], 1u << (id % 32));
    atomicAnd(&u[1], ~(1u << (id % 32)));
    atomicXor(&u[2], 1u);
    atomicInc(&u[3], 9u);
    atomicDec(&u[4], 9u);
    atomicExch(&u[5], 7u);
    atomicAdd(&ull[0], 1ull << 33);
    atomicMax(&ull[1], static_cast<unsigned long long>(id));
    atomicCAS(&ull[2], static_cast<unsigned long long>(id), static_cast<unsigned long long>(id + 1));
    atomicAdd(&f[0], 0.5f);
    atomicMax(&f[1], static_cast<float>(id));
    atomicExch(&f[2], 3.0f);
    atomicAdd(&d[0], 0.25);
    atomicMin(&d[1], static_cast<double>(-id));
}

// A template kernel: one instantiation is explicit, the other comes from the host launch below.
template <typename T>
__global__ void scale(T* x, T factor, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] * factor;
    }
}
template __global__ void scale<double>(double*, double, int);

// A __device__ counter and a __constant__ table.
__global__ void count_and_poly(float* out, const float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&launch_counter, 1u);
    if (i < n) {
        out[i] = poly_coeffs[0] + poly_coeffs[1] * x[i] + poly_coeffs[2] * square(x[i]) +
                 poly_coeffs[3] * x[i] * square(x[i]);
    }
}

// No arguments at all.
__global__ void bump_counter() {
    atomicAdd(&launch_counter, 1u);
}

// Dynamic shared memory, both spellings: reverses each work-group's slice.
__global__ void reverse_dynamic(int* data) {
    extern __shared__ int slice[];
    const unsigned t = threadIdx.x;
    slice[t] = data[blockIdx.x * blockDim.x + t];
    __syncthreads();
    data[blockIdx.x * blockDim.x + t] = slice[blockDim.x - 1 - t];
}
__global__ void shift_dynamic(float* data, int shift) {
    HIP_DYNAMIC_SHARED(float, buffer)
    const unsigned t = threadIdx.x;
    buffer[t] = data[t];
    __syncthreads();
    data[t] = buffer[(t + shift) % blockDim.x];
}

// By-value arguments: a struct with inner padding, then a char, then a pointer.
__global__ void by_value(KernelParams p, char c, double* out) {
    out[0] = p.scale * p.value + p.tag + c;
    out[1] = p.count;
}

// Work-items that return before a barrier count as arrived.
__global__ void early_exit(int* out, int active) {
    __shared__ int total;
    if (threadIdx.x == 0) {
        total = 0;
    }
    __syncthreads();
    if (static_cast<int>(threadIdx.x) >= active) {
        return;
    }
    atomicAdd(&total, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = total;
    }
}

// Counting barriers.
__global__ void barrier_votes(int* out) {
    const int t = threadIdx.x;
    const int count = __syncthreads_count(t % 3 == 0);
    const int all = __syncthreads_and(t < 1000);
    const int any = __syncthreads_or(t == 17);
    const int none_is_5 = __syncthreads_and(t != 5);
    if (t == 0) {
        out[4 * blockIdx.x + 0] = count;
        out[4 * blockIdx.x + 1] = all;
        out[4 * blockIdx.x + 2] = any;
        out[4 * blockIdx.x + 3] = none_is_5;
    }
}

// A failure while other work-items wait at barriers: every work-item's frames are unwound.
struct unwind_counter {
    int* count;
    __device__ ~unwind_counter() { atomicAdd(count, 1); }
};
__global__ void fails_between_barriers(int* count) {
    unwind_counter guard{count};
    __syncthreads();
    if (threadIdx.x == 3) {
        __ballot(1);
    }
    __syncthreads();
}

// A kernel in a namespace, and HIP vector types (16-byte aligned float4 by value).
namespace physics {
__global__ void axpy4(float4* y, float a, float4 x) {
    const float4 v = y[threadIdx.x];
    y[threadIdx.x] = make_float4(a * x.x + v.x, a * x.y + v.y, a * x.z + v.z, a * x.w + v.w);
}
} // namespace physics

// Warp shuffles need lock-step wavefronts: the dispatch fails, naming the feature.
__global__ void shuffle_sum(float* x) {
    float v = x[threadIdx.x];
    for (int offset = 32; offset > 0; offset /= 2) {
        v += __shfl_down(v, offset);
    }
    if (threadIdx.x == 0) {
        x[0] = v;
    }
}

// The AMDGPU builtins stand-ins implement: ids and the barrier.
__global__ void builtin_ids(unsigned* out) {
    const unsigned t = __builtin_amdgcn_workitem_id_x();
    out[blockIdx.x * blockDim.x + t] = 0;
    __builtin_amdgcn_s_barrier();
    out[blockIdx.x * blockDim.x + (t + 1) % blockDim.x] += t + 1000u * __builtin_amdgcn_workgroup_id_x();
}

// An AMDGPU builtin: compiles, fails the dispatch.
__global__ void amdgcn_builtin(unsigned* out) {
    out[0] = __builtin_amdgcn_readfirstlane(threadIdx.x);
}

// Launch syntax the source rewrite must handle: inside a multi-line macro, a configuration spanning
// lines, and look-alikes in comments and strings: "<<<" and '>>>'  // <<<not a launch>>>
#define LAUNCH_SCALE(ptr, n) scale<<<dim3(((n) + 255) / 256), dim3(256)>>>(ptr, 0.5f, n)
static const char not_a_launch[] = "k<<<1, 1>>>()";

int main() {
    float* d = nullptr;
    (void)hipMalloc(&d, 1024 * sizeof(float));
    vadd<<<dim3(4), dim3(256), 0, 0>>>(d, d, d, 1024);
    scale<<<4, 256>>>(d, 2.0f, 1024);
    LAUNCH_SCALE(d, 1024);
    vadd<<<dim3(4), dim3(256), 0, hipStreamPerThread>>>(d, d, d, static_cast<int>(sizeof not_a_launch));
    hipLaunchKernelGGL(count_and_poly, dim3(4), dim3(256), 0, 0, d, d, 1024);
    // hip_ext.h's template launch (timed by events) must compile in the host build too.
    hipExtLaunchKernelGGL(scale, dim3(4), dim3(256), 0, 0, nullptr, nullptr, 0, d, 2.0f, 1024);
    reverse_dynamic<<<4, 256, 256 * sizeof(int)>>>(reinterpret_cast<int*>(d));
    (void)hipDeviceSynchronize();
    (void)hipFree(d);
    return 0;
}
