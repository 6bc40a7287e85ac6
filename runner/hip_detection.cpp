// SPDX-License-Identifier: MIT
#include "hip_detection.h"

#include "program_launcher.h"

#include <fstream>

namespace rs::runner {

bool program_uses_hip(const std::string& program_path) {
    std::ifstream in(program_path, std::ios::binary);
    if (!in) {
        return false;
    }
    static const std::string kNeedle = "libamdhip64.so";
    std::string window;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        window.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (window.find(kNeedle) != std::string::npos) {
            return true;
        }
        window.erase(0, window.size() > kNeedle.size() ? window.size() - kNeedle.size() : 0);
    }
    return false;
}

bool command_uses_hip(const std::string& program_path, const std::vector<std::string>& arguments) {
    if (program_uses_hip(program_path)) {
        return true;
    }
    for (const std::string& argument : arguments) {
        const std::string candidate = resolve_program(argument);
        if (!candidate.empty() && program_uses_hip(candidate)) {
            return true;
        }
    }
    return false;
}

} // namespace rs::runner
