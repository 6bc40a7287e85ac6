// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

namespace rs::app {

SessionError WarningReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::WarningColumn;
    RowCursor& q = context.query();
    if (!context.run(rs::session::warnings_query(context.layout()))) {
        return context.queryError(QStringLiteral("warnings"));
    }
    while (q.next()) {
        const int process = ensureProcess(out, i32(q, C::process));
        out.warnings.push_back({process, i64(q, C::seq), i64(q, C::ts_ns), i64(q, C::dispatch_id),
                                i32(q, C::code), context.text(process, value(q, C::text_id))});
    }
    return {};
}

} // namespace rs::app
