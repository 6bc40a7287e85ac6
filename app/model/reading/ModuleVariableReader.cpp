// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

namespace rs::app {

SessionError ModuleVariableReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::ModuleVariableColumn;
    RowCursor& q = context.query();
    if (!context.run(rs::session::module_variables_query(context.layout()))) {
        return context.queryError(QStringLiteral("module variables"));
    }
    while (q.next()) {
        const int process = ensureProcess(out, i32(q, C::process));
        out.moduleVariables.push_back({process, i64(q, C::seq), i64(q, C::ts_ns), i64(q, C::executable),
                                       i64(q, C::agent), i64(q, C::address), i64(q, C::size),
                                       context.text(process, value(q, C::symbol_id)), i32(q, C::status)});
    }
    return {};
}

} // namespace rs::app
