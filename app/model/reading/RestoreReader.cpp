// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <algorithm>
#include <tuple>

namespace rs::app {

namespace {

/// Code of a value stored either as the enum's code or as its name (the views' TEXT columns); -1 for
/// NULL or a name the file's `enum_names` does not list.
int codeOf(const QVariant& v, const QHash<int, QString>& names) {
    if (v.isNull() || !v.isValid()) {
        return -1;
    }
    const QString t = v.toString();
    bool number = false;
    const int n = t.toInt(&number);
    if (number) {
        return n;
    }
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (it.value() == t) {
            return it.key();
        }
    }
    return -1;
}

/// The snapshot's store columns, into its dispatch row (those folded into the dispatch rows are there
/// already: DispatchReader).
SessionError readStores(ReadContext& context, SessionData& out, const QHash<int, QString>& storeNames,
                        const QHash<int, QString>& pathNames) {
    using C = rs::session::SnapshotStoreColumn;
    const std::string sql = rs::session::spilled_snapshot_stores_query(context.layout());
    if (sql.empty()) {
        return {};
    }
    RowCursor& q = context.query();
    if (!context.run(sql)) {
        return context.queryError(QStringLiteral("snapshot stores"));
    }
    auto orMinus = [&](C c) { return value(q, c).isNull() ? qint64(-1) : i64(q, c); };
    while (q.next()) {
        const int row = rowOf(out, i32(q, C::process), i64(q, C::dispatch_id));
        if (row < 0) {
            continue;
        }
        DispatchRow& d = out.dispatches[std::size_t(row)];
        d.hostBytes = orMinus(C::host_bytes);
        d.deviceBytes = orMinus(C::device_bytes);
        d.snapshotHashNs = orMinus(C::hash_ns);
        d.snapshotChunks = orMinus(C::total_chunks);
        d.store = codeOf(value(q, C::store), storeNames);
        d.hashPath = codeOf(value(q, C::hash_path), pathNames);
        d.hostPinned = value(q, C::host_pinned).isNull() ? -1 : (i32(q, C::host_pinned) != 0);
    }
    return {};
}

/// The restores (those folded into the dispatch rows from DispatchReader, the rest read here), linked
/// to their passes and summed per dispatch and per process.
SessionError readRestores(ReadContext& context, SessionData& out) {
    using C = rs::session::RestoreColumn;
    const int rows = int(out.dispatches.size());
    out.restoreBegin.assign(std::size_t(rows) + 1, 0);
    const std::string sql = rs::session::spilled_restores_query(context.layout());
    out.hasRestoreRecords = !sql.empty();
    std::vector<std::pair<int, RestoreRow>> restores = std::move(context.foldedRestores);
    context.foldedRestores.clear();
    if (out.hasRestoreRecords) {
        RowCursor& q = context.query();
        if (!context.run(sql)) {
            return context.queryError(QStringLiteral("restores"));
        }
        while (q.next()) {
            RestoreRow r;
            r.process = i32(q, C::process);
            r.dispatchId = i64(q, C::dispatch_id);
            r.passIndex = i32(q, C::pass_index);
            r.finalRestore = i32(q, C::final_restore) != 0;
            r.bytesHost = i64(q, C::restored_bytes_host);
            r.bytesDevice = i64(q, C::restored_bytes_device);
            r.hashNs = i64(q, C::hash_ns);
            r.restoreNs = i64(q, C::restore_ns);
            r.regionsRestored = i32(q, C::regions_restored);
            r.dirtyChunks = i32(q, C::dirty_chunks);
            r.totalChunks = i32(q, C::total_chunks);
            r.missedChunks = i32(q, C::missed_chunks);
            const int row = rowOf(out, r.process, r.dispatchId);
            if (row >= 0) {
                restores.emplace_back(row, r);
            }
        }
    }
    std::stable_sort(restores.begin(), restores.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first, a.second.finalRestore, a.second.passIndex) <
               std::tie(b.first, b.second.finalRestore, b.second.passIndex);
    });
    out.restores.reserve(restores.size());
    for (const auto& [row, r] : restores) {
        DispatchRow& d = out.dispatches[std::size_t(row)];
        if (d.restores++ == 0) {
            d.movedHost = d.movedDevice = d.dirtyChunks = d.comparedChunks = d.missedChunks =
                d.restoreHashNs = 0;
            d.restoreNs = 0; // the restore records (the final restore included) replace the passes' sum
        }
        d.restoreNs += r.restoreNs;
        d.movedHost += r.bytesHost;
        d.movedDevice += r.bytesDevice;
        d.dirtyChunks += r.dirtyChunks;
        d.comparedChunks += r.totalChunks;
        d.missedChunks += r.missedChunks;
        d.restoreHashNs += r.hashNs;
        if (!r.finalRestore) { // the restore before pass passIndex
            for (int i = out.passBegin[std::size_t(row)]; i < out.passBegin[std::size_t(row) + 1]; ++i) {
                if (out.passes[std::size_t(i)].index == r.passIndex) {
                    out.passes[std::size_t(i)].restore = int(out.restores.size());
                }
            }
        }
        out.restores.push_back(r);
        ++out.restoreBegin[std::size_t(row) + 1];
    }
    for (int r = 0; r < rows; ++r) {
        out.restoreBegin[std::size_t(r) + 1] += out.restoreBegin[std::size_t(r)];
    }
    for (const DispatchRow& d : out.dispatches) {
        if (d.restores == 0 || d.process < 1 || d.process > out.processes.size()) {
            continue;
        }
        ProcessInfo& owner = out.processes[d.process - 1];
        if (owner.restores == 0) {
            owner.fullRestoreBytes = owner.movedHost = owner.movedDevice = 0;
        }
        owner.restores += d.restores;
        owner.fullRestoreBytes += d.fullRestoreBytes();
        owner.movedHost += d.movedHost;
        owner.movedDevice += d.movedDevice;
    }
    return {};
}

} // namespace

SessionError RestoreReader::read(ReadContext& context, SessionData& out) {
    // Format 4 (docs/session-schema.md): the snapshot's stores and chunks and one restore row per
    // restore; the layout finds them by their columns, so that a file without them (formats 1-3) reads
    // as before and shows "—".
    const QHash<int, QString> storeNames = out.enumNames.value(QStringLiteral("snapshot_store"));
    const QHash<int, QString> pathNames = out.enumNames.value(QStringLiteral("chunk_hash_path"));
    if (SessionError e = readStores(context, out, storeNames, pathNames); e.isError()) {
        return e;
    }
    if (SessionError e = readRestores(context, out); e.isError()) {
        return e;
    }
    return {};
}

SessionError RestoreMissReader::read(ReadContext& context, SessionData& out) {
    // Format 4: chunks dirty restores missed, and where the regions of mixed snapshots went.
    RowCursor& q = context.query();
    const QHash<int, QString> storeNames = out.enumNames.value(QStringLiteral("snapshot_store"));
    if (const std::string sql = rs::session::restore_misses_query(context.layout()); !sql.empty()) {
        using C = rs::session::RestoreMissColumn;
        if (!context.run(sql)) {
            return context.queryError(QStringLiteral("restore misses"));
        }
        while (q.next()) {
            out.restoreMisses.push_back({i32(q, C::process), i64(q, C::dispatch_id), i32(q, C::pass_index),
                                         i64(q, C::address), i64(q, C::size), i64(q, C::allocation_id)});
        }
    }
    if (const std::string sql = rs::session::snapshot_placements_query(context.layout()); !sql.empty()) {
        using C = rs::session::PlacementColumn;
        if (!context.run(sql)) {
            return context.queryError(QStringLiteral("snapshot placements"));
        }
        while (q.next()) {
            out.placements.push_back({i32(q, C::process), i64(q, C::dispatch_id), i64(q, C::address),
                                      i64(q, C::size), codeOf(value(q, C::store), storeNames)});
        }
    }
    // Read in storage order (read_queries.h), which is already this order when the engine recorded the
    // regions of each snapshot by address: then the check is all it costs.
    auto missKey = [](const RestoreMissRow& r) {
        return std::tie(r.process, r.dispatchId, r.passIndex, r.address);
    };
    auto missLess = [&](const RestoreMissRow& a, const RestoreMissRow& b) { return missKey(a) < missKey(b); };
    if (!std::is_sorted(out.restoreMisses.begin(), out.restoreMisses.end(), missLess)) {
        std::stable_sort(out.restoreMisses.begin(), out.restoreMisses.end(), missLess);
    }
    auto placementKey = [](const PlacementRow& r) { return std::tie(r.process, r.dispatchId, r.address); };
    auto placementLess = [&](const PlacementRow& a, const PlacementRow& b) {
        return placementKey(a) < placementKey(b);
    };
    if (!std::is_sorted(out.placements.begin(), out.placements.end(), placementLess)) {
        std::stable_sort(out.placements.begin(), out.placements.end(), placementLess);
    }
    out.detailsLoaded = true;
    return {};
}

} // namespace rs::app
