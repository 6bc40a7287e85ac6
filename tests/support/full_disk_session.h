// SPDX-License-Identifier: MIT
// A session recorded by replayscope-run on a disk that fills up during the run: the runner (and so its
// collector) runs with the ENOSPC shim of this folder preloaded (librs_enospc_shim.so), whose budget
// covers the session file and its -wal/-journal; the program under test is unaffected (it writes no
// such file). For the suites that must show what a full-disk session looks like afterwards: the runner's
// summary against the rows the file holds, and the file's readability.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <vector>

namespace rs::test {

/// One process line of the runner's summary ("process N: pid ...: E events, D dispatches, complete" or
/// "..., incomplete[, M missing of S sent]").
struct FullDiskProcess {
    long long events = -1, dispatches = -1;
    long long missing = 0; ///< 0 when the line names none
    long long sent = -1;   ///< -1 when the line names no missing events (then sent = events)
    bool complete = false;
};

/// What a full-disk run left.
struct FullDiskRun {
    int exit_code = -1;                     ///< replayscope-run's exit status (-1: it crashed or timed out)
    QString output;                         ///< its standard output and standard error
    long long summary_events = -1;          ///< "N events" of the runner's session summary line (-1: none)
    long long summary_dispatches = -1;      ///< "N dispatches" of that line (-1: none)
    bool shim_injected = false;             ///< the shim reported a failed write ("enospc shim: ...")
    std::vector<FullDiskProcess> processes; ///< the summary's process lines, in order
    /// The bytes the runner wrote to the session files ("enospc shim total: N bytes"; -1: none reported).
    long long shim_total = -1;
};

/// Runs `runner --simulate --no-progress --force -o session -- program...` with `shim` preloaded and a
/// budget of `budget_bytes` for `session` (0: the disk is full before the start): bytes written, or with
/// `usage` the space the session's files may occupy (the shim's usage mode, a real disk's behaviour).
/// The environment is the current one (the simulator's library path included) plus the shim's
/// variables. Waits at most `timeout_ms`.
inline FullDiskRun record_full_disk_session(const QString& runner, const QString& shim,
                                            const QString& session, long long budget_bytes,
                                            const QStringList& program, int timeout_ms = 120000,
                                            bool usage = false) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString preload = env.value("LD_PRELOAD");
    // A sanitizer runtime preloaded by the test environment stays first.
    env.insert("LD_PRELOAD", preload.isEmpty() ? shim : preload + ":" + shim);
    env.insert("ASAN_OPTIONS", env.value("ASAN_OPTIONS") + (env.contains("ASAN_OPTIONS") ? ":" : "") +
                                   "verify_asan_link_order=0");
    env.insert("RS_ENOSPC_PATH", session);
    env.insert("RS_ENOSPC_AFTER_BYTES", QString::number(budget_bytes));
    env.insert("RS_ENOSPC_REPORT", "1");
    if (usage) {
        env.insert("RS_ENOSPC_MODE", "usage");
    }
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(runner, QStringList{"--simulate", "--no-progress", "--force", "-o", session, "--"} + program);
    FullDiskRun run;
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
    }
    run.output = QString::fromLocal8Bit(p.readAll());
    run.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.shim_injected = run.output.contains("enospc shim:");
    // "replayscope-run: FILE: N process(es), E events, D dispatches, ..."
    const QRegularExpression summary(
        QStringLiteral("replayscope-run: .*: \\d+ process(?:es)?, (\\d+) events, "
                       "(\\d+) dispatches"));
    const auto match = summary.match(run.output);
    if (match.hasMatch()) {
        run.summary_events = match.captured(1).toLongLong();
        run.summary_dispatches = match.captured(2).toLongLong();
    }
    const QRegularExpression process(QStringLiteral(
        "replayscope-run:   process \\d+: .*: (\\d+) events, (\\d+) dispatches, (complete|incomplete)"
        "(?:, (\\d+) missing of (\\d+) sent)?"));
    for (auto it = process.globalMatch(run.output); it.hasNext();) {
        const auto m = it.next();
        FullDiskProcess line;
        line.events = m.captured(1).toLongLong();
        line.dispatches = m.captured(2).toLongLong();
        line.complete = m.captured(3) == QStringLiteral("complete");
        if (!m.captured(4).isEmpty()) {
            line.missing = m.captured(4).toLongLong();
            line.sent = m.captured(5).toLongLong();
        }
        run.processes.push_back(line);
    }
    const auto total =
        QRegularExpression(QStringLiteral("enospc shim total: (\\d+) bytes")).match(run.output);
    if (total.hasMatch()) {
        run.shim_total = total.captured(1).toLongLong();
    }
    return run;
}

} // namespace rs::test
