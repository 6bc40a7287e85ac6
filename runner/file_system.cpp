// SPDX-License-Identifier: MIT
#include "file_system.h"

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

} // namespace rs::runner
