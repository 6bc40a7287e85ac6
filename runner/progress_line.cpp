// SPDX-License-Identifier: MIT
#include "progress_line.h"

#include <cstdio>
#include <unistd.h>

namespace rs::runner {

ProgressLine::ProgressLine(bool enabled)
    : enabled_(shown_for(enabled, ::isatty(STDERR_FILENO) == 1, ::isatty(STDOUT_FILENO) == 1)) {}

void ProgressLine::update(std::uint64_t events, std::uint64_t dispatches, double seconds) {
    if (!enabled_) {
        return;
    }
    std::fprintf(stderr, "\r\033[Kreplayscope-run: %.1f s, %llu events, %llu dispatches", seconds,
                 static_cast<unsigned long long>(events), static_cast<unsigned long long>(dispatches));
    std::fflush(stderr);
    shown_ = true;
}

void ProgressLine::clear() {
    if (shown_) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        shown_ = false;
    }
}

} // namespace rs::runner
