// Workload demo: the demo application ReplayScope's README runs. A small 2-D heat-diffusion solver on
// every GPU agent, one host thread per agent, with the kernel mix and memory use of a real application:
// two stencil sweeps (reading a `__constant__` weight table), an in-place axpy, a residual reduction
// that counts iterations in a `__device__` variable, a halo copy submitted together with an axpy in one
// doorbell every tenth iteration, a scratch buffer freed and re-allocated at a new size every eighth,
// and memory of every excluded class (kernarg, fine-grained, executable-flagged). It checks its own
// results, which stay right under replay only if every pass saw the same inputs.
//
// Usage: demo [--iterations N] [--code-object-dir DIR]   (default 40 iterations)
#include "hsa_session.h"
#include "kernels/demo_kernels.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace rs::workloads;
using namespace rs::workloads::demo;

namespace {

constexpr uint32_t kWidth = 512, kHeight = 512, kCells = kWidth * kHeight; // 1 MiB of float per grid
constexpr uint32_t kVector = 256 * 1024;                                   // 1 MiB of float
constexpr float kAlpha = 0.25f;
constexpr float kWeights[5] = {0.5f, 0.125f, 0.125f, 0.125f, 0.125f};

/** One host-side Jacobi sweep, the reference the device result is checked against. */
void host_jacobi(const std::vector<float>& in, std::vector<float>& out) {
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            const uint32_t i = y * kWidth + x;
            out[i] = (x == 0 || y == 0 || x + 1 == kWidth || y + 1 == kHeight)
                         ? in[i]
                         : kWeights[0] * in[i] + kWeights[1] * in[i - 1] + kWeights[2] * in[i + 1] +
                               kWeights[3] * in[i - kWidth] + kWeights[4] * in[i + kWidth];
        }
}

struct AgentRun {
    uint32_t stencil = 0, axpy = 0, residual = 0, halo = 0, reallocations = 0;
};

template <typename Args>
void run(const HsaSession& session, Queue& queue, const Kernel& kernel, const Args& args, uint32_t grid) {
    void* kernarg = session.kernarg(args, kernel.kernarg_segment_size);
    const KernelDispatch d = make_dispatch(kernel, kernarg, grid);
    queue.dispatch_and_wait(d);
    session.free(kernarg);
}

void solve(const HsaSession& session, const Executable& exe, std::size_t agent_index, uint32_t iterations,
           AgentRun& out) {
    const hsa_agent_t gpu = session.gpu(agent_index);
    const GpuPools& pools = session.gpu_pools(agent_index);
    const Kernel jacobi = exe.kernel("jacobi_step.kd", gpu);
    const Kernel axpy = exe.kernel("axpy.kd", gpu);
    const Kernel residual = exe.kernel("residual_norm.kd", gpu);
    const Kernel halo = exe.kernel("copy_halo.kd", gpu);
    Queue queue(gpu, 256);

    auto* a = static_cast<float*>(session.allocate(pools.coarse, kCells * sizeof(float)));
    auto* b = static_cast<float*>(session.allocate(pools.coarse, kCells * sizeof(float)));
    auto* x = static_cast<float*>(session.allocate(pools.coarse, kVector * sizeof(float)));
    auto* y = static_cast<float*>(session.allocate(pools.coarse, kVector * sizeof(float)));
    auto* norm = static_cast<float*>(session.allocate(pools.coarse, 4096));
    auto* halo_row = static_cast<float*>(session.allocate(pools.fine, kWidth * sizeof(float)));
    void* runtime_state = session.allocate(pools.coarse, 64 * 1024, 1u << 2); // executable-flagged
    std::size_t scratch_bytes = 512 * 1024;
    void* scratch = session.allocate(pools.coarse, scratch_bytes);

    std::vector<float> grid(kCells), ones(kVector, 1.0f), zeros(kVector, 0.0f);
    for (uint32_t i = 0; i < kCells; ++i)
        grid[i] = (i % kWidth == kWidth / 2) ? 100.0f : static_cast<float>(agent_index);
    session.copy_to_device(a, grid.data(), kCells * sizeof(float));
    session.copy_to_device(b, grid.data(), kCells * sizeof(float));
    session.copy_to_device(x, ones.data(), kVector * sizeof(float));
    session.copy_to_device(y, zeros.data(), kVector * sizeof(float));

    std::vector<float> reference = grid, tmp(kCells);
    for (uint32_t it = 1; it <= iterations; ++it) {
        run(session, queue, jacobi, JacobiArgs{a, b, kWidth, kHeight}, kCells);
        run(session, queue, jacobi, JacobiArgs{b, a, kWidth, kHeight}, kCells);
        out.stencil += 2;
        host_jacobi(reference, tmp);
        host_jacobi(tmp, reference);
        run(session, queue, axpy, AxpyArgs{x, y, kAlpha, kVector}, kVector);
        ++out.axpy;
        run(session, queue, residual, ResidualArgs{a, b, norm, kCells}, kCells);
        ++out.residual;
        if (it % 10 == 0) {
            // Halo exchange and an extra axpy published with ONE doorbell store: a multi-packet batch.
            void* k1 = session.kernarg(CopyHaloArgs{a + kWidth, halo_row, kWidth}, halo.kernarg_segment_size);
            void* k2 = session.kernarg(AxpyArgs{x, y, kAlpha, kVector}, axpy.kernarg_segment_size);
            KernelDispatch d1 = make_dispatch(halo, k1, kWidth);
            KernelDispatch d2 = make_dispatch(axpy, k2, kVector);
            check(hsa_signal_create(1, 0, nullptr, &d1.completion_signal), "hsa_signal_create");
            check(hsa_signal_create(1, 0, nullptr, &d2.completion_signal), "hsa_signal_create");
            const uint64_t index = reserve_packets(queue.get(), 2);
            write_dispatch_packet(queue.get(), index, d1);
            write_dispatch_packet(queue.get(), index + 1, d2);
            ring_doorbell(queue.get(), index + 1);
            wait_for_completion(d1.completion_signal);
            wait_for_completion(d2.completion_signal);
            hsa_signal_destroy(d1.completion_signal);
            hsa_signal_destroy(d2.completion_signal);
            session.free(k1);
            session.free(k2);
            ++out.halo;
            ++out.axpy;
        }
        if (it % 8 == 0) {
            session.free(scratch);
            scratch_bytes = scratch_bytes == 512 * 1024 ? 3 * 1024 * 1024 : 512 * 1024;
            scratch = session.allocate(pools.coarse, scratch_bytes);
            ++out.reallocations;
        }
    }

    std::vector<float> result_a(kCells), result_y(kVector);
    session.copy_to_host(result_a.data(), a, kCells * sizeof(float));
    session.copy_to_host(result_y.data(), y, kVector * sizeof(float));
    for (uint32_t i = 0; i < kCells; ++i) {
        if (std::fabs(result_a[i] - reference[i]) > 1e-3f * (1.0f + std::fabs(reference[i])))
            fail("agent %zu: grid[%u] = %g, host reference %g", agent_index, i, result_a[i], reference[i]);
    }
    const float expected_y = kAlpha * static_cast<float>(out.axpy);
    for (uint32_t i = 0; i < kVector; ++i) {
        if (result_y[i] != expected_y)
            fail("agent %zu: y[%u] = %g, expected %g after %u in-place axpy dispatches", agent_index, i,
                 result_y[i], expected_y, out.axpy);
    }
    for (void* p :
         {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(x), static_cast<void*>(y),
          static_cast<void*>(norm), static_cast<void*>(halo_row), runtime_state, scratch})
        session.free(p);
}

} // namespace

int main(int argc, char** argv) {
    uint32_t iterations = 40;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--iterations") == 0)
            iterations = static_cast<uint32_t>(std::strtoul(argv[i + 1], nullptr, 10));
    }
    HsaSession session(argc, argv);
    const std::vector<hsa_agent_t>& gpus = session.gpus();
    {
        const Executable exe = session.load("demo_kernels.so", gpus);
        std::vector<AgentRun> runs(gpus.size());
        std::vector<std::thread> threads;
        for (std::size_t g = 0; g < gpus.size(); ++g)
            threads.emplace_back([&, g] { solve(session, exe, g, iterations, runs[g]); });
        for (auto& t : threads)
            t.join();
        for (std::size_t g = 0; g < gpus.size(); ++g) {
            const Variable counter = exe.variable("iterations_done", gpus[g]);
            uint32_t done = 0;
            session.copy_to_host(&done, counter.address, sizeof(done));
            if (done != runs[g].residual)
                fail("agent %zu: __device__ iterations_done = %u, expected %u", g, done, runs[g].residual);
            std::printf("demo: %s: %u iterations, %u stencil, %u axpy, %u residual, %u halo dispatches, "
                        "%u scratch reallocations; iterations_done = %u\n",
                        agent_label(session, gpus[g]).c_str(), iterations, runs[g].stencil, runs[g].axpy,
                        runs[g].residual, runs[g].halo, runs[g].reallocations, done);
        }
    }
    std::printf("demo: results match the host reference\nPASS\n");
    return 0;
}
