// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

namespace rs::app {

namespace {

/// How often each allocation was captured: snapshots per inventory, spread over its regions.
void countCaptures(const RegionColumns& r, SessionData& out) {
    QHash<InventoryKey, int> snapshotsPerInventory;
    for (const DispatchRow& d : out.dispatches) {
        if (d.hasSnapshot && d.snapshotOk) {
            ++snapshotsPerInventory[{d.process, d.agent, d.generation}];
        }
    }
    QHash<ProcessKey, int> allocationRow;
    allocationRow.reserve(int(out.allocations.size()));
    for (int i = 0; i < int(out.allocations.size()); ++i) {
        allocationRow.insert({out.allocations[i].process, out.allocations[i].id}, i);
        out.allocations[i].captured = 0;
    }
    for (auto it = snapshotsPerInventory.cbegin(); it != snapshotsPerInventory.cend(); ++it) {
        const auto range = r.ranges.value(it.key(), {0, 0});
        for (int i = range.first; i < range.first + range.second; ++i) {
            const int a = allocationRow.value({r.process[i], r.allocationId[i]}, -1);
            if (a >= 0) {
                out.allocations[a].captured += it.value();
            }
        }
    }
}

} // namespace

SessionError RegionReader::read(ReadContext& context, SessionData& out) {
    using rs::session::region_column;
    using C = rs::session::RegionColumn;
    const rs::session::FileLayout& layout = context.layout();
    RowCursor& q = context.query();
    RegionColumns r;
    qint64 expected = 0;
    if (context.run(rs::session::inventory_region_count_query(layout)) && q.next()) {
        expected = q.value(0).toLongLong();
    }
    r.process.reserve(expected);
    r.agent.reserve(expected);
    r.generation.reserve(expected);
    r.address.reserve(expected);
    r.size.reserve(expected);
    r.allocationId.reserve(expected);
    r.index.reserve(expected);
    r.kind.reserve(expected);
    // The process column only when there are several: a million rows each fetch one value fewer.
    const bool perProcess = layout.per_process() && out.processes.size() > 1;
    if (!context.run(rs::session::inventory_regions_query(layout, perProcess))) {
        return context.queryError(QStringLiteral("inventory regions"));
    }
    const int agent = region_column(C::agent, perProcess);
    const int generation = region_column(C::generation, perProcess);
    const int index = region_column(C::idx, perProcess);
    const int address = region_column(C::address, perProcess);
    const int size = region_column(C::size, perProcess);
    const int allocationId = region_column(C::allocation_id, perProcess);
    const int kind = region_column(C::kind, perProcess);
    InventoryKey last{0, 0, -1};
    int first = 0;
    auto close = [&] {
        const int n = int(r.address.size());
        if (n > first) {
            r.ranges.insert(last, {first, n - first});
        }
        first = n;
    };
    while (q.next()) {
        const InventoryKey key{perProcess ? q.value(0).toInt() : 1, q.value(agent).toLongLong(),
                               q.value(generation).toLongLong()};
        if (!(key == last)) {
            close();
            last = key;
        }
        r.process.push_back(key.process);
        r.agent.push_back(key.agent);
        r.generation.push_back(key.generation);
        r.index.push_back(q.value(index).toUInt());
        r.address.push_back(q.value(address).toLongLong());
        r.size.push_back(q.value(size).toLongLong());
        r.allocationId.push_back(q.value(allocationId).toLongLong());
        r.kind.push_back(quint8(q.value(kind).toUInt()));
    }
    close();
    if (!q.error().isEmpty()) {
        return context.queryError(QStringLiteral("inventory regions"), q.error());
    }
    countCaptures(r, out);
    out.regions = std::move(r);
    out.regionsLoaded = true;
    return {};
}

} // namespace rs::app
