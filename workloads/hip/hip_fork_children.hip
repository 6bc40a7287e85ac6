// SPDX-License-Identifier: MIT
// hip_fork_children: a HIP program that starts two HIP programs of its own, as a launcher script or a
// Python driver would. The parent launches an in-place kernel once and checks it, then fork()s twice and
// exec()s itself in each child with the arguments "child 1" and "child 2" (both children run at the same
// time), and waits for both: each must exit with status 0. Child N launches the same in-place kernel
// N + 1 times with increment N on a buffer of its own and checks every element. Under replay each launch is
// replayed, so the increments only come out right if every pass of every process was restored. Every
// process prints "hip_fork_children: <role> pid P ppid Q launches L" before its check, and the parent one
// "child N pid P exited S" line per child.
#include "hip_check.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace {
constexpr const char* kProgram = "hip_fork_children";
constexpr int kCount = 2048;
} // namespace

/// data[i] += increment for i < n.
__global__ void add_in_place(unsigned* data, int n, unsigned increment) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += increment;
    }
}

namespace {

/// Launches add_in_place `launches` times with `increment` on a fresh buffer holding 3 * i and checks
/// that every element ends as 3 * i + launches * increment. `role` names the process in messages.
void run_kernels(const char* role, int launches, unsigned increment) {
    std::printf("%s: %s pid %ld ppid %ld launches %d\n", kProgram, role, static_cast<long>(::getpid()),
                static_cast<long>(::getppid()), launches);
    std::fflush(stdout);
    std::vector<unsigned> host(kCount);
    for (int i = 0; i < kCount; ++i) {
        host[i] = 3u * static_cast<unsigned>(i);
    }
    unsigned* data = nullptr;
    HIP_CHECK(hipMalloc(&data, kCount * sizeof(unsigned)));
    HIP_CHECK(hipMemcpy(data, host.data(), kCount * sizeof(unsigned), hipMemcpyHostToDevice));
    for (int l = 0; l < launches; ++l) {
        hipLaunchKernelGGL(add_in_place, dim3(kCount / 256), dim3(256), 0, 0, data, kCount, increment);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(host.data(), data, kCount * sizeof(unsigned), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(data));
    const unsigned added = static_cast<unsigned>(launches) * increment;
    for (int i = 0; i < kCount; ++i) {
        if (host[i] != 3u * static_cast<unsigned>(i) + added) {
            rs_hip::fail(kProgram, "%s: data[%d] = %u, expected %u (%d launches adding %u)", role, i, host[i],
                         3u * static_cast<unsigned>(i) + added, launches, increment);
        }
    }
}

/// The running program's path (/proc/self/exe), read before any fork.
std::string own_path() {
    std::vector<char> path(4096);
    const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
    if (n <= 0) {
        rs_hip::fail(kProgram, "readlink(/proc/self/exe): %s", std::strerror(errno));
    }
    return std::string(path.data(), static_cast<size_t>(n));
}

/// fork() + exec() of `program` with the arguments "child" and `number`; returns the child's pid. The
/// child does nothing but exec between fork and exec (no HIP call, no exit handler: _exit on failure).
pid_t start_child(const std::string& program, const char* number) {
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        rs_hip::fail(kProgram, "fork: %s", std::strerror(errno));
    }
    if (pid == 0) {
        char* const argv[] = {const_cast<char*>(program.c_str()), const_cast<char*>("child"),
                              const_cast<char*>(number), nullptr};
        ::execv(program.c_str(), argv);
        _exit(127);
    }
    return pid;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "child") == 0) {
        const int n = std::atoi(argv[2]);
        if (n != 1 && n != 2) {
            rs_hip::fail(kProgram, "child number must be 1 or 2, got \"%s\"", argv[2]);
        }
        const std::string role = "child " + std::to_string(n);
        run_kernels(role.c_str(), n + 1, static_cast<unsigned>(n));
        std::printf("%s: %s: every element right\nPASS\n", kProgram, role.c_str());
        return 0;
    }
    if (argc != 1) {
        rs_hip::fail(kProgram, "usage: %s [child 1|2]", argv[0]);
    }

    run_kernels("parent", 1, 5u);
    const std::string self = own_path();
    const pid_t children[2] = {start_child(self, "1"), start_child(self, "2")};
    bool all_passed = true;
    for (int c = 0; c < 2; ++c) {
        int status = 0;
        pid_t waited;
        while ((waited = ::waitpid(children[c], &status, 0)) < 0 && errno == EINTR) {
        }
        if (waited != children[c]) {
            rs_hip::fail(kProgram, "waitpid(child %d): %s", c + 1, std::strerror(errno));
        }
        if (WIFEXITED(status)) {
            std::printf("%s: child %d pid %ld exited %d\n", kProgram, c + 1, static_cast<long>(children[c]),
                        WEXITSTATUS(status));
            all_passed = all_passed && WEXITSTATUS(status) == 0;
        } else {
            std::printf("%s: child %d pid %ld killed by signal %d\n", kProgram, c + 1,
                        static_cast<long>(children[c]), WIFSIGNALED(status) ? WTERMSIG(status) : 0);
            all_passed = false;
        }
    }
    if (!all_passed) {
        rs_hip::fail(kProgram, "a child did not exit with status 0");
    }
    std::printf("%s: parent and both children right\nPASS\n", kProgram);
    return 0;
}
