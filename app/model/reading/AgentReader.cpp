// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

namespace rs::app {

SessionError AgentReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::AgentColumn;
    RowCursor& q = context.query();
    if (!context.run(rs::session::agents_query(context.layout()))) {
        return context.queryError(QStringLiteral("agents"));
    }
    // One entry per agent of each process. A handle is only meaningful in the process that reported it:
    // two processes may report the same value for different devices (ranks that each see one GPU
    // through ROCR_VISIBLE_DEVICES), so agents are never merged across processes by handle.
    while (q.next()) {
        const int process = i32(q, C::process);
        const qint64 handle = i64(q, C::handle);
        out.agents.push_back({process, handle, context.text(process, value(q, C::name_id)),
                              context.text(process, value(q, C::isa_id)), i32(q, C::device_type),
                              i32(q, C::node)});
    }
    return {};
}

} // namespace rs::app
