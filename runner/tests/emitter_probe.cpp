// Stand-in for the engine in replayscope-run's end-to-end test: starts the emitter from the
// environment, records the variables replayscope-run set as the session configuration, emits N
// dispatches, then exits with the given status (or kills itself with the given signal).
//   rs_emitter_probe N EXIT_STATUS [SIGNAL]
#include "replayscope/ipc/emitter.hpp"

#include <csignal>
#include <cstdlib>
#include <string>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        return 2;
    }
    const unsigned long long n = std::strtoull(argv[1], nullptr, 10);
    const int status = std::atoi(argv[2]);
    const int signal = argc > 3 ? std::atoi(argv[3]) : 0;
    rs::ipc::Emitter emitter;
    if (!emitter.start(rs::ipc::EmitterConfig::fromEnvironment())) {
        return 3;
    }
    std::string config;
    for (const char* name :
         {// first: the configuration string is cut at 400 bytes
          "REPLAYSCOPE_LOG", "REPLAYSCOPE_DRAIN_TIMEOUT_MS", "REPLAYSCOPE_PASS_TIMEOUT_MS",
          "REPLAYSCOPE_STALE_THING", "HSA_TOOLS_LIB", "HSA_TOOLS_ROCPROFILER_V1_TOOLS", "REPLAYSCOPE_PASSES",
          "REPLAYSCOPE_KERNEL_INCLUDE_REGEX", "REPLAYSCOPE_KERNEL_EXCLUDE_REGEX", "REPLAYSCOPE_DISPATCH_SKIP",
          "REPLAYSCOPE_DISPATCH_COUNT", "REPLAYSCOPE_AGENT_FILTER", "REPLAYSCOPE_HOST_MEMORY_BUDGET",
          "REPLAYSCOPE_FIDELITY_CHECK", "LD_PRELOAD"}) {
        const char* v = std::getenv(name);
        if (v != nullptr) {
            config += std::string(name) + "=" + v + "\n";
        }
    }
    emitter.emitSessionStart(argv[0], "probe", "localhost", "probe", config);
    for (unsigned long long i = 1; i <= n; ++i) {
        emitter.emitEvent(rs::ipc::DispatchRecord{
            i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, rs::ipc::DispatchDecision::declined_filtered});
    }
    if (signal != 0) {
        emitter.stop(std::chrono::seconds(5)); // flush, then die by the signal without a normal exit
        std::signal(signal, SIG_DFL);
        ::kill(::getpid(), signal);
    }
    emitter.stop(std::chrono::seconds(5));
    return status;
}
