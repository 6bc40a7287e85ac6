// SPDX-License-Identifier: MIT
// demo: the HIP application ReplayScope's README runs. A 2-D heat-diffusion (Jacobi) solver on every
// GPU (one host thread per device, HSA_SIM_GPU_AGENTS=2 on the simulator), built by hipcc for gfx90a,
// with the kernel mix and memory use of a real application:
//  - jacobi_step: a 16x16 tile with its halo in __shared__ memory, __syncthreads(), weights from a
//    __constant__ table set with hipMemcpyToSymbol;
//  - residual_norm: a __shared__ block reduction, one atomicAdd per block, a __device__ iteration
//    counter (read back with hipMemcpyFromSymbol);
//  - axpy: y += alpha * x in place (a replay that did not restore y would show);
//  - every tenth iteration a graph (captured from a stream, launched with hipGraphLaunch) runs an extra
//    axpy and copies a halo row into fine-grained memory (hipExtMallocWithFlags
//    hipDeviceMallocFinegrained); a second stream waits for it (hipEventRecord / hipStreamWaitEvent)
//    and copies the row into pinned host memory (hipHostMalloc);
//  - every eighth iteration a checkpoint of the grid in stream-ordered memory (hipMallocAsync,
//    hipFreeAsync), copied back and compared;
//  - hipMemset / hipMemsetAsync clear the residual (HIP's fill blit kernel), hipMemcpy moves the data.
// Every result is checked against a host reference: exit status 1 and a message on a mismatch.
//
// Usage: demo [--iterations N] [--no-graph] [--no-async-alloc]   (default 40 iterations)
//   --no-graph        run the graph's two kernels directly instead of through hipGraphLaunch
//   --no-async-alloc  checkpoint through hipMalloc/hipFree instead of hipMallocAsync/hipFreeAsync
#include "hip_check.h"

#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char* kProgram = "demo";
constexpr int kTile = 16;
constexpr int kWidth = 256, kHeight = 256, kCells = kWidth * kHeight; // 256 KiB of float per grid
constexpr int kVector = 64 * 1024;                                    // 256 KiB of float
constexpr int kBlock = 256;
constexpr float kAlpha = 0.25f;
constexpr float kWeights[5] = {0.5f, 0.125f, 0.125f, 0.125f, 0.125f};

} // namespace

__constant__ float stencil_weights[5];
__device__ unsigned int iterations_done;

/** One Jacobi sweep of a width x height grid (multiples of 16); boundary cells are copied. */
__global__ void __launch_bounds__(256) jacobi_step(const float* in, float* out, int width, int height) {
    __shared__ float tile[kTile + 2][kTile + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
    const int i = y * width + x;
    tile[ty + 1][tx + 1] = in[i];
    if (tx == 0 && x > 0) {
        tile[ty + 1][0] = in[i - 1];
    }
    if (tx == kTile - 1 && x + 1 < width) {
        tile[ty + 1][kTile + 1] = in[i + 1];
    }
    if (ty == 0 && y > 0) {
        tile[0][tx + 1] = in[i - width];
    }
    if (ty == kTile - 1 && y + 1 < height) {
        tile[kTile + 1][tx + 1] = in[i + width];
    }
    __syncthreads();
    const float c = tile[ty + 1][tx + 1];
    if (x == 0 || y == 0 || x + 1 == width || y + 1 == height) {
        out[i] = c;
    } else {
        out[i] = stencil_weights[0] * c + stencil_weights[1] * tile[ty + 1][tx] +
                 stencil_weights[2] * tile[ty + 1][tx + 2] + stencil_weights[3] * tile[ty][tx + 1] +
                 stencil_weights[4] * tile[ty + 2][tx + 1];
    }
}

/** norm += sum |a - b| (one atomicAdd per block of 256); block 0 counts the call in iterations_done. */
__global__ void __launch_bounds__(256) residual_norm(const float* a, const float* b, float* norm, int n) {
    __shared__ float partial[kBlock];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? fabsf(a[i] - b[i]) : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            partial[t] += partial[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(norm, partial[0]);
        if (blockIdx.x == 0) {
            atomicAdd(&iterations_done, 1u);
        }
    }
}

/** y += alpha * x, in place. */
__global__ void axpy(const float* x, float* y, float alpha, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += alpha * x[i];
    }
}

/** dst[i] = src[i] for i < n. */
__global__ void copy_floats(const float* src, float* dst, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dst[i] = src[i];
    }
}

namespace {

/** One host-side Jacobi sweep, the reference the device result is checked against. */
void host_jacobi(const std::vector<float>& in, std::vector<float>& out) {
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            const int i = y * kWidth + x;
            out[i] = (x == 0 || y == 0 || x + 1 == kWidth || y + 1 == kHeight)
                         ? in[i]
                         : kWeights[0] * in[i] + kWeights[1] * in[i - 1] + kWeights[2] * in[i + 1] +
                               kWeights[3] * in[i - kWidth] + kWeights[4] * in[i + kWidth];
        }
    }
}

bool matches(float got, float want) {
    return std::fabs(got - want) <= 1e-3f * (1.0f + std::fabs(want));
}

struct Options {
    int iterations = 40;
    bool graph = true;
    bool async_alloc = true;
};

struct DeviceRun {
    unsigned stencil = 0, axpy = 0, residual = 0, graph_launches = 0, halo_copies = 0, checkpoints = 0;
    unsigned iterations_done = 0;
    float last_residual = 0.0f;
    std::string name;
};

void solve(int device, const Options& opt, DeviceRun& out) {
    HIP_CHECK(hipSetDevice(device));
    hipDeviceProp_t props{};
    HIP_CHECK(hipGetDeviceProperties(&props, device));
    out.name = props.gcnArchName;

    hipStream_t compute = nullptr, copy = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&compute, hipStreamNonBlocking));
    HIP_CHECK(hipStreamCreateWithFlags(&copy, hipStreamNonBlocking));
    hipEvent_t halo_ready = nullptr;
    HIP_CHECK(hipEventCreateWithFlags(&halo_ready, hipEventDisableTiming));

    float *a = nullptr, *b = nullptr, *x = nullptr, *y = nullptr, *norm = nullptr;
    HIP_CHECK(hipMalloc(&a, kCells * sizeof(float)));
    HIP_CHECK(hipMalloc(&b, kCells * sizeof(float)));
    HIP_CHECK(hipMalloc(&x, kVector * sizeof(float)));
    HIP_CHECK(hipMalloc(&y, kVector * sizeof(float)));
    HIP_CHECK(hipMalloc(&norm, sizeof(float)));
    float* halo = nullptr; // fine-grained device memory: coherent with the host
    HIP_CHECK(hipExtMallocWithFlags(reinterpret_cast<void**>(&halo), kWidth * sizeof(float),
                                    hipDeviceMallocFinegrained));
    float *pinned_halo = nullptr, *pinned_norm = nullptr;
    HIP_CHECK(hipHostMalloc(&pinned_halo, kWidth * sizeof(float), hipHostMallocDefault));
    HIP_CHECK(hipHostMalloc(&pinned_norm, sizeof(float), hipHostMallocDefault));

    std::vector<float> grid(kCells), ones(kVector, 1.0f);
    for (int i = 0; i < kCells; ++i) {
        grid[i] = (i % kWidth == kWidth / 2) ? 100.0f : static_cast<float>(device);
    }
    HIP_CHECK(hipMemcpy(a, grid.data(), kCells * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(b, a, kCells * sizeof(float), hipMemcpyDeviceToDevice));
    HIP_CHECK(hipMemcpy(x, ones.data(), kVector * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(y, 0, kVector * sizeof(float)));

    const dim3 tiles(kWidth / kTile, kHeight / kTile), tile(kTile, kTile);
    const int cell_blocks = kCells / kBlock, vector_blocks = kVector / kBlock;
    const int halo_blocks = (kWidth + kBlock - 1) / kBlock;
    float* const halo_src = a + kWidth; // the first interior row

    // The graph: an extra axpy, then the halo row into fine-grained memory.
    hipGraphExec_t graph_exec = nullptr;
    hipGraph_t graph = nullptr;
    if (opt.graph) {
        HIP_CHECK(hipStreamBeginCapture(compute, hipStreamCaptureModeThreadLocal));
        hipLaunchKernelGGL(axpy, dim3(vector_blocks), dim3(kBlock), 0, compute, x, y, kAlpha, kVector);
        hipLaunchKernelGGL(copy_floats, dim3(halo_blocks), dim3(kBlock), 0, compute, halo_src, halo, kWidth);
        HIP_CHECK(hipStreamEndCapture(compute, &graph));
        HIP_CHECK(hipGraphInstantiate(&graph_exec, graph, nullptr, nullptr, 0));
    }

    std::vector<float> reference = grid, tmp(kCells), checkpoint(kCells);
    double host_residual = 0.0;
    for (int it = 1; it <= opt.iterations; ++it) {
        hipLaunchKernelGGL(jacobi_step, tiles, tile, 0, compute, a, b, kWidth, kHeight);
        hipLaunchKernelGGL(jacobi_step, tiles, tile, 0, compute, b, a, kWidth, kHeight);
        out.stencil += 2;
        host_jacobi(reference, tmp);
        host_jacobi(tmp, reference);
        if (it == opt.iterations) { // the residual of the last iteration: |a - b|, b the first sweep
            host_residual = 0.0;
            for (int i = 0; i < kCells; ++i) {
                host_residual += std::fabs(reference[i] - tmp[i]);
            }
        }
        hipLaunchKernelGGL(axpy, dim3(vector_blocks), dim3(kBlock), 0, compute, x, y, kAlpha, kVector);
        ++out.axpy;
        HIP_CHECK(hipMemsetAsync(norm, 0, sizeof(float), compute));
        hipLaunchKernelGGL(residual_norm, dim3(cell_blocks), dim3(kBlock), 0, compute, a, b, norm, kCells);
        HIP_CHECK(hipGetLastError());
        ++out.residual;

        if (it % 10 == 0) {
            if (opt.graph) {
                HIP_CHECK(hipGraphLaunch(graph_exec, compute));
                ++out.graph_launches;
            } else {
                hipLaunchKernelGGL(axpy, dim3(vector_blocks), dim3(kBlock), 0, compute, x, y, kAlpha,
                                   kVector);
                hipLaunchKernelGGL(copy_floats, dim3(halo_blocks), dim3(kBlock), 0, compute, halo_src, halo,
                                   kWidth);
            }
            ++out.axpy;
            // The copy stream picks the halo up once the compute stream has written it.
            HIP_CHECK(hipEventRecord(halo_ready, compute));
            HIP_CHECK(hipStreamWaitEvent(copy, halo_ready, 0));
            HIP_CHECK(hipMemcpyAsync(pinned_halo, halo, kWidth * sizeof(float), hipMemcpyDeviceToHost, copy));
            HIP_CHECK(hipStreamSynchronize(copy));
            for (int i = 0; i < kWidth; ++i) {
                if (!matches(pinned_halo[i], reference[kWidth + i])) {
                    rs_hip::fail(kProgram, "device %d iteration %d: halo[%d] = %g, host reference %g", device,
                                 it, i, pinned_halo[i], reference[kWidth + i]);
                }
            }
            ++out.halo_copies;
        }
        if (it % 8 == 0) {
            float* scratch = nullptr;
            if (opt.async_alloc) {
                HIP_CHECK(
                    hipMallocAsync(reinterpret_cast<void**>(&scratch), kCells * sizeof(float), compute));
            } else {
                HIP_CHECK(hipMalloc(&scratch, kCells * sizeof(float)));
            }
            hipLaunchKernelGGL(copy_floats, dim3(cell_blocks), dim3(kBlock), 0, compute, a, scratch, kCells);
            HIP_CHECK(hipMemcpyAsync(checkpoint.data(), scratch, kCells * sizeof(float),
                                     hipMemcpyDeviceToHost, compute));
            if (opt.async_alloc) {
                HIP_CHECK(hipFreeAsync(scratch, compute));
            }
            HIP_CHECK(hipStreamSynchronize(compute));
            if (!opt.async_alloc) {
                HIP_CHECK(hipFree(scratch));
            }
            for (int i = 0; i < kCells; ++i) {
                if (!matches(checkpoint[i], reference[i])) {
                    rs_hip::fail(kProgram, "device %d iteration %d: checkpoint[%d] = %g, host reference %g",
                                 device, it, i, checkpoint[i], reference[i]);
                }
            }
            ++out.checkpoints;
        }
    }
    HIP_CHECK(hipMemcpyAsync(pinned_norm, norm, sizeof(float), hipMemcpyDeviceToHost, compute));
    HIP_CHECK(hipStreamSynchronize(compute));
    out.last_residual = *pinned_norm;

    std::vector<float> result_a(kCells), result_y(kVector);
    HIP_CHECK(hipMemcpy(result_a.data(), a, kCells * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(result_y.data(), y, kVector * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCells; ++i) {
        if (!matches(result_a[i], reference[i])) {
            rs_hip::fail(kProgram, "device %d: grid[%d] = %g, host reference %g", device, i, result_a[i],
                         reference[i]);
        }
    }
    if (opt.iterations > 0 && std::fabs(out.last_residual - host_residual) > 1e-3 * (1.0 + host_residual)) {
        rs_hip::fail(kProgram, "device %d: residual %g, host reference %g", device, out.last_residual,
                     host_residual);
    }
    const float expected_y = kAlpha * static_cast<float>(out.axpy);
    for (int i = 0; i < kVector; ++i) {
        if (result_y[i] != expected_y) {
            rs_hip::fail(kProgram, "device %d: y[%d] = %g, expected %g after %u in-place axpy launches",
                         device, i, result_y[i], expected_y, out.axpy);
        }
    }
    HIP_CHECK(hipMemcpyFromSymbol(&out.iterations_done, HIP_SYMBOL(iterations_done), sizeof(unsigned)));
    if (out.iterations_done != out.residual) {
        rs_hip::fail(kProgram, "device %d: __device__ iterations_done = %u, expected %u", device,
                     out.iterations_done, out.residual);
    }

    if (graph_exec) {
        HIP_CHECK(hipGraphExecDestroy(graph_exec));
    }
    if (graph) {
        HIP_CHECK(hipGraphDestroy(graph));
    }
    for (float* p : {a, b, x, y, norm, halo}) {
        HIP_CHECK(hipFree(p));
    }
    HIP_CHECK(hipHostFree(pinned_halo));
    HIP_CHECK(hipHostFree(pinned_norm));
    HIP_CHECK(hipEventDestroy(halo_ready));
    if (opt.async_alloc) {
        // Give the pool's freed blocks back before the stream they were freed on goes away (with HIP
        // 5.2.3 on the simulator, hipStreamDestroy otherwise never returns: docs/sim-fidelity.md).
        hipMemPool_t pool = nullptr;
        HIP_CHECK(hipDeviceGetDefaultMemPool(&pool, device));
        HIP_CHECK(hipMemPoolTrimTo(pool, 0));
    }
    HIP_CHECK(hipStreamDestroy(copy));
    HIP_CHECK(hipStreamDestroy(compute));
}

} // namespace

int main(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            opt.iterations = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--no-graph") == 0) {
            opt.graph = false;
        } else if (std::strcmp(argv[i], "--no-async-alloc") == 0) {
            opt.async_alloc = false;
        } else if (std::strcmp(argv[i], "--code-object-dir") == 0 && i + 1 < argc) {
            ++i; // accepted for the HSA workloads' command line; the kernels are in this binary
        } else {
            rs_hip::fail(kProgram,
                         "unknown option %s (usage: demo [--iterations N] [--no-graph] "
                         "[--no-async-alloc])",
                         argv[i]);
        }
    }
    if (opt.iterations < 0) {
        rs_hip::fail(kProgram, "--iterations must not be negative");
    }
    int devices = 0;
    HIP_CHECK(hipGetDeviceCount(&devices));
    if (devices < 1) {
        rs_hip::fail(kProgram, "no HIP device");
    }
    // Each device's context and module (HIP loads the code object on a device at its first use) are set
    // up on this thread, one device after the other; the solver threads start on initialised devices.
    for (int d = 0; d < devices; ++d) {
        HIP_CHECK(hipSetDevice(d));
        HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(stencil_weights), kWeights, sizeof(kWeights)));
        const unsigned zero = 0;
        HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(iterations_done), &zero, sizeof(zero)));
    }
    std::vector<DeviceRun> runs(static_cast<std::size_t>(devices));
    std::vector<std::thread> threads;
    for (int d = 0; d < devices; ++d) {
        threads.emplace_back([&, d] { solve(d, opt, runs[static_cast<std::size_t>(d)]); });
    }
    for (auto& t : threads) {
        t.join();
    }
    for (int d = 0; d < devices; ++d) {
        const DeviceRun& r = runs[static_cast<std::size_t>(d)];
        std::printf("demo: device %d (%s): %d iterations, %u stencil, %u axpy, %u residual kernels, %u graph "
                    "launches, %u halo copies, %u checkpoints; iterations_done = %u, residual %.4f\n",
                    d, r.name.c_str(), opt.iterations, r.stencil, r.axpy, r.residual, r.graph_launches,
                    r.halo_copies, r.checkpoints, r.iterations_done, r.last_residual);
    }
    std::printf("demo: results match the host reference\nPASS\n");
    return 0;
}
