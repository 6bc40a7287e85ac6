// SPDX-License-Identifier: MIT
#include "output_claim.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace rs::runner {

namespace {

/// The text of the open lock file `fd` (at most 255 bytes), "" when it is empty or unreadable.
std::string read_claim(int fd) {
    char text[256];
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    return n > 0 ? std::string(text, static_cast<std::size_t>(n)) : std::string();
}

/// The pid a lock file's text names ("replayscope-run pid N"), 0 when it names none.
long claimed_pid(const std::string& text) {
    long pid = 0;
    return std::sscanf(text.c_str(), "replayscope-run pid %ld", &pid) == 1 && pid > 0 ? pid : 0;
}

/// True when `fd` and `path` are the same file (the lock file was not removed or replaced meanwhile).
bool same_file(int fd, const std::string& path) {
    struct stat open_st{}, path_st{};
    return ::fstat(fd, &open_st) == 0 && ::lstat(path.c_str(), &path_st) == 0 &&
           open_st.st_dev == path_st.st_dev && open_st.st_ino == path_st.st_ino;
}

} // namespace

std::unique_ptr<OutputClaim> OutputClaim::acquire(const std::string& session, std::string& error,
                                                  std::string& note) {
    const std::string lock_path = session + ".lock";
    // A run that releases its claim removes the lock file while holding the lock: a run that opened the
    // old file just before finds, once it holds the lock, that the path names another file (or none) and
    // tries again on the new one. A few rounds settle any interleaving of live runs.
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0) {
            error = session + ": cannot create the lock file " + lock_path + ": " + std::strerror(errno);
            return nullptr;
        }
        struct stat st{};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
            ::close(fd);
            error = session + ": the lock file " + lock_path +
                    " is not a regular file of this user; not claimed (remove it if no run uses it)";
            return nullptr;
        }
        int locked = -1;
        while ((locked = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
        }
        if (locked != 0) {
            const int lock_errno = errno;
            if (lock_errno != EWOULDBLOCK) {
                ::close(fd);
                error = session + ": cannot lock " + lock_path + ": " + std::strerror(lock_errno);
                return nullptr;
            }
            // Held by a live run. Its pid follows its lock within microseconds: wait for it briefly.
            long pid = claimed_pid(read_claim(fd));
            for (int i = 0; pid == 0 && i < 100; ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
                pid = claimed_pid(read_claim(fd));
            }
            ::close(fd);
            error = session + ": in use by another replayscope-run (" +
                    (pid > 0 ? "pid " + std::to_string(pid) : std::string("pid unknown")) +
                    "); not started, nothing changed (its claim is " + lock_path + ")";
            return nullptr;
        }
        if (!same_file(fd, lock_path)) {
            ::close(fd); // released and removed by its run meanwhile: claim the path's new file
            continue;
        }
        // Locked: any text in it is the claim of a run that died without releasing it.
        const std::string previous = read_claim(fd);
        if (!previous.empty()) {
            const long pid = claimed_pid(previous);
            note = "taking over the stale claim of " +
                   (pid > 0 ? "replayscope-run pid " + std::to_string(pid) : std::string("an earlier run")) +
                   ", which ended without releasing it (" + lock_path + ")";
        }
        const std::string text = "replayscope-run pid " + std::to_string(::getpid()) + "\n";
        if (::ftruncate(fd, 0) != 0 ||
            ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
            error = session + ": cannot write the lock file " + lock_path + ": " + std::strerror(errno);
            ::close(fd); // leaves the file: unlocked, it is a stale claim the next run takes over
            return nullptr;
        }
        return std::unique_ptr<OutputClaim>(new OutputClaim(lock_path, fd));
    }
    error = session + ": the lock file " + lock_path + " keeps being replaced; not claimed";
    return nullptr;
}

OutputClaim::~OutputClaim() {
    if (same_file(fd_, lock_path_)) {
        ::unlink(lock_path_.c_str());
    }
    ::close(fd_);
}

} // namespace rs::runner
