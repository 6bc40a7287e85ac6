// SPDX-License-Identifier: MIT
#include "model/MergedSession.h"

#include "model/SessionLoader.h"

#include "replayscope/ipc/session_store.h"

#include <QHash>

#include <algorithm>

namespace rs::app {

namespace {

/// Appends `from`'s per-dispatch index (`begin`, size rows + 1) shifted by `offset` to `to` (without the
/// closing entry, added once at the end).
void appendBegin(std::vector<int>& to, const std::vector<int>& begin, std::size_t rows, int offset) {
    for (std::size_t r = 0; r < rows; ++r) {
        to.push_back((r < begin.size() ? begin[r] : 0) + offset);
    }
}

template <typename Row>
void appendRows(std::vector<Row>& to, const std::vector<Row>& from, int processOffset) {
    const std::size_t first = to.size();
    to.insert(to.end(), from.begin(), from.end());
    for (std::size_t i = first; i < to.size(); ++i) {
        to[i].process += processOffset;
    }
}

} // namespace

int MergedSession::recordedRank(const QString& path) {
    int rank = -1;
    std::string error;
    return rs::ipc::read_job_rank(path.toStdString(), rank, error) ? rank : -1;
}

MergedSession MergedSession::merge(const QVector<SessionSnapshot>& files, const QVector<int>& recorded) {
    MergedSession out;
    if (files.isEmpty()) {
        return out;
    }
    auto* d = new SessionData;
    QHash<QString, int> kernelIndex;
    bool restoreRecords = true, regionsLoaded = true, detailsLoaded = true;
    for (int i = 0; i < files.size(); ++i) {
        const SessionSnapshot& file = files[i];
        if (file.isNull()) {
            continue;
        }
        const SessionData& s = file.data();
        const bool fromFile = recorded.value(i, -1) >= 0;
        const int rank = fromFile ? recorded[i] : i;
        const int fileIndex = int(out.ranks_.size());
        out.ranks_.push_back(rank);
        out.recorded_.push_back(fromFile);
        out.paths_ << s.info.path;
        const int processOffset = int(d->processes.size());
        const int dispatchOffset = int(d->dispatches.size());
        const int passOffset = int(d->passes.size());
        const int skipOffset = int(d->skips.size());
        const int mismatchOffset = int(d->mismatches.size());
        const int restoreOffset = int(d->restores.size());
        const int regionOffset = int(d->regions.address.size());

        if (i == 0) {
            d->info = s.info;
            d->info.formatVersion = s.info.formatVersion;
            d->info.processCount = 0;
            d->info.eventsStored = 0;
            d->info.missingEvents = 0;
            d->info.rejectedFrames = 0;
            d->info.complete = true;
            d->info.ended = true;
        }
        d->info.formatVersion = std::min(d->info.formatVersion, s.info.formatVersion);
        d->info.processCount += int(s.processes.size());
        d->info.eventsStored += s.info.eventsStored;
        d->info.missingEvents += s.info.missingEvents;
        d->info.rejectedFrames += s.info.rejectedFrames;
        d->info.complete = d->info.complete && s.info.complete;
        d->info.ended = d->info.ended && s.info.ended;
        d->info.endNs = std::max(d->info.endNs, s.info.endNs);
        // The job starts with its earliest file (0: not recorded).
        if (s.info.startNs > 0 && (d->info.startNs <= 0 || s.info.startNs < d->info.startNs)) {
            d->info.startNs = s.info.startNs;
        }
        if (s.info.startWallNs > 0 &&
            (d->info.startWallNs <= 0 || s.info.startWallNs < d->info.startWallNs)) {
            d->info.startWallNs = s.info.startWallNs;
        }
        d->dataVersion += s.dataVersion;
        restoreRecords = restoreRecords && s.hasRestoreRecords;
        regionsLoaded = regionsLoaded && s.regionsLoaded;
        detailsLoaded = detailsLoaded && s.detailsLoaded;
        for (auto kind = s.enumNames.cbegin(); kind != s.enumNames.cend(); ++kind) {
            auto& names = d->enumNames[kind.key()];
            for (auto n = kind->cbegin(); n != kind->cend(); ++n) {
                if (!names.contains(n.key())) {
                    names.insert(n.key(), n.value());
                }
            }
        }
        for (ProcessInfo p : s.processes) {
            p.process += processOffset;
            d->processes.push_back(p);
            out.process_rank_.push_back(rank);
            out.process_file_.push_back(fileIndex);
        }
        for (AgentInfo a : s.agents) {
            a.process += processOffset;
            d->agents.push_back(a);
        }
        QVector<int> kernelMap(s.kernelNames.size());
        for (int k = 0; k < s.kernelNames.size(); ++k) {
            auto it = kernelIndex.constFind(s.kernelSymbols.value(k, s.kernelNames[k]));
            if (it == kernelIndex.cend()) {
                it = kernelIndex.insert(s.kernelSymbols.value(k, s.kernelNames[k]),
                                        int(d->kernelNames.size()));
                d->kernelNames << s.kernelNames[k];
                d->kernelSymbols << s.kernelSymbols.value(k, s.kernelNames[k]);
            }
            kernelMap[k] = *it;
        }
        for (std::size_t r = 0; r < s.dispatches.size(); ++r) {
            DispatchRow row = s.dispatches[r];
            row.process += processOffset;
            if (row.kernel >= 0 && row.kernel < kernelMap.size()) {
                row.kernel = kernelMap[row.kernel];
            }
            d->dispatchRow.insert({row.process, row.id}, dispatchOffset + int(r));
            d->dispatches.push_back(row);
        }
        const std::size_t rows = s.dispatches.size();
        appendBegin(d->passBegin, s.passBegin, rows, passOffset);
        appendBegin(d->skipBegin, s.skipBegin, rows, skipOffset);
        appendBegin(d->mismatchBegin, s.mismatchBegin, rows, mismatchOffset);
        appendBegin(d->restoreBegin, s.restoreBegin, rows, restoreOffset);
        appendRows(d->passes, s.passes, processOffset);
        for (std::size_t p = std::size_t(passOffset); p < d->passes.size(); ++p) {
            if (d->passes[p].restore >= 0) {
                d->passes[p].restore += restoreOffset;
            }
        }
        appendRows(d->skips, s.skips, processOffset);
        appendRows(d->mismatches, s.mismatches, processOffset);
        appendRows(d->restores, s.restores, processOffset);
        appendRows(d->allocations, s.allocations, processOffset);
        appendRows(d->moduleVariables, s.moduleVariables, processOffset);
        appendRows(d->warnings, s.warnings, processOffset);
        appendRows(d->asyncCopies, s.asyncCopies, processOffset);
        appendRows(d->restoreMisses, s.restoreMisses, processOffset);
        appendRows(d->placements, s.placements, processOffset);
        RegionColumns& to = d->regions;
        const RegionColumns& from = s.regions;
        for (int p : from.process) {
            to.process.push_back(p + processOffset);
        }
        to.agent.insert(to.agent.end(), from.agent.begin(), from.agent.end());
        to.generation.insert(to.generation.end(), from.generation.begin(), from.generation.end());
        to.address.insert(to.address.end(), from.address.begin(), from.address.end());
        to.size.insert(to.size.end(), from.size.begin(), from.size.end());
        to.allocationId.insert(to.allocationId.end(), from.allocationId.begin(), from.allocationId.end());
        to.index.insert(to.index.end(), from.index.begin(), from.index.end());
        to.kind.insert(to.kind.end(), from.kind.begin(), from.kind.end());
        for (auto it = from.ranges.cbegin(); it != from.ranges.cend(); ++it) {
            InventoryKey key = it.key();
            key.process += processOffset;
            to.ranges.insert(key, {it.value().first + regionOffset, it.value().second});
        }
    }
    d->passBegin.push_back(int(d->passes.size()));
    d->skipBegin.push_back(int(d->skips.size()));
    d->mismatchBegin.push_back(int(d->mismatches.size()));
    d->restoreBegin.push_back(int(d->restores.size()));
    d->hasRestoreRecords = restoreRecords;
    d->regionsLoaded = regionsLoaded;
    d->detailsLoaded = detailsLoaded;
    out.snapshot_ = SessionSnapshot(d);
    return out;
}

MergedSession MergedSession::load(const QStringList& paths, SessionError& error) {
    QVector<SessionSnapshot> files;
    QVector<int> recorded;
    for (const QString& path : paths) {
        files.push_back(SessionLoader::loadAll(path, error));
        if (error.isError()) {
            return {};
        }
        recorded.push_back(files.back()->info.jobRank);
    }
    return merge(files, recorded);
}

int MergedSession::rankOfProcess(int process) const {
    return process >= 1 && process <= process_rank_.size() ? process_rank_[process - 1] : -1;
}

int MergedSession::fileOfProcess(int process) const {
    return process >= 1 && process <= process_file_.size() ? process_file_[process - 1] : -1;
}

} // namespace rs::app
