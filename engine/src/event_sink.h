// SPDX-License-Identifier: MIT
// What the engine reports, one virtual per event kind, in the session protocol's vocabulary: the enums
// and the fixed-size payloads are the wire's own (ipc/include/replayscope/ipc/records.h); only events
// // that carry text have an engine type (text as string_view, interned by the emitter sink), and PassEvent
// (its fidelity defaults to "not checked"). Implementations must be thread-safe, must not throw and must
// never block for long: they are called from application threads, inside allocation wrappers and
// intercept handlers.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <replayscope/ipc/records.h>

namespace rs::engine {

// The engine speaks the wire's vocabulary: every enum is the session protocol's own
// (ipc/include/replayscope/ipc/records.h), so a value means the same in the engine, on the wire, in the
// session file and in the inspector.
using AllocationClass = ipc::AllocationClass;
using AllocationApi = ipc::AllocationApi;
using PointerType = ipc::PointerType;
using VariableStatus = ipc::VariableStatus;
using DispatchDecision = ipc::DispatchDecision;
using RegionKind = ipc::RegionKind;
using SnapshotFailureReason = ipc::SnapshotFailureReason;
using RestoreSkipReason = ipc::RestoreSkipReason;
using AsyncCopyOutcome = ipc::AsyncCopyOutcome;
using WarningCode = ipc::WarningCode;
using DeviceType = ipc::DeviceType;
using SnapshotStore = ipc::SnapshotStore;
using ChunkHashPath = ipc::ChunkHashPath;

/// Name of an enum value from its one list (session vocabulary.h): "drain-timeout", "kernarg", ... The
/// same names are in the session file's enum_names table and in the inspector.
template <typename E>
constexpr std::string_view name(E v) noexcept {
    return ipc::enum_name(v);
}

// Fixed-size payloads: the wire records themselves (same field names and order).
/// An allocation or (api vmem_map) a mapping: address/size the range, agent/pool_flags its owner's.
using AllocationEvent = ipc::AllocationRecord;
using FreeEvent = ipc::FreeRecord;
/// One region of an agent's snapshot inventory.
using InventoryRegion = ipc::InventoryRegion;
using SnapshotEvent = ipc::SnapshotRecord;
/// address 0 for whole-snapshot conditions.
using SnapshotFailureEvent = ipc::SnapshotFailureRecord;
/// One region whose hash after a pass differed from its hash after pass 1.
using FidelityMismatchEvent = ipc::FidelityMismatchRecord;
/// An hsa_amd_memory_async_copy that touched an agent inside a replay window.
using AsyncCopyEvent = ipc::AsyncCopyRecord;
using RestoreSkipEvent = ipc::RestoreSkipRecord;
/// A region a restore could not write back: what state it holds (docs/replay-failures.md#failed-restore).
using RestoreFailureEvent = ipc::RestoreFailureRecord;
/// One region of a mixed snapshot and the store it went to (after its snapshot()).
using SnapshotPlacementEvent = ipc::SnapshotPlacementRecord;
/// One restore: before pass pass_index >= 1, or after the last pass (final_restore).
using RestoreEvent = ipc::RestoreRecord;
/// A chunk a dirty restore missed (fidelity check), copied back afterwards.
using RestoreMissEvent = ipc::RestoreMissRecord;

/// A hardware counter's value in one pass of a dispatch: the sum over its block instances.
using CounterValueEvent = ipc::CounterValueRecord;
/// An agent of the runtime, reported once per OnLoad (a new hsa_init reports the new handles).
struct AgentEvent {
    uint64_t handle;
    std::string_view name;  ///< HSA_AGENT_INFO_NAME
    std::string_view isa;   ///< HSA_ISA_INFO_NAME of the agent's first ISA ("" when none)
    DeviceType device_type; ///< from hsa_device_type_t (other for values outside CPU, GPU, DSP)
    uint32_t node;          ///< HSA_AGENT_INFO_NODE
};
/// One loaded code object of a frozen executable (loader extension,
/// docs/rocm-behaviour.md#module-scope-variables).
struct ExecutableEvent {
    uint64_t executable;
    uint64_t code_object; ///< hsa_loaded_code_object_t handle (0 when the loader reported none)
    uint64_t agent;       ///< agent the code object is loaded for
    std::string_view uri; ///< HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI
    uint32_t kernels;     ///< kernel symbols of the executable indexed for names
};
/// An agent's inventory at one generation; sent before the first snapshot that references it.
struct InventoryEvent {
    uint64_t agent;
    uint64_t generation;
    const InventoryRegion* regions;
    size_t count;
};
struct ModuleVariableEvent {
    uint64_t executable;
    uint64_t agent;
    uint64_t address;
    uint64_t size;
    std::string_view symbol;
    VariableStatus status;
};
struct DispatchEvent {
    uint64_t id;
    uint64_t agent;
    uint64_t queue;
    uint64_t kernel_object;
    std::string_view kernel_name;
    uint32_t grid[3];
    uint16_t workgroup[3];
    DispatchDecision decision;
};
/// One pass (ipc::PassRecord's fields; a type of its own so that fidelity defaults to -1, which a
/// record in the wire's union cannot).
struct PassEvent {
    uint64_t dispatch_id;
    uint64_t start_tick;
    uint64_t end_tick;
    uint64_t restore_ns;
    uint64_t bytes_restored;
    uint32_t index; ///< 0-based
    uint32_t regions_restored;
    uint32_t skips;
    /// -1 not checked, 0 output differed from pass 1 (fidelity_mismatch() per region follows), 1 matched.
    int8_t fidelity = -1;
};

/// Receiver of engine events.
class EventSink {
  public:
    virtual ~EventSink() = default;
    virtual void session_start(std::string_view configuration) noexcept = 0;
    virtual void allocation(const AllocationEvent& e) noexcept = 0;
    virtual void free(const FreeEvent& e) noexcept = 0;
    virtual void agent(const AgentEvent& e) noexcept = 0;
    virtual void inventory(const InventoryEvent& e) noexcept = 0;
    virtual void executable(const ExecutableEvent& e) noexcept = 0;
    virtual void module_variable(const ModuleVariableEvent& e) noexcept = 0;
    virtual void dispatch(const DispatchEvent& e) noexcept = 0;
    virtual void snapshot(const SnapshotEvent& e) noexcept = 0;
    virtual void snapshot_failure(const SnapshotFailureEvent& e) noexcept = 0;
    virtual void pass(const PassEvent& e) noexcept = 0;
    virtual void restore_skip(const RestoreSkipEvent& e) noexcept = 0;
    virtual void warning(WarningCode code, uint64_t dispatch_id, std::string_view text) noexcept = 0;
    /// Protocol 2 events; no-op defaults so that sinks that do not record them need not override.
    virtual void fidelity_mismatch(const FidelityMismatchEvent&) noexcept {}
    virtual void async_copy(const AsyncCopyEvent&) noexcept {}
    /// Protocol 3: one per region that MemorySnapshotter::restore gave up after its retries; no-op default.
    virtual void restore_failure(const RestoreFailureEvent&) noexcept {}
    /// Protocol 5, no-op defaults: one per region of a mixed snapshot, after its snapshot(); one per
    /// restore (before every pass >= 1 and after the last); one per chunk a dirty restore missed.
    virtual void snapshot_placement(const SnapshotPlacementEvent&) noexcept {}
    virtual void restore(const RestoreEvent&) noexcept {}
    virtual void restore_miss(const RestoreMissEvent&) noexcept {}
    /// One counter's value in one pass (docs/counters.md); no-op default.
    virtual void counter_value(const CounterValueEvent&) noexcept {}
    /// Ends the session, flushing, bounded (at process exit, from the engine's static teardown):
    /// `internal_errors` is Engine::internal_errors, the engine-internal errors caught and swallowed;
    /// `exit_status` the value the process passed to exit() as its parent sees it (0..255), -1 when
    /// unknown. Both go into the session-end record and the log.
    virtual void finish(uint64_t internal_errors, int32_t exit_status) noexcept = 0;
    /// The process is about to die (SIGABRT): waits at most `timeout` for what was queued to go out,
    /// without ending the session. Async-signal-safe in every implementation. No-op by default.
    virtual void flush_before_abort(std::chrono::milliseconds /*timeout*/) noexcept {}
};

/// Discards everything (no collector, no log).
std::unique_ptr<EventSink> make_null_sink();
/// One line per event on stderr, "replayscope: <kind> key=value ..." (format in docs/replay-failures.md).
std::unique_ptr<EventSink> make_log_sink();
/// Sends to the session collector through rs::ipc::Emitter; nullptr when the emitter is not built in or
/// has nowhere to send (REPLAYSCOPE_SOCKET / REPLAYSCOPE_SPOOL unset).
std::unique_ptr<EventSink> make_emitter_sink();
/// Forwards to both (either may be null).
std::unique_ptr<EventSink> make_tee_sink(std::unique_ptr<EventSink> a, std::unique_ptr<EventSink> b);

} // namespace rs::engine
