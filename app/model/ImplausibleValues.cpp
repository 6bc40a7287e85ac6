// SPDX-License-Identifier: MIT
#include "model/ImplausibleValues.h"

#include "model/Format.h"
#include "model/SessionSnapshot.h"

namespace rs::app {

namespace {

class Scan {
  public:
    explicit Scan(ImplausibleValues& out) : out_(out) {}

    /// A duration in ns; `unset` (-1 or none) is accepted as "not recorded".
    void duration(const QString& where, const char* what, qint64 ns, bool minusOneUnset = true) {
        if ((ns < 0 && !(minusOneUnset && ns == -1)) || ns > ImplausibleValues::kMaxDurationNs) {
            flag(where, QStringLiteral("%1 %2 ns").arg(QLatin1String(what)).arg(ns));
        }
    }
    void bytes(const QString& where, const char* what, qint64 n, bool minusOneUnset = true) {
        if ((n < 0 && !(minusOneUnset && n == -1)) || n > ImplausibleValues::kMaxBytes) {
            flag(where, QStringLiteral("%1 %2 bytes").arg(QLatin1String(what)).arg(n));
        }
    }
    void count(const QString& where, const char* what, qint64 n, bool minusOneUnset = false) {
        if (n < 0 && !(minusOneUnset && n == -1)) {
            flag(where, QStringLiteral("%1 %2").arg(QLatin1String(what)).arg(n));
        }
    }
    void flag(const QString& where, const QString& what) {
        ++out_.count;
        if (out_.examples.size() < ImplausibleValues::kMaxExamples) {
            out_.examples << where + QStringLiteral(": ") + what;
        }
    }

  private:
    ImplausibleValues& out_;
};

QString dispatchWhere(int process, qint64 id) {
    return QStringLiteral("dispatch %1 (process %2)").arg(id).arg(process);
}

} // namespace

QString ImplausibleValues::summary() const {
    if (count == 0) {
        return {};
    }
    return QStringLiteral("%1 implausible value%2 (negative or out-of-range times, sizes or counts: the file "
                          "was damaged or edited), e.g. %3")
        .arg(format::count(count), count == 1 ? QString() : QStringLiteral("s"),
             examples.join(QStringLiteral("; ")));
}

ImplausibleValues findImplausibleValues(const SessionData& data) {
    ImplausibleValues out;
    Scan scan(out);
    const SessionInfo& i = data.info;
    const QString session = QStringLiteral("session");
    // The event counts of the session row and of each process row.
    auto eventCounts = [&](const QString& where, qint64 stored, qint64 missing, qint64 last, qint64 rejected,
                           qint64 spooled) {
        scan.count(where, "events stored", stored);
        scan.count(where, "missing events", missing);
        scan.count(where, "last sequence", last);
        scan.count(where, "rejected frames", rejected);
        scan.count(where, "spooled events", spooled);
    };
    eventCounts(session, i.eventsStored, i.missingEvents, i.lastSequence, i.rejectedFrames, i.spooled);
    if (i.endNs != 0 && i.startNs != 0) {
        scan.duration(session, "run length", i.endNs - i.startNs, false);
    }
    for (const ProcessInfo& p : data.processes) {
        eventCounts(QStringLiteral("process %1").arg(p.process), p.eventsStored, p.missingEvents,
                    p.lastSequence, p.rejectedFrames, p.spooled);
    }
    for (const DispatchRow& d : data.dispatches) {
        const QString where = dispatchWhere(d.process, d.id);
        scan.bytes(where, "snapshot", d.snapshotBytes, false);
        scan.duration(where, "snapshot duration", d.snapshotNs, false);
        scan.duration(where, "restore time", d.restoreNs, false);
        scan.duration(where, "snapshot hashing", d.snapshotHashNs);
        scan.duration(where, "fence wait", d.fenceWaitNs);
        scan.duration(where, "restore hashing", d.restoreHashNs);
        scan.bytes(where, "host store", d.hostBytes);
        scan.bytes(where, "device store", d.deviceBytes);
        scan.bytes(where, "moved over the host link", d.movedHost);
        scan.bytes(where, "moved inside the device", d.movedDevice);
        scan.count(where, "passes", d.passes);
        scan.count(where, "skipped regions", d.skips);
        scan.count(where, "snapshot regions", d.snapshotRegions);
        scan.count(where, "snapshot chunks", d.snapshotChunks, true);
        if (d.kernelMin >= 0 && d.kernelMax >= 0 && d.kernelMin > d.kernelMax) {
            scan.flag(where, QStringLiteral("shortest pass %1 ticks longer than the longest %2")
                                 .arg(d.kernelMin)
                                 .arg(d.kernelMax));
        }
    }
    for (const PassRow& p : data.passes) {
        const QString where =
            QStringLiteral("pass %1 of ").arg(p.index) + dispatchWhere(p.process, p.dispatchId);
        if (p.endTick < p.startTick) {
            scan.flag(
                where,
                QStringLiteral("ends at tick %1 before it starts at %2").arg(p.endTick).arg(p.startTick));
        }
        scan.duration(where, "restore time", p.restoreNs, false);
        scan.bytes(where, "restored", p.bytesRestored, false);
        scan.count(where, "regions restored", p.regionsRestored);
    }
    for (const RestoreRow& r : data.restores) {
        const QString where =
            (r.finalRestore ? QStringLiteral("final restore of ")
                            : QStringLiteral("restore before pass %1 of ").arg(r.passIndex)) +
            dispatchWhere(r.process, r.dispatchId);
        scan.bytes(where, "moved over the host link", r.bytesHost, false);
        scan.bytes(where, "moved inside the device", r.bytesDevice, false);
        scan.duration(where, "hashing", r.hashNs, false);
        scan.duration(where, "restore time", r.restoreNs, false);
        scan.count(where, "dirty chunks", r.dirtyChunks);
        scan.count(where, "chunks", r.totalChunks);
        scan.count(where, "missed chunks", r.missedChunks);
    }
    for (const AllocationRow& a : data.allocations) {
        const QString where = QStringLiteral("allocation %1 (process %2)").arg(a.id).arg(a.process);
        scan.bytes(where, "size", a.size, false);
    }
    for (const AsyncCopyRow& c : data.asyncCopies) {
        const QString where = QStringLiteral("async copy %1 (process %2)").arg(c.seq).arg(c.process);
        scan.bytes(where, "size", c.size, false);
        scan.duration(where, "wait", c.waitedNs, false);
    }
    return out;
}

} // namespace rs::app
