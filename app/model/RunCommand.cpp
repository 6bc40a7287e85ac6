// SPDX-License-Identifier: MIT
#include "model/RunCommand.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

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
    if (!o.kernelIterationRange.trimmed().isEmpty()) {
        a << QStringLiteral("--kernel-iteration-range") << o.kernelIterationRange.trimmed();
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
    if (!o.snapshotStore.isEmpty() && o.snapshotStore != QLatin1String("auto")) {
        a << QStringLiteral("--snapshot-store") << o.snapshotStore;
    }
    if (!o.deviceStoreReserve.trimmed().isEmpty()) {
        a << QStringLiteral("--device-store-reserve") << o.deviceStoreReserve.trimmed();
    }
    if (!o.restore.isEmpty() && o.restore != QLatin1String("dirty")) {
        a << QStringLiteral("--restore") << o.restore;
    }
    if (!o.restoreChunkSize.trimmed().isEmpty()) {
        a << QStringLiteral("--restore-chunk-size") << o.restoreChunkSize.trimmed();
    }
    if (o.simulate) {
        a << QStringLiteral("--simulate");
        QStringList libs;
        for (const QString& lib : o.standins.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!lib.trimmed().isEmpty()) {
                libs << lib.trimmed();
            }
        }
        if (!libs.isEmpty()) {
            a << QStringLiteral("--standins") << libs.join(QLatin1Char(','));
        }
    }
    a << QStringLiteral("--") << o.program << o.arguments;
    return a;
}

QString RunCommand::standinsBeside(const QString& program, const QString& workingDirectory) {
    const QString trimmed = program.trimmed();
    const QFileInfo info(trimmed);
    if (trimmed.isEmpty() || info.fileName().isEmpty()) {
        return {};
    }
    const QString candidate =
        QDir(info.path()).filePath(QStringLiteral("lib%1-standins.so").arg(info.fileName()));
    const QString base = workingDirectory.isEmpty() ? QDir::currentPath() : workingDirectory;
    return QFileInfo(QDir(base).filePath(candidate)).isFile() ? candidate : QString();
}

QStringList RunCommand::environment(const Options& o) {
    QStringList env;
    bool gpusSet = false;
    for (const QString& line : o.environment) {
        gpusSet = gpusSet || line.trimmed().startsWith(QLatin1String("HSA_SIM_GPU_AGENTS="));
    }
    if (o.simulate && o.simulatedGpus > 0 && !gpusSet) {
        env << QStringLiteral("HSA_SIM_GPU_AGENTS=%1").arg(o.simulatedGpus);
    }
    for (const QString& line : o.environment) {
        if (line.indexOf(QLatin1Char('=')) > 0) {
            env << line.trimmed();
        }
    }
    return env;
}

namespace {
/// `word` quoted for a POSIX shell when it holds anything but letters, digits and `%+,-./:=@_`.
QString shellQuoted(const QString& word) {
    if (word.isEmpty()) {
        return QStringLiteral("''");
    }
    for (const QChar c : word) {
        if (!c.isLetterOrNumber() && !QStringLiteral("%+,-./:=@_").contains(c)) {
            QString quoted = word;
            quoted.replace(QLatin1String("'"), QLatin1String("'\\''"));
            return QLatin1Char('\'') + quoted + QLatin1Char('\'');
        }
    }
    return word;
}
} // namespace

QString RunCommand::commandLine(const Options& o, const QString& runner) {
    QStringList words;
    for (const QString& entry : environment(o)) {
        const int eq = entry.indexOf(QLatin1Char('='));
        words << entry.left(eq + 1) + shellQuoted(entry.mid(eq + 1));
    }
    words << shellQuoted(runner);
    for (const QString& a : arguments(o)) {
        words << shellQuoted(a);
    }
    return words.join(QLatin1Char(' '));
}

} // namespace rs::app
