// SPDX-License-Identifier: MIT
// hip_restore_regions: one launch of `update` on two buffers of distinctive sizes: `counts` (12288 bytes)
// is updated in place (counts[i] += 1), `squares` (20480 bytes) is overwritten (squares[i] = i * i + 7).
// A replaying tool restores both between passes and after the last one; when one region's restore cannot
// be done, its session must name that region and what it holds. Prints, for each buffer, how many
// executions of the kernel its contents show ("counts: N execution(s)", "squares: intact" or "squares:
// wrong"), then checks that both hold the result of one execution.
#include "hip_check.h"

#include <vector>

namespace {
constexpr const char* kProgram = "hip_restore_regions";
constexpr int kCounts = 12288 / sizeof(int);
constexpr int kSquares = 20480 / sizeof(int);
} // namespace

__global__ void update(int* counts, int n_counts, int* squares, int n_squares) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n_counts) {
        counts[i] += 1;
    }
    if (i < n_squares) {
        squares[i] = i * i + 7;
    }
}

int main() {
    int *counts = nullptr, *squares = nullptr;
    HIP_CHECK(hipMalloc(&counts, kCounts * sizeof(int)));
    HIP_CHECK(hipMalloc(&squares, kSquares * sizeof(int)));
    std::printf("alloc counts %lld %zu\nalloc squares %lld %zu\n", rs_hip::address_of(counts),
                kCounts * sizeof(int), rs_hip::address_of(squares), kSquares * sizeof(int));
    std::vector<int> initial(kCounts), c(kCounts), s(kSquares);
    for (int i = 0; i < kCounts; ++i) {
        initial[i] = 1000 + i;
    }
    HIP_CHECK(hipMemcpy(counts, initial.data(), kCounts * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(squares, 0, kSquares * sizeof(int)));
    HIP_CHECK(hipDeviceSynchronize());
    hipLaunchKernelGGL(update, dim3(kSquares / 256), dim3(256), 0, 0, counts, kCounts, squares, kSquares);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(c.data(), counts, kCounts * sizeof(int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(s.data(), squares, kSquares * sizeof(int), hipMemcpyDeviceToHost));
    bool squares_intact = true;
    for (int i = 0; i < kSquares; ++i) {
        squares_intact = squares_intact && s[i] == i * i + 7;
    }
    std::printf("counts: %d execution(s)\nsquares: %s\n", c[0] - initial[0],
                squares_intact ? "intact" : "wrong");
    for (int i = 0; i < kCounts; ++i) {
        if (c[i] != initial[i] + 1) {
            rs_hip::fail(kProgram, "counts[%d] = initial + %d, expected initial + 1", i, c[i] - initial[i]);
        }
    }
    if (!squares_intact) {
        rs_hip::fail(kProgram, "squares do not hold i * i + 7");
    }
    HIP_CHECK(hipFree(counts));
    HIP_CHECK(hipFree(squares));
    std::printf("hip_restore_regions: both buffers hold one execution\nPASS\n");
    return 0;
}
