// SPDX-License-Identifier: MIT
// Crash-test helper: a collector in its own process (so that a test can SIGKILL it).
// Prints "SOCKET <path>", "TOKEN <token>" and "SPOOL <path>" lines, then collects until killed (or
// until stdin closes, when it finishes the session normally).
//   ipc_test_collector SESSION.rsdb
#include "replayscope/ipc/collector.h"

#include <cstdio>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        return 2;
    }
    std::string error;
    rs::ipc::CollectorOptions options;
    options.session_path = argv[1];
    auto collector = rs::ipc::Collector::create(options, error);
    if (!collector || !collector->start()) {
        std::fprintf(stderr, "ipc_test_collector: %s\n", error.c_str());
        return 3;
    }
    std::printf("SOCKET %s\nTOKEN %s\nSPOOL %s\n", collector->socket_path().c_str(),
                collector->token().c_str(), collector->spool_path().c_str());
    std::fflush(stdout);
    char c;
    while (::read(STDIN_FILENO, &c, 1) > 0) {
    }
    collector->finish(std::chrono::seconds(2));
    return 0;
}
