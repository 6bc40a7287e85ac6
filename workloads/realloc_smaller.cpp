// SPDX-License-Identifier: MIT
// Workload realloc_smaller: realloc_smaller.kd frees its coarse buffer and allocates a smaller one from
// the same pool while it runs (host callbacks in its kernarg). The simulator's device pools hand back
// the most recently freed block when the new size fits and is at least half of it, so the replacement
// lands at the old address: a tool tracking allocations by address must notice the block changed
// identity. Checks the replacement's address (same as the old one), contents and pointer info.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <vector>

using namespace rs::workloads;

namespace {

/** FreeCallback: hsa_amd_memory_pool_free. */
int32_t free_device_buffer(void* ptr) {
    return static_cast<int32_t>(hsa_amd_memory_pool_free(ptr));
}

/** AllocateCallback: hsa_amd_memory_pool_allocate from the pool with handle `pool_handle`. */
int32_t allocate_device_buffer(uint64_t pool_handle, uint64_t bytes, void** ptr) {
    return static_cast<int32_t>(
        hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t{pool_handle}, bytes, 0, ptr));
}

} // namespace

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 16 * 1024;        // 64 KiB
    constexpr uint32_t kSmallerCount = 12 * 1024; // 48 KiB: fits, and >= half the block

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("buffer_lifetime_kernels.so");
        const Kernel kernel = executable.kernel("realloc_smaller.kd", gpu);
        Queue queue(gpu);

        const hsa_amd_memory_pool_t coarse = session.gpu_pools().coarse;
        auto* buffer = static_cast<uint32_t*>(session.allocate(coarse, kCount * sizeof(uint32_t)));
        auto* result_buffer = static_cast<ReallocResult*>(session.allocate(coarse, sizeof(ReallocResult)));
        std::vector<uint32_t> input(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            input[i] = 0x10000 + i;
        }
        session.copy_to_device(buffer, input.data(), kCount * sizeof(uint32_t));

        void* kernarg =
            session.kernarg(ReallocSmallerArgs{buffer, kCount, kSmallerCount, coarse.handle,
                                               free_device_buffer, allocate_device_buffer, result_buffer},
                            kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        queue.dispatch_and_wait(dispatch);

        ReallocResult result{};
        session.copy_to_host(&result, result_buffer, sizeof result);
        std::printf("realloc_smaller: old buffer %p (%zu bytes), new buffer %p (%zu bytes): %s address\n",
                    static_cast<void*>(buffer), kCount * sizeof(uint32_t), result.new_buffer,
                    kSmallerCount * sizeof(uint32_t), result.new_buffer == buffer ? "SAME" : "different");
        if (result.free_status != HSA_STATUS_SUCCESS) {
            fail("the kernel's free of the old buffer returned 0x%x",
                 static_cast<unsigned>(result.free_status));
        }
        if (result.allocate_status != HSA_STATUS_SUCCESS || result.new_buffer == nullptr) {
            fail("the kernel's allocation returned 0x%x (pointer %p)",
                 static_cast<unsigned>(result.allocate_status), result.new_buffer);
        }
        if (result.new_buffer != buffer) {
            fail("the smaller allocation landed at %p, expected the freed block's address %p",
                 result.new_buffer, static_cast<void*>(buffer));
        }

        std::vector<uint32_t> smaller(kSmallerCount);
        session.copy_to_host(smaller.data(), result.new_buffer, kSmallerCount * sizeof(uint32_t));
        for (uint32_t i = 0; i < kSmallerCount; ++i) {
            if (smaller[i] != input[i] + 1) {
                fail("new_buffer[%u] = %u, expected %u", i, smaller[i], input[i] + 1);
            }
        }
        hsa_amd_pointer_info_t info{};
        info.size = sizeof(info);
        check(hsa_amd_pointer_info(result.new_buffer, &info, nullptr, nullptr, nullptr),
              "hsa_amd_pointer_info");
        std::printf("realloc_smaller: pointer info of the new buffer: type %d, size %zu\n",
                    static_cast<int>(info.type), info.sizeInBytes);
        if (info.type != HSA_EXT_POINTER_TYPE_HSA || info.sizeInBytes != kSmallerCount * sizeof(uint32_t)) {
            fail("new buffer pointer info: type %d size %zu, expected HSA (1) and %zu bytes",
                 static_cast<int>(info.type), info.sizeInBytes, kSmallerCount * sizeof(uint32_t));
        }
        std::printf("realloc_smaller: the replacement holds old[i] + 1\n");
        session.free(kernarg);
        session.free(result.new_buffer);
        session.free(result_buffer);
    }
    std::printf("PASS\n");
    return 0;
}
