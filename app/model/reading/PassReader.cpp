// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <algorithm>

namespace rs::app {

SessionError PassReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::PassColumn;
    RowCursor& q = context.query();
    const int rows = int(out.dispatches.size());
    // Passes (format 2: only those after the second), grouped by dispatch.
    std::vector<std::pair<int, PassRow>> passes = std::move(context.foldedPasses);
    context.foldedPasses.clear();
    if (!context.run(rs::session::passes_query(context.layout()))) {
        return context.queryError(QStringLiteral("passes"));
    }
    while (q.next()) {
        PassRow p{i32(q, C::process),    i64(q, C::dispatch_id),    i32(q, C::idx),
                  i64(q, C::ts_ns),      i64(q, C::start_tick),     i64(q, C::end_tick),
                  i64(q, C::restore_ns), i64(q, C::bytes_restored), i32(q, C::regions_restored),
                  i32(q, C::skips),      i32(q, C::fidelity)};
        const int row = rowOf(out, p.process, p.dispatchId);
        if (row >= 0) {
            passes.emplace_back(row, p);
        }
    }
    std::stable_sort(passes.begin(), passes.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.index < b.second.index;
    });
    out.passBegin.assign(rows + 1, 0);
    out.passes.reserve(passes.size());
    std::vector<qint64> ticks;
    for (std::size_t i = 0; i < passes.size();) {
        const int row = passes[i].first;
        DispatchRow& d = out.dispatches[row];
        ticks.clear();
        for (; i < passes.size() && passes[i].first == row; ++i) {
            const PassRow& p = passes[i].second;
            out.passes.push_back(p);
            ++out.passBegin[row + 1];
            d.restoreNs += p.restoreNs;
            if (p.endTick >= p.startTick && p.endTick > 0) {
                ticks.push_back(p.endTick - p.startTick);
            }
        }
        d.passes = out.passBegin[row + 1];
        if (!ticks.empty()) {
            std::sort(ticks.begin(), ticks.end());
            d.kernelMin = ticks.front();
            d.kernelMax = ticks.back();
            d.kernelMedian = ticks.size() % 2 ? ticks[ticks.size() / 2]
                                              : (ticks[ticks.size() / 2 - 1] + ticks[ticks.size() / 2]) / 2;
        }
    }
    for (int r = 0; r < rows; ++r) {
        out.passBegin[r + 1] += out.passBegin[r];
    }
    return {};
}

} // namespace rs::app
