// SPDX-License-Identifier: MIT
// Immutable, implicitly shared picture of one session file at one moment (what the reader emits).
// Enum columns keep the stored code (an int, so that a code of a newer file survives); the typed
// questions (replayed(), isGpu(), ...) compare it against the session format's enums (records.h, lists
// in replayscope/session/vocabulary.h), never against a literal.
#pragma once

#include "model/ImplausibleValues.h"

#include <replayscope/ipc/records.h>

#include <QHash>
#include <QHashFunctions>
#include <QMap>
#include <QMetaType>
#include <QSharedData>
#include <QSharedDataPointer>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <optional>
#include <vector>

namespace rs::app {

/// The `session` row, with its interned texts resolved (format 3: its pid, command and host describe
/// process 1; its counts are the sums over every process).
struct SessionInfo {
    QString path;
    int formatVersion = 0; ///< `PRAGMA user_version` as stored
    /// Set when the file itself could not be read in place (a WAL to recover in a read-only directory):
    /// the path of the checkpointed temporary copy that was opened instead; empty otherwise.
    QString openedCopy;
    qint64 createdWallNs = 0;
    qint64 pid = 0;
    QString executable, argv, hostname, engineVersion, configuration;
    qint64 startNs = 0, startWallNs = 0, endNs = 0;
    bool complete = false;
    bool ended = false; ///< session_end received (end_seq set)
    qint64 lastSequence = 0, eventsStored = 0, spooled = 0;
    QString endReason;
    int gapRanges = 0;
    qint64 missingEvents = 0;
    bool hasExitStatus = false; ///< written by replayscope-run when the program ended (format 2)
    int exitStatus = 0;         ///< exit code, or 128+signal
    int exitSignal = 0;         ///< terminating signal, 0 when the program exited
    /// Engine-internal errors the engine caught and swallowed (session end, protocol 3); -1 when not
    /// recorded (no session end yet, or a file of an earlier build).
    qint64 internalErrors = -1;
    int processCount = 1;      ///< instrumented processes recorded (format 3; 1 for formats 1-2)
    qint64 rejectedFrames = 0; ///< frames refused by the collector or importer (format 3)
    /// The job rank replayscope-run recorded (`session.job_rank`), -1 when none
    /// (MergedSession::recordedRank).
    int jobRank = -1;
    /// The replayscope-run command line that recorded the session (`session.runner_command`, its options
    /// whole), empty when none was recorded (an earlier build, an import).
    QString runnerCommand;
};

/// One instrumented process (one emitter instance) of the session: a `processes` row of format 3, or
/// the `session` row of a format 1-2 file (process 1). `dispatches`, `replayed` and `declined` are counted
/// by the loader from the dispatch rows.
struct ProcessInfo {
    int process = 1;      ///< 1-based index, in order of first authentication or import
    quint64 instance = 0; ///< the emitter's random instance id (0: a v1/v2 file or a legacy spool)
    qint64 pid = 0, parentPid = 0;
    QString executable, argv, hostname, engineVersion, configuration;
    qint64 startNs = 0, startWallNs = 0, endNs = 0;
    bool ended = false;    ///< session_end of this process received
    bool complete = false; ///< session_end stored and no gap in [1, last sequence]
    qint64 lastSequence = 0, eventsStored = 0, missingEvents = 0, rejectedFrames = 0, spooled = 0;
    qint64 internalErrors = -1; ///< -1: not recorded
    bool hasExitStatus = false;
    int exitStatus = -1; ///< exit() value 0..255, -1 unknown
    int exitSignal = 0;
    QString endReason;
    qint64 dispatches = 0, replayed = 0, declined = 0;
    /// Restore totals over the process's dispatches (format 4; -1 when no restore was recorded): restores,
    /// the bytes full restores would have moved (footprint × restores), and the bytes actually moved over
    /// the host link and inside the device.
    qint64 restores = 0, fullRestoreBytes = -1, movedHost = -1, movedDevice = -1;
    /// "pid N" with the command, for filter menus and table cells.
    QString label() const;
};

/// Key of a per-process row: (process, id) — dispatch ids, allocation ids and sequence numbers are
/// counted by each process's own emitter, so they repeat across processes.
using ProcessKey = QPair<int, qint64>;

/// Key of one inventory: (process, agent handle, generation).
struct InventoryKey {
    int process = 1;
    qint64 agent = 0, generation = 0;
    friend bool operator==(const InventoryKey& a, const InventoryKey& b) {
        return a.process == b.process && a.agent == b.agent && a.generation == b.generation;
    }
    friend size_t qHash(const InventoryKey& k, size_t seed = 0) noexcept {
        return qHashMulti(seed, k.process, k.agent, k.generation);
    }
};

struct AgentInfo {
    int process = 1;
    qint64 handle = 0;
    QString name, isa;
    int deviceType = int(rs::ipc::DeviceType::gpu); ///< rs::ipc::DeviceType code
    int node = 0;
    bool isGpu() const { return deviceType == int(rs::ipc::DeviceType::gpu); }
};

/// One dispatch with its snapshot and pass aggregates (kernel times in agent ticks, -1 = none).
struct DispatchRow {
    int process = 1; ///< ProcessInfo::process
    qint64 id = 0, seq = 0, tsNs = 0, agent = 0, queue = 0, kernelObject = 0;
    int kernel = 0; ///< index into SessionData::kernelNames
    int decision = int(
        rs::ipc::DispatchDecision::replayed); ///< DispatchDecision code: replayed, else the decline reason
    quint32 grid[3] = {0, 0, 0};
    quint32 workgroup[3] = {0, 0, 0};
    bool hasSnapshot = false, snapshotOk = false;
    qint64 generation = -1, snapshotBytes = 0, snapshotNs = 0;
    int snapshotRegions = 0, snapshotFailures = 0;
    int passes = 0, skips = 0;
    qint64 restoreNs = 0;
    qint64 kernelMin = -1, kernelMedian = -1, kernelMax = -1;
    // Snapshot stores and chunks (format 4). -1: not recorded (an older file, or no snapshot): shown as "—".
    int store = -1;    ///< rs::ipc::SnapshotStore code (enum `snapshot_store`: host, device, mixed)
    int hashPath = -1; ///< rs::ipc::ChunkHashPath code (`chunk_hash_path`: none = full restore, device, host)
    int hostPinned = -1;                     ///< 1: the host store was page-locked, 0 pageable
    qint64 hostBytes = -1, deviceBytes = -1; ///< snapshot bytes placed in the host / device store
    qint64 snapshotHashNs = -1;              ///< hashing of the snapshot's chunks
    qint64 snapshotChunks = -1;              ///< chunks the regions split into (0: not hashed)
    /// The window's fence wait before its snapshot (snapshots.fence_wait_ns, format 5), ns; -1: not recorded.
    qint64 fenceWaitNs = -1;
    /// How long the replay window held the dispatch (dispatches.window_ns, format 5 and later): from its
    /// first packet to the release after the final restore, ns; -1: no window recorded.
    qint64 windowNs = -1;
    // Sums over the dispatch's restores (RestoreRow, final included; -1 when none was recorded).
    int restores = 0;
    qint64 movedHost = -1, movedDevice = -1; ///< bytes copied back over the host link / inside the device
    qint64 dirtyChunks = -1, comparedChunks = -1, missedChunks = -1;
    qint64 restoreHashNs = -1; ///< hashing before the restores
    /// Bytes full restores would have moved: footprint (snapshot bytes) × restores; -1 without restores.
    qint64 fullRestoreBytes() const { return restores > 0 ? snapshotBytes * restores : -1; }
    /// movedHost + movedDevice, -1 without restores.
    qint64 movedBytes() const { return restores > 0 ? movedHost + movedDevice : -1; }
    bool replayed() const { return decision == int(rs::ipc::DispatchDecision::replayed); }
    /// The AQL packet's launch shape: "grid X×Y×Z, workgroup X×Y×Z" (work-items).
    QString launchShape() const;
    /// The snapshot went to store `s` (false while not recorded).
    bool storedIn(rs::ipc::SnapshotStore s) const { return store == int(s); }
};

/// The restores of a set of dispatches summed (format 4; dispatches without restores count nothing): what the
/// summary page and `replayscope --summary` print. Bytes, chunk counts.
struct RestoreTotals {
    qint64 restores = 0, fullBytes = 0, movedHost = 0, movedDevice = 0;
    qint64 dirtyChunks = 0, comparedChunks = 0, missedChunks = 0;
    /// Dispatches whose snapshot used each store, by enum `snapshot_store` code.
    QMap<int, qint64> stores;
};
RestoreTotals sumRestores(const std::vector<DispatchRow>& dispatches);

/// The session totals the summary page and `replayscope --summary` print, computed once over the
/// dispatches: counts, snapshot bytes, regions skipped at restore, and (format 4) the restore totals.
struct SessionTotals {
    qint64 dispatches = 0, replayed = 0;
    qint64 snapshotBytes = 0; ///< sum of every dispatch's snapshot bytes
    qint64 skips = 0;         ///< regions skipped at restore
    RestoreTotals restores;   ///< sumRestores() of the same dispatches
    qint64 declined() const { return dispatches - replayed; }
};
SessionTotals sessionTotals(const std::vector<DispatchRow>& dispatches);

/// One restore of a dispatch's snapshot (format 4, the `restores` table): before pass `passIndex`
/// (1 .. passes - 1), or after the last pass (`finalRestore`, passIndex = passes run).
struct RestoreRow {
    int process = 1;
    qint64 dispatchId = 0;
    int passIndex = 0;
    bool finalRestore = false;
    qint64 bytesHost = 0, bytesDevice = 0; ///< copied back over the host link / inside the device
    qint64 hashNs = 0, restoreNs = 0;      ///< hashing of the current contents; the whole restore
    int regionsRestored = 0, dirtyChunks = 0, totalChunks = 0, missedChunks = 0;
};

/// A chunk a dirty restore left different from the snapshot (format 4, `restore_misses`: found by the
/// fidelity check and copied back afterwards).
struct RestoreMissRow {
    int process = 1;
    qint64 dispatchId = 0;
    int passIndex = 0;
    qint64 address = 0, size = 0, allocationId = 0;
};

/// A hardware counter's value in one pass of a dispatch (format 7, `pass_counter_values`).
struct CounterValueRow {
    int process = 1;
    qint64 dispatchId = 0;
    int passIndex = 0;
    QString kernel;  ///< the dispatch's kernel name as shown (model/KernelName.h; empty when unknown)
    QString counter; ///< the catalogue's name: "SQ_WAVES"
    QString unit;    ///< "waves", "instructions", ...
    quint64 value = 0;
};

/// A hardware counter's value in a dispatch (format 7), indexed by dispatch row
/// (SessionData::dispatchCounters): which counter of SessionData::counterNames, collected in which pass.
struct DispatchCounterValue {
    int counter = 0;   ///< index into SessionData::counterNames
    int passIndex = 0; ///< the pass that collected it
    quint64 value = 0;
};

/// A region of a mixed snapshot and the store it went to (format 4, `snapshot_placements`).
struct PlacementRow {
    int process = 1;
    qint64 dispatchId = 0, address = 0, size = 0;
    int store = int(rs::ipc::SnapshotStore::host); ///< rs::ipc::SnapshotStore code: host or device
};

struct PassRow {
    int process = 1;
    qint64 dispatchId = 0;
    int index = 0;
    qint64 tsNs = 0, startTick = 0, endTick = 0, restoreNs = 0, bytesRestored = 0;
    int regionsRestored = 0, skips = 0;
    int fidelity = rs::ipc::kFidelityNotChecked; ///< kFidelityNotChecked, kFidelityDiffered (from pass 1),
                                                 ///< kFidelityMatched
    int restore = -1; ///< index in SessionData::restores of the restore before this pass, -1 none
    bool fidelityChecked() const { return fidelity != rs::ipc::kFidelityNotChecked; }
    bool differed() const { return fidelity == rs::ipc::kFidelityDiffered; }
};

/// A restore skip (pass >= 0) or a snapshot failure (pass = -1), reason code of its own enum; or
/// (fidelityMismatch) a region whose hash after `pass` differed from pass 1; or (restoreFailure) a
/// region the restore before pass `pass` could not write back (`reason` = its region kind): it holds
/// the output of pass `pass - 1` (docs/replay-failures.md#failed-restore).
struct SkipRow {
    int process = 1;
    qint64 dispatchId = 0;
    int pass = 0;
    qint64 address = 0, size = 0, allocationId = 0;
    int reason = 0;
    bool fidelityMismatch = false;
    bool restoreFailure = false;
    int attempts = 0;         ///< copies the restore made (restoreFailure)
    bool restoreMiss = false; ///< a chunk the dirty restore before `pass` missed (RestoreMissRow)
};

/// An hsa_amd_memory_async_copy that met a replay window.
struct AsyncCopyRow {
    int process = 1;
    qint64 seq = 0, tsNs = 0, agent = 0, dst = 0, src = 0, size = 0, dispatchId = 0, waitedNs = 0;
    int outcome = int(rs::ipc::AsyncCopyOutcome::not_fenced); ///< AsyncCopyOutcome code: not fenced, waited,
                                                              ///< timed out, held
    bool timedOut() const { return outcome == int(rs::ipc::AsyncCopyOutcome::timed_out); }
};

struct AllocationRow {
    int process = 1;
    qint64 id = 0, allocSeq = 0, allocNs = 0, address = 0, size = 0, agent = 0;
    int api = int(rs::ipc::AllocationApi::memory_pool_allocate); ///< rs::ipc::AllocationApi code
    int pointerType = int(rs::ipc::PointerType::unknown);        ///< rs::ipc::PointerType code
    /// rs::ipc::AllocationClass code: tracked, else the exclusion reason.
    int classification = int(rs::ipc::AllocationClass::tracked);
    quint32 poolFlags = 0;
    qint64 freeSeq = -1, freeNs = -1; ///< -1 while live
    int captured = 0;                 ///< snapshots whose inventory held it
    int skipped = 0;                  ///< restore skips naming it
    bool tracked() const { return classification == int(rs::ipc::AllocationClass::tracked); }
};

struct ModuleVariableRow {
    int process = 1;
    qint64 seq = 0, tsNs = 0, executable = 0, agent = 0, address = 0, size = 0;
    QString symbol;
    int status = 0; ///< rs::ipc::VariableStatus code: captured, else why it was skipped
    bool captured() const { return status == int(rs::ipc::VariableStatus::captured); }
};

struct WarningRow {
    int process = 1;
    qint64 seq = 0, tsNs = 0, dispatchId = 0;
    int code = 0; ///< rs::ipc::WarningCode code
    QString text;
};

/// Inventory regions of every (process, agent, generation), column-wise, in that order, then by idx.
struct RegionColumns {
    std::vector<int> process;
    std::vector<qint64> agent, generation, address, size, allocationId;
    std::vector<quint32> index;
    std::vector<quint8> kind;                    ///< rs::ipc::RegionKind code
    QHash<InventoryKey, QPair<int, int>> ranges; ///< (process, agent, generation) -> (first, count)
};

/// Everything the inspector shows of one session.
struct SessionData : QSharedData {
    SessionInfo info;
    qint64 dataVersion = 0;
    /// The load's second phase (model/SessionLoader.h, loadDetails) has run: restores, snapshot stores,
    /// restore misses, placements and the inventory regions are here. Before it, the first paint shows
    /// "…" for what they hold.
    bool regionsLoaded = false;
    QHash<QString, QHash<int, QString>> enumNames; ///< enum -> code -> name (from `enum_names`)
    QVector<ProcessInfo> processes;                ///< by process index (processes[i].process == i + 1)
    QVector<AgentInfo> agents; ///< of every process (a handle may repeat across processes)
    /// The kernels' names as shown (model/KernelName.h: demangled without ".kd" unless the style says
    /// otherwise), indexed by DispatchRow::kernel; kernelSymbols holds the symbols as stored, same index.
    QStringList kernelNames;
    QStringList kernelSymbols;
    std::vector<DispatchRow> dispatches;    ///< by process, then dispatch id
    QHash<ProcessKey, int> dispatchRow;     ///< (process, dispatch id) -> row
    std::vector<PassRow> passes;            ///< grouped by dispatch row, then pass index
    std::vector<int> passBegin;             ///< dispatch row -> first pass (size rows + 1)
    std::vector<SkipRow> skips;             ///< restore skips and snapshot failures by dispatch row
    std::vector<int> skipBegin;             ///< dispatch row -> first skip (size rows + 1)
    std::vector<SkipRow> mismatches;        ///< fidelity mismatches by dispatch row, then pass
    std::vector<int> mismatchBegin;         ///< dispatch row -> first mismatch (size rows + 1)
    std::vector<AllocationRow> allocations; ///< by allocation sequence
    std::vector<ModuleVariableRow> moduleVariables;
    std::vector<WarningRow> warnings;
    std::vector<AsyncCopyRow> asyncCopies; ///< by sequence (format 2)
    /// Format 4: the file has the `restores` table (older files show "—" for every restore figure); its
    /// rows and the snapshots' store columns come with SessionLoader's first phase.
    bool hasRestoreRecords = false;
    /// The restore misses and placements are loaded (SessionLoader's second phase).
    bool detailsLoaded = false;
    std::vector<RestoreRow> restores;           ///< grouped by dispatch row, then pass index (final last)
    std::vector<int> restoreBegin;              ///< dispatch row -> first restore (size rows + 1)
    std::vector<RestoreMissRow> restoreMisses;  ///< by process, dispatch, pass, address
    std::vector<PlacementRow> placements;       ///< regions of mixed snapshots, by process, dispatch, address
    std::vector<CounterValueRow> counterValues; ///< format 7: by kernel, counter, process, dispatch
    /// Format 7: the counters the session holds values of, by name (the dispatch and pass tables' counter
    /// columns), and the unit of each.
    QStringList counterNames, counterUnits;
    /// The counter values by dispatch row, then counter, then pass (built by the loader from counterValues).
    std::vector<DispatchCounterValue> dispatchCounters;
    /// Dispatch row -> first of its dispatchCounters (size rows + 1); empty when there is no counter value.
    std::vector<int> counterBegin;
    /// The derived metrics the run asked for (the optional `derived_counters` table, docs/counters.md
    /// "Derived metrics"): those this build defines, by name (the dispatch table's derived columns after
    /// its counter columns), and the unit of each. Empty without the table.
    QStringList derivedNames, derivedUnits;
    /// Metric m of derivedNames for dispatch row r at [r * derivedNames.size() + m], computed by the loader
    /// from the row's counter values; NaN where it has no value (an input not collected, a zero divisor).
    /// Empty when there is no derived metric or no counter value.
    std::vector<double> derivedValues;
    RegionColumns regions;
    /// Values no recording produces (model/ImplausibleValues.h), found by the loader over what it read:
    /// negative or out-of-range times, sizes and counts. Shown as stored, flagged in the banner and the
    /// terminal summary.
    ImplausibleValues implausible;
};

/// Shared read-only handle on a SessionData; copying is cheap, the data never changes.
class SessionSnapshot {
  public:
    SessionSnapshot() = default;
    explicit SessionSnapshot(SessionData* data) : d_(data) {}
    bool isNull() const { return !d_; }
    const SessionData& data() const { return *d_; }
    const SessionData* operator->() const { return d_.constData(); }

    /// Name of `code` in enum `kind` (from the file's `enum_names`), or "code N" when unknown.
    QString enumName(const QString& kind, int code) const;
    /// Display name of the agent `handle` of process `process` ("gfx90a #1": its name and its index among
    /// that process's agents, in the order reported); the handle in hex when the agent was not reported.
    /// Handles repeat across the processes of a file and across the ranks of a job: an agent is always
    /// named with its process.
    QString agentName(int process, qint64 handle) const;
    /// agentName, preceded by "pid N · " when the session has several processes: the label of an agent
    /// where no process column stands beside it (filters, chart series, summaries).
    QString agentLabel(int process, qint64 handle) const;
    /// The process with index `process` (1-based), null when there is none.
    const ProcessInfo* process(int process) const;
    /// "pid N" of process `process` ("process N" when unknown): what the tables' process column shows.
    QString processName(int process) const;
    /// Index in `agents` of the agent `handle` of process `process`, -1 if unknown.
    int agentIndex(int process, qint64 handle) const;
    /// Row of dispatch `dispatchId` of process `process` in `dispatches`, -1 if unknown.
    int dispatchRow(int process, qint64 dispatchId) const;
    /// The value of counter `counter` (index into counterNames) of dispatch row `row`, collected in pass
    /// `pass` (-1: in whichever pass collected it first); nullptr when it was not collected there.
    const DispatchCounterValue* counterValue(int row, int counter, int pass = -1) const;
    /// The value of derived metric `metric` (index into derivedNames) of dispatch row `row`; nullopt when
    /// it has none (docs/counters.md, "Derived metrics").
    std::optional<double> derivedValue(int row, int metric) const;
    /// Store of the region at `address` of dispatch row `row`'s snapshot: the snapshot's store, or for a
    /// mixed one the placement of that region; -1 when not recorded.
    int regionStore(int row, qint64 address) const;

  private:
    QExplicitlySharedDataPointer<const SessionData> d_;
};

} // namespace rs::app

Q_DECLARE_METATYPE(rs::app::SessionSnapshot)
