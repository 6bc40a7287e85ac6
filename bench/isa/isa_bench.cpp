// SPDX-License-Identifier: MIT
// isa_bench (docs/performance.md, "Interpreter"): the gfx90a interpreter's speed on one core, for a
// VALU-heavy, a memory-heavy and an LDS/barrier-heavy kernel (bench/isa/isa_bench_kernels.hip, built by
// hipcc), as VALU lane-operations and wave instructions per second; then README's demo with the
// interpreter and with its stand-ins, plain and under `replayscope-run --simulate`, side by side with
// the ratio and its target (at most 3x).
#include "decoder.h"
#include "dispatcher.h"
#include "mapped_code_object.h"

#include <hsa.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct KernelRun {
    sim::isa::DispatchStats stats;
    double seconds = 0;
};

/// Runs `kernel` over `groups` work-groups of 256 work-items with the explicit kernel arguments `args`
/// (hidden arguments zero) on one host thread, `repeats` times; returns the last run's statistics and the
/// best time.
KernelRun run(const sim::isa::Kernel& kernel, uint32_t groups, const void* args, size_t arg_bytes,
              int repeats) {
    std::vector<uint64_t> kernarg((std::max<uint32_t>(kernel.descriptor.kernarg_size, 256) + 7) / 8, 0);
    std::memcpy(kernarg.data(), args, arg_bytes);
    hsa_kernel_dispatch_packet_t packet{};
    packet.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    packet.workgroup_size_x = 256;
    packet.workgroup_size_y = 1;
    packet.workgroup_size_z = 1;
    packet.grid_size_x = 256 * groups;
    packet.grid_size_y = 1;
    packet.grid_size_z = 1;
    packet.group_segment_size = kernel.descriptor.group_segment_fixed_size;
    packet.private_segment_size = kernel.descriptor.private_segment_fixed_size;
    packet.kernarg_address = kernarg.data();
    KernelRun best;
    best.seconds = 1e30;
    for (int r = 0; r < repeats; ++r) {
        sim::isa::DispatchRequest request;
        request.packet = &packet;
        request.threads = 1;
        request.stats = &best.stats;
        std::string error;
        const auto start = Clock::now();
        if (sim::isa::run_dispatch(kernel, request, error) != sim::isa::DispatchResult::completed) {
            std::fprintf(stderr, "isa_bench: %s\n", error.c_str());
            std::exit(1);
        }
        best.seconds = std::min(best.seconds, seconds_since(start));
    }
    return best;
}

void report(const char* name, const KernelRun& r) {
    const double lanes = static_cast<double>(r.stats.valu_lanes);
    const double instructions = static_cast<double>(r.stats.instructions());
    std::printf("%-8s %10.1f ms %12.3g %14.3g %14.3g %12.3g\n", name, r.seconds * 1e3, lanes,
                lanes / r.seconds, instructions / r.seconds, instructions * 64 / r.seconds);
}

/// Wall time of `command` (run through /bin/sh) in seconds; exits on failure.
double time_command(const std::string& command) {
    const auto start = Clock::now();
    const int status = std::system((command + " > /dev/null 2>&1").c_str());
    const double s = seconds_since(start);
    if (status != 0) {
        std::fprintf(stderr, "isa_bench: failed (%d): %s\n", status, command.c_str());
        std::exit(1);
    }
    return s;
}

double best_of(int n, const std::string& command) {
    double best = 1e30;
    for (int i = 0; i < n; ++i) {
        best = std::min(best, time_command(command));
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    const bool skip_demo = argc > 1 && std::string(argv[1]) == "--kernels-only";
    setenv("HSA_SIM_ISA_THREADS", "1", 1);
    sim::isa::MappedCodeObject co(RS_ISA_BENCH_KERNELS);
    auto program = sim::isa::decode_program(co.code_begin(), co.code_end());
    const auto valu = sim::isa::make_kernel(program, co.descriptor("isa_bench_valu"), "isa_bench_valu");
    const auto memory = sim::isa::make_kernel(program, co.descriptor("isa_bench_memory"), "isa_bench_memory");
    const auto lds = sim::isa::make_kernel(program, co.descriptor("isa_bench_lds"), "isa_bench_lds");

    std::printf("isa_bench: the gfx90a interpreter on one host thread (best of 3)\n");
    std::printf("%-8s %13s %12s %14s %14s %12s\n", "kernel", "time", "VALU lane-ops", "VALU lane-ops/s",
                "wave instr/s", "lane-instr/s");
    {
        const uint32_t groups = 16;
        std::vector<float> out(256 * groups);
        struct {
            float* out;
            int iterations;
        } args{out.data(), 2000};
        const KernelRun r = run(valu, groups, &args, sizeof(args), 3);
        report("valu", r);
        // Work-item 5's result, computed on the host the same way (fused multiply-adds).
        float a = 5 * 0.001f, b = 1.0f, c = 0.5f, d = 0.25f;
        for (int i = 0; i < args.iterations; ++i) {
            a = std::fma(a, 0.9999f, b);
            b = std::fma(b, 0.9998f, c);
            c = std::fma(c, 0.9997f, d);
            d = std::fma(d, 0.9996f, a);
        }
        if (std::fabs(out[5] - (a + b + c + d)) > 1e-3f * std::fabs(a + b + c + d)) {
            std::fprintf(stderr, "isa_bench: valu kernel computed %g, the host %g\n", out[5], a + b + c + d);
            return 1;
        }
    }
    {
        const int n = 1 << 20; // float4s: 16 MiB in, 16 MiB out
        std::vector<float> in(4 * static_cast<size_t>(n), 1.5f), out(4 * static_cast<size_t>(n));
        struct {
            const float* in;
            float* out;
            int n;
        } args{in.data(), out.data(), n};
        report("memory", run(memory, 64, &args, sizeof(args), 3));
        if (out[12345] != 4.0f) {
            std::fprintf(stderr, "isa_bench: memory kernel wrote %g, expected 4\n", out[12345]);
            return 1;
        }
    }
    {
        const uint32_t groups = 16;
        std::vector<float> out(256 * groups);
        struct {
            float* out;
            int iterations;
        } args{out.data(), 200};
        report("lds", run(lds, groups, &args, sizeof(args), 3));
    }
    if (skip_demo) {
        return 0;
    }

    const std::string sim_env =
        std::string("LD_LIBRARY_PATH=") + RS_SIM_LIBRARY_DIR + " HSA_SIM_GPU_AGENTS=2 ";
    const std::string demo = RS_DEMO;
    const std::string standins = RS_DEMO_STANDINS;
    std::printf("\nisa_bench: README's demo, wall time (best of 2), interpreter against stand-ins\n");
    const double plain_isa = best_of(2, sim_env + "HSA_SIM_EXECUTOR=isa " + demo);
    const double plain_standin =
        best_of(2, sim_env + "HSA_SIM_EXECUTOR=standin HSA_SIM_STANDINS=" + standins + " " + demo);
    const std::string run = std::string("HSA_SIM_GPU_AGENTS=2 ") + RS_RUNNER +
                            " --simulate --no-progress -f -o " + "/tmp/isa_bench_demo.rsdb ";
    const double replay_isa = best_of(2, run + "--executor isa -- " + demo);
    const double replay_standin = best_of(2, run + "--standins " + standins + " -- " + demo);
    std::remove("/tmp/isa_bench_demo.rsdb");
    std::printf("%-34s %10s %10s %8s %8s\n", "run", "isa", "standin", "ratio", "target");
    std::printf("%-34s %9.2fs %9.2fs %7.2fx %7s\n", "demo (plain)", plain_isa, plain_standin,
                plain_isa / plain_standin, "<= 3x");
    std::printf("%-34s %9.2fs %9.2fs %7.2fx %7s\n", "replayscope-run --simulate demo", replay_isa,
                replay_standin, replay_isa / replay_standin, "<= 3x");
    return 0;
}
