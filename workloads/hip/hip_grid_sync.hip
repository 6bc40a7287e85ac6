// SPDX-License-Identifier: MIT
// A grid-wide barrier (cooperative groups' this_grid().sync(), ds_gws_barrier on the device) across the
// work-groups of a cooperative launch: in each round every work-item writes its slot, the grid
// synchronises, and each work-item adds two slots of other work-groups to its sum (the next work-group's,
// in reverse, and the one half the grid away); a second barrier keeps the next round's writes from
// overtaking those reads. Any work-group passing a barrier before the others arrive reads a slot of the
// wrong round, and the sums differ from the host's. Launched twice (the second launch reuses the queue's
// GWS resource), then with a grid larger than the device holds at once, which HIP refuses with
// hipErrorCooperativeLaunchTooLarge. Prints PASS when every sum matches.
#include "hip_check.h"

#include <hip/hip_cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace {

constexpr const char* kProgram = "hip_grid_sync";
constexpr int kBlocks = 12;
constexpr int kThreads = 128; // two waves per work-group: s_barrier and the grid barrier both matter
constexpr int kRounds = 5;

#define CHECK(call) rs_hip::check(kProgram, (call), #call)

__host__ __device__ long long value(int round, int block, int thread) {
    return static_cast<long long>(round) * 1000003 + block * 1009 + thread;
}

__global__ void exchange(long long* slots, long long* sums, int rounds) {
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    const int block = static_cast<int>(blockIdx.x), blocks = static_cast<int>(gridDim.x);
    const int t = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x);
    long long sum = 0;
    for (int r = 0; r < rounds; ++r) {
        slots[block * threads + t] = value(r, block, t);
        grid.sync();
        sum += slots[((block + 1) % blocks) * threads + (threads - 1 - t)];
        sum += 3 * slots[((block + blocks / 2) % blocks) * threads + t];
        grid.sync();
    }
    sums[block * threads + t] = sum;
}

long long expected_sum(int block, int t) {
    long long sum = 0;
    for (int r = 0; r < kRounds; ++r) {
        sum += value(r, (block + 1) % kBlocks, kThreads - 1 - t);
        sum += 3 * value(r, (block + kBlocks / 2) % kBlocks, t);
    }
    return sum;
}

} // namespace

int main() {
    int cooperative = 0;
    CHECK(hipDeviceGetAttribute(&cooperative, hipDeviceAttributeCooperativeLaunch, 0));
    if (!cooperative) {
        rs_hip::fail(kProgram, "the device does not report hipDeviceAttributeCooperativeLaunch");
    }
    const size_t n = static_cast<size_t>(kBlocks) * kThreads;
    long long *slots = nullptr, *sums = nullptr;
    CHECK(hipMalloc(&slots, n * sizeof(long long)));
    CHECK(hipMalloc(&sums, n * sizeof(long long)));
    int rounds = kRounds;
    void* args[] = {&slots, &sums, &rounds};
    for (int launch = 0; launch < 2; ++launch) {
        CHECK(hipMemset(slots, 0, n * sizeof(long long)));
        CHECK(hipMemset(sums, 0, n * sizeof(long long)));
        CHECK(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(exchange), dim3(kBlocks),
                                         dim3(kThreads), args, 0, nullptr));
        CHECK(hipDeviceSynchronize());
        std::vector<long long> host(n);
        CHECK(hipMemcpy(host.data(), sums, n * sizeof(long long), hipMemcpyDeviceToHost));
        for (int b = 0; b < kBlocks; ++b) {
            for (int t = 0; t < kThreads; ++t) {
                const long long want = expected_sum(b, t);
                if (host[static_cast<size_t>(b) * kThreads + t] != want) {
                    rs_hip::fail(kProgram,
                                 "launch %d: work-group %d, work-item %d summed %lld, expected %lld", launch,
                                 b, t, host[static_cast<size_t>(b) * kThreads + t], want);
                }
            }
        }
        std::printf("%s: launch %d: %d work-groups, %d grid barriers, every sum right\n", kProgram, launch,
                    kBlocks, 2 * kRounds);
    }
    // One work-group more than the device holds at once: HIP refuses the cooperative launch.
    int per_cu = 0, compute_units = 0;
    CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, reinterpret_cast<const void*>(exchange),
                                                       kThreads, 0));
    CHECK(hipDeviceGetAttribute(&compute_units, hipDeviceAttributeMultiprocessorCount, 0));
    const unsigned too_many = static_cast<unsigned>(per_cu * compute_units + 1);
    const hipError_t refused = hipLaunchCooperativeKernel(reinterpret_cast<const void*>(exchange),
                                                          dim3(too_many), dim3(kThreads), args, 0, nullptr);
    if (refused != hipErrorCooperativeLaunchTooLarge) {
        rs_hip::fail(kProgram,
                     "a grid of %u work-groups (%d a compute unit, %d compute units): %d, expected "
                     "hipErrorCooperativeLaunchTooLarge",
                     too_many, per_cu, compute_units, static_cast<int>(refused));
    }
    std::printf("%s: a grid of %u work-groups refused: hipErrorCooperativeLaunchTooLarge\n", kProgram,
                too_many);
    CHECK(hipFree(slots));
    CHECK(hipFree(sums));
    std::printf("PASS\n");
    return 0;
}
