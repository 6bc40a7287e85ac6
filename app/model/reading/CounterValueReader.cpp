// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <algorithm>
#include <tuple>

namespace rs::app {

SessionError CounterValueReader::read(ReadContext& context, SessionData& out) {
    const std::string sql = rs::session::counter_values_query(context.layout());
    if (sql.empty()) {
        return {}; // before format 7: no counters
    }
    using C = rs::session::CounterValueColumn;
    RowCursor& q = context.query();
    if (!context.run(sql)) {
        return context.queryError(QStringLiteral("counter values"));
    }
    while (q.next()) {
        // Counts are unsigned 64-bit values stored with their bit pattern.
        out.counterValues.push_back({i32(q, C::process), i64(q, C::dispatch_id), i32(q, C::pass_index),
                                     q.text(int(C::kernel)), q.text(int(C::counter)), q.text(int(C::unit)),
                                     static_cast<quint64>(i64(q, C::value))});
    }
    indexByDispatch(out);
    return {};
}

void CounterValueReader::indexByDispatch(SessionData& out) {
    out.counterNames.clear();
    out.counterUnits.clear();
    out.dispatchCounters.clear();
    out.counterBegin.clear();
    if (out.counterValues.empty()) {
        return;
    }
    // The rows come by kernel, then counter name: the names are collected once each, then sorted.
    QHash<QString, int> ids;
    for (const CounterValueRow& v : out.counterValues) {
        if (!ids.contains(v.counter)) {
            ids.insert(v.counter, 0);
            out.counterNames << v.counter;
        }
    }
    out.counterNames.sort();
    for (int i = 0; i < out.counterNames.size(); ++i) {
        ids[out.counterNames[i]] = i;
        out.counterUnits << QString();
    }
    struct Keyed {
        int row;
        DispatchCounterValue value;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(out.counterValues.size());
    for (const CounterValueRow& v : out.counterValues) {
        const int counter = ids.value(v.counter);
        out.counterUnits[counter] = v.unit;
        const int row = out.dispatchRow.value({v.process, v.dispatchId}, -1);
        if (row >= 0) { // a value of a dispatch the file has no row of is left out of the index
            keyed.push_back({row, {counter, v.passIndex, v.value}});
        }
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
        return std::tie(a.row, a.value.counter, a.value.passIndex) <
               std::tie(b.row, b.value.counter, b.value.passIndex);
    });
    const std::size_t rows = out.dispatches.size();
    out.counterBegin.assign(rows + 1, 0);
    out.dispatchCounters.reserve(keyed.size());
    std::size_t k = 0;
    for (std::size_t row = 0; row < rows; ++row) {
        out.counterBegin[row] = int(out.dispatchCounters.size());
        while (k < keyed.size() && std::size_t(keyed[k].row) == row) {
            out.dispatchCounters.push_back(keyed[k++].value);
        }
    }
    out.counterBegin[rows] = int(out.dispatchCounters.size());
}

} // namespace rs::app
