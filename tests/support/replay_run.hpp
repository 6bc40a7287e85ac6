// Running a program under `replayscope-run --simulate` for the suites that assert its session file
// (tests/engine): the command line every such run shares and the regions the workloads print.
#pragma once

#include "session_file.hpp"

#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <QtTest>

namespace rs::test {

/// Runs `program` with `program_args` under `runner` (replayscope-run) as
/// `--simulate --no-progress -o SESSION OPTIONS -- PROGRAM PROGRAM_ARGS`, in the system environment plus
/// `env` (NAME=VALUE), killing it after `limit_ms`; fills `r` and opens `session` as run_and_open does.
/// Returns whether the run ended within the limit.
inline bool run_simulated(SessionRun& r, const QString& runner, const QString& session,
                          const QStringList& options, const QString& program, const QStringList& program_args,
                          const QStringList& env, int limit_ms) {
    return run_and_open(r, runner,
                        QStringList{"--simulate", "--no-progress", "-o", session} + options +
                            QStringList{"--", program} + program_args,
                        environment_with(env), session, limit_ms);
}

/// In a QtTest function: the run `r` (a pointer to a SessionRun with a `finished` flag, run_simulated's
/// result) ended within its limit, exited 0, printed PASS (the program's own results are right), and its
/// session is complete; otherwise the test fails with the run's outputs.
#define RS_VERIFY_RUN_PASSED(r)                                                                              \
    do {                                                                                                     \
        QVERIFY2((r)->finished, qPrintable("killed after the time limit\n" + (r)->describe()));              \
        QVERIFY2((r)->exit_code == 0 && (r)->stdout_text.contains("\nPASS"), qPrintable((r)->describe()));   \
        QVERIFY2((r)->complete(), qPrintable((r)->describe()));                                              \
    } while (0)

/// A region a workload printed: "region NAME address 0xADDR size BYTES" (address and size in bytes).
struct PrintedRegion {
    QString name;
    quint64 address = 0;
    quint64 size = 0;
};

/// Every region line of `output`, in order.
inline QList<PrintedRegion> printed_regions(const QString& output) {
    static const QRegularExpression line(R"(^region (\w+) address (?:0x)?([0-9a-f]+) size (\d+)$)",
                                         QRegularExpression::MultilineOption);
    QList<PrintedRegion> regions;
    for (auto it = line.globalMatch(output); it.hasNext();) {
        const auto m = it.next();
        regions << PrintedRegion{m.captured(1), m.captured(2).toULongLong(nullptr, 16),
                                 m.captured(3).toULongLong()};
    }
    return regions;
}

} // namespace rs::test
