// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <QSet>

namespace rs::app {

SessionError AgentReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::AgentColumn;
    RowCursor& q = context.query();
    if (!context.run(rs::session::agents_query(context.layout()))) {
        return context.queryError(QStringLiteral("agents"));
    }
    // One entry per handle: processes of one run see the same agents (a handle repeats across processes).
    QSet<qint64> agentHandles;
    while (q.next()) {
        const int process = i32(q, C::process);
        const qint64 handle = i64(q, C::handle);
        if (agentHandles.contains(handle)) {
            continue;
        }
        agentHandles.insert(handle);
        out.agents.push_back({process, handle, context.text(process, value(q, C::name_id)),
                              context.text(process, value(q, C::isa_id)), i32(q, C::device_type),
                              i32(q, C::node)});
    }
    return {};
}

} // namespace rs::app
