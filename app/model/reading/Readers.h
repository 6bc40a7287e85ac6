// SPDX-License-Identifier: MIT
// The per-table readers of a session file: one class per page's data. SessionLoader runs them in this
// order inside one read transaction; each reads its queries (rs::session read_queries.h, chosen by the
// file's layout) into SessionData and returns the first error (SessionError, kind read/corrupt/foreign
// with SQLite's message) or none. A reader needs the ones before it only as noted.
#pragma once

#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

namespace rs::app {

class ReadContext;

/// Enum names (`enum_names`, with the format-4 names a file may lack) and the interned strings
/// (into ReadContext::strings, for the readers after it).
class StringReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// The session row (summary page): command, host, times, completeness, exit status, engine-internal
/// errors, sequence gaps (also per process, into ReadContext::gapsByProcess). Needs StringReader.
class SessionInfoReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// The processes page: `processes` (format 3; process 1 describes the session where its row lacks
/// texts), else the session row as process 1. Needs SessionInfoReader.
class ProcessReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Agents, one entry per agent of each process (a handle means something only in its own process).
class AgentReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Dispatches with their snapshots, kernel names and the per-process replayed/declined counts; format
/// 2+: passes 0 and 1 from the same rows into ReadContext::foldedPasses. Needs ProcessReader.
class DispatchReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Passes by dispatch (the folded ones and the rest), each dispatch's pass count, restore time and
/// kernel tick min/median/max. Needs DispatchReader.
class PassReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// The audit's per-dispatch lists: restore skips, snapshot failures and failed restores grouped by
/// dispatch (skips counted per dispatch and per allocation into ReadContext::skippedByAllocation), and
/// fidelity mismatches (format 2). Needs DispatchReader.
class RestoreSkipReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Format 4: snapshot stores and chunks, restores (linked to their passes, summed per dispatch and per
/// process; the folded ones from ReadContext::foldedRestores). Nothing for older files. Needs
/// PassReader.
class RestoreReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// The second phase, format 4: restore misses and the placements of mixed snapshots, each in the
/// order the audit lists them; sets detailsLoaded.
class RestoreMissReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Format 7: hardware counter values per pass with their dispatch's kernel, in the query's order (kernel,
/// counter, process, dispatch), and their index by dispatch row (counterNames, dispatchCounters,
/// counterBegin). Nothing for older files. Needs DispatchReader.
class CounterValueReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
    /// Builds counterNames, counterUnits, dispatchCounters and counterBegin from counterValues and the
    /// dispatch rows, then computeDerived.
    static void indexByDispatch(SessionData& out);
    /// Computes derivedValues: every metric of derivedNames per dispatch row, from the row's counter values
    /// (docs/counters.md, "Derived metrics"); NaN where it has no value.
    static void computeDerived(SessionData& out);
};

/// Allocations with the restore skips naming them. Needs RestoreSkipReader.
class AllocationReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Module variables (symbols resolved). Needs StringReader.
class ModuleVariableReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Warnings (texts resolved). Needs StringReader.
class WarningReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// Async copies that met a replay window (format 2).
class AsyncCopyReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

/// The second phase: inventory regions column-wise, and how often each allocation was captured
/// (snapshots per inventory spread over its regions). Needs the first phase's dispatches and allocations.
class RegionReader {
  public:
    static SessionError read(ReadContext& context, SessionData& out);
};

} // namespace rs::app
