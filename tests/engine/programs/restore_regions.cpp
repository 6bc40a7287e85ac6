// SPDX-License-Identifier: MIT
// Test program engine_restore_regions (tests/engine/tst_restore_contract.cpp): one dispatch of
// bump_regions.kd over three coarse-grained buffers and a `__device__` variable, then a report of how
// many executions each of the four regions shows. The program makes exactly three host-to-device
// hsa_memory_copy calls before the dispatch (one per buffer, in the order a, b, c) and none after it, so
// HSA_SIM_FAIL_H2D_COPY=k with k > 3 picks the (k-3)-th copy of the engine's restores.
//
// Output, one line per region: "region NAME address 0x... executions N" (N = how many times the kernel's
// update is in the region; "mixed" when its elements disagree), then "PASS" when every region shows
// exactly one execution, "MISMATCH" otherwise. The exit status is 0 either way (1 on an HSA error): the
// test compares the lines with what the session file says.
#include "restore_regions.h"
#include "hsa_session.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace rs::workloads;
using rs::tests::BumpRegionsArgs;

namespace {

/// Executions seen by `n` values that started at `initial[i]` and gain `step` per execution; -1: mixed.
long executions(const std::vector<uint32_t>& now, const std::vector<uint32_t>& initial, uint32_t step) {
    long seen = -2;
    for (size_t i = 0; i < now.size(); ++i) {
        const uint32_t delta = now[i] - initial[i];
        const long e = delta % step == 0 ? static_cast<long>(delta / step) : -1;
        if (e < 0 || (seen != -2 && e != seen)) {
            return -1;
        }
        seen = e;
    }
    return seen;
}

bool report(const char* region, const void* address, long seen) {
    std::printf("region %s address %p executions %s\n", region, address,
                seen < 0 ? "mixed" : std::to_string(seen).c_str());
    return seen == 1;
}

} // namespace

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    bool all_once = true;
    {
        const Executable executable = session.load("restore_regions_kernels.so");
        const Kernel kernel = executable.kernel("bump_regions.kd", gpu);
        const Variable bumps = executable.variable("bumps", gpu);
        Queue queue(gpu);

        std::vector<uint32_t> init_a(kCount), init_b(kCount), init_c(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            init_a[i] = 5 * i;
            init_b[i] = 70000 + 3 * i;
            init_c[i] = 900000 + i;
        }
        auto* a = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        auto* b = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        auto* c = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        session.copy_to_device(a, init_a.data(), kBytes);
        session.copy_to_device(b, init_b.data(), kBytes);
        session.copy_to_device(c, init_c.data(), kBytes);

        void* kernarg = session.kernarg(BumpRegionsArgs{a, b, c, kCount}, kernel.kernarg_segment_size);
        queue.dispatch_and_wait(make_dispatch(kernel, kernarg, kCount));

        std::vector<uint32_t> now(kCount);
        session.copy_to_host(now.data(), a, kBytes);
        all_once &= report("a", a, executions(now, init_a, rs::tests::kBumpA));
        session.copy_to_host(now.data(), b, kBytes);
        all_once &= report("b", b, executions(now, init_b, rs::tests::kBumpB));
        session.copy_to_host(now.data(), c, kBytes);
        all_once &= report("c", c, executions(now, init_c, rs::tests::kBumpC));
        uint32_t counter = 0;
        session.copy_to_host(&counter, bumps.address, sizeof counter);
        all_once &= report("bumps", bumps.address, counter);

        session.free(kernarg);
        session.free(c);
        session.free(b);
        session.free(a);
    }
    std::printf("%s\n", all_once ? "PASS" : "MISMATCH");
    return 0;
}
