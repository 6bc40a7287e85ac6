// SPDX-License-Identifier: MIT
// Workload unrestorable_argument: the in-place a[i] += 1 kernel (accumulate.kd) on memory that no
// snapshot restores, then on ordinary device memory:
//   1. a fine-grained device buffer (hipExtMallocWithFlags(hipDeviceMallocFinegrained) in HIP terms),
//   2. a fine-grained system-memory buffer (hipHostMalloc),
//   3. a coarse-grained device buffer.
// A tool that replayed dispatch 1 or 2 would run the kernel on that memory once per pass with nothing
// put back in between: every element must still be its initial value + 1 after ONE dispatch each.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <cstring>
#include <vector>

using namespace rs::workloads;

namespace {

constexpr uint32_t kCount = 2048;
constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

/** One accumulate dispatch on `data`; fails the workload unless every element grew by exactly one. */
void accumulate_once(HsaSession& session, const Kernel& kernel, Queue& queue, uint32_t* data,
                     bool host_visible, const char* label) {
    std::vector<uint32_t> initial(kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
        initial[i] = 500 + 3 * i;
    }
    if (host_visible) {
        std::memcpy(data, initial.data(), kBytes);
    } else {
        session.copy_to_device(data, initial.data(), kBytes);
    }
    void* kernarg = session.kernarg(AccumulateArgs{data, kCount}, kernel.kernarg_segment_size);
    queue.dispatch_and_wait(make_dispatch(kernel, kernarg, kCount));
    std::vector<uint32_t> result(kCount);
    if (host_visible) {
        std::memcpy(result.data(), data, kBytes);
    } else {
        session.copy_to_host(result.data(), data, kBytes);
    }
    for (uint32_t i = 0; i < kCount; ++i) {
        if (result[i] != initial[i] + 1) {
            fail("%s: a[%u] = %u, expected %u: the in-place update ran %s", label, i, result[i],
                 initial[i] + 1, result[i] > initial[i] + 1 ? "more than once" : "not at all");
        }
    }
    session.free(kernarg);
    std::printf("unrestorable_argument: %s: every a[i] == initial + 1\n", label);
}

} // namespace

int main(int argc, char** argv) {
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);
        // The simulated agents' memory is host memory, so the fine-grained device buffer is read and
        // written with memcpy here as a large-BAR host would.
        auto* fine = static_cast<uint32_t*>(session.allocate(session.gpu_pools().fine, kBytes));
        accumulate_once(session, kernel, queue, fine, true, "fine-grained device memory");
        auto* host = static_cast<uint32_t*>(session.allocate(session.system_pool(), kBytes));
        accumulate_once(session, kernel, queue, host, true, "fine-grained system memory");
        auto* coarse = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        accumulate_once(session, kernel, queue, coarse, false, "coarse-grained device memory");
        session.free(coarse);
        session.free(host);
        session.free(fine);
    }
    std::printf("PASS\n");
    return 0;
}
