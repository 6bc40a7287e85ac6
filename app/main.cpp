// SPDX-License-Identifier: MIT
// replayscope: the ReplayScope inspector.
//   replayscope [SESSION.rsdb...]                 open sessions (tabs)
//   replayscope --summary SESSION...              terminal summary (of several files: the job's)
//   replayscope --export-charts SESSION DIR       every chart as PNG, headless
//   replayscope --screenshots SESSION [BASELINE [RANK_FILE...]] DIR  every page as PNG, headless
//   replayscope --export-trace FILE.pftrace|FILE.json SESSION...  a Perfetto trace (protobuf; Chrome JSON
//                                                 for *.json), headless
//   replayscope --export-counters FILE.csv SESSION  hardware counters as rocprofv3's counter_collection.csv
//   replayscope --compare BASE NEW [--export-charts DIR]  two sessions compared, headless
//   replayscope --theme light|dark|system ...   colours: Fusion light or dark, or the desktop's (remembered)
//   replayscope --version
#include "model/CsvExporter.h"
#include "model/JobSummary.h"
#include "model/KernelName.h"
#include "model/SessionLoader.h"
#include "model/TerminalSummary.h"
#include "model/TraceExporter.h"
#include "ui/CompareCommand.h"
#include "ui/HeadlessExporter.h"
#include "ui/MainWindow.h"
#include "ui/Theme.h"

#include <QApplication>
#include <QCommandLineParser>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace {

/// Headless commands draw offscreen unless QT_QPA_PLATFORM chooses a platform. Returns false when the
/// inspector window is asked for but there is no display to open it on (no platform chosen, no DISPLAY,
/// no WAYLAND_DISPLAY).
bool choosePlatform(bool headless) {
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        return true;
    }
    if (headless) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        return true;
    }
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

/// Qt wants a private runtime directory and warns on every start without XDG_RUNTIME_DIR (root, ssh,
/// cron, CI): hand it the one it falls back to, /tmp/runtime-<uid>, once it is made (0700) or found ours
/// and private; otherwise Qt's own fallback and warning stand.
void ensureRuntimeDirectory() {
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        return;
    }
    const QByteArray dir = "/tmp/runtime-" + QByteArray::number(getuid());
    if (mkdir(dir.constData(), 0700) != 0 && errno != EEXIST) {
        return;
    }
    struct stat st{};
    if (lstat(dir.constData(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
        (st.st_mode & 077) == 0) {
        qputenv("XDG_RUNTIME_DIR", dir);
    }
}

/// Qt's messages, less the offscreen platform's "does not support propagateSizeHints()" that every
/// headless window printed (a capability it lacks, which changes nothing drawn).
QtMessageHandler previousHandler = nullptr; ///< Qt's, which dropPlatformNoise passes the rest to

void dropPlatformNoise(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QLatin1String("does not support propagateSizeHints"))) {
        return;
    }
    if (previousHandler != nullptr) {
        previousHandler(type, context, message);
    } else {
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
    }
}

int usageError(const QString& message) {
    std::fprintf(stderr, "replayscope: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    // Before any connection: the reader threads of a job would wait on SQLite's memory statistics.
    rs::app::SessionLoader::configureSqlite();
    bool headless = false;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        headless = headless || a == "--export-charts" || a == "--screenshots" || a == "--summary" ||
                   a == "--export-trace" || a.startsWith("--export-trace=") || a == "--export-counters" ||
                   a.startsWith("--export-counters=") || a == "--compare" || a == "--version" || a == "-v" ||
                   a == "--help" || a == "-h";
    }
    if (!choosePlatform(headless)) {
        // An offscreen inspector window nobody can see would only look like a hang.
        std::fprintf(stderr, "replayscope: no display (DISPLAY and WAYLAND_DISPLAY are unset): the inspector "
                             "window cannot open.\nWithout a display: replayscope --summary SESSION, "
                             "--export-charts SESSION DIR, --compare BASE NEW, --export-trace FILE.pftrace "
                             "SESSION (replayscope --help).\n");
        return 2;
    }
    ensureRuntimeDirectory();
    if (headless) {
        previousHandler = qInstallMessageHandler(dropPlatformNoise);
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("replayscope"));
    QApplication::setOrganizationName(QStringLiteral("ReplayScope"));
    QApplication::setApplicationVersion(QStringLiteral(RS_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("ReplayScope inspector: launch replay-enabled runs, open "
                                                    "session files (*.rsdb), chart and audit them."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption summary(
        QStringLiteral("summary"),
        QStringLiteral("Print a summary of SESSION and exit; of several SESSION files or a directory of "
                       "them (the ranks of a job), the job's summary."));
    const QCommandLineOption charts(QStringLiteral("export-charts"),
                                    QStringLiteral("Write every chart of SESSION as PNG into DIR and exit."));
    const QCommandLineOption shots(
        QStringLiteral("screenshots"),
        QStringLiteral("Write a screenshot of every page for SESSION into DIR and exit (with BASELINE: the "
                       "comparison with it; with two or more RANK_FILEs after it: their job view)."));
    parser.addOption(summary);
    parser.addOption(charts);
    parser.addOption(shots);
    const QCommandLineOption trace(
        QStringLiteral("export-trace"),
        QStringLiteral("Write SESSION... as a trace for Perfetto into FILE and exit: FILE.pftrace (any name "
                       "but *.json) in Perfetto's protobuf format (dispatches per queue, replay windows, "
                       "flows, counters), FILE.json the replay timelines as a Chrome JSON trace."),
        QStringLiteral("FILE"));
    parser.addOption(trace);
    const QCommandLineOption counters(
        QStringLiteral("export-counters"),
        QStringLiteral("Write the hardware counters of SESSION into FILE in the columns of rocprofv3's "
                       "counter_collection.csv and exit."),
        QStringLiteral("FILE"));
    parser.addOption(counters);
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("Compare BASE and NEW kernel by kernel, print the table and exit (with "
                       "--export-charts DIR: also write the difference charts)."));
    parser.addOption(compare);
    // rocprofv3's kernel-name options, with its meaning: names are demangled unless -M; -T cuts them to
    // the function's own name.
    const QCommandLineOption mangled(
        QStringList{QStringLiteral("M"), QStringLiteral("mangled-kernels")},
        QStringLiteral("Show kernel names as the code object's symbols (mangled) "
                       "instead of demangled."));
    const QCommandLineOption truncate(QStringList{QStringLiteral("T"), QStringLiteral("truncate-kernels")},
                                      QStringLiteral("Show demangled kernel names cut to the function's own "
                                                     "name (no scopes, arguments or template arguments)."));
    parser.addOption(mangled);
    parser.addOption(truncate);
    // Dark or light whatever the desktop: Qt's Fusion style with a dark or light palette (ui/Theme).
    const QCommandLineOption theme(
        QStringLiteral("theme"),
        QStringLiteral(
            "Colours of the window: light or dark (Qt's Fusion style with a light or dark palette), "
            "or system (the desktop's, the default). The window remembers the choice for the next "
            "start; headless commands use it for that run only."),
        QStringLiteral("light|dark|system"));
    parser.addOption(theme);
    parser.addPositionalArgument(QStringLiteral("sessions"), QStringLiteral("Session files to open."),
                                 QStringLiteral("[SESSION...] [DIR]"));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (parser.isSet(mangled) && parser.isSet(truncate)) {
        return usageError(QStringLiteral("--mangled-kernels and --truncate-kernels exclude each other"));
    }
    rs::app::setKernelNameStyle(parser.isSet(mangled)    ? rs::app::KernelNameStyle::mangled
                                : parser.isSet(truncate) ? rs::app::KernelNameStyle::truncated
                                                         : rs::app::KernelNameStyle::demangled);
    // The window starts with the remembered theme unless --theme chooses (and is remembered); headless
    // commands draw with --theme or the platform's colours, never a setting left by the GUI.
    std::optional<rs::app::Theme::Choice> themeChoice;
    if (parser.isSet(theme)) {
        themeChoice = rs::app::Theme::fromName(parser.value(theme));
        if (!themeChoice) {
            return usageError(QStringLiteral("--theme takes light, dark or system"));
        }
        if (!headless) {
            rs::app::Theme::save(*themeChoice);
        }
    }
    if (themeChoice || !headless) {
        rs::app::Theme::apply(themeChoice.value_or(rs::app::Theme::saved()));
    }

    // A directory among the sessions to summarise, open, trace or screenshot stands for its *.rsdb files
    // (a job's ranks); --screenshots keeps its last argument, the output directory, as it is.
    QStringList sessions = args;
    if (parser.isSet(shots) && !args.isEmpty()) {
        sessions = rs::app::JobSummary::expandDirectories(args.mid(0, args.size() - 1)) << args.last();
    } else if (!parser.isSet(charts) && !parser.isSet(compare) && !parser.isSet(counters)) {
        sessions = rs::app::JobSummary::expandDirectories(args);
    }
    if (parser.isSet(summary) && sessions.size() > 1) {
        // Several files: the ranks of a job, summarised as one.
        rs::app::SessionError error;
        const rs::app::JobSummary job = rs::app::JobSummary::load(sessions, error);
        if (error.isError()) {
            std::fprintf(stderr, "replayscope: %s: %s: %s\n", qPrintable(error.path),
                         qPrintable(error.title()), qPrintable(error.message));
            return 1;
        }
        std::fputs(qPrintable(rs::app::TerminalSummary::jobText(job)), stdout);
        return 0;
    }
    if (parser.isSet(summary)) {
        if (sessions.size() != 1) {
            return usageError(QStringLiteral("--summary takes one or more session files (or directories)"));
        }
        rs::app::SessionError error;
        const auto s = rs::app::SessionLoader::loadAll(sessions[0], error);
        if (error.isError()) {
            std::fprintf(stderr, "replayscope: %s: %s: %s\n", qPrintable(sessions[0]),
                         qPrintable(error.title()), qPrintable(error.message));
            return 1;
        }
        std::fputs(qPrintable(rs::app::TerminalSummary::text(s)), stdout);
        return 0;
    }
    if (parser.isSet(trace)) {
        QString error;
        if (args.isEmpty()) {
            return usageError(
                QStringLiteral("--export-trace takes FILE.pftrace|FILE.json SESSION [SESSION...]"));
        }
        if (!rs::app::TraceExporter::exportFiles(sessions, parser.value(trace), error)) {
            std::fprintf(stderr, "replayscope: %s\n", qPrintable(error));
            return 1;
        }
        std::printf("%s\n", qPrintable(parser.value(trace)));
        return 0;
    }
    if (parser.isSet(counters)) {
        if (args.size() != 1) {
            return usageError(QStringLiteral("--export-counters takes FILE.csv SESSION"));
        }
        rs::app::SessionError error;
        const auto s = rs::app::SessionLoader::loadAll(args[0], error);
        if (error.isError()) {
            std::fprintf(stderr, "replayscope: %s: %s: %s\n", qPrintable(args[0]), qPrintable(error.title()),
                         qPrintable(error.message));
            return 1;
        }
        QString writeError;
        if (!rs::app::CsvExporter::writeCounterCollectionFile(s, parser.value(counters), &writeError)) {
            std::fprintf(stderr, "replayscope: %s: %s\n", qPrintable(parser.value(counters)),
                         qPrintable(writeError));
            return 1;
        }
        std::printf("%s\n", qPrintable(parser.value(counters)));
        return 0;
    }
    if (parser.isSet(compare)) {
        if (args.size() != (parser.isSet(charts) ? 3 : 2)) {
            return usageError(QStringLiteral("--compare takes BASE NEW (and DIR with --export-charts)"));
        }
        return rs::app::CompareCommand::run(args[0], args[1], args.value(2), stdout, stderr);
    }
    if (parser.isSet(charts) || parser.isSet(shots)) {
        if (parser.isSet(charts) ? args.size() != 2 : sessions.size() < 2) {
            return usageError(QStringLiteral("--export-charts takes SESSION DIR, --screenshots SESSION "
                                             "[BASELINE [RANK_FILE RANK_FILE...]] DIR"));
        }
        QStringList written;
        QString error;
        const bool ok =
            parser.isSet(charts)
                ? rs::app::HeadlessExporter::exportCharts(args[0], args[1], written, error)
                : rs::app::HeadlessExporter::screenshots(sessions[0], sessions.last(), written, error,
                                                         sessions.mid(1, sessions.size() - 2));
        for (const QString& f : written) {
            std::printf("%s\n", qPrintable(f));
        }
        if (!ok) {
            std::fprintf(stderr, "replayscope: %s\n",
                         qPrintable(error.isEmpty() ? QStringLiteral("export failed") : error));
            return 1;
        }
        return 0;
    }

    rs::app::MainWindow window;
    window.show();
    window.openFiles(sessions); // several files: one job view of them (the ranks of a job)
    return app.exec();
}
