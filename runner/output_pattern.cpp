// SPDX-License-Identifier: MIT
#include "output_pattern.h"

namespace rs::runner {

std::string expand_output_pattern(const std::string& pattern, pid_t pid, const EnvironmentLookup& lookup) {
    std::string rank = std::to_string(pid);
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
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
