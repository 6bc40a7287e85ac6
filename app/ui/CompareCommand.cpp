// SPDX-License-Identifier: MIT
#include "ui/CompareCommand.h"

#include "model/SessionComparison.h"
#include "ui/ComparePage.h"

namespace rs::app {

int CompareCommand::run(const QString& base, const QString& now, const QString& chartDir, std::FILE* out,
                        std::FILE* err) {
    SessionError error;
    const SessionComparison c = SessionComparison::compareFiles(base, now, error);
    if (error.isError()) {
        std::fprintf(err, "replayscope: %s: %s: %s\n", qPrintable(error.path), qPrintable(error.title()),
                     qPrintable(error.message));
        return 1;
    }
    std::fputs(qPrintable(c.text(110)), out);
    if (chartDir.isEmpty()) {
        return 0;
    }
    ComparePage page;
    page.resize(1400, 900);
    page.setComparison(c);
    const QStringList written = page.exportPngs(chartDir);
    for (const QString& f : written) {
        std::fprintf(out, "%s\n", qPrintable(f));
    }
    if (written.size() != c.allChartMetrics().size()) {
        std::fprintf(err, "replayscope: %s: cannot write the comparison charts\n", qPrintable(chartDir));
        return 1;
    }
    return 0;
}

} // namespace rs::app
