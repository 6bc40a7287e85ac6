// SPDX-License-Identifier: MIT
// Workload accumulate_n: N dispatches of a[i] += 1 (accumulate.kd) on one coarse-grained buffer, one after
// the other, each waited for. Usage: accumulate_n N [EXIT_STATUS] (N >= 1, default 1; EXIT_STATUS 0..255,
// default 0, returned from main after the check passed: the exit status a session must record). The
// kernel is not idempotent: after N dispatches as seen by the program every a[i] must equal its initial
// value + N, however often a tool replayed each of them. Prints its pid and parent pid, so that a test
// running it from a script knows which recorded process it was.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>

using namespace rs::workloads;

namespace {

/// `text` as an unsigned number in [min, max]; fails the workload naming `what` otherwise.
unsigned long parse_number(const char* text, unsigned long min, unsigned long max, const char* what) {
    char* end = nullptr;
    errno = 0;
    const unsigned long value = std::strtoul(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        fail("%s must be a number in [%lu, %lu], got \"%s\"", what, min, max, text);
    }
    return value;
}

} // namespace

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 256;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    const std::vector<const char*> args = program_arguments(argc, argv);
    const auto dispatches =
        static_cast<uint32_t>(args.size() > 0 ? parse_number(args[0], 1, 100000000, "N (dispatches)") : 1);
    const auto exit_status =
        static_cast<int>(args.size() > 1 ? parse_number(args[1], 0, 255, "EXIT_STATUS") : 0);
    std::printf("accumulate_n: pid %ld ppid %ld dispatches %u\n", static_cast<long>(::getpid()),
                static_cast<long>(::getppid()), dispatches);
    std::fflush(stdout);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        const std::vector<uint32_t> initial = linear_values(kCount, 1000, 7);
        uint32_t* data = session.device_copy(initial);
        void* kernarg = session.kernarg(AccumulateArgs{data, kCount}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);
        for (uint32_t d = 0; d < dispatches; ++d) {
            queue.dispatch_and_wait(dispatch);
        }

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), data, kBytes);
        expect_added(result, initial, dispatches, "a", "accumulate.kd (once per dispatch)");
        session.free(kernarg);
        session.free(data);
    }
    std::printf("accumulate_n: every a[i] == initial + %u\nPASS\n", dispatches);
    return exit_status;
}
