// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <algorithm>
#include <limits>

namespace rs::app {

SessionError SessionInfoReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::SessionColumn;
    const rs::session::FileLayout& layout = context.layout();
    RowCursor& q = context.query();
    if (!context.run(rs::session::session_query(layout))) {
        return context.queryError(QStringLiteral("the session row"));
    }
    if (!q.next()) {
        return context.fail(SessionError::Kind::corrupt,
                            QStringLiteral("The session file has no session row."));
    }
    SessionInfo& s = out.info;
    s.formatVersion = i32(q, C::format_version);
    s.createdWallNs = i64(q, C::created_wall_ns);
    s.pid = i64(q, C::pid);
    s.executable = context.text(1, value(q, C::executable_id));
    s.argv = context.text(1, value(q, C::argv_id));
    s.hostname = context.text(1, value(q, C::hostname_id));
    s.engineVersion = context.text(1, value(q, C::engine_version_id));
    s.configuration = context.multiLineText(1, value(q, C::configuration_id));
    s.startNs = i64(q, C::start_ns);
    s.startWallNs = i64(q, C::start_wall_ns);
    s.ended = !value(q, C::end_seq).isNull();
    s.endNs = i64(q, C::end_ns);
    s.spooled = i64(q, C::spooled);
    s.complete = i32(q, C::complete) != 0;
    s.lastSequence = i64(q, C::last_sequence);
    s.eventsStored = i64(q, C::events_stored);
    s.endReason = value(q, C::end_reason).toString();
    // Fidelity, async copies, exit status: format 2.
    if (const std::string sql = rs::session::exit_status_query(layout);
        !sql.empty() && context.run(sql) && q.next()) {
        using E = rs::session::ExitStatusColumn;
        s.hasExitStatus = !value(q, E::exit_status).isNull();
        s.exitStatus = i32(q, E::exit_status);
        s.exitSignal = i32(q, E::exit_signal);
    }
    // session.internal_errors exists in files of protocol-3 builds only (docs/session-schema.md).
    if (const std::string sql = rs::session::internal_errors_query(layout);
        !sql.empty() && context.run(sql) && q.next() && !q.value(0).isNull()) {
        s.internalErrors = i64(q, rs::session::InternalErrorsColumn::internal_errors);
    }
    if (context.run(rs::session::sequence_gaps_query(layout))) {
        using G = rs::session::SequenceGapColumn;
        while (q.next()) {
            const int process = i32(q, G::process);
            context.gapsByProcess.insert(process, {i32(q, G::ranges), i64(q, G::missing)});
            s.gapRanges += i32(q, G::ranges);
            s.missingEvents += i64(q, G::missing);
        }
    }
    // The job rank replayscope-run recorded (a column added later: files without it have none).
    if (context.run(rs::session::kSessionHasJobRankQuery) && q.next() && q.int64(0) > 0 &&
        context.run(rs::session::kSessionJobRankQuery) && q.next() && !q.isNull(0)) {
        const qint64 rank = q.int64(0);
        s.jobRank = rank >= 0 && rank <= std::numeric_limits<int>::max() ? int(rank) : -1;
    }
    if (context.run(rs::session::kSessionHasRunnerCommandQuery) && q.next() && q.int64(0) > 0 &&
        context.run(rs::session::kSessionRunnerCommandQuery) && q.next() && !q.isNull(0)) {
        s.runnerCommand = q.text(0);
    }
    if (const std::string sql = rs::session::session_counts_query(layout);
        !sql.empty() && context.run(sql) && q.next()) {
        using N = rs::session::SessionCountColumn;
        s.processCount = i32(q, N::process_count);
        s.rejectedFrames = i64(q, N::rejected_frames);
        s.missingEvents = std::max(s.missingEvents, i64(q, N::missing_events));
    }
    return {};
}

} // namespace rs::app
