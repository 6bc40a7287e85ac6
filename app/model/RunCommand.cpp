#include "model/RunCommand.h"

#include <QCoreApplication>
#include <QDir>

namespace rs::app {

QString RunCommand::runnerPath() {
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("replayscope-run"));
}

QStringList RunCommand::arguments(const Options& o) {
    QStringList a{QStringLiteral("--force"),  QStringLiteral("--no-progress"), QStringLiteral("-o"), o.output,
                  QStringLiteral("--passes"), QString::number(o.passes)};
    if (!o.kernelInclude.isEmpty()) {
        a << QStringLiteral("--kernel-include-regex") << o.kernelInclude;
    }
    if (!o.kernelExclude.isEmpty()) {
        a << QStringLiteral("--kernel-exclude-regex") << o.kernelExclude;
    }
    if (o.dispatchSkip > 0) {
        a << QStringLiteral("--dispatch-skip") << QString::number(o.dispatchSkip);
    }
    if (o.dispatchCount > 0) {
        a << QStringLiteral("--dispatch-count") << QString::number(o.dispatchCount);
    }
    if (!o.agents.trimmed().isEmpty()) {
        a << QStringLiteral("--agent") << o.agents.trimmed();
    }
    if (!o.hostMemoryBudget.trimmed().isEmpty()) {
        a << QStringLiteral("--host-memory-budget") << o.hostMemoryBudget.trimmed();
    }
    if (o.fidelityCheck) {
        a << QStringLiteral("--fidelity-check");
    }
    if (o.simulate) {
        a << QStringLiteral("--simulate");
    }
    a << QStringLiteral("--") << o.program << o.arguments;
    return a;
}

} // namespace rs::app
