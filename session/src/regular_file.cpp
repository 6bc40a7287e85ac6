// SPDX-License-Identifier: MIT
#include "replayscope/session/regular_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace rs::session {

const char* file_kind(mode_t mode) {
    if (S_ISFIFO(mode)) {
        return "a FIFO";
    }
    if (S_ISCHR(mode)) {
        return "a character device";
    }
    if (S_ISBLK(mode)) {
        return "a block device";
    }
    if (S_ISDIR(mode)) {
        return "a directory";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "not a regular file";
}

int open_regular_file(const std::string& path, const char* refusal, struct stat& identity,
                      std::string& error) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        error = path + ": cannot be opened: " + std::strerror(errno);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        error = path + ": " + file_kind(st.st_mode) + ", " + refusal;
        return -1;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        error = path + ": cannot be opened: " + std::strerror(errno);
        return -1;
    }
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error = path + ": " + file_kind(st.st_mode) + ", " + refusal;
        ::close(fd);
        return -1;
    }
    identity = st;
    return fd;
}

bool file_has_content(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 && st.st_size > 0;
}

bool path_exists(const std::string& path) {
    struct stat st{};
    return ::lstat(path.c_str(), &st) == 0;
}

} // namespace rs::session
