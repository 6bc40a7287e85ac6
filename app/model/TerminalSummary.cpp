// SPDX-License-Identifier: MIT
#include "model/TerminalSummary.h"

#include "model/AgentSummaryModel.h"
#include "model/ChartSeriesBuilder.h"
#include "model/CounterSummary.h"
#include "model/Format.h"
#include "model/JobSummary.h"
#include "model/KernelSummary.h"
#include "model/ProcessTableModel.h"
#include "model/ReplaySettings.h"
#include "model/SimulatedRuntime.h"

#include <algorithm>

namespace rs::app {

QString TerminalSummary::text(const SessionSnapshot& s) {
    const SessionInfo& i = s->info;
    QString out;
    auto line = [&](const QString& key, const QString& value) {
        out += QStringLiteral("%1 %2\n").arg(key + QLatin1Char(':'), -12).arg(value);
    };
    line(QStringLiteral("session"), i.path);
    line(QStringLiteral("command"), i.argv.isEmpty() ? i.executable : i.argv);
    line(QStringLiteral("host"),
         QStringLiteral("%1 (pid %2), engine %3").arg(i.hostname).arg(i.pid).arg(i.engineVersion));
    if (const QString simulated = SimulatedRuntime::note(s); !simulated.isEmpty()) {
        line(QStringLiteral("runtime"), QStringLiteral("simulated: ") + simulated);
    }
    if (!i.configuration.isEmpty()) {
        line(QStringLiteral("settings"), ReplaySettings::text(i.configuration));
    }
    if (!i.runnerCommand.isEmpty()) {
        line(QStringLiteral("run with"), i.runnerCommand);
    }
    line(QStringLiteral("recorded"), format::wallTime(i.startWallNs > 0 ? i.startWallNs : i.createdWallNs));
    line(QStringLiteral("status"),
         QStringLiteral("%1 (%2), %3 events, %4 missing")
                 .arg(i.complete ? QStringLiteral("complete") : QStringLiteral("incomplete"),
                      i.endReason.isEmpty() ? QStringLiteral("no end recorded") : i.endReason,
                      format::count(i.eventsStored), format::count(i.missingEvents)) +
             (i.internalErrors > 0
                  ? QStringLiteral(", %1 engine-internal errors caught").arg(format::count(i.internalErrors))
                  : QString()));
    if (!i.openedCopy.isEmpty()) {
        line(QStringLiteral("note"),
             QStringLiteral("the write-ahead log needed recovery in a read-only directory: "
                            "read from a checkpointed copy (%1)")
                 .arg(i.openedCopy));
    }
    if (!s->implausible.isEmpty()) {
        line(QStringLiteral("implausible"), s->implausible.summary());
    }
    if (i.rejectedFrames > 0) {
        line(QStringLiteral("rejected"), QStringLiteral("%1 frames refused by the collector or importer")
                                             .arg(format::count(i.rejectedFrames)));
    }
    line(QStringLiteral("processes"), QString::number(s->processes.size()));
    out += QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9 %10  %11\n")
               .arg(QStringLiteral("pid"), 8)
               .arg(QStringLiteral("parent"), 8)
               .arg(QStringLiteral("events"), 10)
               .arg(QStringLiteral("dispatches"), 10)
               .arg(QStringLiteral("replayed"), 9)
               .arg(QStringLiteral("declined"), 9)
               .arg(QStringLiteral("missing"), 8)
               .arg(QStringLiteral("rejected"), 8)
               .arg(QStringLiteral("complete"), 8)
               .arg(QStringLiteral("exit"), 5)
               .arg(QStringLiteral("command"));
    for (const ProcessInfo& p : s->processes) {
        const QString exit = ProcessTableModel::exitText(p);
        out += QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9 %10  %11\n")
                   .arg(p.pid, 8)
                   .arg(p.parentPid, 8)
                   .arg(p.eventsStored, 10)
                   .arg(p.dispatches, 10)
                   .arg(p.replayed, 9)
                   .arg(p.declined, 9)
                   .arg(p.missingEvents, 8)
                   .arg(p.rejectedFrames, 8)
                   .arg(p.complete ? QStringLiteral("yes") : QStringLiteral("no"), 8)
                   .arg(exit.isEmpty() ? QStringLiteral("-") : exit, 5)
                   .arg(p.argv.isEmpty() ? p.executable : p.argv);
    }
    const SessionTotals totals = sessionTotals(s->dispatches);
    line(QStringLiteral("dispatches"),
         QStringLiteral("%1 (%2 replayed, %3 declined), %4 snapshotted, %5 regions skipped at restore")
             .arg(format::count(totals.dispatches), format::count(totals.replayed),
                  format::count(totals.declined()), format::bytes(totals.snapshotBytes),
                  format::count(totals.skips)));
    // Format 4: bytes the restores moved against full restores, chunks, and the stores snapshots used.
    if (s->hasRestoreRecords) {
        const RestoreTotals& t = totals.restores;
        QStringList used;
        for (auto it = t.stores.cbegin(); it != t.stores.cend(); ++it) {
            used << QStringLiteral("%1 %2").arg(s.enumName(QStringLiteral("snapshot_store"), it.key()),
                                                format::count(it.value()));
        }
        line(QStringLiteral("restores"),
             QStringLiteral("%1 moved %2 of %3 (footprint x restores): %4 over the host link, %5 inside the "
                            "device; %6 of %7 chunks dirty, %8 missed; snapshots in store %9")
                 .arg(format::count(t.restores), format::bytes(t.movedHost + t.movedDevice),
                      format::bytes(t.fullBytes), format::bytes(t.movedHost), format::bytes(t.movedDevice),
                      format::count(t.dirtyChunks), format::count(t.comparedChunks),
                      format::count(t.missedChunks))
                 .arg(used.isEmpty() ? QStringLiteral("-") : used.join(QStringLiteral(", "))));
    } else {
        line(QStringLiteral("restores"),
             QStringLiteral("%1 (bytes moved per restore are recorded from session "
                            "format 4)")
                 .arg(format::kNotRecorded));
    }
    line(QStringLiteral("allocations"), QStringLiteral("%1; module variables %2; warnings %3")
                                            .arg(format::count(qint64(s->allocations.size())),
                                                 format::count(qint64(s->moduleVariables.size())),
                                                 format::count(qint64(s->warnings.size()))));
    AgentSummaryModel agents;
    agents.setSnapshot(s);
    out += QStringLiteral("\n%1 %2 %3 %4 %5 %6 %7 %8 %9 %10\n")
               .arg(QStringLiteral("agent"), -20)
               .arg(QStringLiteral("tracked"), 12)
               .arg(QStringLiteral("peak"), 12)
               .arg(QStringLiteral("replayed"), 10)
               .arg(QStringLiteral("declined"), 10)
               .arg(QStringLiteral("snapshot ms"), 12)
               .arg(QStringLiteral("restore ms"), 12)
               .arg(QStringLiteral("full-restore B"), 14)
               .arg(QStringLiteral("moved host"), 12)
               .arg(QStringLiteral("moved device"), 12);
    auto orDash = [](qint64 restores, qint64 value) {
        return restores > 0 ? format::bytes(value) : format::kNotRecorded;
    };
    for (const auto& r : agents.rows()) {
        out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10\n")
                   .arg(s.agentLabel(r.process, r.handle), -20)
                   .arg(format::bytes(r.trackedBytes), 12)
                   .arg(format::bytes(r.peakTrackedBytes), 12)
                   .arg(r.replayed, 10)
                   .arg(r.declined, 10)
                   .arg(format::ms(r.snapshotNs), 12)
                   .arg(format::ms(r.restoreNs), 12)
                   .arg(orDash(r.restores, r.fullRestoreBytes), 14)
                   .arg(orDash(r.restores, r.movedHost), 12)
                   .arg(orDash(r.restores, r.movedDevice), 12);
    }
    // The replay overhead: how long windows held each agent's dispatches against the process's run.
    for (const auto& r : agents.rows()) {
        if (r.windowNs < 0) {
            continue;
        }
        out += QStringLiteral("replay overhead %1: %2 windows held dispatches %3 ms%4\n")
                   .arg(s.agentLabel(r.process, r.handle), format::count(r.windows), format::ms(r.windowNs),
                        r.runShare() >= 0 ? QStringLiteral(" of the %1 ms run (%2%)")
                                                .arg(format::ms(r.runNs))
                                                .arg(r.runShare(), 0, 'f', 1)
                                          : QStringLiteral(" (the run has no recorded end)"));
    }
    const auto reasons = ChartSeriesBuilder(s).declineAndSkipReasons();
    if (!reasons.isEmpty()) {
        out += QStringLiteral("\nnot replayed / not restored:\n");
        for (const auto& b : reasons) {
            out += QStringLiteral("  %1 %2\n").arg(b.label, -36).arg(b.value);
        }
    }
    if (const QString kernels = KernelSummary::text(s); !kernels.isEmpty()) {
        out += QLatin1Char('\n') + kernels;
    }
    out += CounterSummary::text(s);
    if (!s->warnings.empty()) {
        out += QStringLiteral("\nwarnings:\n");
        int shown = 0;
        for (const WarningRow& w : s->warnings) {
            if (++shown > 10) {
                out += QStringLiteral("  ... %1 more\n").arg(s->warnings.size() - 10);
                break;
            }
            out += QStringLiteral("  [%1] %2\n").arg(s.enumName(QStringLiteral("warning"), w.code), w.text);
        }
    }
    return out;
}

QString TerminalSummary::jobText(const JobSummary& job, int maxRanks) {
    if (job.isNull()) {
        return {};
    }
    const QVector<RankDigest>& files = job.digests();
    const QVector<RankTotals> totals = job.totals();
    const QStringList hosts = job.hosts();
    qint64 missing = 0, complete = 0, dispatches = 0, replayed = 0, snapshotBytes = 0;
    for (int i = 0; i < files.size(); ++i) {
        missing += files[i].info.missingEvents;
        complete += files[i].info.complete ? 1 : 0;
        dispatches += totals[i].dispatches;
        replayed += totals[i].replayed;
        snapshotBytes += totals[i].snapshotBytes;
    }
    QString out;
    out += QStringLiteral("job:        %1 files, %2 ranks, %3 host%4 (%5)\n")
               .arg(files.size())
               .arg(job.distinctRanks().size())
               .arg(hosts.size())
               .arg(hosts.size() == 1 ? QString() : QStringLiteral("s"), hosts.join(QStringLiteral(", ")));
    out += QStringLiteral("status:     %1 of %2 files complete, %3 events missing\n")
               .arg(complete)
               .arg(files.size())
               .arg(format::count(missing));
    out += QStringLiteral("dispatches: %1 (%2 replayed, %3 declined), %4 snapshotted\n")
               .arg(format::count(dispatches), format::count(replayed), format::count(dispatches - replayed),
                    format::bytes(snapshotBytes));
    for (const QString& problem : job.problems()) {
        out += QStringLiteral("problem:    %1\n").arg(problem);
    }
    // The ranks that cost replay the most first: where a job's time went.
    QVector<int> order(totals.size());
    for (int i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return totals[a].snapshotNs + totals[a].restoreNs > totals[b].snapshotNs + totals[b].restoreNs;
    });
    out += QStringLiteral("\n%1 %2 %3 %4 %5 %6 %7 %8  %9\n")
               .arg(QStringLiteral("rank"), 6)
               .arg(QStringLiteral("host"), -16)
               .arg(QStringLiteral("dispatches"), 10)
               .arg(QStringLiteral("replayed"), 9)
               .arg(QStringLiteral("declined"), 9)
               .arg(QStringLiteral("missing"), 8)
               .arg(QStringLiteral("replay ms"), 10)
               .arg(QStringLiteral("complete"), 8)
               .arg(QStringLiteral("file"));
    const int shown = std::min<int>(maxRanks, int(order.size()));
    for (int k = 0; k < shown; ++k) {
        const int i = order[k];
        const RankTotals& r = totals[i];
        const SessionInfo& info = files[i].info;
        out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8  %9\n")
                   .arg(r.rank, 6)
                   .arg(info.hostname, -16)
                   .arg(r.dispatches, 10)
                   .arg(r.replayed, 9)
                   .arg(r.declined, 9)
                   .arg(info.missingEvents, 8)
                   .arg(format::ms(r.snapshotNs + r.restoreNs), 10)
                   .arg(info.complete ? QStringLiteral("yes") : QStringLiteral("no"), 8)
                   .arg(r.path);
    }
    if (order.size() > shown) {
        out += QStringLiteral("  … %1 more ranks (replayscope opens them all as one job view)\n")
                   .arg(order.size() - shown);
    }
    // Per kernel: how the ranks compare (each rank's median pass time; the slowest rank named).
    const QVector<JobKernel> kernels = job.kernels();
    if (!kernels.isEmpty()) {
        out += QStringLiteral("\nkernels over the job (pass time per rank: the median over its dispatches of "
                              "each dispatch's median pass; min, median and max over the ranks)\n");
        out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7  %8\n")
                   .arg(QStringLiteral("ranks"), 5)
                   .arg(QStringLiteral("dispatches"), 10)
                   .arg(QStringLiteral("replayed"), 9)
                   .arg(QStringLiteral("declined"), 9)
                   .arg(QStringLiteral("min us"), 9)
                   .arg(QStringLiteral("median us"), 10)
                   .arg(QStringLiteral("max us (rank)"), 18)
                   .arg(QStringLiteral("kernel"));
        const auto us = [](double ns) {
            return ns >= 0 ? QString::number(ns / 1000.0, 'f', 1) : QStringLiteral("-");
        };
        for (const JobKernel& k : kernels) {
            const QString slowest = k.slowestFile >= 0 ? QStringLiteral("%1 (%2)")
                                                             .arg(us(k.rankMedianMaxNs))
                                                             .arg(job.ranks().value(k.slowestFile))
                                                       : QStringLiteral("-");
            out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7  %8\n")
                       .arg(k.ranks, 5)
                       .arg(k.dispatches, 10)
                       .arg(k.replayed, 9)
                       .arg(k.declined, 9)
                       .arg(us(k.rankMedianMinNs), 9)
                       .arg(us(k.rankMedianNs), 10)
                       .arg(slowest, 18)
                       .arg(k.name);
        }
        // Counters per kernel: the median over the ranks of each rank's median.
        bool header = false;
        for (const JobKernel& k : kernels) {
            for (auto c = k.counterMedians.cbegin(); c != k.counterMedians.cend(); ++c) {
                if (!header) {
                    out += QStringLiteral("\ncounters over the job (each rank's median over the kernel's "
                                          "dispatches, their median over the ranks)\n");
                    header = true;
                }
                out += QStringLiteral("%1  %2  %3\n")
                           .arg(CounterSummary::valueText(c.value()), 14)
                           .arg(c.key(), -24)
                           .arg(k.name);
            }
        }
    }
    return out;
}

} // namespace rs::app
