// SPDX-License-Identifier: MIT
// hip_peer_agents: two HIP devices that share memory through peer access (run with HSA_SIM_GPU_AGENTS=2 on
// the simulated runtime). Device 1 enables access to device 0's memory and device 0 to device 1's
// (hipDeviceEnablePeerAccess: HIP 5.2.3 then grants the peer each allocation, hsa_amd_agents_allow_access).
//  (a) Device 0 runs `long_update` in place on its buffer D (made slow on the simulator with
//      HSA_SIM_KERNEL_TIME_NS); a second host thread, DELAY_MS after the launch was announced (argument 1,
//      default 40), has device 1 run `peer_fill`, which writes all 4096 ints of device 0's buffer X. A tool
//      whose replay window on device 0 lets device 1's kernel run inside it, and then restores device 0's
//      snapshot, loses those writes. Afterwards D[i] == 3 * initial + 1 and X[i] == 0x2000 + i.
//  (b) Device 0 runs `peer_increment` on device 1's buffer C in place: C[i] == initial + 1 (one execution;
//      a tool that replays it without restoring device 1's memory leaves initial + passes + 1).
// Prints "peer_fill: N of 4096 ints lost" and "peer_increment: K execution(s)", then PASS when both hold.
#include "hip_check.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_peer_agents";
constexpr int kCount = 4096;
} // namespace

__global__ void long_update(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = 3 * data[i] + 1;
    }
}

__global__ void peer_fill(int* x, int n, int base) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = base + i;
    }
}

__global__ void peer_increment(int* c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] += 1;
    }
}

__global__ void touch(int* p) {
    p[threadIdx.x] = static_cast<int>(threadIdx.x);
}

int main(int argc, char** argv) {
    const int delay_ms = argc > 1 ? std::atoi(argv[1]) : 40;
    int devices = 0;
    HIP_CHECK(hipGetDeviceCount(&devices));
    if (devices < 2) {
        rs_hip::fail(kProgram, "%d device(s); needs two (HSA_SIM_GPU_AGENTS=2 on the simulator)", devices);
    }
    int can_1_0 = 0, can_0_1 = 0;
    HIP_CHECK(hipDeviceCanAccessPeer(&can_1_0, 1, 0));
    HIP_CHECK(hipDeviceCanAccessPeer(&can_0_1, 0, 1));
    if (!can_1_0 || !can_0_1) {
        rs_hip::fail(kProgram, "the devices cannot access each other's memory");
    }
    std::vector<int> initial(kCount), result(kCount);
    for (int i = 0; i < kCount; ++i) {
        initial[i] = 5 * i - 9;
    }
    int *d = nullptr, *x = nullptr, *c = nullptr, *scratch = nullptr;
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipMalloc(&d, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&x, kCount * sizeof(int)));
    HIP_CHECK(hipMemcpy(d, initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(x, 0, kCount * sizeof(int)));
    hipStream_t stream0 = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&stream0, hipStreamNonBlocking));
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipSetDevice(1));
    HIP_CHECK(hipDeviceEnablePeerAccess(0, 0)); // device 1 may access device 0's memory
    HIP_CHECK(hipMalloc(&c, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&scratch, 64 * sizeof(int)));
    HIP_CHECK(hipMemcpy(c, initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    hipStream_t stream1 = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&stream1, hipStreamNonBlocking));
    // Device 1's queues exist before the window opens.
    hipLaunchKernelGGL(touch, dim3(1), dim3(64), 0, stream1, scratch);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(stream1));

    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipDeviceEnablePeerAccess(1, 0)); // device 0 may access device 1's memory

    // (a) device 1 writes device 0's X while device 0's long in-place update runs.
    std::atomic<bool> launching{false};
    std::thread writer([&] {
        HIP_CHECK(hipSetDevice(1));
        while (!launching.load(std::memory_order_acquire)) {
            std::this_thread::yield();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        hipLaunchKernelGGL(peer_fill, dim3(kCount / 256), dim3(256), 0, stream1, x, kCount, 0x2000);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipStreamSynchronize(stream1));
    });
    launching.store(true, std::memory_order_release);
    hipLaunchKernelGGL(long_update, dim3(kCount / 256), dim3(256), 0, stream0, d, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(stream0));
    writer.join();

    // (b) device 0 updates device 1's C in place.
    hipLaunchKernelGGL(peer_increment, dim3(kCount / 256), dim3(256), 0, stream0, c, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(stream0));

    bool ok = true;
    HIP_CHECK(hipMemcpy(result.data(), d, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 3 * initial[i] + 1) {
            std::fprintf(stderr, "%s: D[%d] = %d, expected %d (one execution of the in-place update)\n",
                         kProgram, i, result[i], 3 * initial[i] + 1);
            ok = false;
            break;
        }
    }
    HIP_CHECK(hipMemcpy(result.data(), x, kCount * sizeof(int), hipMemcpyDeviceToHost));
    int lost = 0;
    for (int i = 0; i < kCount; ++i) {
        lost += result[i] != 0x2000 + i ? 1 : 0;
    }
    std::printf("peer_fill: %d of %d ints lost\n", lost, kCount);
    ok = ok && lost == 0;
    HIP_CHECK(hipMemcpy(result.data(), c, kCount * sizeof(int), hipMemcpyDeviceToHost));
    const int executions = result[0] - initial[0];
    std::printf("peer_increment: %d execution(s)\n", executions);
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != initial[i] + 1) {
            ok = false;
            break;
        }
    }
    HIP_CHECK(hipStreamDestroy(stream0));
    HIP_CHECK(hipStreamDestroy(stream1));
    for (int* p : {d, x, c, scratch}) {
        HIP_CHECK(hipFree(p));
    }
    if (!ok) {
        rs_hip::fail(kProgram,
                     "device memory shared between the devices does not hold what the program wrote");
    }
    std::printf(
        "hip_peer_agents: device 1's writes to device 0 kept, device 1's memory updated once\nPASS\n");
    return 0;
}
