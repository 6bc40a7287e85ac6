// SPDX-License-Identifier: MIT
#include "command_line.h"

#include <cctype>
#include <string_view>

namespace rs::runner {

namespace {

bool plain(const std::string& arg) {
    if (arg.empty()) {
        return false;
    }
    for (const char c : arg) {
        const auto u = static_cast<unsigned char>(c);
        if (!std::isalnum(u) && std::string_view("_./%=:,+@-").find(c) == std::string_view::npos) {
            return false;
        }
    }
    return true;
}

} // namespace

std::string shell_command_line(const std::vector<std::string>& args) {
    std::string out;
    for (const std::string& arg : args) {
        if (!out.empty()) {
            out += ' ';
        }
        if (plain(arg)) {
            out += arg;
            continue;
        }
        out += '\'';
        for (const char c : arg) {
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        }
        out += '\'';
    }
    return out;
}

} // namespace rs::runner
