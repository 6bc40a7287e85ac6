// SPDX-License-Identifier: MIT
// Workload allocate_beside_window: vector_add on three large coarse-grained buffers while a second host
// thread, some time after the dispatch, allocates (and at once frees) a large block of coarse-grained
// device memory, timing the call. With the kernel slowed down (HSA_SIM_KERNEL_TIME_NS) and the block
// sized so that it fits only without a device snapshot store, a replaying tool that keeps its snapshot
// on the device must give that memory back within a pass or so, not after the whole window.
// Arguments: [buffers MiB in all (default 384)] [block MiB (default 15872)] [delay ms (default 500)]
// [vmem: the block is a virtual-memory handle (hsa_amd_vmem_handle_create, ROCr 6.x headers only);
//  free: the block is allocated before the dispatch (a tracked allocation the snapshot copies) and the
//  second thread frees it, timing the free, while the window's snapshot may be reading it].
// Checks: every sum is right and the block was served. Prints the call's status and duration.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <hsa_api_trace.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    HsaSession session(argc, argv);
    const std::size_t buffers_mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 384;
    const std::size_t block_mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 15872;
    const long delay_ms = argc > 3 ? std::strtol(argv[3], nullptr, 10) : 500;
    const bool vmem = argc > 4 && std::string_view(argv[4]) == "vmem";
    const bool free_mode = argc > 4 && std::string_view(argv[4]) == "free";
#if !defined(HSA_AMD_EXT_API_TABLE_MAJOR_VERSION) || HSA_AMD_EXT_API_TABLE_MAJOR_VERSION < 2
    if (vmem) {
        fail("vmem handles need ROCr 6.x headers");
    }
#endif
    const auto count = static_cast<uint32_t>((buffers_mib << 20) / 3 / sizeof(float));
    const std::size_t bytes = std::size_t(count) * sizeof(float);
    const hsa_agent_t gpu = session.gpu();
    const hsa_amd_memory_pool_t coarse = session.gpu_pools().coarse;
    hsa_status_t status = HSA_STATUS_ERROR;
    double ms = 0;
    {
        const Executable executable = session.load("vector_add_kernels.so");
        const Kernel kernel = executable.kernel("vector_add.kd", gpu);
        Queue queue(gpu);
        std::vector<float> a(count);
        std::vector<float> b(count);
        for (uint32_t i = 0; i < count; ++i) {
            a[i] = static_cast<float>(i % 1000);
            b[i] = 0.5f * static_cast<float>(i % 777) + 3.0f;
        }
        auto* device_a = static_cast<float*>(session.allocate(coarse, bytes));
        auto* device_b = static_cast<float*>(session.allocate(coarse, bytes));
        auto* device_c = static_cast<float*>(session.allocate(coarse, bytes));
        session.copy_to_device(device_a, a.data(), bytes);
        session.copy_to_device(device_b, b.data(), bytes);
        void* kernarg =
            session.kernarg(VectorAddArgs{device_a, device_b, device_c, count}, kernel.kernarg_segment_size);
        void* early = nullptr;
        if (free_mode) {
            early = session.allocate(coarse, block_mib << 20);
            std::vector<unsigned char> fill(block_mib << 20, 0x5a);
            session.copy_to_device(early, fill.data(), fill.size());
        }
        std::thread allocator([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            const auto t0 = std::chrono::steady_clock::now();
            if (free_mode) {
                status = hsa_amd_memory_pool_free(early);
                ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                return;
            }
            if (vmem) {
#if defined(HSA_AMD_EXT_API_TABLE_MAJOR_VERSION) && HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
                hsa_amd_vmem_alloc_handle_t handle{};
                status = hsa_amd_vmem_handle_create(coarse, block_mib << 20, MEMORY_TYPE_NONE, 0, &handle);
                ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                if (status == HSA_STATUS_SUCCESS)
                    (void)hsa_amd_vmem_handle_release(handle);
#endif
                return;
            }
            void* block = nullptr;
            status = hsa_amd_memory_pool_allocate(coarse, block_mib << 20, 0, &block);
            ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (status == HSA_STATUS_SUCCESS)
                (void)hsa_amd_memory_pool_free(block);
        });
        queue.dispatch_and_wait(make_dispatch(kernel, kernarg, count));
        allocator.join();
        std::vector<float> c(count);
        session.copy_to_host(c.data(), device_c, bytes);
        for (uint32_t i = 0; i < count; ++i) {
            if (c[i] != a[i] + b[i]) {
                fail("c[%u] = %g, expected %g", i, static_cast<double>(c[i]),
                     static_cast<double>(a[i] + b[i]));
            }
        }
        std::printf("allocate_beside_window: block of %zu MiB: status 0x%x after %.0f ms\n", block_mib,
                    static_cast<unsigned>(status), ms);
        session.free(kernarg);
        session.free(device_a);
        session.free(device_b);
        session.free(device_c);
    }
    if (status != HSA_STATUS_SUCCESS) {
        fail("the second thread did not get its %zu MiB block", block_mib);
    }
    std::printf("allocate_beside_window: sums correct, block served\nPASS\n");
    return 0;
}
