// SPDX-License-Identifier: MIT
#include "model/SimulatedRuntime.h"

#include <QSet>

namespace rs::app {

const QString& SimulatedRuntime::cpuAgentName() {
    static const QString name = QStringLiteral("ReplayScope simulated CPU");
    return name;
}

int SimulatedRuntime::processes(const SessionSnapshot& s) {
    if (s.isNull()) {
        return 0;
    }
    QSet<int> simulated;
    for (const AgentInfo& a : s->agents) {
        if (!a.isGpu() && a.name == cpuAgentName()) {
            simulated.insert(a.process);
        }
    }
    return int(simulated.size());
}

QString SimulatedRuntime::note(const SessionSnapshot& s) {
    const int n = processes(s);
    if (n == 0) {
        return {};
    }
    const QString what =
        QStringLiteral("ReplayScope's simulated HSA runtime (replayscope-run --simulate), not a "
                       "GPU: kernel times and hardware counters come from its gfx90a interpreter");
    if (n < s->processes.size()) {
        return QStringLiteral("%1 of %2 processes ran on %3").arg(n).arg(s->processes.size()).arg(what);
    }
    return QStringLiteral("ran on %1").arg(what);
}

} // namespace rs::app
