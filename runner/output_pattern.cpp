// SPDX-License-Identifier: MIT
#include "output_pattern.h"

#include <charconv>
#include <string_view>

namespace rs::runner {

std::optional<int> job_rank(const EnvironmentLookup& lookup) {
    for (const char* name : kRankVariables) {
        const char* value = lookup(name);
        if (value == nullptr || *value == '\0') {
            continue;
        }
        const std::string_view text(value);
        int rank = -1;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), rank);
        if (ec != std::errc() || end != text.data() + text.size() || rank < 0) {
            return std::nullopt;
        }
        return rank;
    }
    return std::nullopt;
}

std::string expand_output_pattern(const std::string& pattern, pid_t pid, const EnvironmentLookup& lookup) {
    std::string rank = std::to_string(pid);
    for (const char* name : kRankVariables) {
        const char* value = lookup(name);
        if (value != nullptr && *value != '\0') {
            rank = value;
            break;
        }
    }
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (pattern[i] != '%' || (next != 'r' && next != 'p' && next != '%')) {
            out += pattern[i];
            continue;
        }
        out += next == 'r' ? rank : next == 'p' ? std::to_string(pid) : std::string("%");
        ++i;
    }
    return out;
}

} // namespace rs::runner
