// SPDX-License-Identifier: MIT
// Kernels and module-scope variables of the AMDGPU ELF code object tst_elf_code_objects loads (built by
// hipcc for gfx90a). Their host stand-ins are in elf_standins.cpp; the GPU code itself never runs.
#include <hip/hip_runtime.h>

__device__ int counter = 7;
__constant__ float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ double table[3] = {0.5, 1.5, 2.5};
__device__ int zeroed[64];
__device__ int* counter_ptr = &counter;

extern "C" __global__ void vadd(float* out, const float* a, const float* b, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (a[i] + b[i]) * scale[0] + static_cast<float>(counter);
    }
}

extern "C" __global__ void bump(int by) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        counter += by;
        zeroed[0] += *counter_ptr;
    }
}

extern "C" __global__ void failing(int* p) {
    p[threadIdx.x] = 1;
}

extern "C" __global__ void no_standin(int* p) {
    p[threadIdx.x] = 2;
}

__global__ void scaled(float* p, int n) {
    extern __shared__ float tile[];
    tile[threadIdx.x] = p[threadIdx.x % n];
    __syncthreads();
    p[threadIdx.x % n] = tile[threadIdx.x] * table[1];
}
