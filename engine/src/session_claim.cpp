// SPDX-License-Identifier: MIT
// The follow-children claim (session_claim.h).
#include "session_claim.h"

#include <replayscope/ipc/environment.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace rs::engine {

namespace {

/// The decision of this process: pid it was taken in (0: none yet) and its outcome. A child forked
/// without exec inherits the parent's; it decides again (it is another process of the run).
std::atomic<pid_t> g_claim_pid{0};
std::atomic<bool> g_claim_inert{false};

const char* environment(const char* name) {
    const char* v = std::getenv(name);
    return v && v[0] != '\0' ? v : nullptr;
}

/// Creates `path` exclusively with this process's pid in it: 0 on success, else errno.
int create_exclusive(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        return errno;
    }
    char text[32];
    const int n = std::snprintf(text, sizeof text, "%ld\n", static_cast<long>(::getpid()));
    if (n > 0) {
        (void)!::write(fd, text, static_cast<size_t>(n));
    }
    ::close(fd);
    return 0;
}

} // namespace

std::vector<std::string> session_claim_paths() {
    std::vector<std::string> paths;
    const char* follow = environment(ipc::env::kFollowChildren);
    if (!follow || std::strcmp(follow, "0") != 0) {
        return paths;
    }
    if (const char* socket = environment(ipc::env::kSocket)) {
        const std::string path(socket);
        const auto slash = path.rfind('/');
        paths.push_back((slash == std::string::npos ? std::string(".") : path.substr(0, slash)) +
                        "/first-process");
    }
    if (const char* spool = environment(ipc::env::kSpool)) {
        paths.push_back(std::string(spool) + ".first");
    }
    return paths;
}

SessionClaim claim_session() noexcept {
    const pid_t self = ::getpid();
    if (g_claim_pid.load(std::memory_order_acquire) == self) {
        return g_claim_inert.load(std::memory_order_relaxed) ? SessionClaim::inert : SessionClaim::record;
    }
    bool inert = false;
    try {
        for (const std::string& path : session_claim_paths()) {
            const int error = create_exclusive(path);
            if (error == 0) {
                break;
            }
            if (error == EEXIST) {
                inert = true;
                break;
            }
        }
    } catch (...) {
        inert = false; // out of memory reading the environment: record, as without the restriction
    }
    g_claim_inert.store(inert, std::memory_order_relaxed);
    g_claim_pid.store(self, std::memory_order_release);
    return inert ? SessionClaim::inert : SessionClaim::record;
}

} // namespace rs::engine
