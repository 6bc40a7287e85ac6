// SPDX-License-Identifier: MIT
// Stand-in for the engine in replayscope-run's end-to-end test: starts the emitter from the
// environment, records the variables replayscope-run set as the session configuration, emits N
// dispatches, then exits with the given status (or kills itself with the given signal).
//   rs_emitter_probe N EXIT_STATUS [SIGNAL]
// RS_PROBE_QUEUE=N: emitter queue capacity (records; a small one makes the overflow path spool).
// RS_PROBE_SPOOL_ONLY=1: no socket, every record goes to the spool (a process whose collector is gone).
// RS_PROBE_EARLY_CLIENTS=1: before starting the emitter, a forked child connects twice to the
// collector's socket, sends a hello with a wrong token on one connection and nothing on the other, and
// holds both open for 10 s (a hostile same-uid client that was there before the target).
// RS_PROBE_EARLY_CLIENTS=drip: a forked child keeps 8 connections open for 10 s, each started with the
// header of a large frame and then fed one byte per millisecond, reconnecting whenever one is closed
// (pending clients that never finish a hello but are never quiet either).
#include "replayscope/ipc/emitter.h"
#include "replayscope/ipc/frame_encoder.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>

namespace {

int connectTo(const char* path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) {
        return fd;
    }
    if (fd >= 0) {
        ::close(fd);
    }
    return -1;
}

/// Runs `clients` in a forked child and returns once it has called its `ready` argument (or exited):
/// the hostile clients are connected before the probe's own emitter starts. Nothing happens without
/// REPLAYSCOPE_SOCKET.
template <typename Clients>
void forkClients(Clients clients) {
    const char* socket_path = std::getenv("REPLAYSCOPE_SOCKET");
    int ready[2];
    if (socket_path == nullptr || ::pipe(ready) != 0) {
        return;
    }
    if (::fork() == 0) {
        ::close(ready[0]);
        bool told = false;
        clients(socket_path, [&] {
            if (!told) {
                (void)!::write(ready[1], "x", 1);
                ::close(ready[1]);
                told = true;
            }
        });
    }
    ::close(ready[1]);
    char c;
    (void)!::read(ready[0], &c, 1);
    ::close(ready[0]);
}

/// The early clients (see above); returns once both are connected and the wrong hello is sent.
void startEarlyClients() {
    forkClients([](const char* socket_path, auto ready) {
        const int wrong = connectTo(socket_path);
        const int silent = connectTo(socket_path);
        rs::ipc::Record hello{};
        hello.type = rs::ipc::EventType::hello;
        std::memset(hello.hello.token, 'f', sizeof hello.hello.token);
        hello.hello.pid = static_cast<std::uint32_t>(::getpid());
        hello.hello.instance = 99;
        hello.hello.protocol_version = rs::ipc::kProtocolVersion;
        flatbuffers::FlatBufferBuilder builder;
        std::vector<std::uint8_t> frame;
        rs::ipc::append_frame(hello, builder, frame);
        if (wrong >= 0) {
            (void)!::send(wrong, frame.data(), frame.size(), MSG_NOSIGNAL);
        }
        ready();
        ::sleep(10);
        ::_exit(silent >= 0 ? 0 : 1);
    });
}

/// The dripping clients (see above); returns once the first connection is made.
void startDrippingClients() {
    forkClients([](const char* socket_path, auto ready) {
        rs::ipc::FrameHeader header{rs::ipc::kFrameMagic,
                                    rs::ipc::kProtocolVersion,
                                    static_cast<std::uint16_t>(rs::ipc::EventType::hello),
                                    60000,
                                    0,
                                    0};
        std::vector<int> fds;
        for (int ms = 0; ms < 10000; ++ms) {
            while (fds.size() < 8) {
                const int fd = connectTo(socket_path);
                if (fd < 0) {
                    break;
                }
                (void)!::send(fd, &header, sizeof header, MSG_NOSIGNAL);
                fds.push_back(fd);
            }
            ready();
            std::vector<int> alive;
            for (const int fd : fds) {
                if (::send(fd, "", 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1) {
                    alive.push_back(fd);
                } else {
                    ::close(fd);
                }
            }
            fds = alive;
            ::usleep(1000);
        }
        ::_exit(0);
    });
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        return 2;
    }
    const unsigned long long n = std::strtoull(argv[1], nullptr, 10);
    const int status = std::atoi(argv[2]);
    const int signal = argc > 3 ? std::atoi(argv[3]) : 0;
    if (const char* early = std::getenv("RS_PROBE_EARLY_CLIENTS"); early != nullptr && early[0] == '1') {
        startEarlyClients();
    } else if (early != nullptr && std::strcmp(early, "drip") == 0) {
        startDrippingClients();
    }
    auto emitter_config = rs::ipc::EmitterConfig::from_environment();
    if (const char* queue = std::getenv("RS_PROBE_QUEUE")) {
        emitter_config.queue_capacity = std::strtoull(queue, nullptr, 10);
    }
    if (const char* spool_only = std::getenv("RS_PROBE_SPOOL_ONLY"); spool_only && spool_only[0] == '1') {
        emitter_config.socket_path.clear(); // as with the collector gone: every record to the spool
    }
    rs::ipc::Emitter emitter;
    if (!emitter.start(emitter_config)) {
        return 3;
    }
    std::string config;
    // RS_PROBE_CONFIG=NAME,NAME...: record these variables instead (in that order).
    if (const char* names = std::getenv("RS_PROBE_CONFIG"); names != nullptr && names[0] != '\0') {
        const std::string list = names;
        for (std::size_t start = 0; start < list.size();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            const std::string name = list.substr(start, comma - start);
            start = comma + 1;
            if (const char* v = std::getenv(name.c_str())) {
                config += name + "=" + v + "\n";
            }
        }
    } else {
        for (const char* name :
             {// first: the configuration string is cut at 400 bytes
              "REPLAYSCOPE_LOG", "REPLAYSCOPE_DRAIN_TIMEOUT_MS", "REPLAYSCOPE_PASS_TIMEOUT_MS",
              "REPLAYSCOPE_STALE_THING", "HSA_TOOLS_LIB", "HSA_TOOLS_ROCPROFILER_V1_TOOLS",
              "REPLAYSCOPE_PASSES", "REPLAYSCOPE_KERNEL_INCLUDE_REGEX", "REPLAYSCOPE_KERNEL_EXCLUDE_REGEX",
              "REPLAYSCOPE_DISPATCH_SKIP", "REPLAYSCOPE_DISPATCH_COUNT", "REPLAYSCOPE_AGENT_FILTER",
              "REPLAYSCOPE_HOST_MEMORY_BUDGET", "REPLAYSCOPE_FIDELITY_CHECK", "REPLAYSCOPE_FOLLOW_CHILDREN",
              "LD_PRELOAD"}) {
            const char* v = std::getenv(name);
            if (v != nullptr) {
                config += std::string(name) + "=" + v + "\n";
            }
        }
    }
    emitter.emit_session_start(argv[0], std::string("probe ") + argv[1], "localhost", "probe", config);
    for (unsigned long long i = 1; i <= n; ++i) {
        emitter.emit_event(rs::ipc::DispatchRecord{
            i, 1, 2, 3, 0, {1, 1, 1}, {1, 1, 1}, rs::ipc::DispatchDecision::declined_filtered});
    }
    if (signal != 0) {
        emitter.stop(std::chrono::seconds(5)); // flush, then die by the signal without a normal exit
        std::signal(signal, SIG_DFL);
        ::kill(::getpid(), signal);
    }
    emitter.stop(std::chrono::seconds(5), 0, status);
    return status;
}
