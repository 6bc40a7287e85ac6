// SPDX-License-Identifier: MIT
// hip_graph: a graph captured from a stream (two kernels: add_one on y, then scale on z) launched three
// times with hipGraphLaunch, and add_one launched once directly. y and z are incremented in place, so
// the count of executions shows: y = 4 (three graph runs, one direct launch), z = 2^3. Under
// replayscope-run the graph's dispatches must run exactly once each (declined, graph-launch).
#include "hip_check.h"

#include <vector>

namespace {
constexpr const char* kProgram = "hip_graph";
constexpr int kCount = 4096;
constexpr int kGraphLaunches = 3;
} // namespace

__global__ void add_one(float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += 1.0f;
    }
}

__global__ void scale(float* z, float factor, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        z[i] *= factor;
    }
}

int main() {
    float *y = nullptr, *z = nullptr;
    HIP_CHECK(hipMalloc(&y, kCount * sizeof(float)));
    HIP_CHECK(hipMalloc(&z, kCount * sizeof(float)));
    std::vector<float> ones(kCount, 1.0f);
    HIP_CHECK(hipMemcpy(z, ones.data(), kCount * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(y, 0, kCount * sizeof(float)));
    hipStream_t stream = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));

    hipGraph_t graph = nullptr;
    hipGraphExec_t exec = nullptr;
    HIP_CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeThreadLocal));
    hipLaunchKernelGGL(add_one, dim3(kCount / 256), dim3(256), 0, stream, y, kCount);
    hipLaunchKernelGGL(scale, dim3(kCount / 256), dim3(256), 0, stream, z, 2.0f, kCount);
    HIP_CHECK(hipStreamEndCapture(stream, &graph));
    HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
    for (int i = 0; i < kGraphLaunches; ++i) {
        HIP_CHECK(hipGraphLaunch(exec, stream));
    }
    HIP_CHECK(hipStreamSynchronize(stream));
    hipLaunchKernelGGL(add_one, dim3(kCount / 256), dim3(256), 0, stream, y, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(stream));

    std::vector<float> ry(kCount), rz(kCount);
    HIP_CHECK(hipMemcpy(ry.data(), y, kCount * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(rz.data(), z, kCount * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (ry[i] != kGraphLaunches + 1.0f) {
            rs_hip::fail(kProgram, "y[%d] = %g, expected %d (each graph run and the direct launch once)", i,
                         ry[i], kGraphLaunches + 1);
        }
        if (rz[i] != 8.0f) {
            rs_hip::fail(kProgram, "z[%d] = %g, expected 8 (three graph runs)", i, rz[i]);
        }
    }
    HIP_CHECK(hipGraphExecDestroy(exec));
    HIP_CHECK(hipGraphDestroy(graph));
    HIP_CHECK(hipStreamDestroy(stream));
    HIP_CHECK(hipFree(y));
    HIP_CHECK(hipFree(z));
    std::printf("hip_graph: %d graph launches and one direct launch, each ran once\nPASS\n", kGraphLaunches);
    return 0;
}
