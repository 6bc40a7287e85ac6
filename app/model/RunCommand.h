// SPDX-License-Identifier: MIT
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
        /// --kernel-iteration-range: rocprofv3's per-kernel iteration ranges ("[1-3],[5]"); empty = every
        /// iteration. replayscope-run checks the text (a refused one ends the run with exit 125 and its
        /// line).
        QString kernelIterationRange;
        QString agents;           ///< comma-separated indices or names
        QString hostMemoryBudget; ///< bytes, K/M/G/T suffix allowed; empty = none
        bool fidelityCheck = false;
        /// --snapshot-store auto|host|device and --restore full|dirty|dirty-host: passed when they differ
        /// from the runner's defaults ("auto", "dirty"; empty counts as the default).
        QString snapshotStore, restore;
        /// --device-store-reserve and --restore-chunk-size (bytes, K/M/G or KiB/MiB/GiB suffix); empty =
        /// the runner's default (1 GiB, 64 KiB).
        QString deviceStoreReserve, restoreChunkSize;
        bool simulate = false;
        /// With `simulate`: the simulated GPU agents (HSA_SIM_GPU_AGENTS), 2 as packaging/demo.sh runs the
        /// demo; 0 leaves the variable to the environment.
        int simulatedGpus = 2;
        /// Host stand-in libraries of the program's HIP kernels (made by replayscope-standins),
        /// comma-separated paths (relative ones to the working directory); used only with `simulate`.
        QString standins;
        QString output; ///< session file
    };
    /// replayscope-run next to this program (`QCoreApplication::applicationDirPath()`).
    static QString runnerPath();
    /// Arguments for replayscope-run (ends with "-- program args..."). `standins` becomes
    /// `--standins a,b` (entries trimmed, empty ones dropped) only when `simulate` is set, since
    /// replayscope-run refuses `--standins` without `--simulate`.
    static QStringList arguments(const Options& options);
    /// What the run adds to the program's environment: HSA_SIM_GPU_AGENTS=N with `simulate` (unless
    /// `simulatedGpus` is 0 or the extra environment sets it), then the extra environment. "KEY=value" each.
    static QStringList environment(const Options& options);
    /// The command line as a shell would run it, for the user to read and copy: the environment entries,
    /// `runner` and the arguments, each quoted for a POSIX shell when it needs to be.
    static QString commandLine(const Options& options, const QString& runner);
    /// The stand-in library replayscope-standins names after `program` (`lib<name>-standins.so` in the
    /// program's directory, e.g. the demo's `libdemo-standins.so`), spelled like `program` (relative stays
    /// relative); empty when no such file exists. A relative `program` is looked up from
    /// `workingDirectory` (empty: the current directory).
    static QString standinsBeside(const QString& program, const QString& workingDirectory = QString());
};

} // namespace rs::app
