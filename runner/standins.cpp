// SPDX-License-Identifier: MIT
#include "standins.h"

#include "file_system.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace rs::runner {

std::string chunk_hash_standin(const std::string& engine_path) {
    const auto slash = engine_path.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string(".") : engine_path.substr(0, slash);
    const std::string path = dir + "/libreplayscope_chunk_hash_standins.so";
    char resolved[PATH_MAX];
    if (!is_regular_file(path) || ::realpath(path.c_str(), resolved) == nullptr) {
        return {};
    }
    return resolved;
}

std::string with_chunk_hash_standin(const std::string& current, const std::string& chunk_hash_standin) {
    if (chunk_hash_standin.empty()) {
        return current;
    }
    std::size_t start = 0;
    while (start <= current.size()) {
        const std::size_t colon = std::min(current.find(':', start), current.size());
        if (current.compare(start, colon - start, chunk_hash_standin) == 0 &&
            colon - start == chunk_hash_standin.size()) {
            return current;
        }
        start = colon + 1;
    }
    return current.empty() ? chunk_hash_standin : current + ":" + chunk_hash_standin;
}

std::optional<std::string> standins_variable(const std::string& list, std::string& error) {
    std::string joined;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string entry = list.substr(start, comma - start);
        start = comma + 1;
        if (entry.empty()) {
            error = "--standins: empty entry in \"" + list + "\"";
            return std::nullopt;
        }
        char resolved[PATH_MAX];
        if (!is_regular_file(entry) || ::realpath(entry.c_str(), resolved) == nullptr) {
            error = "--standins: stand-in library not found: " + entry;
            return std::nullopt;
        }
        if (std::strchr(resolved, ':') != nullptr) {
            error =
                std::string("--standins: path contains ':' (the HSA_SIM_STANDINS separator): ") + resolved;
            return std::nullopt;
        }
        // Appended piece by piece (a `"" + std::string` temporary makes GCC 12 -O3 report a false
        // -Wrestrict inside std::string).
        if (!joined.empty()) {
            joined += ':';
        }
        joined += resolved;
    }
    return joined;
}

} // namespace rs::runner
