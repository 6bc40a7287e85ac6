// SPDX-License-Identifier: MIT
// inspector_make_session OUT.rsdb [DISPATCHES] [REGIONS_PER_INVENTORY] [incomplete]
// Writes a synthetic session (SyntheticSession) for screenshots, demos and the benchmark.
#include "synthetic/SyntheticSession.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr const char* kUsage = "usage: inspector_make_session OUT.rsdb [DISPATCHES] [REGIONS] [incomplete]\n";

/// `text` as a count >= 0, or -1 when it is not one.
long count(const char* text) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    return end != text && *end == '\0' && v >= 0 ? v : -1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    // An option-like first argument is not taken for the output path (it would become a file "--x").
    if (argc < 2 || argv[1][0] == '-') {
        std::fputs(kUsage, stderr);
        return 2;
    }
    rs::app::SyntheticSession::Options o;
    const long dispatches = argc > 2 ? count(argv[2]) : o.dispatches;
    const long regions = argc > 3 ? count(argv[3]) : o.regionsPerInventory;
    if (dispatches < 0 || regions < 0) {
        std::fprintf(stderr, "inspector_make_session: DISPATCHES and REGIONS are counts\n%s", kUsage);
        return 2;
    }
    o.dispatches = int(dispatches);
    o.regionsPerInventory = int(regions);
    o.complete = !(argc > 4 && std::strcmp(argv[4], "incomplete") == 0);
    QString error;
    if (!rs::app::SyntheticSession::write(QString::fromLocal8Bit(argv[1]), o, &error)) {
        std::fprintf(stderr, "inspector_make_session: %s\n", qPrintable(error));
        return 1;
    }
    return 0;
}
