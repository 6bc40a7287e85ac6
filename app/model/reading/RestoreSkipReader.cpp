// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <algorithm>

namespace rs::app {

namespace {

/// Sorts `items` (dispatch row, row) by dispatch row, then pass, into `sorted` with `begin` (row ->
/// first item, size rows + 1).
void groupByDispatch(std::vector<std::pair<int, SkipRow>>& items, int rows, std::vector<SkipRow>& sorted,
                     std::vector<int>& begin) {
    std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.pass < b.second.pass;
    });
    begin.assign(rows + 1, 0);
    sorted.reserve(items.size());
    for (const auto& [row, k] : items) {
        sorted.push_back(k);
        ++begin[row + 1];
    }
    for (int r = 0; r < rows; ++r) {
        begin[r + 1] += begin[r];
    }
}

} // namespace

SessionError RestoreSkipReader::read(ReadContext& context, SessionData& out) {
    const rs::session::FileLayout& layout = context.layout();
    RowCursor& q = context.query();
    const int rows = int(out.dispatches.size());
    // Restore skips (pass >= 0) and snapshot failures (pass -1), grouped by dispatch.
    std::vector<std::pair<int, SkipRow>> skips;
    if (!context.run(rs::session::restore_skips_query(layout))) {
        return context.queryError(QStringLiteral("restore skips"));
    }
    while (q.next()) {
        using C = rs::session::RestoreSkipColumn;
        SkipRow k{i32(q, C::process), i64(q, C::dispatch_id),   i32(q, C::pass_idx), i64(q, C::address),
                  i64(q, C::size),    i64(q, C::allocation_id), i32(q, C::reason)};
        const int row = rowOf(out, k.process, k.dispatchId);
        if (row >= 0) {
            ++out.dispatches[row].skips;
            skips.emplace_back(row, k);
        }
        if (k.allocationId != 0) {
            ++context.skippedByAllocation[{k.process, k.allocationId}];
        }
    }
    if (!context.run(rs::session::snapshot_failures_query(layout))) {
        return context.queryError(QStringLiteral("snapshot failures"));
    }
    while (q.next()) {
        using C = rs::session::SnapshotFailureColumn;
        SkipRow k{i32(q, C::process),       i64(q, C::dispatch_id), -1, i64(q, C::address), i64(q, C::size),
                  i64(q, C::allocation_id), i32(q, C::reason)};
        const int row = rowOf(out, k.process, k.dispatchId);
        if (row >= 0) {
            skips.emplace_back(row, k);
        }
    }
    // Regions a restore gave up (protocol 3; absent from files of earlier builds), listed with the skips.
    if (const std::string sql = rs::session::restore_failures_query(layout); !sql.empty()) {
        if (!context.run(sql)) {
            return context.queryError(QStringLiteral("restore failures"));
        }
        while (q.next()) {
            using C = rs::session::RestoreFailureColumn;
            SkipRow k{i32(q, C::process), i64(q, C::dispatch_id),   i32(q, C::pass_idx), i64(q, C::address),
                      i64(q, C::size),    i64(q, C::allocation_id), i32(q, C::kind)};
            k.restoreFailure = true;
            k.attempts = i32(q, C::attempts);
            const int row = rowOf(out, k.process, k.dispatchId);
            if (row >= 0) {
                skips.emplace_back(row, k);
            }
        }
    }
    groupByDispatch(skips, rows, out.skips, out.skipBegin);

    // Fidelity mismatches (format 2), grouped by dispatch like the skips.
    std::vector<std::pair<int, SkipRow>> mismatches;
    if (const std::string sql = rs::session::fidelity_mismatches_query(layout); !sql.empty()) {
        if (!context.run(sql)) {
            return context.queryError(QStringLiteral("fidelity mismatches"));
        }
        while (q.next()) {
            using C = rs::session::FidelityMismatchColumn;
            SkipRow k{i32(q, C::process),
                      i64(q, C::dispatch_id),
                      i32(q, C::pass_idx),
                      i64(q, C::address),
                      i64(q, C::size),
                      i64(q, C::allocation_id),
                      0,
                      true};
            const int row = rowOf(out, k.process, k.dispatchId);
            if (row >= 0) {
                mismatches.emplace_back(row, k);
            }
        }
    }
    groupByDispatch(mismatches, rows, out.mismatches, out.mismatchBegin);
    return {};
}

} // namespace rs::app
