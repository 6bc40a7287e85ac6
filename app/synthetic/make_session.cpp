// SPDX-License-Identifier: MIT
// inspector_make_session OUT.rsdb [DISPATCHES] [REGIONS_PER_INVENTORY] [incomplete]
// Writes a synthetic session (SyntheticSession) for screenshots, demos and the benchmark.
#include "synthetic/SyntheticSession.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: inspector_make_session OUT.rsdb [DISPATCHES] [REGIONS] [incomplete]\n");
        return 2;
    }
    rs::app::SyntheticSession::Options o;
    if (argc > 2) {
        o.dispatches = std::atoi(argv[2]);
    }
    if (argc > 3) {
        o.regionsPerInventory = std::atoi(argv[3]);
    }
    o.complete = !(argc > 4 && std::strcmp(argv[4], "incomplete") == 0);
    QString error;
    if (!rs::app::SyntheticSession::write(QString::fromLocal8Bit(argv[1]), o, &error)) {
        std::fprintf(stderr, "inspector_make_session: %s\n", qPrintable(error));
        return 1;
    }
    return 0;
}
