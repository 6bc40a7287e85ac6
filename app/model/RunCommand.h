// The replayscope-run command line for a launch (what the launch dialog starts as a child process).
#pragma once

#include <QString>
#include <QStringList>

namespace rs::app {

class RunCommand {
  public:
    struct Options {
        QString program;
        QStringList arguments;
        QString workingDirectory;
        QStringList environment; ///< extra "KEY=value" entries for the target
        int passes = 2;
        QString kernelInclude, kernelExclude;
        qint64 dispatchSkip = 0, dispatchCount = 0;
        QString agents;           ///< comma-separated indices or names
        QString hostMemoryBudget; ///< bytes, K/M/G/T suffix allowed; empty = none
        bool fidelityCheck = false;
        bool simulate = false;
        QString output; ///< session file
    };
    /// replayscope-run next to this program (`QCoreApplication::applicationDirPath()`).
    static QString runnerPath();
    /// Arguments for replayscope-run (ends with "-- program args...").
    static QStringList arguments(const Options& options);
};

} // namespace rs::app
