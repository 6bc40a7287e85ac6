// SPDX-License-Identifier: MIT
#include "byte_size.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace rs::runner {

std::optional<std::uint64_t> parse_bytes(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || text[0] == '-') {
        return std::nullopt;
    }
    std::uint64_t scale = 1;
    const std::string suffix(end);
    if (!suffix.empty() && suffix.front() == ' ') {
        return std::nullopt;
    }
    if (suffix.empty() || suffix == "B") {
        scale = 1;
    } else if (suffix == "K" || suffix == "KiB") {
        scale = 1ull << 10;
    } else if (suffix == "M" || suffix == "MiB") {
        scale = 1ull << 20;
    } else if (suffix == "G" || suffix == "GiB") {
        scale = 1ull << 30;
    } else if (suffix == "T" || suffix == "TiB") {
        scale = 1ull << 40;
    } else {
        return std::nullopt;
    }
    if (value > UINT64_MAX / scale) {
        return std::nullopt;
    }
    return value * scale;
}

std::string format_bytes(std::uint64_t bytes) {
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        return std::to_string(bytes) + " B";
    }
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

} // namespace rs::runner
