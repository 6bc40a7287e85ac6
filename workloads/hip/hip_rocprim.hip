// SPDX-License-Identifier: MIT
// Debian's rocPRIM (header-only) on the simulated agent: warp-level reduce and scan (DPP, ds_swizzle,
// cross-lane moves), a block-level reduce through LDS, and the device-wide reduce, inclusive scan and
// radix sort, each checked against the host. Prints PASS when every result matches.
#include "hip_check.h"

#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

namespace {

constexpr const char* kProgram = "hip_rocprim";
constexpr unsigned kBlock = 256;

#define CHECK(call) rs_hip::check(kProgram, (call), #call)

/// Per wave of 64: the sum and the inclusive prefix sums of the wave's values (rocprim::warp_reduce and
/// warp_scan over a full 64-lane wave).
__global__ void warp_sums(const int* in, int* wave_sum, int* prefix) {
    using Reduce = rocprim::warp_reduce<int, 64>;
    using Scan = rocprim::warp_scan<int, 64>;
    __shared__ typename Reduce::storage_type reduce_storage[kBlock / 64];
    __shared__ typename Scan::storage_type scan_storage[kBlock / 64];
    const unsigned i = blockIdx.x * kBlock + threadIdx.x;
    const unsigned wave = threadIdx.x / 64;
    int sum = 0, scanned = 0;
    Reduce().reduce(in[i], sum, reduce_storage[wave]);
    Scan().inclusive_scan(in[i], scanned, scan_storage[wave]);
    if (threadIdx.x % 64 == 0) {
        wave_sum[i / 64] = sum;
    }
    prefix[i] = scanned;
}

/// The maximum of each block's values (rocprim::block_reduce).
__global__ void block_max(const int* in, int* out) {
    using Reduce = rocprim::block_reduce<int, kBlock>;
    __shared__ typename Reduce::storage_type storage;
    int value = 0;
    Reduce().reduce(in[blockIdx.x * kBlock + threadIdx.x], value, storage, rocprim::maximum<int>());
    if (threadIdx.x == 0) {
        out[blockIdx.x] = value;
    }
}

} // namespace

int main() {
    const size_t n = 1 << 16;
    std::vector<int> host(n);
    for (size_t i = 0; i < n; ++i) {
        host[i] = static_cast<int>((i * 2654435761u) % 2001) - 1000;
    }
    int *in = nullptr, *out = nullptr, *sums = nullptr, *sum = nullptr;
    CHECK(hipMalloc(&in, n * sizeof(int)));
    CHECK(hipMalloc(&out, n * sizeof(int)));
    CHECK(hipMalloc(&sums, n / 64 * sizeof(int)));
    CHECK(hipMalloc(&sum, sizeof(int)));
    CHECK(hipMemcpy(in, host.data(), n * sizeof(int), hipMemcpyHostToDevice));

    // Warp reduce and scan.
    warp_sums<<<n / kBlock, kBlock>>>(in, sums, out);
    CHECK(hipGetLastError());
    std::vector<int> wave_sums(n / 64), prefix(n);
    CHECK(hipMemcpy(wave_sums.data(), sums, wave_sums.size() * sizeof(int), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(prefix.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
    for (size_t w = 0; w < n / 64; ++w) {
        int running = 0;
        for (size_t l = 0; l < 64; ++l) {
            running += host[w * 64 + l];
            if (prefix[w * 64 + l] != running) {
                rs_hip::fail(kProgram, "warp_scan: element %zu is %d, expected %d", w * 64 + l,
                             prefix[w * 64 + l], running);
            }
        }
        if (wave_sums[w] != running) {
            rs_hip::fail(kProgram, "warp_reduce: wave %zu is %d, expected %d", w, wave_sums[w], running);
        }
    }

    // Block reduce.
    block_max<<<n / kBlock, kBlock>>>(in, sums);
    CHECK(hipGetLastError());
    std::vector<int> maxima(n / kBlock);
    CHECK(hipMemcpy(maxima.data(), sums, maxima.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (size_t b = 0; b < n / kBlock; ++b) {
        const int expected = *std::max_element(host.begin() + b * kBlock, host.begin() + (b + 1) * kBlock);
        if (maxima[b] != expected) {
            rs_hip::fail(kProgram, "block_reduce: block %zu is %d, expected %d", b, maxima[b], expected);
        }
    }

    // Device reduce, inclusive scan, radix sort (temporary storage sized by a first call).
    size_t bytes = 0;
    CHECK(rocprim::reduce(nullptr, bytes, in, sum, 0, n, rocprim::plus<int>()));
    void* temp = nullptr;
    CHECK(hipMalloc(&temp, bytes));
    CHECK(rocprim::reduce(temp, bytes, in, sum, 0, n, rocprim::plus<int>()));
    int total = 0;
    CHECK(hipMemcpy(&total, sum, sizeof(int), hipMemcpyDeviceToHost));
    const int expected_total = std::accumulate(host.begin(), host.end(), 0);
    if (total != expected_total) {
        rs_hip::fail(kProgram, "device reduce: %d, expected %d", total, expected_total);
    }
    CHECK(hipFree(temp));

    bytes = 0;
    CHECK(rocprim::inclusive_scan(nullptr, bytes, in, out, n, rocprim::plus<int>()));
    CHECK(hipMalloc(&temp, bytes));
    CHECK(rocprim::inclusive_scan(temp, bytes, in, out, n, rocprim::plus<int>()));
    std::vector<int> result(n), expected(n);
    CHECK(hipMemcpy(result.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
    std::partial_sum(host.begin(), host.end(), expected.begin());
    if (result != expected) {
        rs_hip::fail(kProgram, "device inclusive_scan differs from the host's");
    }
    CHECK(hipFree(temp));

    bytes = 0;
    CHECK(rocprim::radix_sort_keys(nullptr, bytes, in, out, n));
    CHECK(hipMalloc(&temp, bytes));
    CHECK(rocprim::radix_sort_keys(temp, bytes, in, out, n));
    CHECK(hipMemcpy(result.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
    expected = host;
    std::sort(expected.begin(), expected.end());
    if (result != expected) {
        rs_hip::fail(kProgram, "device radix_sort_keys differs from std::sort");
    }
    CHECK(hipFree(temp));
    CHECK(hipFree(in));
    CHECK(hipFree(out));
    CHECK(hipFree(sums));
    CHECK(hipFree(sum));
    std::printf(
        "hip_rocprim: warp reduce and scan, block reduce, device reduce, scan and radix sort match\n");
    std::printf("PASS\n");
    return 0;
}
