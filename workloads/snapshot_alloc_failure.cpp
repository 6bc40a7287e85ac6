// SPDX-License-Identifier: MIT
// Workload snapshot_alloc_failure: allocates BUFFERS coarse-grained device buffers of BYTES each (the
// first and the last filled with known contents), then runs accumulate.kd (data[i] += 1) twice on the
// first buffer, one dispatch after the other. Before the first dispatch it arms the allocation-failure
// shim (tests/support/alloc_fail_shim.cpp, rs_alloc_fail_arm) when the shim is preloaded, so the
// engine's host allocations for that dispatch's snapshot fail: many small buffers make the listing of
// the agent's tracked allocations large (snapshot failure inventory_reserve), few large ones the host
// copy of the regions (host_allocation). Whatever the engine did, the first buffer must hold
// initial + 2 (each dispatch ran exactly once for the application) and the last one its contents.
//   snapshot_alloc_failure [BUFFERS [BYTES]]   (defaults 16 and 65536; BYTES a multiple of 4)
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    std::vector<const char*> positional;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--code-object-dir") {
            ++i;
            continue;
        }
        positional.push_back(argv[i]);
    }
    const std::size_t buffers = positional.size() > 0 ? std::strtoull(positional[0], nullptr, 10) : 16;
    const std::size_t bytes = positional.size() > 1 ? std::strtoull(positional[1], nullptr, 10) : 65536;
    if (buffers < 2 || bytes < 4 || bytes % 4 != 0) {
        fail("snapshot_alloc_failure: need at least 2 buffers of a positive multiple of 4 bytes");
    }
    const auto count = static_cast<uint32_t>(bytes / sizeof(uint32_t));

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        std::vector<void*> device(buffers);
        for (void*& p : device) {
            p = session.allocate(session.gpu_pools().coarse, bytes);
        }
        std::vector<uint32_t> first(count), last(count);
        for (uint32_t i = 0; i < count; ++i) {
            first[i] = 3 * i + 7;
            last[i] = 0xa5a50000u ^ i;
        }
        session.copy_to_device(device.front(), first.data(), bytes);
        session.copy_to_device(device.back(), last.data(), bytes);

        void* kernarg = session.kernarg(AccumulateArgs{static_cast<uint32_t*>(device.front()), count},
                                        kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, count);

        using Arm = void (*)();
        using Injected = long (*)();
        const auto arm = reinterpret_cast<Arm>(dlsym(RTLD_DEFAULT, "rs_alloc_fail_arm"));
        const auto injected = reinterpret_cast<Injected>(dlsym(RTLD_DEFAULT, "rs_alloc_fail_injected"));
        if (arm) {
            arm();
            std::printf("snapshot_alloc_failure: allocation-failure shim armed\n");
        }
        queue.dispatch_and_wait(dispatch);
        queue.dispatch_and_wait(dispatch);
        if (injected) {
            std::printf("snapshot_alloc_failure: the shim failed %ld host allocation(s)\n", injected());
        }

        std::vector<uint32_t> result_first(count), result_last(count);
        session.copy_to_host(result_first.data(), device.front(), bytes);
        session.copy_to_host(result_last.data(), device.back(), bytes);
        for (uint32_t i = 0; i < count; ++i) {
            if (result_first[i] != first[i] + 2) {
                fail("first[%u] = %u, expected %u (two dispatches, each applied once)", i, result_first[i],
                     first[i] + 2);
            }
            if (result_last[i] != last[i]) {
                fail("last[%u] = 0x%x, expected 0x%x (untouched by the kernel)", i, result_last[i], last[i]);
            }
        }
        session.free(kernarg);
        for (void* p : device) {
            session.free(p);
        }
        std::printf(
            "snapshot_alloc_failure: %zu buffers of %zu bytes; first == initial + 2, last unchanged\n",
            buffers, bytes);
    }
    std::printf("PASS\n");
    return 0;
}
