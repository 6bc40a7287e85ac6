#include "hip_detection.h"

#include "program_launcher.h"

#include <fstream>

namespace rs::runner {

bool programUsesHip(const std::string& program_path) {
    std::ifstream in(program_path, std::ios::binary);
    if (!in) {
        return false;
    }
    static const std::string needle = "libamdhip64.so";
    std::string window;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        window.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (window.find(needle) != std::string::npos) {
            return true;
        }
        window.erase(0, window.size() > needle.size() ? window.size() - needle.size() : 0);
    }
    return false;
}

bool commandUsesHip(const std::string& program_path, const std::vector<std::string>& arguments) {
    if (programUsesHip(program_path)) {
        return true;
    }
    for (const std::string& argument : arguments) {
        const std::string candidate = resolveProgram(argument);
        if (!candidate.empty() && programUsesHip(candidate)) {
            return true;
        }
    }
    return false;
}

} // namespace rs::runner
