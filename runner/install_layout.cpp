// SPDX-License-Identifier: MIT
#include "install_layout.h"

#include "file_system.h"

#include <climits>
#include <cstdlib>
#include <unistd.h>

namespace rs::runner {

InstallLayout InstallLayout::from_running_binary() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    std::string exe = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string(".");
    const auto slash = exe.rfind('/');
    return InstallLayout(slash == std::string::npos ? std::string(".") : exe.substr(0, slash));
}

std::string InstallLayout::default_engine_path() const {
    return exe_dir_ + "/../lib/replayscope/libreplayscope_engine.so";
}

std::vector<std::string> InstallLayout::simulator_candidates() const {
    return {exe_dir_ + "/../lib/replayscope/sim", exe_dir_ + "/../sim/lib"};
}

std::string InstallLayout::simulator_directory() const {
    for (const auto& dir : simulator_candidates()) {
        if (is_regular_file(dir + "/libhsa-runtime64.so.1")) {
            char resolved[PATH_MAX];
            return ::realpath(dir.c_str(), resolved) ? std::string(resolved) : dir;
        }
    }
    return {};
}

} // namespace rs::runner
