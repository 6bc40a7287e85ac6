// SPDX-License-Identifier: MIT
#include "model/KernelName.h"
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <replayscope/counters/derived.h>
#include <replayscope/session/derived_counters_queries.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace rs::app {

SessionError CounterValueReader::read(ReadContext& context, SessionData& out) {
    const std::string sql = rs::session::counter_values_query(context.layout());
    if (sql.empty()) {
        return {}; // before format 7: no counters
    }
    using C = rs::session::CounterValueColumn;
    RowCursor& q = context.query();
    // The derived metrics the run asked for (an optional table: none without it); a name this build does
    // not define is left out.
    out.derivedNames.clear();
    out.derivedUnits.clear();
    if (!context.run(rs::session::kHasDerivedCountersQuery)) {
        return context.queryError(QStringLiteral("derived metrics"));
    }
    const bool hasDerived = q.next() && i64(q, 0) > 0;
    if (hasDerived) {
        if (!context.run(rs::session::kDerivedCountersQuery)) {
            return context.queryError(QStringLiteral("derived metrics"));
        }
        while (q.next()) {
            const QString name = q.text(0);
            if (const auto* def = rs::counters::find_derived(name.toStdString()); def != nullptr) {
                out.derivedNames << name;
                out.derivedUnits << QString::fromUtf8(def->unit.data(), qsizetype(def->unit.size()));
            }
        }
    }
    if (!context.run(sql)) {
        return context.queryError(QStringLiteral("counter values"));
    }
    QHash<QString, QString> shown; // symbol -> name as shown (model/KernelName.h), demangled once each
    while (q.next()) {
        const QString symbol = q.text(int(C::kernel));
        auto name = shown.constFind(symbol);
        if (name == shown.cend()) {
            name = shown.insert(symbol, symbol.isEmpty() ? symbol : kernelDisplayName(symbol));
        }
        // Counts are unsigned 64-bit values stored with their bit pattern.
        out.counterValues.push_back({i32(q, C::process), i64(q, C::dispatch_id), i32(q, C::pass_index), *name,
                                     q.text(int(C::counter)), q.text(int(C::unit)),
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
    out.derivedValues.clear();
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
    computeDerived(out);
}

void CounterValueReader::computeDerived(SessionData& out) {
    out.derivedValues.clear();
    const std::size_t metrics = std::size_t(out.derivedNames.size());
    if (metrics == 0 || out.counterBegin.empty()) {
        return;
    }
    std::vector<std::string> expressions;
    for (const QString& name : out.derivedNames) {
        const auto* def = rs::counters::find_derived(name.toStdString());
        expressions.emplace_back(def != nullptr ? def->expression : std::string_view{});
    }
    QHash<QString, int> ids;
    for (int i = 0; i < out.counterNames.size(); ++i) {
        ids.insert(out.counterNames[i], i);
    }
    const std::size_t rows = out.dispatches.size();
    out.derivedValues.assign(rows * metrics, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t row = 0; row < rows; ++row) {
        const int first = out.counterBegin[row], end = out.counterBegin[row + 1];
        if (first == end) {
            continue;
        }
        // A counter's value in the dispatch: the first pass that collected it, as the counter columns.
        const rs::counters::CounterLookup lookup = [&](std::string_view name) -> std::optional<double> {
            const int id = ids.value(QString::fromUtf8(name.data(), qsizetype(name.size())), -1);
            for (int i = first; id >= 0 && i < end; ++i) {
                if (out.dispatchCounters[std::size_t(i)].counter == id) {
                    return double(out.dispatchCounters[std::size_t(i)].value);
                }
            }
            return std::nullopt;
        };
        for (std::size_t m = 0; m < metrics; ++m) {
            if (const auto v = rs::counters::evaluate_expression(expressions[m], lookup)) {
                out.derivedValues[row * metrics + m] = *v;
            }
        }
    }
}

} // namespace rs::app
