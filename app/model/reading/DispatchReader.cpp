// SPDX-License-Identifier: MIT
#include "model/KernelName.h"
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

namespace rs::app {

namespace {

/// The snapshot store and the restores folded into the current dispatch row (FileLayout::folded_parts),
/// into `d` and `restores` (by dispatch row `row`), as the `snapshot_stores` and `restores` views give
/// them: the folded bytes all in the one store the row names, the restores' bytes and regions those of
/// pass 1, the final restore recorded as pass index 2.
void readFoldedParts(const RowCursor& q, int row, DispatchRow& d,
                     std::vector<std::pair<int, RestoreRow>>& restores) {
    using C = rs::session::DispatchColumn;
    using P = rs::session::FoldedPassColumn;
    if (value(q, C::folded_store).isNull()) {
        return; // a snapshot_store_rows row (RestoreReader)
    }
    d.store = i32(q, C::folded_store);
    d.hashPath = i32(q, C::folded_hash_path);
    d.hostPinned = i32(q, C::folded_host_pinned);
    d.snapshotChunks = i64(q, C::folded_total_chunks);
    d.snapshotHashNs = i64(q, C::folded_hash_ns);
    const bool host = d.store == int(rs::ipc::SnapshotStore::host);
    const bool device = d.store == int(rs::ipc::SnapshotStore::device);
    d.hostBytes = host ? d.snapshotBytes : 0;
    d.deviceBytes = device ? d.snapshotBytes : 0;
    if (value(q, C::folded_restore_hash_ns).isNull()) {
        return;
    }
    auto pass1 = [&](P column) { return q.int64(int(C::pass1) + int(column)); };
    RestoreRow r;
    r.process = d.process;
    r.dispatchId = d.id;
    r.passIndex = 1;
    const qint64 bytes = pass1(P::bytes_restored);
    r.bytesHost = host ? bytes : 0;
    r.bytesDevice = device ? bytes : 0;
    r.hashNs = i64(q, C::folded_restore_hash_ns);
    r.restoreNs = pass1(P::restore_ns);
    r.regionsRestored = int(pass1(P::regions_restored));
    r.dirtyChunks = i32(q, C::folded_restore_dirty_chunks);
    r.totalChunks = int(d.snapshotChunks);
    restores.emplace_back(row, r);
    if (!value(q, C::folded_final_hash_ns).isNull()) {
        r.passIndex = 2;
        r.finalRestore = true;
        r.hashNs = i64(q, C::folded_final_hash_ns);
        r.restoreNs = i64(q, C::folded_final_restore_ns);
        restores.emplace_back(row, r);
    }
}

} // namespace

SessionError DispatchReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::DispatchColumn;
    using P = rs::session::FoldedPassColumn;
    const rs::session::FileLayout& layout = context.layout();
    RowCursor& q = context.query();
    // Format 2: the compact rows name agents, queues and kernel objects by reference.
    const bool compact = layout.compact();
    QHash<qint64, qint64> handles;
    if (const std::string sql = rs::session::handles_query(layout); !sql.empty()) {
        if (!context.run(sql)) {
            return context.queryError(QStringLiteral("handles"));
        }
        while (q.next()) {
            handles.insert(i64(q, rs::session::HandleColumn::ref), i64(q, rs::session::HandleColumn::handle));
        }
    }
    if (!context.run(rs::session::dispatches_query(layout))) {
        return context.queryError(QStringLiteral("dispatches"));
    }
    QHash<ProcessKey, int> kernelIndex; // (process, kernel name id or -object) -> index
    QHash<QString, int> kernelByName;   // one entry per kernel name across processes
    out.dispatchRow.reserve(1024);
    while (q.next()) {
        DispatchRow d;
        d.process = ensureProcess(out, i32(q, C::process));
        d.id = i64(q, C::id);
        d.seq = i64(q, C::seq);
        d.tsNs = i64(q, C::ts_ns);
        d.agent = compact ? handles.value(i64(q, C::agent)) : i64(q, C::agent);
        d.queue = compact ? handles.value(i64(q, C::queue)) : i64(q, C::queue);
        d.kernelObject = compact ? handles.value(i64(q, C::kernel_object)) : i64(q, C::kernel_object);
        const qint64 nameId = i64(q, C::kernel_name_id);
        const ProcessKey key{d.process, nameId != 0 ? nameId : -d.kernelObject - 1};
        auto k = kernelIndex.constFind(key);
        if (k == kernelIndex.cend()) {
            QString name = nameId != 0 ? context.strings.value({d.process, nameId}) : QString();
            if (name.isEmpty()) {
                name = QStringLiteral("kernel@%1").arg(quint64(d.kernelObject), 0, 16);
            }
            auto byName = kernelByName.constFind(name);
            if (byName == kernelByName.cend()) {
                byName = kernelByName.insert(name, int(out.kernelNames.size()));
                out.kernelNames.push_back(kernelDisplayName(name));
                out.kernelSymbols.push_back(name);
            }
            k = kernelIndex.insert(key, *byName);
        }
        d.kernel = *k;
        for (int i = 0; i < 3; ++i) {
            d.grid[i] = q.value(int(C::grid_x) + i).toUInt();
            d.workgroup[i] = q.value(int(C::workgroup_x) + i).toUInt();
        }
        d.decision = i32(q, C::decision);
        d.hasSnapshot = !value(q, C::snapshot).isNull();
        if (d.hasSnapshot) {
            d.generation = i64(q, C::generation);
            d.snapshotRegions = i32(q, C::regions);
            d.snapshotBytes = i64(q, C::bytes);
            d.snapshotNs = i64(q, C::duration_ns);
            d.snapshotOk = i32(q, C::ok) != 0;
            d.snapshotFailures = i32(q, C::failures);
            // Format 5; NULL (older files and engines) stays -1, not recorded.
            if (!value(q, C::window_ns).isNull()) {
                d.windowNs = i64(q, C::window_ns);
            }
            if (!value(q, C::fence_wait_ns).isNull()) {
                d.fenceWaitNs = i64(q, C::fence_wait_ns);
            }
        }
        const int row = int(out.dispatches.size());
        if (d.hasSnapshot && layout.folded_parts) {
            readFoldedParts(q, row, d, context.foldedRestores);
        }
        if (compact) {
            for (int p = 0; p < 2; ++p) {
                const int c = p == 0 ? int(C::pass0) : int(C::pass1);
                auto at = [&](P column) { return q.value(c + int(column)); };
                if (!at(P::dseq).isNull()) {
                    PassRow pass{d.process,
                                 d.id,
                                 p,
                                 0,
                                 at(P::start_tick).toLongLong(),
                                 at(P::end_tick).toLongLong(),
                                 at(P::restore_ns).toLongLong(),
                                 at(P::bytes_restored).toLongLong(),
                                 at(P::regions_restored).toInt(),
                                 at(P::skips).toInt(),
                                 at(P::fidelity).toInt()};
                    context.foldedPasses.emplace_back(row, pass);
                }
            }
        }
        out.dispatchRow.insert({d.process, d.id}, row);
        ProcessInfo& owner = out.processes[d.process - 1];
        ++owner.dispatches;
        ++(d.replayed() ? owner.replayed : owner.declined);
        out.dispatches.push_back(d);
    }
    return {};
}

} // namespace rs::app
