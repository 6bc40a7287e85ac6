// SPDX-License-Identifier: MIT
// Device-side malloc/free and new/delete (ockl's allocator, ROCm-Device-Libs ockl/src/dm.cl): small
// blocks come from 2 MiB slabs the device asks the runtime for through hostcall (SERVICE_DEVMEM), blocks
// over 3 KiB straight from the runtime, and free() finds a block's slab by clearing its address's low 21
// bits, so the runtime's slabs must be 2 MiB aligned. Across two kernels: the first allocates in every
// work-item (malloc for odd work-items, new[] for even ones), fills its block and leaves the pointer in a
// buffer; work-item 0 also allocates a large block and a counter object with new; the second kernel reads
// every block back, sums it, and frees it (free or delete[]), and deletes the object. Then one kernel
// allocates, uses and frees in the same work-item with new/delete of an object. Run for two rounds (the
// second reuses freed blocks and slabs). Prints PASS when every sum matches the host's.
#include "hip_check.h"

#include <cstdio>
#include <vector>

namespace {

constexpr const char* kProgram = "hip_device_malloc";
constexpr int kBlocks = 4;
constexpr int kThreads = 64;
constexpr int kItems = kBlocks * kThreads;
constexpr int kLargeWords = 2048; // 8 KiB: over ockl's 3 KiB slab threshold

__host__ __device__ int words_of(int id) {
    return 4 + id % 29; // blocks of 16..128 bytes: several slab kinds
}

__host__ __device__ int value(int round, int id, int k) {
    return round * 100003 + id * 131 + k;
}

struct Counter {
    int start;
    int count;
    __device__ Counter(int s, int n) : start(s), count(n) {}
    __device__ long long total() const {
        long long t = 0;
        for (int k = 0; k < count; ++k) {
            t += start + k;
        }
        return t;
    }
};

__global__ void allocate(int round, int** blocks, int** large, Counter** counter) {
    const int id = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int n = words_of(id);
    int* p = id % 2 ? static_cast<int*>(malloc(n * sizeof(int))) : new int[n];
    if (p) {
        for (int k = 0; k < n; ++k) {
            p[k] = value(round, id, k);
        }
    }
    blocks[id] = p;
    if (id == 0) {
        int* q = new int[kLargeWords];
        if (q) {
            for (int k = 0; k < kLargeWords; ++k) {
                q[k] = value(round, -1, k);
            }
        }
        *large = q;
        *counter = new Counter(round, 100);
    }
}

__global__ void use_and_free(int** blocks, int** large, Counter** counter, long long* sums) {
    const int id = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    int* p = blocks[id];
    long long sum = -1;
    if (p) {
        sum = 0;
        for (int k = 0; k < words_of(id); ++k) {
            sum += p[k];
        }
        if (id % 2) {
            free(p);
        } else {
            delete[] p;
        }
    }
    sums[id] = sum;
    if (id == 0) {
        long long large_sum = -1, counted = -1;
        if (int* q = *large) {
            large_sum = 0;
            for (int k = 0; k < kLargeWords; ++k) {
                large_sum += q[k];
            }
            delete[] q;
        }
        if (Counter* c = *counter) {
            counted = c->total();
            delete c;
        }
        sums[kItems] = large_sum;
        sums[kItems + 1] = counted;
    }
}

__global__ void allocate_use_free(int round, long long* sums) {
    const int id = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    Counter* c = new Counter(round + id, words_of(id));
    sums[id] = c ? c->total() : -1;
    delete c;
}

long long block_sum(int round, int id) {
    long long sum = 0;
    for (int k = 0; k < words_of(id); ++k) {
        sum += value(round, id, k);
    }
    return sum;
}

long long counter_total(int start, int count) {
    long long t = 0;
    for (int k = 0; k < count; ++k) {
        t += start + k;
    }
    return t;
}

void expect(const std::vector<long long>& got, int index, long long want, const char* what, int round) {
    if (got[static_cast<size_t>(index)] != want) {
        rs_hip::fail(kProgram, "round %d: %s %d: %lld, expected %lld", round, what, index,
                     got[static_cast<size_t>(index)], want);
    }
}

} // namespace

int main() {
    int** blocks = nullptr;
    int** large = nullptr;
    Counter** counter = nullptr;
    long long* sums = nullptr;
    HIP_CHECK(hipMalloc(&blocks, kItems * sizeof(int*)));
    HIP_CHECK(hipMalloc(&large, sizeof(int*)));
    HIP_CHECK(hipMalloc(&counter, sizeof(Counter*)));
    HIP_CHECK(hipMalloc(&sums, (kItems + 2) * sizeof(long long)));
    std::vector<long long> host(kItems + 2);
    for (int round = 0; round < 2; ++round) {
        HIP_CHECK(hipMemset(sums, 0, (kItems + 2) * sizeof(long long)));
        allocate<<<kBlocks, kThreads>>>(round, blocks, large, counter);
        HIP_CHECK(hipGetLastError());
        use_and_free<<<kBlocks, kThreads>>>(blocks, large, counter, sums);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(host.data(), sums, host.size() * sizeof(long long), hipMemcpyDeviceToHost));
        for (int id = 0; id < kItems; ++id) {
            expect(host, id, block_sum(round, id), "block of work-item", round);
        }
        long long large_sum = 0;
        for (int k = 0; k < kLargeWords; ++k) {
            large_sum += value(round, -1, k);
        }
        expect(host, kItems, large_sum, "large block", round);
        expect(host, kItems + 1, counter_total(round, 100), "counter object", round);
        std::printf("%s: round %d: %d blocks allocated in one kernel, read and freed in the next, a %d-byte "
                    "block and an object with new/delete\n",
                    kProgram, round, kItems, kLargeWords * 4);

        allocate_use_free<<<kBlocks, kThreads>>>(round, sums);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(host.data(), sums, kItems * sizeof(long long), hipMemcpyDeviceToHost));
        for (int id = 0; id < kItems; ++id) {
            expect(host, id, counter_total(round + id, words_of(id)), "object of work-item", round);
        }
        std::printf("%s: round %d: %d objects with new/delete in one kernel\n", kProgram, round, kItems);
    }
    HIP_CHECK(hipFree(blocks));
    HIP_CHECK(hipFree(large));
    HIP_CHECK(hipFree(counter));
    HIP_CHECK(hipFree(sums));
    std::printf("PASS\n");
    return 0;
}
