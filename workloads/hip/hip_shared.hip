// SPDX-License-Identifier: MIT
// hip_shared: kernels whose work-items cooperate through __shared__ memory and __syncthreads(): a tree
// reduction per block accumulated into one total with atomicAdd (so the total is right only if the
// kernel ran once on restored inputs), a 32x32 tile transpose through a padded shared tile, and a block
// sum through dynamically sized shared memory (extern __shared__, size given at launch). Checked against
// host references.
#include "hip_check.h"

#include <vector>

namespace {
constexpr const char* kProgram = "hip_shared";
constexpr int kCount = 1 << 18; // ints to sum
constexpr int kN = 256;         // kN x kN matrix to transpose
constexpr int kTile = 32, kRowsPerPass = 8;
} // namespace

__global__ void __launch_bounds__(256) block_sum(const int* in, unsigned long long* total, int n) {
    __shared__ int partial[256];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            partial[t] += partial[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(total, static_cast<unsigned long long>(partial[0]));
    }
}

__global__ void transpose(const float* in, float* out, int n) {
    __shared__ float tile[kTile][kTile + 1];
    const int x = blockIdx.x * kTile + threadIdx.x;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        tile[threadIdx.y + j][threadIdx.x] = in[(blockIdx.y * kTile + threadIdx.y + j) * n + x];
    }
    __syncthreads();
    const int tx = blockIdx.y * kTile + threadIdx.x;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        out[(blockIdx.x * kTile + threadIdx.y + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
    }
}

__global__ void dynamic_block_sum(const int* in, int* sums) {
    extern __shared__ int scratch[];
    const int t = threadIdx.x;
    scratch[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (unsigned k = 0; k < blockDim.x; ++k) {
            s += scratch[k];
        }
        sums[blockIdx.x] = s;
    }
}

int main() {
    std::vector<int> values(kCount);
    unsigned long long want_total = 0;
    for (int i = 0; i < kCount; ++i) {
        values[i] = (i * 37) % 1001 - 500;
        want_total += static_cast<unsigned long long>(static_cast<long long>(values[i]));
    }
    int* in = nullptr;
    unsigned long long* total = nullptr;
    HIP_CHECK(hipMalloc(&in, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&total, sizeof(unsigned long long)));
    HIP_CHECK(hipMemcpy(in, values.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(total, 0, sizeof(unsigned long long)));
    hipLaunchKernelGGL(block_sum, dim3(kCount / 256), dim3(256), 0, 0, in, total, kCount);
    HIP_CHECK(hipGetLastError());
    unsigned long long got_total = 0;
    HIP_CHECK(hipMemcpy(&got_total, total, sizeof(got_total), hipMemcpyDeviceToHost));
    if (got_total != want_total) {
        rs_hip::fail(kProgram, "block_sum total %lld, expected %lld", static_cast<long long>(got_total),
                     static_cast<long long>(want_total));
    }

    std::vector<float> m(kN * kN), t(kN * kN);
    for (int i = 0; i < kN * kN; ++i) {
        m[i] = static_cast<float>(i);
    }
    float *dm = nullptr, *dt = nullptr;
    HIP_CHECK(hipMalloc(&dm, kN * kN * sizeof(float)));
    HIP_CHECK(hipMalloc(&dt, kN * kN * sizeof(float)));
    HIP_CHECK(hipMemcpy(dm, m.data(), kN * kN * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(transpose, dim3(kN / kTile, kN / kTile), dim3(kTile, kRowsPerPass), 0, 0, dm, dt, kN);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(t.data(), dt, kN * kN * sizeof(float), hipMemcpyDeviceToHost));
    for (int r = 0; r < kN; ++r) {
        for (int c = 0; c < kN; ++c) {
            if (t[r * kN + c] != m[c * kN + r]) {
                rs_hip::fail(kProgram, "transpose[%d][%d] = %g, expected %g", r, c, t[r * kN + c],
                             m[c * kN + r]);
            }
        }
    }

    constexpr int kBlocks = 64, kThreads = 128;
    int* sums = nullptr;
    HIP_CHECK(hipMalloc(&sums, kBlocks * sizeof(int)));
    hipLaunchKernelGGL(dynamic_block_sum, dim3(kBlocks), dim3(kThreads), kThreads * sizeof(int), 0, in, sums);
    HIP_CHECK(hipGetLastError());
    std::vector<int> got_sums(kBlocks);
    HIP_CHECK(hipMemcpy(got_sums.data(), sums, kBlocks * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < kBlocks; ++b) {
        int want = 0;
        for (int k = 0; k < kThreads; ++k) {
            want += values[b * kThreads + k];
        }
        if (got_sums[b] != want) {
            rs_hip::fail(kProgram, "dynamic_block_sum[%d] = %d, expected %d", b, got_sums[b], want);
        }
    }
    for (void* p : {static_cast<void*>(in), static_cast<void*>(total), static_cast<void*>(dm),
                    static_cast<void*>(dt), static_cast<void*>(sums)}) {
        HIP_CHECK(hipFree(p));
    }
    std::printf("hip_shared: reduction, transpose and dynamic shared memory match\nPASS\n");
    return 0;
}
