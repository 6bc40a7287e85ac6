// SPDX-License-Identifier: MIT
#include "line_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sim {

void LineFile::append(const std::string& path, const std::string& line) {
    std::lock_guard lock(mutex_);
    if (fd_ >= 0 && path_ != path) {
        ::close(fd_);
        fd_ = -1;
    }
    if (fd_ < 0) {
        fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        path_ = path;
        if (fd_ < 0) {
            if (!error_reported_) {
                std::fprintf(stderr, "hsa_sim: %s: cannot open '%s': %s\n", variable_, path.c_str(),
                             std::strerror(errno));
            }
            error_reported_ = true;
            return;
        }
    }
    const ssize_t n = ::write(fd_, line.data(), line.size());
    if (n != static_cast<ssize_t>(line.size()) && !error_reported_) {
        std::fprintf(stderr, "hsa_sim: %s: short write to '%s'\n", variable_, path.c_str());
        error_reported_ = true;
    }
}

void LineFile::close() {
    std::lock_guard lock(mutex_);
    if (fd_ >= 0) {
        ::close(fd_);
    }
    fd_ = -1;
    path_.clear();
    error_reported_ = false;
}

} // namespace sim
