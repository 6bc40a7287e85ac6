// SPDX-License-Identifier: MIT
// hip_second_thread_write: while the main thread's long in-place kernel (`long_update`, made slow on the
// simulator with HSA_SIM_KERNEL_TIME_NS) runs on its stream, a second host thread writes two unrelated
// buffers through a stream of its own: X with a kernel of the program (`fill_x`) and Y with hipMemsetAsync
// (a HIP runtime kernel). The second thread starts its work DELAY_MS after the main thread announced its
// launch (argument 1, default 40), i.e. while a replaying tool's window for `long_update` is open.
// Afterwards every buffer must hold what the program wrote: data[i] == 3 * initial + 1 (one execution of
// the in-place update), X[i] == 0x1000 + i and every int of Y == 0x3c3c3c3c. A tool that lets the second
// thread's work run inside the window and then restores the window's snapshot loses X or Y.
#include "hip_check.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_second_thread_write";
constexpr int kCount = 4096;

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

__global__ void long_update(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = 3 * data[i] + 1;
    }
}

__global__ void fill_x(int* x, int n, int base) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = base + i;
    }
}

int main(int argc, char** argv) {
    const int delay_ms = argc > 1 ? std::atoi(argv[1]) : 40;
    int *data = nullptr, *x = nullptr, *y = nullptr;
    HIP_CHECK(hipMalloc(&data, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&x, kCount * sizeof(int)));
    HIP_CHECK(hipMalloc(&y, kCount * sizeof(int)));
    std::vector<int> initial(kCount), result(kCount);
    for (int i = 0; i < kCount; ++i) {
        initial[i] = 7 * i - 11;
    }
    HIP_CHECK(hipMemcpy(data, initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(x, 0, kCount * sizeof(int)));
    HIP_CHECK(hipMemset(y, 0, kCount * sizeof(int)));
    hipStream_t main_stream = nullptr, other_stream = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&main_stream, hipStreamNonBlocking));
    HIP_CHECK(hipStreamCreateWithFlags(&other_stream, hipStreamNonBlocking));
    HIP_CHECK(hipDeviceSynchronize());

    std::atomic<bool> launching{false};
    double writer_done_ms = 0;
    const auto start = std::chrono::steady_clock::now();
    std::thread writer([&] {
        while (!launching.load(std::memory_order_acquire)) {
            std::this_thread::yield();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        hipLaunchKernelGGL(fill_x, dim3(kCount / 256), dim3(256), 0, other_stream, x, kCount, 0x1000);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemsetAsync(y, 0x3c, kCount * sizeof(int), other_stream));
        HIP_CHECK(hipStreamSynchronize(other_stream));
        writer_done_ms = ms_since(start);
    });
    launching.store(true, std::memory_order_release);
    hipLaunchKernelGGL(long_update, dim3(kCount / 256), dim3(256), 0, main_stream, data, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(main_stream));
    const double main_done_ms = ms_since(start);
    writer.join();
    std::printf("long_update done after %.1f ms, second thread's writes after %.1f ms\n", main_done_ms,
                writer_done_ms);

    HIP_CHECK(hipMemcpy(result.data(), data, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 3 * initial[i] + 1) {
            rs_hip::fail(kProgram, "data[%d] = %d, expected %d (one execution of the in-place update)", i,
                         result[i], 3 * initial[i] + 1);
        }
    }
    HIP_CHECK(hipMemcpy(result.data(), x, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 0x1000 + i) {
            rs_hip::fail(kProgram, "X[%d] = %#x, expected %#x: the second thread's kernel write was lost", i,
                         result[i], 0x1000 + i);
        }
    }
    HIP_CHECK(hipMemcpy(result.data(), y, kCount * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) {
        if (result[i] != 0x3c3c3c3c) {
            rs_hip::fail(kProgram, "Y[%d] = %#x, expected 0x3c3c3c3c: the second thread's memset was lost", i,
                         result[i]);
        }
    }
    HIP_CHECK(hipStreamDestroy(main_stream));
    HIP_CHECK(hipStreamDestroy(other_stream));
    for (void* p : {static_cast<void*>(data), static_cast<void*>(x), static_cast<void*>(y)}) {
        HIP_CHECK(hipFree(p));
    }
    std::printf(
        "hip_second_thread_write: data updated once, X and Y hold the second thread's writes\nPASS\n");
    return 0;
}
