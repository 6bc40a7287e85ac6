// SPDX-License-Identifier: MIT
// Workload vmem_accumulate (ROCr 6.x headers only): memory made addressable the way stream-ordered
// pools (hipMallocAsync) do it — an address range reserved with hsa_amd_vmem_address_reserve, a
// physical allocation from the GPU's coarse-grained pool (hsa_amd_vmem_handle_create), mapped with
// hsa_amd_vmem_map and opened with hsa_amd_vmem_set_access — then one in-place dispatch of a[i] += 1
// on it. After ONE dispatch as seen by the program every a[i] must equal initial + 1, which a replaying
// tool only achieves if it snapshots and restores the mapped range.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 16384;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t); // 64 KiB: a multiple of the 4 KiB granule

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        void* va = nullptr;
        check(hsa_amd_vmem_address_reserve(&va, kBytes, 0, 0), "hsa_amd_vmem_address_reserve");
        hsa_amd_vmem_alloc_handle_t handle{};
        check(hsa_amd_vmem_handle_create(session.gpu_pools().coarse, kBytes, MEMORY_TYPE_NONE, 0, &handle),
              "hsa_amd_vmem_handle_create");
        check(hsa_amd_vmem_map(va, kBytes, 0, handle, 0), "hsa_amd_vmem_map");
        hsa_amd_memory_access_desc_t access[2] = {{HSA_ACCESS_PERMISSION_RW, gpu},
                                                  {HSA_ACCESS_PERMISSION_RW, session.cpu()}};
        check(hsa_amd_vmem_set_access(va, kBytes, access, 2), "hsa_amd_vmem_set_access");
        auto* data = static_cast<uint32_t*>(va);
        std::printf("vmem_accumulate: %zu bytes mapped at %p from the coarse-grained pool\n", kBytes, va);
        // What a tool would learn from the pointer query (ROCr 6.1.2: UNKNOWN, the mapping is not in the
        // runtime's allocation map; docs/rocm-behaviour.md#pointer-info-of-vmem-mappings-rocr-612).
        hsa_amd_pointer_info_t info{};
        info.size = sizeof(info);
        check(hsa_amd_pointer_info(va, &info, nullptr, nullptr, nullptr), "hsa_amd_pointer_info");
        std::printf("vmem_accumulate: pointer info type %d, owner is the GPU: %s\n",
                    static_cast<int>(info.type), info.agentOwner.handle == gpu.handle ? "yes" : "no");

        std::vector<uint32_t> initial(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = 3 * i + 11;
        }
        session.copy_to_device(data, initial.data(), kBytes);

        void* kernarg = session.kernarg(AccumulateArgs{data, kCount}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        queue.dispatch_and_wait(dispatch);

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), data, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != initial[i] + 1) {
                fail("a[%u] = %u, expected %u: the in-place update ran %s", i, result[i], initial[i] + 1,
                     result[i] > initial[i] + 1 ? "more than once" : "not at all");
            }
        }
        session.free(kernarg);
        check(hsa_amd_vmem_unmap(va, kBytes), "hsa_amd_vmem_unmap");
        check(hsa_amd_vmem_handle_release(handle), "hsa_amd_vmem_handle_release");
        check(hsa_amd_vmem_address_free(va, kBytes), "hsa_amd_vmem_address_free");
    }
    std::printf("vmem_accumulate: every a[i] == initial + 1\nPASS\n");
    return 0;
}
