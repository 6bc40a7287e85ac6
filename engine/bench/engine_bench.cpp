// SPDX-License-Identifier: MIT
// engine_bench: the engine's figures on the simulated runtime (docs/performance.md, "Engine"), each next to
// a baseline measured in the same run:
//   - snapshot and restore throughput (GB/s, from the engine's own snapshot/pass events) vs plain memcpy;
//   - allocate+free through the wrappers with replay not configured vs the same calls without the engine;
//   - the doorbell store of a dispatch that is not replayed (the intercept handler runs inside it,
//     docs/rocm-behaviour.md#intercept-queues-in-rocr-523) vs a plain queue without the engine.
// The parent process re-runs this binary as HSA programs ("--phase ...") with the environment of each
// case; children print "RESULT key=value" lines and the engine's REPLAYSCOPE_LOG=1 lines.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <map>
#include <memory>
#include <regex>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

using namespace rs::workloads;
using Clock = std::chrono::steady_clock;

/// CPU time consumed by the calling thread so far, ns (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

namespace {

constexpr uint64_t kSnapshotBytes = 128ull << 20;
constexpr int kSnapshotDispatches = 6;
constexpr int kPasses = 4;

double ns_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

// ---- children --------------------------------------------------------------------------------------

/// allocate+free of 4 KiB from the coarse pool, best round of `rounds` x 20000 pairs.
int phase_alloc(int argc, char** argv) {
    HsaSession session(argc, argv);
    const hsa_amd_memory_pool_t pool = session.gpu_pools().coarse;
    constexpr int kPairs = 20000;
    double best = 1e30;
    for (int round = 0; round < 7; ++round) {
        const auto t0 = Clock::now();
        for (int i = 0; i < kPairs; ++i) {
            void* p = nullptr;
            if (hsa_amd_memory_pool_allocate(pool, 4096, 0, &p) != HSA_STATUS_SUCCESS ||
                hsa_amd_memory_pool_free(p) != HSA_STATUS_SUCCESS) {
                fail("allocate/free failed");
            }
        }
        best = std::min(best, ns_since(t0) / kPairs);
    }
    std::printf("RESULT alloc_free_ns=%.1f\n", best);
    return 0;
}

/// kSnapshotDispatches in-place accumulate dispatches over one kSnapshotBytes coarse buffer.
int phase_snapshot(int argc, char** argv) {
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    const Executable executable = session.load("accumulate_kernels.so");
    const Kernel kernel = executable.kernel("accumulate.kd", gpu);
    Queue queue(gpu);
    const auto count = static_cast<uint32_t>(kSnapshotBytes / sizeof(uint32_t));
    auto* data = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kSnapshotBytes));
    std::vector<uint32_t> initial(count, 7);
    session.copy_to_device(data, initial.data(), kSnapshotBytes);
    void* kernarg = session.kernarg(AccumulateArgs{data, count}, kernel.kernarg_segment_size);
    for (int d = 0; d < kSnapshotDispatches; ++d) {
        KernelDispatch dispatch = make_dispatch(kernel, kernarg, count);
        dispatch.workgroup_size = 256;
        queue.dispatch_and_wait(dispatch);
    }
    session.copy_to_host(initial.data(), data, kSnapshotBytes);
    if (initial[0] != 7u + kSnapshotDispatches || initial[count - 1] != 7u + kSnapshotDispatches) {
        fail("accumulate result %u, expected %d", initial[0], 7 + kSnapshotDispatches);
    }
    session.free(kernarg);
    session.free(data);
    std::printf("RESULT snapshot_run=ok\n");
    return 0;
}

/// `count` single-packet dispatches on one queue; times the doorbell store of each (median, mean).
int phase_packets(int argc, char** argv) {
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    const Executable executable = session.load("accumulate_kernels.so");
    const Kernel kernel = executable.kernel("accumulate.kd", gpu);
    Queue queue(gpu, 1024);
    auto* data = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, 64 * sizeof(uint32_t)));
    void* kernarg = session.kernarg(AccumulateArgs{data, 64}, kernel.kernarg_segment_size);
    hsa_signal_t signal{};
    check(hsa_signal_create(1, 0, nullptr, &signal), "hsa_signal_create");
    // RS_BENCH_PACKETS overrides the count (engine/bench/handler_instructions.sh runs two counts under
    // callgrind and takes the difference).
    const char* count_env = std::getenv("RS_BENCH_PACKETS");
    const int k_count = count_env ? std::atoi(count_env) : 20000;
    std::vector<double> samples, cpu_samples;
    samples.reserve(k_count);
    cpu_samples.reserve(k_count);
    for (int i = 0; i < k_count; ++i) {
        KernelDispatch dispatch = make_dispatch(kernel, kernarg, 64);
        dispatch.completion_signal = signal;
        hsa_signal_store_relaxed(signal, 1);
        const uint64_t index = reserve_packets(queue.get(), 1);
        write_dispatch_packet(queue.get(), index, dispatch);
        // Wall time, and the storing thread's CPU time: the handler runs on this thread inside the store,
        // and CPU time leaves out the scheduling noise of waking the packet-processor thread.
        const double c0 = thread_cpu_ns();
        const auto t0 = Clock::now();
        ring_doorbell(queue.get(), index);
        samples.push_back(ns_since(t0));
        cpu_samples.push_back(thread_cpu_ns() - c0);
        wait_for_completion(signal);
    }
    std::sort(samples.begin(), samples.end());
    double sum = 0;
    for (double s : samples) {
        sum += s;
    }
    std::sort(cpu_samples.begin(), cpu_samples.end());
    std::printf("RESULT doorbell_p10_ns=%.0f doorbell_median_ns=%.0f doorbell_mean_ns=%.0f "
                "doorbell_cpu_median_ns=%.0f\n",
                samples[samples.size() / 10], samples[samples.size() / 2],
                sum / static_cast<double>(samples.size()), cpu_samples[cpu_samples.size() / 2]);
    check(hsa_signal_destroy(signal), "hsa_signal_destroy");
    session.free(kernarg);
    session.free(data);
    return 0;
}

// ---- parent ----------------------------------------------------------------------------------------

struct ChildOutput {
    std::string out, err;
    std::map<std::string, double> results;
};

std::string slurp(const std::string& path) {
    std::string text;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return text;
    }
    char buffer[65536];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
        text.append(buffer, static_cast<size_t>(n));
    }
    ::close(fd);
    return text;
}

/// Runs this binary with `phase` and the extra environment; exits on failure.
ChildOutput run_child(const std::string& phase, const std::vector<std::string>& extra_env) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string entry(*e);
        if (entry.rfind("HSA_TOOLS_LIB=", 0) != 0 && entry.rfind("REPLAYSCOPE_", 0) != 0 &&
            entry.rfind("LD_LIBRARY_PATH=", 0) != 0) {
            env.push_back(entry);
        }
    }
    env.push_back("LD_LIBRARY_PATH=" RS_SIM_LIBRARY_DIR);
    env.push_back("RS_WORKLOAD_CODE_OBJECT_DIR=" RS_WORKLOAD_DIR);
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    std::vector<char*> envp;
    for (auto& e : env) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);
    char self[4096] = {};
    if (::readlink("/proc/self/exe", self, sizeof self - 1) <= 0) {
        fail("readlink /proc/self/exe");
    }
    std::string phase_flag = "--phase", phase_arg = phase;
    std::vector<char*> args{self, phase_flag.data(), phase_arg.data(), nullptr};
    const std::string out_path = "/tmp/engine_bench." + std::to_string(::getpid()) + ".out";
    const std::string err_path = "/tmp/engine_bench." + std::to_string(::getpid()) + ".err";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = -1;
    if (::posix_spawn(&pid, self, &actions, nullptr, args.data(), envp.data()) != 0) {
        fail("cannot start the %s phase", phase.c_str());
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ChildOutput c{slurp(out_path), slurp(err_path), {}};
    ::unlink(out_path.c_str());
    ::unlink(err_path.c_str());
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fail("phase %s failed:\n%s\n%s", phase.c_str(), c.out.c_str(), c.err.c_str());
    }
    static const std::regex kResult(R"((\w+)=([0-9.]+))");
    for (std::sregex_iterator it(c.out.begin(), c.out.end(), kResult), end; it != end; ++it) {
        c.results[(*it)[1]] = std::stod((*it)[2]);
    }
    return c;
}

/// Values of `key` on every engine log line of `kind` ("replayscope: <kind> ... key=N").
std::vector<double> log_values(const std::string& log, const std::string& kind, const std::string& key) {
    std::vector<double> out;
    const std::regex line("^replayscope: " + kind + " .*\\b" + key + "=([0-9]+)", std::regex::multiline);
    for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it) {
        out.push_back(std::stod((*it)[1]));
    }
    return out;
}

/// Best-of-5 warm memcpy of kSnapshotBytes, in GB/s (10^9 bytes/s).
double memcpy_gbps() {
    std::unique_ptr<std::byte[]> a(new std::byte[kSnapshotBytes]), b(new std::byte[kSnapshotBytes]);
    std::memset(a.get(), 1, kSnapshotBytes);
    std::memset(b.get(), 2, kSnapshotBytes);
    double best = 0;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = Clock::now();
        std::memcpy(b.get(), a.get(), kSnapshotBytes);
        best = std::max(best, static_cast<double>(kSnapshotBytes) / ns_since(t0));
        a.swap(b);
    }
    return best;
}

int parent() {
    std::printf("engine_bench: simulated runtime %s, engine %s\n\n", RS_SIM_LIBRARY_DIR, RS_ENGINE_PATH);

    // 1. Snapshot / restore vs memcpy.
    const double memcpy_before = memcpy_gbps();
    const ChildOutput snap =
        run_child("snapshot", {"HSA_TOOLS_LIB=" RS_ENGINE_PATH,
                               "REPLAYSCOPE_PASSES=" + std::to_string(kPasses), "REPLAYSCOPE_LOG=1"});
    const double memcpy_gb = std::max(memcpy_before, memcpy_gbps());
    const auto snap_bytes = log_values(snap.err, "snapshot", "bytes");
    const auto snap_ns = log_values(snap.err, "snapshot", "duration_ns");
    const auto restore_bytes = log_values(snap.err, "pass", "bytes_restored");
    const auto restore_ns = log_values(snap.err, "pass", "restore_ns");
    if (snap_bytes.size() != kSnapshotDispatches || snap_ns.size() != snap_bytes.size()) {
        fail("expected %d snapshot events, got %zu:\n%s", kSnapshotDispatches, snap_bytes.size(),
             snap.err.c_str());
    }
    std::vector<double> steady_snap, restore;
    for (size_t i = 1; i < snap_bytes.size(); ++i) {
        steady_snap.push_back(snap_bytes[i] / snap_ns[i]);
    }
    for (size_t i = 0; i < restore_bytes.size(); ++i) {
        if (restore_bytes[i] > 0) {
            restore.push_back(restore_bytes[i] / restore_ns[i]);
        }
    }
    std::sort(steady_snap.begin(), steady_snap.end());
    std::sort(restore.begin(), restore.end());
    const double snap_median = steady_snap[steady_snap.size() / 2];
    const double restore_median = restore.empty() ? 0 : restore[restore.size() / 2];
    std::printf("snapshot/restore of one %llu MiB coarse buffer, %d replayed dispatches x %d passes\n",
                static_cast<unsigned long long>(kSnapshotBytes >> 20), kSnapshotDispatches, kPasses);
    std::printf("  memcpy (warm, best of 10)          %6.2f GB/s\n", memcpy_gb);
    std::printf("  snapshot, first (arena allocated)  %6.2f GB/s  (%.2f of memcpy)\n",
                snap_bytes[0] / snap_ns[0], snap_bytes[0] / snap_ns[0] / memcpy_gb);
    std::printf("  snapshot, steady (median of %zu)    %6.2f GB/s  (%.2f of memcpy)\n", steady_snap.size(),
                snap_median, snap_median / memcpy_gb);
    std::printf("  restore (median of %zu)            %6.2f GB/s  (%.2f of memcpy)\n\n", restore.size(),
                restore_median, restore_median / memcpy_gb);

    // 2. Allocate/free wrappers, replay not configured, vs no engine (interleaved runs, best of each).
    double bare = 1e30, wrapped = 1e30;
    for (int i = 0; i < 3; ++i) {
        bare = std::min(bare, run_child("alloc", {}).results["alloc_free_ns"]);
        wrapped =
            std::min(wrapped, run_child("alloc", {"HSA_TOOLS_LIB=" RS_ENGINE_PATH, "REPLAYSCOPE_PASSES=1"})
                                  .results["alloc_free_ns"]);
    }
    std::printf("hsa_amd_memory_pool_allocate + free (4 KiB, coarse), replay not configured\n");
    std::printf(
        "  without engine  %7.1f ns/pair\n  with engine     %7.1f ns/pair  (%+.1f ns per pair, %+.1f ns "
        "per call)\n\n",
        bare, wrapped, wrapped - bare, (wrapped - bare) / 2);

    // 3. Doorbell store of a dispatch that is not replayed (the handler runs inside it).
    // The store wakes the simulator's packet processor thread, which makes single samples bimodal on a
    // busy machine: each case runs 3 times, interleaved, keeping the lowest 10th percentile and median.
    const std::vector<std::pair<const char*, std::vector<std::string>>> cases{
        {"plain queue, no tool                             ", {}},
        {"intercept queue, pass-through handler (baseline) ", {"HSA_TOOLS_LIB=" RS_PASSTHROUGH_PATH}},
        {"engine handler, declined (filtered), with marker ",
         {"HSA_TOOLS_LIB=" RS_ENGINE_PATH, "REPLAYSCOPE_PASSES=2", "REPLAYSCOPE_KERNEL_EXCLUDE_REGEX=."}},
        {"engine handler, dispatch count reached, no marker",
         {"HSA_TOOLS_LIB=" RS_ENGINE_PATH, "REPLAYSCOPE_PASSES=2", "REPLAYSCOPE_DISPATCH_COUNT=1"}},
    };
    std::vector<double> p10(cases.size(), 1e30), median(cases.size(), 1e30), cpu(cases.size(), 1e30);
    for (int round = 0; round < 3; ++round) {
        for (size_t c = 0; c < cases.size(); ++c) {
            auto result = run_child("packets", cases[c].second).results;
            p10[c] = std::min(p10[c], result["doorbell_p10_ns"]);
            median[c] = std::min(median[c], result["doorbell_median_ns"]);
            cpu[c] = std::min(cpu[c], result["doorbell_cpu_median_ns"]);
        }
    }
    std::printf(
        "doorbell store of one dispatch packet (20000 dispatches, one at a time, best of 3 runs; the\n"
        "intercept handler runs inside the store; difference to the pass-through baseline)\n");
    for (size_t c = 0; c < cases.size(); ++c) {
        std::printf(
            "  %s  p10 %6.0f ns (%+5.0f)  median %6.0f ns (%+5.0f)  thread CPU median %6.0f ns (%+5.0f)\n",
            cases[c].first, p10[c], c >= 2 ? p10[c] - p10[1] : 0.0, median[c],
            c >= 2 ? median[c] - median[1] : 0.0, cpu[c], c >= 2 ? cpu[c] - cpu[1] : 0.0);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 3 && std::strcmp(argv[1], "--phase") == 0) {
        const std::string phase = argv[2];
        if (phase == "alloc") {
            return phase_alloc(argc, argv);
        }
        if (phase == "snapshot") {
            return phase_snapshot(argc, argv);
        }
        if (phase == "packets") {
            return phase_packets(argc, argv);
        }
        fail("unknown phase %s", phase.c_str());
    }
    return parent();
}
