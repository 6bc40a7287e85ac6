// SPDX-License-Identifier: MIT
// hip_streams: two streams ordered by an event and by memory values.
//  1. Stream A runs `produce` and records an event; stream B waits for the event (hipStreamWaitEvent),
//     then for a flag in pinned host memory to reach 1 (hipStreamWaitValue32, which HIP implements with
//     a runtime kernel that polls the value), then runs `consume`. The host sets the flag only after B's
//     work is queued and checks that B had not finished before.
//  2. The flag of a second wait is written by the device: stream A runs `produce` again and then
//     hipStreamWriteValue32 (another runtime kernel); B waits for that value, then runs `consume`.
// Checks consume's output after each phase.
#include "hip_check.h"

#include <chrono>
#include <thread>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_streams";
constexpr int kCount = 8192;
} // namespace

__global__ void produce(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = 7 * i;
    }
}

__global__ void consume(const int* data, int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = data[i] + 1;
    }
}

int main() {
    int value = 0;
    HIP_CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeCanUseStreamWaitValue, 0));
    std::printf("can use stream wait value: %d\n", value);
    hipStream_t a = nullptr, b = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
    HIP_CHECK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
    hipEvent_t produced = nullptr;
    HIP_CHECK(hipEventCreate(&produced));
    int *data = nullptr, *out = nullptr;
    HIP_CHECK(hipMalloc(&data, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&out, kCount * sizeof(int)));
    HIP_CHECK(hipMemset(out, 0, kCount * sizeof(int)));
    HIP_CHECK(hipDeviceSynchronize());
    unsigned* flag = nullptr;
    HIP_CHECK(hipHostMalloc(&flag, sizeof(unsigned), hipHostMallocDefault));
    *flag = 0;

    hipLaunchKernelGGL(produce, dim3(kCount / 256), dim3(256), 0, a, data, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipEventRecord(produced, a));
    HIP_CHECK(hipStreamWaitEvent(b, produced, 0));
    HIP_CHECK(hipStreamWaitValue32(b, flag, 1, hipStreamWaitValueEq, 0xffffffffu));
    hipLaunchKernelGGL(consume, dim3(kCount / 256), dim3(256), 0, b, data, out, kCount);
    HIP_CHECK(hipGetLastError());

    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (hipStreamQuery(b) != hipErrorNotReady) {
        rs_hip::fail(kProgram, "stream B finished before the flag it waits for was set");
    }
    __atomic_store_n(flag, 1u, __ATOMIC_RELEASE);
    HIP_CHECK(hipStreamSynchronize(b));
    HIP_CHECK(hipEventSynchronize(produced));

    std::vector<int> result(kCount);
    HIP_CHECK(hipMemcpy(result.data(), out, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 7 * i + 1) {
            rs_hip::fail(kProgram, "phase 1: out[%d] = %d, expected %d", i, result[i], 7 * i + 1);
        }
    }

    // Phase 2: the device releases the wait.
    unsigned* device_flag = nullptr;
    // Signal memory: HIP accepts exactly 8 bytes with this flag.
    HIP_CHECK(hipExtMallocWithFlags(reinterpret_cast<void**>(&device_flag), 8, hipMallocSignalMemory));
    HIP_CHECK(hipMemset(device_flag, 0, 8));
    HIP_CHECK(hipMemset(out, 0, kCount * sizeof(int)));
    HIP_CHECK(hipDeviceSynchronize());
    hipLaunchKernelGGL(produce, dim3(kCount / 256), dim3(256), 0, a, data, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamWriteValue32(a, device_flag, 2, 0));
    HIP_CHECK(hipStreamWaitValue32(b, device_flag, 2, hipStreamWaitValueEq, 0xffffffffu));
    hipLaunchKernelGGL(consume, dim3(kCount / 256), dim3(256), 0, b, data, out, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(b));
    HIP_CHECK(hipMemcpy(result.data(), out, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 7 * i + 1) {
            rs_hip::fail(kProgram, "phase 2: out[%d] = %d, expected %d", i, result[i], 7 * i + 1);
        }
    }
    HIP_CHECK(hipFree(device_flag));
    HIP_CHECK(hipEventDestroy(produced));
    HIP_CHECK(hipStreamDestroy(a));
    HIP_CHECK(hipStreamDestroy(b));
    HIP_CHECK(hipFree(data));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipHostFree(flag));
    std::printf("hip_streams: event and stream-wait-value ordering held\nPASS\n");
    return 0;
}
