// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

namespace rs::app {

SessionError AsyncCopyReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::AsyncCopyColumn;
    const std::string sql = rs::session::async_copies_query(context.layout());
    if (sql.empty()) {
        return {};
    }
    RowCursor& q = context.query();
    if (!context.run(sql)) {
        return context.queryError(QStringLiteral("async copies"));
    }
    while (q.next()) {
        out.asyncCopies.push_back({ensureProcess(out, i32(q, C::process)), i64(q, C::seq), i64(q, C::ts_ns),
                                   i64(q, C::agent), i64(q, C::dst), i64(q, C::src), i64(q, C::size),
                                   i64(q, C::dispatch_id), i64(q, C::waited_ns), i32(q, C::outcome)});
    }
    return {};
}

} // namespace rs::app
