// SPDX-License-Identifier: MIT
// Workload vmem_window (ROCr 6.x headers only): two virtual-memory mappings in one reserved range, one
// backed by a handle from the GPU's coarse-grained pool, one from its fine-grained pool
// (hsa_amd_vmem_handle_create, hsa_amd_vmem_map, hsa_amd_vmem_set_access), then one in-place dispatch
// add_one on each. Prints what hsa_amd_pointer_info answers for each mapping (ROCr 6.1.2 answers from the
// thunk's view, which knows no handle's pool: docs/rocm-behaviour.md), as
//   vmem_window: <coarse|fine> mapping at 0x... pointer info type=<n> owner=<gpu|cpu|none>
// After ONE dispatch as seen by the program each mapping must hold initial + 1: a replaying tool must
// snapshot and restore the coarse-grained mapping, and must not replay a kernel writing the fine-grained
// one (no restore can undo its writes there). With the argument --coarse-only the fine-grained mapping is
// made but no kernel writes it.
#include "hsa_session.h"
#include "kernels/window_kernels.h"

#include <cstdio>
#include <cstring>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 16384;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t); // 64 KiB: a multiple of the 4 KiB granule

    bool coarse_only = false;
    for (int i = 1; i < argc; ++i) {
        coarse_only = coarse_only || std::strcmp(argv[i], "--coarse-only") == 0;
    }

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("window_kernels.so");
        const Kernel kernel = executable.kernel("add_one.kd", gpu);
        Queue queue(gpu);

        void* va = nullptr;
        check(hsa_amd_vmem_address_reserve(&va, 2 * kBytes, 0, 0), "hsa_amd_vmem_address_reserve");
        hsa_amd_vmem_alloc_handle_t handles[2]{};
        const hsa_amd_memory_pool_t pools[2] = {session.gpu_pools().coarse, session.gpu_pools().fine};
        const char* names[2] = {"coarse", "fine"};
        uint32_t* data[2] = {};
        const hsa_amd_memory_access_desc_t access[2] = {{HSA_ACCESS_PERMISSION_RW, gpu},
                                                        {HSA_ACCESS_PERMISSION_RW, session.cpu()}};
        for (int m = 0; m < 2; ++m) {
            void* at = static_cast<char*>(va) + m * kBytes;
            check(hsa_amd_vmem_handle_create(pools[m], kBytes, MEMORY_TYPE_NONE, 0, &handles[m]),
                  "hsa_amd_vmem_handle_create");
            check(hsa_amd_vmem_map(at, kBytes, 0, handles[m], 0), "hsa_amd_vmem_map");
            check(hsa_amd_vmem_set_access(at, kBytes, access, 2), "hsa_amd_vmem_set_access");
            data[m] = static_cast<uint32_t*>(at);
            hsa_amd_pointer_info_t info{};
            info.size = sizeof(info);
            check(hsa_amd_pointer_info(at, &info, nullptr, nullptr, nullptr), "hsa_amd_pointer_info");
            const char* owner = info.agentOwner.handle == gpu.handle             ? "gpu"
                                : info.agentOwner.handle == session.cpu().handle ? "cpu"
                                                                                 : "none";
            std::printf("vmem_window: %s mapping at %p pointer info type=%d owner=%s\n", names[m], at,
                        static_cast<int>(info.type), owner);
        }

        std::vector<uint32_t> initial(kCount), result(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = 5 * i + 1;
        }
        for (int m = 0; m < (coarse_only ? 1 : 2); ++m) {
            session.copy_to_device(data[m], initial.data(), kBytes);
            void* kernarg = session.kernarg(AddOneArgs{data[m], kCount}, kernel.kernarg_segment_size);
            queue.dispatch_and_wait(make_dispatch(kernel, kernarg, kCount));
            session.copy_to_host(result.data(), data[m], kBytes);
            for (uint32_t i = 0; i < kCount; ++i) {
                if (result[i] != initial[i] + 1) {
                    fail("%s mapping: a[%u] = %u, expected %u: the in-place update ran %s", names[m], i,
                         result[i], initial[i] + 1,
                         result[i] > initial[i] + 1 ? "more than once" : "not at all");
                }
            }
            session.free(kernarg);
        }
        for (int m = 0; m < 2; ++m) {
            check(hsa_amd_vmem_unmap(data[m], kBytes), "hsa_amd_vmem_unmap");
            check(hsa_amd_vmem_handle_release(handles[m]), "hsa_amd_vmem_handle_release");
        }
        check(hsa_amd_vmem_address_free(va, 2 * kBytes), "hsa_amd_vmem_address_free");
    }
    std::printf("vmem_window: each mapping written holds initial + 1\nPASS\n");
    return 0;
}
