// Fixed-size event records of the ReplayScope session protocol (docs/session-schema.md).
//
// Every record is trivially copyable and has a bounded size, so that an application thread only copies
// it into the emitter's queue. Variable-length data is split: text travels once as an interned string
// (StringRecord, id -> text) and is referenced by id; region lists travel as one record per region,
// per snapshot failure and per restore skip, tied to their owner by dispatch id or (agent, generation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace rs::ipc {

/// Wire protocol version: carried in every frame header, in Hello and in SessionStart.
/// Version 2 added fidelity_mismatch and async_copy frames and Pass.fidelity; a collector of version 2
/// also accepts version-1 frames (a subset), e.g. from an older spool.
inline constexpr std::uint16_t kProtocolVersion = 2;
/// Oldest frame version this build still decodes.
inline constexpr std::uint16_t kMinProtocolVersion = 1;

/// Longest interned text kept, in bytes. Longer text is cut to this length (at a byte boundary; the
/// original length is kept in StringRecord::original_length and stored in the session).
inline constexpr std::size_t kMaxStringBytes = 400;

/// Id of an interned string; 0 means "no string".
using StringId = std::uint32_t;

/// Frame / event types. The values are the frame header's `type` field and the `event_type` codes
/// stored in the session file; never renumber.
enum class EventType : std::uint16_t {
    hello = 1,
    session_start = 2,
    string = 3,
    agent = 4,
    allocation = 5,
    free = 6,
    executable_loaded = 7,
    module_variable = 8,
    dispatch = 9,
    inventory = 10,
    inventory_region = 11,
    snapshot = 12,
    snapshot_failure = 13,
    pass = 14,
    restore_skip = 15,
    warning = 16,
    session_end = 17,
    fidelity_mismatch = 18, ///< protocol 2
    async_copy = 19,        ///< protocol 2
};
/// One past the largest EventType value (size of per-type count arrays, index = value).
inline constexpr std::size_t kEventTypeSlots = 20;

/// Lower-case name of an event type ("dispatch", ...); "unknown" for values outside the enum.
std::string_view eventTypeName(EventType type) noexcept;

enum class DeviceType : std::uint8_t { cpu = 0, gpu = 1, dsp = 2, other = 3 };

/// Entry point an allocation came through.
enum class AllocationApi : std::uint8_t {
    memory_pool_allocate = 0,
    memory_allocate = 1,
    vmem_map = 2, ///< a mapping made by hsa_amd_vmem_map (its unmap is a FreeRecord)
};

/// `hsa_amd_pointer_type_t` as reported by `hsa_amd_pointer_info` (unknown when not queried).
enum class PointerType : std::uint8_t { unknown = 0, hsa = 1, locked = 2, graphics = 3, ipc = 4 };

/// Tracking decision for an allocation (docs/mechanism.md#what-is-tracked).
enum class AllocationClass : std::uint8_t {
    tracked = 0,
    excluded_kernarg = 1,
    excluded_host = 2,
    excluded_fine_grained = 3,
    excluded_executable = 4,
    excluded_not_owned = 5,
    excluded_unknown_pointer = 6,
};

/// Fate of a module-scope variable found at snapshot time.
enum class VariableStatus : std::uint8_t {
    captured = 0,
    skipped_zero_address = 1,
    skipped_zero_size = 2,
    skipped_too_large = 3, ///< over the 1 GiB sanity cap
};

/// What the engine did with a dispatch: replayed, or declined with the reason.
enum class DispatchDecision : std::uint8_t {
    replayed = 0,
    declined_multi_packet = 1,
    declined_graph_launch = 2,
    declined_snapshot_incomplete = 3,
    declined_footprint_budget = 4,
    declined_drain_timeout = 5,
    declined_filtered = 6,
    declined_restore_failed = 7, ///< a restore failed: remaining passes not run (docs/replay-failures.md)
    declined_runtime_kernel = 8, ///< one of the HIP runtime's own blit kernels (docs/replay-failures.md)
    declined_unrestorable_memory = 9, ///< an argument points into host or fine-grained memory
    declined_pass_timeout = 10,       ///< a pass missed REPLAYSCOPE_PASS_TIMEOUT_MS; no further passes
    declined_no_private_queue = 11,   ///< the private queue could not be created or stayed full
    declined_out_of_memory = 12,      ///< the engine's own bookkeeping threw std::bad_alloc
    declined_signal_unavailable = 13, ///< hsa_signal_create failed for a window signal
};

/// Kind of a captured region.
enum class RegionKind : std::uint8_t { allocation = 0, module_variable = 1 };

/// Why a snapshot (or one of its regions) failed. The first two name a region; the last two are
/// whole-snapshot conditions (address 0).
enum class SnapshotFailureReason : std::uint8_t {
    host_allocation = 0, ///< std::bad_alloc for the host copy
    copy_failed = 1,     ///< device-to-host copy failed
    inventory_reserve = 2,
    symbol_enumeration = 3,
};

/// Why a region was not restored before a pass.
enum class RestoreSkipReason : std::uint8_t { freed = 0, reallocated = 1, copy_failed = 2 };

/// What happened to an hsa_amd_memory_async_copy that touched an agent inside a replay window.
enum class AsyncCopyOutcome : std::uint8_t {
    not_fenced = 0, ///< let through without waiting
    waited = 1,     ///< held until the replay window ended
    timed_out = 2,  ///< held, then let through when the wait timed out
    held = 3,       ///< made to depend on the window's release signal (the host thread not blocked)
};

/// Result of a pass's fidelity check (PassRecord::fidelity).
inline constexpr std::int8_t kFidelityNotChecked = -1;
inline constexpr std::int8_t kFidelityDiffered = 0;
inline constexpr std::int8_t kFidelityMatched = 1;

/// Warning category.
enum class WarningCode : std::uint16_t {
    general = 0,
    graph_launch = 1,
    snapshot_incomplete = 2,
    restore_failed = 3,
    fidelity_mismatch = 4,
    configuration = 5,
    emitter = 6,                 ///< raised by the emitter itself (e.g. queue overflow to the spool)
    drain_timeout = 7,           ///< earlier work did not drain within REPLAYSCOPE_DRAIN_TIMEOUT_MS
    pass_timeout = 8,            ///< a pass did not complete within REPLAYSCOPE_PASS_TIMEOUT_MS
    no_private_queue = 9,        ///< the private queue could not be created or stayed full
    footprint_budget = 10,       ///< a snapshot would exceed REPLAYSCOPE_HOST_MEMORY_BUDGET
    signal_unavailable = 11,     ///< hsa_signal_create failed
    out_of_memory = 12,          ///< std::bad_alloc in the engine's bookkeeping
    queue_intercept_failed = 13, ///< hsa_amd_queue_intercept_register failed: queue not replayed
    internal_error = 14,         ///< an exception the engine caught and swallowed
};

/// First frame of a connection: authenticates the target with the session token.
struct HelloRecord {
    static constexpr std::size_t kTokenBytes = 64; ///< hex characters of a session token
    char token[kTokenBytes];
    std::uint32_t pid;
    std::uint16_t protocol_version;
};

struct SessionStartRecord {
    std::uint32_t pid;
    std::uint16_t protocol_version;
    std::uint64_t wall_clock_ns; ///< CLOCK_REALTIME at start, ns since the epoch
    StringId executable;
    StringId argv; ///< arguments joined by single spaces
    StringId hostname;
    StringId engine_version;
    StringId configuration; ///< "KEY=value" lines of the replay configuration
};

struct StringRecord {
    StringId id;
    std::uint32_t original_length; ///< bytes before truncation
    std::uint16_t length;          ///< bytes in text (<= kMaxStringBytes)
    char text[kMaxStringBytes];
    std::string_view view() const noexcept { return {text, length}; }
};

struct AgentRecord {
    std::uint64_t handle;
    StringId name;
    StringId isa;
    DeviceType device_type;
    std::uint32_t node;
};

/// An allocation, or (api vmem_map) a virtual-memory mapping: then address/size are the mapped range,
/// agent the agent owning the physical handle and pool_flags the flags of its pool.
struct AllocationRecord {
    std::uint64_t id; ///< engine-assigned, unique per session (an address can be reused; an id never)
    std::uint64_t address;
    std::uint64_t size;       ///< bytes
    std::uint64_t agent;      ///< owner agent handle (0 when unknown)
    std::uint32_t pool_flags; ///< the pool's HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_* bits
    AllocationApi api;
    PointerType pointer_type;
    AllocationClass classification;
};

struct FreeRecord {
    std::uint64_t allocation_id;
    std::uint64_t address;
};

struct ExecutableRecord {
    std::uint64_t executable;  ///< hsa_executable_t handle
    std::uint64_t code_object; ///< loaded code object handle (0 when not known)
    std::uint64_t agent;
    StringId uri; ///< code object URI or path
};

struct ModuleVariableRecord {
    std::uint64_t executable;
    std::uint64_t agent;
    std::uint64_t address;
    std::uint64_t size; ///< bytes
    StringId symbol;
    VariableStatus status;
};

struct DispatchRecord {
    std::uint64_t id; ///< engine-assigned, unique per session
    std::uint64_t agent;
    std::uint64_t queue;
    std::uint64_t kernel_object;
    StringId kernel_name;
    std::uint32_t grid[3];
    std::uint16_t workgroup[3];
    DispatchDecision decision;
};

/// An agent's region inventory at one generation; followed by `regions` InventoryRegionRecords.
struct InventoryRecord {
    std::uint64_t agent;
    std::uint64_t generation;
    std::uint64_t bytes; ///< sum of region sizes
    std::uint32_t regions;
};

struct InventoryRegionRecord {
    std::uint64_t agent;
    std::uint64_t generation;
    std::uint64_t address;
    std::uint64_t size;
    std::uint64_t allocation_id; ///< 0 for module variables
    std::uint32_t index;         ///< 0-based position in the inventory
    RegionKind kind;
};

struct SnapshotRecord {
    std::uint64_t dispatch_id;
    std::uint64_t agent;
    std::uint64_t generation; ///< inventory generation the snapshot copied
    std::uint64_t bytes;      ///< bytes copied to the host
    std::uint64_t duration_ns;
    std::uint32_t regions;  ///< regions copied
    std::uint32_t failures; ///< SnapshotFailureRecords that follow
    bool ok;
};

struct SnapshotFailureRecord {
    std::uint64_t dispatch_id;
    std::uint64_t address; ///< 0 for whole-snapshot conditions
    std::uint64_t size;
    std::uint64_t allocation_id;
    SnapshotFailureReason reason;
};

struct PassRecord {
    std::uint64_t dispatch_id;
    std::uint64_t start_tick; ///< kernel start, agent timestamp ticks
    std::uint64_t end_tick;
    std::uint64_t restore_ns; ///< restore before this pass (0 for pass 0)
    std::uint64_t bytes_restored;
    std::uint32_t index; ///< 0-based pass index
    std::uint32_t regions_restored;
    std::uint32_t skips; ///< RestoreSkipRecords for this pass
    /// kFidelityNotChecked (-1), kFidelityDiffered (0: output differed from pass 1, followed by
    /// FidelityMismatchRecords) or kFidelityMatched (1). Protocol 1 frames decode as -1.
    std::int8_t fidelity;
};

/// One region whose hash after a pass differed from the hash after pass 1 (index 0).
struct FidelityMismatchRecord {
    std::uint64_t dispatch_id;
    std::uint32_t pass_index;
    std::uint64_t address;
    std::uint64_t size;
    std::uint64_t allocation_id; ///< 0 for module variables
};

/// An hsa_amd_memory_async_copy that touched an agent inside a replay window, and how long it was held.
struct AsyncCopyRecord {
    std::uint64_t agent; ///< handle of the agent whose replay window it met
    std::uint64_t dst;
    std::uint64_t src;
    std::uint64_t size;        ///< bytes
    std::uint64_t dispatch_id; ///< dispatch of the replay window it waited for (0 if none)
    std::uint64_t waited_ns;
    AsyncCopyOutcome outcome;
};

struct RestoreSkipRecord {
    std::uint64_t dispatch_id;
    std::uint64_t address;
    std::uint64_t size;
    std::uint64_t allocation_id;
    std::uint32_t pass_index;
    RestoreSkipReason reason;
};

struct WarningRecord {
    std::uint64_t dispatch_id; ///< 0 when not about a dispatch
    StringId text;
    WarningCode code;
};

/// Last event of a session: how many events of each type the emitter accepted (index = EventType),
/// how many of those went to the spool instead of the socket, and the last sequence number used.
struct SessionEndRecord {
    std::uint64_t counts[kEventTypeSlots];
    std::uint64_t spooled;
    std::uint64_t last_sequence;
};

/// One event: type, per-connection sequence number (1-based), CLOCK_MONOTONIC timestamp (ns) and the
/// payload of that type. Plain data; copy with memcpy.
struct Record {
    EventType type;
    std::uint64_t sequence;
    std::uint64_t timestamp_ns;
    union {
        HelloRecord hello;
        SessionStartRecord session_start;
        StringRecord string;
        AgentRecord agent;
        AllocationRecord allocation;
        FreeRecord free;
        ExecutableRecord executable;
        ModuleVariableRecord module_variable;
        DispatchRecord dispatch;
        InventoryRecord inventory;
        InventoryRegionRecord inventory_region;
        SnapshotRecord snapshot;
        SnapshotFailureRecord snapshot_failure;
        PassRecord pass;
        RestoreSkipRecord restore_skip;
        WarningRecord warning;
        SessionEndRecord session_end;
        FidelityMismatchRecord fidelity_mismatch;
        AsyncCopyRecord async_copy;
    };
};
static_assert(std::is_trivially_copyable_v<Record>);

/// CLOCK_MONOTONIC now, in ns (the timestamp clock of every record).
std::uint64_t monotonicNs() noexcept;
/// CLOCK_REALTIME now, in ns since the epoch.
std::uint64_t wallClockNs() noexcept;

} // namespace rs::ipc
