// SPDX-License-Identifier: MIT
// What HIP 5.2.3 asks of the runtime for pitched and managed allocations, end to end on the simulated
// runtime (docs/sim-fidelity.md, "Pitched allocations, managed memory and stream-ordered allocation"):
//  - hipMallocPitch / hipMalloc3D succeed with ROCclr's 256-byte pitch, and hipMemcpy2D round-trips;
//  - hipMallocManaged memory is written by the host, incremented by a kernel after hipMemAdvise and
//    hipMemPrefetchAsync, read back by the host; the advice and the prefetch location read back;
//  - the documented way around HIP 5.2.3's hipStreamDestroy hang after hipFreeAsync (trim the pool
//    first) lets both streams be destroyed.
// Prints PASS and exits 0 when every check holds; otherwise names the failed check and exits 1.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void increment(float* p, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        p[i] += 1.0f;
    }
}

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            std::printf("FAIL: %s (line %d)\n", #cond, __LINE__);                                            \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

static int pitched() {
    void* p = nullptr;
    size_t pitch = 0;
    CHECK(hipMallocPitch(&p, &pitch, 148, 29) == hipSuccess);
    CHECK(pitch == 256); // ROCclr 5.2.x: rows rounded up to its 256-byte image pitch alignment
    static char in[29][148], out[29][148];
    for (int r = 0; r < 29; ++r) {
        for (int c = 0; c < 148; ++c) {
            in[r][c] = static_cast<char>(r * 7 + c);
        }
    }
    CHECK(hipMemcpy2D(p, pitch, in, 148, 148, 29, hipMemcpyHostToDevice) == hipSuccess);
    CHECK(hipMemcpy2D(out, 148, p, pitch, 148, 29, hipMemcpyDeviceToHost) == hipSuccess);
    for (int r = 0; r < 29; ++r) {
        for (int c = 0; c < 148; ++c) {
            CHECK(out[r][c] == in[r][c]);
        }
    }
    CHECK(hipFree(p) == hipSuccess);
    hipPitchedPtr pp{};
    CHECK(hipMalloc3D(&pp, make_hipExtent(148, 29, 3)) == hipSuccess);
    CHECK(pp.pitch == 256 && pp.xsize == 148 && pp.ysize == 29 && pp.ptr != nullptr);
    CHECK(hipFree(pp.ptr) == hipSuccess);
    return 0;
}

static int managed() {
    int attribute = -1;
    CHECK(hipDeviceGetAttribute(&attribute, hipDeviceAttributeManagedMemory, 0) == hipSuccess);
    CHECK(attribute == 1);
    constexpr int n = 1000;
    float* m = nullptr;
    CHECK(hipMallocManaged(reinterpret_cast<void**>(&m), n * sizeof(float)) == hipSuccess);
    for (int i = 0; i < n; ++i) {
        m[i] = static_cast<float>(i);
    }
    CHECK(hipMemAdvise(m, n * sizeof(float), hipMemAdviseSetReadMostly, 0) == hipSuccess);
    CHECK(hipMemPrefetchAsync(m, n * sizeof(float), 0, nullptr) == hipSuccess);
    increment<<<(n + 255) / 256, 256>>>(m, n);
    CHECK(hipDeviceSynchronize() == hipSuccess);
    for (int i = 0; i < n; ++i) {
        CHECK(m[i] == static_cast<float>(i + 1));
    }
    int read_mostly = -1, location = -5;
    CHECK(hipMemRangeGetAttribute(&read_mostly, sizeof(read_mostly), hipMemRangeAttributeReadMostly, m,
                                  n * sizeof(float)) == hipSuccess);
    CHECK(read_mostly == 1);
    CHECK(hipMemRangeGetAttribute(&location, sizeof(location), hipMemRangeAttributeLastPrefetchLocation, m,
                                  n * sizeof(float)) == hipSuccess);
    CHECK(location == 0);
    CHECK(hipFree(m) == hipSuccess);
    return 0;
}

static int stream_ordered_then_destroy() {
    hipStream_t s1 = nullptr, s2 = nullptr;
    CHECK(hipStreamCreate(&s1) == hipSuccess);
    CHECK(hipStreamCreate(&s2) == hipSuccess);
    void* p = nullptr;
    CHECK(hipMallocAsync(&p, 4096, s1) == hipSuccess);
    CHECK(hipFreeAsync(p, s1) == hipSuccess);
    CHECK(hipStreamSynchronize(s1) == hipSuccess);
    // Without this trim, hipStreamDestroy never returns on HIP 5.2.3 (Heap::RemoveStream).
    hipMemPool_t pool = nullptr;
    CHECK(hipDeviceGetDefaultMemPool(&pool, 0) == hipSuccess);
    CHECK(hipMemPoolTrimTo(pool, 0) == hipSuccess);
    CHECK(hipStreamDestroy(s1) == hipSuccess);
    CHECK(hipStreamDestroy(s2) == hipSuccess);
    return 0;
}

int main() {
    if (pitched() || managed() || stream_ordered_then_destroy()) {
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
