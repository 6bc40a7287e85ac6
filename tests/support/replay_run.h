// SPDX-License-Identifier: MIT
// Running a program under `replayscope-run --simulate` for the suites that assert its session file
// (tests/engine): the command line every such run shares and the regions the workloads print.
#pragma once

#include "session_file.h"

#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QtGlobal>

#include <memory>

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
    static const QRegularExpression kRegionLine(R"(^region (\w+) address (?:0x)?([0-9a-f]+) size (\d+)$)",
                                                QRegularExpression::MultilineOption);
    QList<PrintedRegion> regions;
    for (auto it = kRegionLine.globalMatch(output); it.hasNext();) {
        const auto m = it.next();
        regions << PrintedRegion{m.captured(1), m.captured(2).toULongLong(nullptr, 16),
                                 m.captured(3).toULongLong()};
    }
    return regions;
}

/// A run of run_simulated that finished or not, and the regions its program printed.
class RegionRun : public SessionRun {
  public:
    bool finished = false;
    QList<PrintedRegion> regions;
};

/// Runs `program` with `program_args` under `runner` as run_simulated does (limit 120 s), into a new
/// session file `STEM-N.rsdb` (N counts the runs) in a temporary folder that lives as long as the test
/// process, and collects the regions the program printed. `R` is RegionRun or a class derived from it.
template <class R>
std::unique_ptr<R> run_printing_regions(const QString& stem, const QString& runner, const QString& program,
                                        const QStringList& program_args, const QStringList& options,
                                        const QStringList& env) {
    static QTemporaryDir dir;
    static int counter = 0;
    auto r = std::make_unique<R>();
    const QString session = dir.filePath(QStringLiteral("%1-%2.rsdb").arg(stem).arg(++counter));
    r->finished = run_simulated(*r, runner, session, options, program, program_args, env, 120000);
    r->regions = printed_regions(r->stdout_text);
    return r;
}

} // namespace rs::test

/// RS_VERIFY_RUN_PASSED, and the program printed at least one region.
#define RS_VERIFY_RUN_PRINTED_REGIONS(r)                                                                     \
    do {                                                                                                     \
        RS_VERIFY_RUN_PASSED(r);                                                                             \
        QVERIFY2(!(r)->regions.isEmpty(), qPrintable((r)->describe()));                                      \
    } while (0)
