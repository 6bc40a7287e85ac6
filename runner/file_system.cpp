// SPDX-License-Identifier: MIT
#include "file_system.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace rs::runner {

bool is_regular_file(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool path_exists(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0;
}

std::string absolute_path(const std::string& path) {
    if (path.empty() || path.front() == '/') {
        return path;
    }
    std::string cwd(PATH_MAX, '\0');
    if (::getcwd(cwd.data(), cwd.size()) == nullptr) {
        return path;
    }
    cwd.resize(std::strlen(cwd.c_str()));
    std::string relative = path;
    while (relative.rfind("./", 0) == 0) {
        relative.erase(0, 2);
    }
    return cwd == "/" ? "/" + relative : cwd + "/" + relative;
}

bool create_parent_directories(const std::string& path, std::string& error) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos || slash == 0) {
        return true;
    }
    const std::string directory = path.substr(0, slash);
    for (std::size_t end = 1; end <= directory.size(); ++end) {
        if (end < directory.size() && directory[end] != '/') {
            continue;
        }
        const std::string prefix = directory.substr(0, end);
        if (prefix.back() == '/') {
            continue;
        }
        struct stat st{};
        if (::stat(prefix.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                error = "'" + prefix + "' is not a directory";
                return false;
            }
            continue;
        }
        if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) {
            error = "cannot create directory '" + prefix + "': " + std::strerror(errno);
            return false;
        }
    }
    return true;
}

} // namespace rs::runner
