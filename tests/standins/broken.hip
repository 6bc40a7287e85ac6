// SPDX-License-Identifier: MIT
// clang-format off: the launch below spans two lines on purpose
// A HIP source with a syntax error on line 10, after a launch spanning two lines: replayscope-standins fails and shows the compiler's message at the right line.
#include <hip/hip_runtime.h>
__global__ void fine(float* x) { x[0] = 1.0f; }
void host(float* x) {
    fine<<<dim3(1),
           dim3(1)>>>(x);
}
__global__ void broken(float* x) { x[0] = 1.0f }
