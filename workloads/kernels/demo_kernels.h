// Kernarg layouts of the demo workload's code object (demo_kernels.so): a small 2-D heat-diffusion
// solver with the kernel mix of a real application (stencil, in-place update, reduction, halo copy).
#ifndef RS_WORKLOADS_KERNELS_DEMO_KERNELS_H
#define RS_WORKLOADS_KERNELS_DEMO_KERNELS_H

#include <cstdint>

namespace rs::workloads::demo {

/** jacobi_step.kd: out = in with every interior point replaced by the weighted 5-point stencil, using
 * the `__constant__ float stencil_weights[5]` (centre, west, east, north, south). */
struct JacobiArgs {
    const float* in;
    float* out;
    uint32_t width;
    uint32_t height;
};

/** axpy.kd: y[i] += alpha * x[i] for i < n (in place: not idempotent). */
struct AxpyArgs {
    const float* x;
    float* y;
    float alpha;
    uint32_t n;
};

/** residual_norm.kd: *norm = sum over i < n of |a[i] - b[i]|; adds 1 to `__device__ uint32_t
 * iterations_done` (work-item 0 only). */
struct ResidualArgs {
    const float* a;
    const float* b;
    float* norm;
    uint32_t n;
};

/** copy_halo.kd: dst[i] = src[i] for i < n (exchanges a boundary row). */
struct CopyHaloArgs {
    const float* src;
    float* dst;
    uint32_t n;
};

} // namespace rs::workloads::demo

#endif
