// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <algorithm>

namespace rs::app {

namespace {

/// Formats 1-2: the session row describes the one process.
ProcessInfo processOfSession(const SessionInfo& s) {
    ProcessInfo p;
    p.pid = s.pid;
    p.executable = s.executable;
    p.argv = s.argv;
    p.hostname = s.hostname;
    p.engineVersion = s.engineVersion;
    p.configuration = s.configuration;
    p.startNs = s.startNs;
    p.startWallNs = s.startWallNs;
    p.ended = s.ended;
    p.endNs = s.endNs;
    p.spooled = s.spooled;
    p.internalErrors = s.internalErrors;
    p.hasExitStatus = s.hasExitStatus;
    p.exitStatus = s.hasExitStatus ? s.exitStatus : -1;
    p.exitSignal = s.exitSignal;
    p.lastSequence = s.lastSequence;
    p.eventsStored = s.eventsStored;
    p.missingEvents = s.missingEvents;
    p.complete = s.complete;
    p.endReason = s.endReason;
    return p;
}

/// Process 1 describes the session when the session row's own texts are absent.
void describeSessionByFirstProcess(SessionInfo& s, const ProcessInfo& first) {
    if (s.executable.isEmpty() && s.argv.isEmpty()) {
        s.executable = first.executable;
        s.argv = first.argv;
    }
    if (s.hostname.isEmpty()) {
        s.hostname = first.hostname;
    }
    if (s.engineVersion.isEmpty()) {
        s.engineVersion = first.engineVersion;
    }
    if (s.configuration.isEmpty()) {
        s.configuration = first.configuration;
    }
    if (s.pid == 0) {
        s.pid = first.pid;
    }
}

} // namespace

SessionError ProcessReader::read(ReadContext& context, SessionData& out) {
    using C = rs::session::ProcessColumn;
    SessionInfo& s = out.info;
    // Processes: the `processes` table (format 3), else the session row as process 1.
    const std::string sql = rs::session::processes_query(context.layout());
    if (sql.empty()) {
        out.processes.push_back(processOfSession(s));
        s.processCount = 1;
        return {};
    }
    RowCursor& q = context.query();
    if (!context.run(sql)) {
        return context.queryError(QStringLiteral("processes"));
    }
    while (q.next()) {
        const int process = i32(q, C::process);
        if (process < 1 || process > (1 << 20)) {
            continue; // not a process index this reader can place
        }
        while (out.processes.size() < process) {
            ProcessInfo placeholder;
            placeholder.process = int(out.processes.size()) + 1;
            out.processes.push_back(placeholder);
        }
        ProcessInfo& p = out.processes[process - 1];
        p.instance = value(q, C::instance).toULongLong();
        p.pid = i64(q, C::pid);
        p.parentPid = i64(q, C::parent_pid);
        p.executable = context.text(process, value(q, C::executable_id));
        p.argv = context.text(process, value(q, C::argv_id));
        p.hostname = context.text(process, value(q, C::hostname_id));
        p.engineVersion = context.text(process, value(q, C::engine_version_id));
        p.configuration = context.multiLineText(process, value(q, C::configuration_id));
        p.startNs = i64(q, C::start_ns);
        p.startWallNs = i64(q, C::start_wall_ns);
        p.ended = !value(q, C::end_seq).isNull();
        p.endNs = i64(q, C::end_ns);
        p.spooled = i64(q, C::spooled);
        p.internalErrors = value(q, C::internal_errors).isNull() ? -1 : i64(q, C::internal_errors);
        p.hasExitStatus = !value(q, C::exit_status).isNull();
        p.exitStatus = p.hasExitStatus ? i32(q, C::exit_status) : -1;
        p.exitSignal = i32(q, C::exit_signal);
        p.lastSequence = i64(q, C::last_sequence);
        p.eventsStored = i64(q, C::events_stored);
        p.missingEvents = std::max(i64(q, C::missing_events), context.gapsByProcess.value(process).second);
        p.rejectedFrames = i64(q, C::rejected_frames);
        p.complete = i32(q, C::complete) != 0;
        p.endReason = value(q, C::end_reason).toString();
    }
    if (!out.processes.isEmpty()) {
        describeSessionByFirstProcess(s, out.processes.front());
    }
    s.processCount = std::max(s.processCount, int(out.processes.size()));
    return {};
}

} // namespace rs::app
