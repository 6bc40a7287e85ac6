// Simulated code object of the demo workload: a 2-D heat-diffusion step (jacobi_step.kd) reading a
// `__constant__` weight table, an in-place axpy.kd, residual_norm.kd counting iterations in a
// `__device__` variable, and copy_halo.kd.
#include "demo_kernels.h"

#include <hsa_sim/code_object.h>

#include <cmath>

namespace {

using namespace rs::workloads::demo;

void jacobi_step(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const JacobiArgs*>(dispatch->kernarg);
    const auto* w = static_cast<const float*>(dispatch->variables[0]);
    const uint32_t width = args->width, height = args->height;
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            const uint32_t i = y * width + x;
            if (x == 0 || y == 0 || x + 1 == width || y + 1 == height) {
                args->out[i] = args->in[i];
                continue;
            }
            args->out[i] = w[0] * args->in[i] + w[1] * args->in[i - 1] + w[2] * args->in[i + 1] +
                           w[3] * args->in[i - width] + w[4] * args->in[i + width];
        }
    }
}

void axpy(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const AxpyArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < args->n; ++i)
        args->y[i] += args->alpha * args->x[i];
}

void residual_norm(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const ResidualArgs*>(dispatch->kernarg);
    float sum = 0.0f;
    for (uint32_t i = 0; i < args->n; ++i)
        sum += std::fabs(args->a[i] - args->b[i]);
    *args->norm = sum;
    __atomic_fetch_add(static_cast<uint32_t*>(dispatch->variables[1]), 1u, __ATOMIC_RELAXED);
}

void copy_halo(const hsa_sim_dispatch_t* dispatch) {
    const auto* args = static_cast<const CopyHaloArgs*>(dispatch->kernarg);
    for (uint32_t i = 0; i < args->n; ++i)
        args->dst[i] = args->src[i];
}

const hsa_sim_kernel_t kKernels[] = {
    {"jacobi_step.kd", jacobi_step, sizeof(JacobiArgs), 0, 0},
    {"axpy.kd", axpy, sizeof(AxpyArgs), 0, 0},
    {"residual_norm.kd", residual_norm, sizeof(ResidualArgs), 0, 0},
    {"copy_halo.kd", copy_halo, sizeof(CopyHaloArgs), 0, 0},
};

const float kWeights[5] = {0.5f, 0.125f, 0.125f, 0.125f, 0.125f};
const uint32_t kIterationsInitial = 0;

const hsa_sim_variable_t kVariables[] = {
    {"stencil_weights", sizeof(kWeights), kWeights, HSA_SIM_VARIABLE_CONSTANT},
    {"iterations_done", sizeof(uint32_t), &kIterationsInitial, HSA_SIM_VARIABLE_DEVICE},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 4, kKernels, 2, kVariables,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
