// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

namespace rs::app {

SessionError AllocationReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::AllocationColumn;
    RowCursor& q = context.query();
    if (!context.run(rs::session::allocations_query(context.layout()))) {
        return context.queryError(QStringLiteral("allocations"));
    }
    while (q.next()) {
        AllocationRow a;
        a.process = ensureProcess(out, i32(q, C::process));
        a.id = i64(q, C::id);
        a.allocSeq = i64(q, C::alloc_seq);
        a.allocNs = i64(q, C::alloc_ns);
        a.address = i64(q, C::address);
        a.size = i64(q, C::size);
        a.agent = i64(q, C::agent);
        a.api = i32(q, C::api);
        a.poolFlags = value(q, C::pool_flags).toUInt();
        a.pointerType = i32(q, C::pointer_type);
        a.classification = i32(q, C::classification);
        a.freeSeq = value(q, C::free_seq).isNull() ? -1 : i64(q, C::free_seq);
        a.freeNs = value(q, C::free_ns).isNull() ? -1 : i64(q, C::free_ns);
        a.skipped = context.skippedByAllocation.value({a.process, a.id});
        out.allocations.push_back(a);
    }
    return {};
}

} // namespace rs::app
