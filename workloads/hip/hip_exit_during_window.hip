// SPDX-License-Identifier: MIT
// hip_exit_during_window: the process ends, or forks, while a long kernel runs, i.e. while a replaying
// tool's window for it is open. `add_one` adds 1 to every element of a buffer of its own (made slow on the
// simulator with HSA_SIM_KERNEL_TIME_NS); the program launches it on a stream of every device (one per
// device) and then, by MODE (argument 1):
//  - exit, quick_exit, _exit: a second host thread waits DELAY_MS (argument 2, default 100) after the
//    launches and ends the process with that function and status 3 (POSIX exit/_exit, C11 quick_exit).
//    The main thread meanwhile synchronises every stream and checks the buffers: it prints "main: every
//    element right" when each was incremented exactly once (else "main: WRONG ..."), then waits for the
//    exit; an exit status other than 3, or a signal, is the failure.
//  - return: the main thread waits DELAY_MS after the launches and returns 3 from main without
//    synchronising (exit and static destruction with the kernels in flight).
//  - fork, fork-window: fork() once the kernels have completed (fork) or DELAY_MS after the launches,
//    with them still running (fork-window); the child calls exit(0) at once, without any HIP call, and the
//    parent prints "child exited S after T ms" (fork to waitpid), then synchronises, checks and exits 0.
// Before any of this each device runs `warm_up` once and is synchronised, so that the long kernel's is
// not the first kernel execution of the process (the simulator's stand-in libraries register their
// teardown with the first kernel they run, docs/replay-window.md, "Process exit and fork").
// Prints "hip_exit_during_window: MODE on N devices" first and "PASS" last in the modes that end normally.
#include "hip_check.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_exit_during_window";
constexpr int kCount = 4096;

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

/// data[i] += 1 for i < n.
__global__ void add_one(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += 1;
    }
}

/// data[i] = i for i < n.
__global__ void warm_up(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = i;
    }
}

namespace {

/// One device's buffer (holding 5 * i before the launch) and the stream its kernel runs on.
struct DeviceWork {
    int device = 0;
    int* data = nullptr;
    hipStream_t stream = nullptr;
};

/// Allocates and fills a buffer and creates a stream on every device, after one warm_up there.
std::vector<DeviceWork> prepare() {
    int devices = 0;
    HIP_CHECK(hipGetDeviceCount(&devices));
    std::vector<int> initial(kCount);
    for (int i = 0; i < kCount; ++i) {
        initial[i] = 5 * i;
    }
    std::vector<DeviceWork> work(static_cast<size_t>(devices));
    for (int d = 0; d < devices; ++d) {
        DeviceWork& w = work[static_cast<size_t>(d)];
        w.device = d;
        HIP_CHECK(hipSetDevice(d));
        HIP_CHECK(hipMalloc(&w.data, kCount * sizeof(int)));
        HIP_CHECK(hipMemcpy(w.data, initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
        HIP_CHECK(hipStreamCreateWithFlags(&w.stream, hipStreamNonBlocking));
        int* scratch = nullptr;
        HIP_CHECK(hipMalloc(&scratch, 256 * sizeof(int)));
        hipLaunchKernelGGL(warm_up, dim3(1), dim3(256), 0, w.stream, scratch, 256);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        HIP_CHECK(hipFree(scratch));
    }
    return work;
}

void launch(const std::vector<DeviceWork>& work) {
    for (const DeviceWork& w : work) {
        HIP_CHECK(hipSetDevice(w.device));
        hipLaunchKernelGGL(add_one, dim3(kCount / 256), dim3(256), 0, w.stream, w.data, kCount);
        HIP_CHECK(hipGetLastError());
    }
}

/// Set by the thread that ends the process, just before it does.
std::atomic<bool> g_ending{false};

/// HIP_CHECK, except once the process is ending: exit()'s handlers tear HIP down (its context destroyed
/// under a thread still synchronising, with or without a tool), and a failure then is the teardown, not
/// the program's. The thread waits for the end instead of calling exit() a second time, which would race
/// the first.
void check_unless_ending(hipError_t status, const char* call) {
    if (status != hipSuccess && g_ending.load(std::memory_order_acquire)) {
        for (;;) {
            ::pause();
        }
    }
    ::rs_hip::check(kProgram, status, call);
}

/// Synchronises every stream and compares each buffer with 5 * i + 1; the first wrong element, or "".
std::string wait_and_check(const std::vector<DeviceWork>& work) {
    std::vector<int> result(kCount);
    for (const DeviceWork& w : work) {
        check_unless_ending(hipSetDevice(w.device), "hipSetDevice(w.device)");
        check_unless_ending(hipStreamSynchronize(w.stream), "hipStreamSynchronize(w.stream)");
        check_unless_ending(hipMemcpy(result.data(), w.data, kCount * sizeof(int), hipMemcpyDeviceToHost),
                            "hipMemcpy(result)");
        for (int i = 0; i < kCount; ++i) {
            if (result[i] != 5 * i + 1) {
                return "device " + std::to_string(w.device) + " data[" + std::to_string(i) +
                       "] = " + std::to_string(result[i]) + ", expected " + std::to_string(5 * i + 1);
            }
        }
    }
    return {};
}

/// Forks; the child calls exit(0) at once. Returns once the child was reaped, printing its status and
/// how long fork to waitpid took.
void fork_exiting_child() {
    std::fflush(stdout);
    std::fflush(stderr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) {
        rs_hip::fail(kProgram, "fork: %s", std::strerror(errno));
    }
    if (pid == 0) {
        std::exit(0);
    }
    int status = 0;
    pid_t waited;
    while ((waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (waited != pid) {
        rs_hip::fail(kProgram, "waitpid: %s", std::strerror(errno));
    }
    const double took = ms_since(start);
    if (WIFEXITED(status)) {
        std::printf("%s: child exited %d after %.1f ms\n", kProgram, WEXITSTATUS(status), took);
    } else {
        std::printf("%s: child killed by signal %d after %.1f ms\n", kProgram,
                    WIFSIGNALED(status) ? WTERMSIG(status) : 0, took);
    }
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "exit";
    const int delay_ms = argc > 2 ? std::atoi(argv[2]) : 100;
    if (mode != "exit" && mode != "quick_exit" && mode != "_exit" && mode != "return" && mode != "fork" &&
        mode != "fork-window") {
        rs_hip::fail(kProgram, "usage: %s [exit|quick_exit|_exit|return|fork|fork-window] [DELAY_MS]",
                     argv[0]);
    }
    const std::vector<DeviceWork> work = prepare();
    std::printf("%s: %s on %zu devices\n", kProgram, mode.c_str(), work.size());
    std::fflush(stdout);

    if (mode == "fork" || mode == "fork-window") {
        launch(work);
        if (mode == "fork") {
            const std::string wrong = wait_and_check(work);
            if (!wrong.empty()) {
                rs_hip::fail(kProgram, "before the fork: %s", wrong.c_str());
            }
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        }
        fork_exiting_child();
        const std::string wrong = wait_and_check(work);
        if (!wrong.empty()) {
            rs_hip::fail(kProgram, "after the fork: %s", wrong.c_str());
        }
        std::printf("%s: every element right\nPASS\n", kProgram);
        return 0;
    }
    if (mode == "return") {
        launch(work);
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        std::printf("%s: returning 3 from main\n", kProgram);
        std::fflush(stdout);
        return 3;
    }

    std::atomic<bool> launched{false};
    std::thread ender([&] {
        while (!launched.load(std::memory_order_acquire)) {
            std::this_thread::yield();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        std::printf("%s: calling %s(3)\n", kProgram, mode.c_str());
        std::fflush(stdout);
        g_ending.store(true, std::memory_order_release);
        if (mode == "exit") {
            std::exit(3);
        } else if (mode == "quick_exit") {
            std::quick_exit(3);
        } else {
            ::_exit(3);
        }
    });
    ender.detach();
    launch(work);
    launched.store(true, std::memory_order_release);
    const std::string wrong = wait_and_check(work);
    if (wrong.empty()) {
        std::printf("main: every element right\n");
    } else {
        std::printf("main: WRONG %s\n", wrong.c_str());
    }
    std::fflush(stdout);
    for (;;) {
        ::pause(); // the second thread ends the process
    }
}
