// SPDX-License-Identifier: MIT
#include "chunk_hash_code_objects.h"

#include <string>

namespace rs::engine {

std::string_view isa_processor(std::string_view isa_name) {
    constexpr std::string_view kPrefix = "amdgcn-amd-amdhsa--";
    if (isa_name.starts_with(kPrefix)) {
        isa_name.remove_prefix(kPrefix.size());
    }
    return isa_name.substr(0, isa_name.find(':'));
}

const ChunkHashCodeObject* find_chunk_hash_code_object(std::string_view processor) {
    for (const auto& object : chunk_hash_code_objects()) {
        if (processor == object.processor) {
            return &object;
        }
    }
    return nullptr;
}

std::string_view chunk_hash_processors() {
    static const std::string kList = [] {
        std::string s;
        // Appended piece by piece: `"" + std::string` inserts at the front, where GCC 12 -O3 reports
        // a false -Wrestrict inside std::string.
        for (const auto& object : chunk_hash_code_objects()) {
            if (!s.empty()) {
                s += ' ';
            }
            s += object.processor;
        }
        return s;
    }();
    return kList;
}

} // namespace rs::engine
