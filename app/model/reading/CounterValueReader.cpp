// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

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
    return {};
}

} // namespace rs::app
