// SPDX-License-Identifier: MIT
// Workload async_copy_rect_during_dispatch: the rectangular form of async_copy_during_dispatch. While one
// thread's in-place dispatch (a[i] += 1) runs, another thread copies a 96-byte x 24-row rectangle from
// host memory into a second coarse-grained buffer b of the same agent (pitch 1024 bytes, 48 rows) with
// hsa_amd_memory_async_copy_rect, at byte offset 64 of row 8. Afterwards a[i] == initial + 1, the
// rectangle of b holds the copied bytes and every other byte of b its old contents. A replaying tool
// that snapshots b before the copy lands and restores it between passes loses the rectangle.
// Run it with HSA_SIM_KERNEL_TIME_NS=accumulate.kd=50000000 so the copy is issued while the kernel runs.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

using namespace rs::workloads;

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 4096;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    constexpr std::size_t kPitch = 1024, kRows = 48;                 // b: 48 KiB
    constexpr std::size_t kSrcPitch = 256, kSrcRows = 32;            // staging: 8 KiB
    constexpr uint32_t kRectX = 96, kRectY = 24;                     // bytes, rows
    constexpr uint32_t kDstX = 64, kDstY = 8, kSrcX = 16, kSrcY = 4; // offsets: bytes, rows
    constexpr std::size_t kBBytes = kPitch * kRows, kSrcBytes = kSrcPitch * kSrcRows;

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        const std::vector<uint32_t> initial = linear_values(kCount, 0, 7);
        std::vector<unsigned char> old_b(kBBytes), source(kSrcBytes);
        for (std::size_t i = 0; i < kBBytes; ++i) {
            old_b[i] = static_cast<unsigned char>(0x40 + i % 31);
        }
        for (std::size_t i = 0; i < kSrcBytes; ++i) {
            source[i] = static_cast<unsigned char>(0x80 + i % 97);
        }
        auto* a = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        auto* b = static_cast<unsigned char*>(session.allocate(session.gpu_pools().coarse, kBBytes));
        session.copy_to_device(a, initial.data(), kBytes);
        session.copy_to_device(b, old_b.data(), kBBytes);
        auto* staging = static_cast<unsigned char*>(session.allocate(session.system_pool(), kSrcBytes));
        std::copy(source.begin(), source.end(), staging);

        void* kernarg = session.kernarg(AccumulateArgs{a, kCount}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);

        std::thread copier([&] {
            // Issued while the dispatch is running (the kernel is made to last 50 ms).
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            hsa_signal_t done{};
            check(hsa_signal_create(1, 0, nullptr, &done), "hsa_signal_create");
            const hsa_pitched_ptr_t dst{b, kPitch, kBBytes};
            const hsa_pitched_ptr_t src{staging, kSrcPitch, kSrcBytes};
            const hsa_dim3_t dst_offset{kDstX, kDstY, 0}, src_offset{kSrcX, kSrcY, 0},
                range{kRectX, kRectY, 1};
            check(hsa_amd_memory_async_copy_rect(&dst, &dst_offset, &src, &src_offset, &range, gpu,
                                                 hsaHostToDevice, 0, nullptr, done),
                  "hsa_amd_memory_async_copy_rect");
            wait_for_completion(done);
            hsa_signal_destroy(done);
            std::printf("async_copy_rect_during_dispatch: rectangle of %u x %u bytes copied into b\n", kRectX,
                        kRectY);
        });
        queue.dispatch_and_wait(dispatch);
        std::printf("async_copy_rect_during_dispatch: one dispatch of accumulate.kd on a completed\n");
        copier.join();

        std::vector<uint32_t> result_a(kCount);
        std::vector<unsigned char> result_b(kBBytes);
        session.copy_to_host(result_a.data(), a, kBytes);
        session.copy_to_host(result_b.data(), b, kBBytes);
        expect_incremented(result_a, initial, "a", "the in-place update");
        std::size_t copied = 0;
        for (std::size_t y = 0; y < kRows; ++y) {
            for (std::size_t x = 0; x < kPitch; ++x) {
                const bool inside = y >= kDstY && y < kDstY + kRectY && x >= kDstX && x < kDstX + kRectX;
                const unsigned char expected =
                    inside ? source[(y - kDstY + kSrcY) * kSrcPitch + (x - kDstX + kSrcX)]
                           : old_b[y * kPitch + x];
                if (result_b[y * kPitch + x] != expected) {
                    fail("b[row %zu, byte %zu] = 0x%02x, expected 0x%02x (%s)", y, x,
                         result_b[y * kPitch + x], expected,
                         inside ? "the asynchronous rectangle copy was lost" : "outside the rectangle");
                }
                copied += inside;
            }
        }
        session.free(kernarg);
        session.free(staging);
        session.free(b);
        session.free(a);
        std::printf("async_copy_rect_during_dispatch: a[i] == initial + 1, b holds the %zu copied bytes\n",
                    copied);
    }
    std::printf("PASS\n");
    return 0;
}
