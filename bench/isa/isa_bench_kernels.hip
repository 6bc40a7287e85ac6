// SPDX-License-Identifier: MIT
// The kernels of isa_bench (docs/performance.md, "Interpreter"): one VALU-heavy, one memory-heavy and one
// LDS/barrier-heavy kernel, built by hipcc for gfx90a and run on the interpreter.
#include <hip/hip_runtime.h>

/// Four dependent multiply-add chains per work-item: almost every instruction is a VALU one.
extern "C" __global__ void isa_bench_valu(float* out, int iterations) {
    float a = static_cast<float>(threadIdx.x) * 0.001f, b = 1.0f, c = 0.5f, d = 0.25f;
    for (int i = 0; i < iterations; ++i) {
        a = a * 0.9999f + b;
        b = b * 0.9998f + c;
        c = c * 0.9997f + d;
        d = d * 0.9996f + a;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

/// A grid-stride scale-and-add over float4s: global loads and stores dominate.
extern "C" __global__ void isa_bench_memory(const float4* in, float4* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float4 v = in[i];
        out[i] = make_float4(v.x * 2.0f + 1.0f, v.y * 2.0f + 1.0f, v.z * 2.0f + 1.0f, v.w * 2.0f + 1.0f);
    }
}

/// Each iteration writes a tile to LDS, waits at a barrier, reads a neighbour's value, waits again.
extern "C" __global__ void isa_bench_lds(float* out, int iterations) {
    __shared__ float tile[256];
    float v = static_cast<float>(threadIdx.x);
    for (int i = 0; i < iterations; ++i) {
        tile[threadIdx.x] = v;
        __syncthreads();
        v = tile[(threadIdx.x + 1) & 255] * 0.5f + v;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
