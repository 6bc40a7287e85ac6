// SPDX-License-Identifier: MIT
// Crash-test helper: starts the emitter from the environment (as the engine does) and emits
// dispatches 1..N, pausing `pause_us` after every 100, printing "sent <i>" lines every 1000.
//   ipc_test_sender N pause_us
#include "replayscope/ipc/emitter.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: ipc_test_sender N pause_us\n");
        return 2;
    }
    const unsigned long long n = std::strtoull(argv[1], nullptr, 10);
    const long pause = std::strtol(argv[2], nullptr, 10);
    rs::ipc::Emitter emitter;
    if (!emitter.start(rs::ipc::EmitterConfig::from_environment())) {
        std::fprintf(stderr, "ipc_test_sender: emitter not started\n");
        return 3;
    }
    emitter.emit_session_start("ipc_test_sender", "ipc_test_sender", "localhost", "test", "");
    for (unsigned long long i = 1; i <= n; ++i) {
        if (!emitter.emit_event(rs::ipc::DispatchRecord{i,
                                                        1,
                                                        2,
                                                        3,
                                                        0,
                                                        {static_cast<std::uint32_t>(i), 1, 1},
                                                        {1, 1, 1},
                                                        rs::ipc::DispatchDecision::replayed})) {
            std::fprintf(stderr, "ipc_test_sender: emit %llu failed\n", i);
            return 4;
        }
        if (i % 100 == 0 && pause > 0) {
            std::this_thread::sleep_for(std::chrono::microseconds(pause));
        }
        if (i % 1000 == 0) {
            std::printf("sent %llu\n", i);
            std::fflush(stdout);
        }
    }
    return emitter.stop(std::chrono::seconds(5)) ? 0 : 5;
}
