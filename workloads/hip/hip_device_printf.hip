// SPDX-License-Identifier: MIT
// Device printf: HIP 5.2.3's printf in a kernel goes through hostcall (ockl's __ockl_printf_* write
// into the hostcall buffer of the kernel's hidden arguments; ROCclr's listener thread on the host
// formats and prints). Two work-groups of four work-items each print one line with an int, a float
// and a string argument, then the host prints PASS once the kernel is done. The lines are checked by
// the test that runs the program (each exactly once: one execution of the kernel), not here.
#include "hip_check.h"

#include <cstdio>

namespace {

constexpr const char* kProgram = "hip_device_printf";

__global__ void print_lines(int base) {
    const int block = static_cast<int>(blockIdx.x);
    const int thread = static_cast<int>(threadIdx.x);
    printf("hip_device_printf: block %d thread %d value %d half %.1f %s\n", block, thread,
           base + block * 10 + thread, 0.5f * static_cast<float>(block * 4 + thread), "end");
}

} // namespace

int main() {
    hipLaunchKernelGGL(print_lines, dim3(2), dim3(4), 0, 0, 100);
    rs_hip::check(kProgram, hipGetLastError(), "hipLaunchKernelGGL(print_lines)");
    rs_hip::check(kProgram, hipDeviceSynchronize(), "hipDeviceSynchronize()");
    std::fflush(stdout);
    std::printf("PASS\n");
    return 0;
}
