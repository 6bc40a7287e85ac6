// SPDX-License-Identifier: MIT
#include "diagnostics.h"

#include <cstdio>

namespace rs::runner {

void note(const std::string& message) {
    std::fprintf(stderr, "replayscope-run: %s\n", message.c_str());
}

int fail(const std::string& message) {
    note(message);
    return kToolFailure;
}

} // namespace rs::runner
