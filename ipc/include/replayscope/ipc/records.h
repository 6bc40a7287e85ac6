// SPDX-License-Identifier: MIT
// Fixed-size event records of the ReplayScope session protocol (docs/session-schema.md).
//
// Every record is trivially copyable and has a bounded size, so that an application thread only copies
// it into the emitter's queue. Variable-length data is split: text travels once as an interned string
// (StringRecord, id -> text) and is referenced by id; region lists travel as one record per region,
// per snapshot failure, per restore skip and per restore failure, tied to their owner by dispatch id
// or (agent, generation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "replayscope/session/vocabulary.h"

namespace rs::ipc {

/// Wire protocol version: carried in every frame header, in Hello and in SessionStart.
/// Version 2 added fidelity_mismatch and async_copy frames and Pass.fidelity; version 3 added
/// SessionEnd.internal_errors, the restore_failure frame and these values of vocabulary.h: decisions
/// 10-13, async copy outcome held, warning codes 7-14. A collector accepts every version from
/// kMinProtocolVersion on (older frames are a subset; absent fields decode as their defaults), e.g. from
/// an older spool. Version 4 added Hello.ppid and Hello.instance (the process identity),
/// SessionEnd.exit_status, the header rules (reserved 0; sequence 0 only for Hello, else 1 <= sequence <
/// 2^48) and the sequence window; spool files then start each emitter instance's frames with a Hello.
/// Version 5 added the store and chunk fields of Snapshot, the snapshot_placement, restore and
/// restore_miss frames, SnapshotStore and ChunkHashPath and warning codes 15-17.
/// Version 6 added the frame checksum in the header word that was reserved (FrameHeader::checksum,
/// frame.h); the payloads are those of version 5.
inline constexpr std::uint16_t kProtocolVersion = 6;
/// Oldest frame version this build still decodes.
inline constexpr std::uint16_t kMinProtocolVersion = 1;

/// Largest step a process's sequence numbers may take past the highest one the collector has received
/// from it (protocol 4). The emitter never writes a record beyond it to the socket (it spools such a
/// record and everything after it); the collector and the spool importer reject a frame beyond it.
inline constexpr std::uint64_t kSequenceWindow = std::uint64_t{1} << 24;
/// Sequence numbers of non-Hello frames are below this (protocol 4 header rule).
inline constexpr std::uint64_t kMaxSequence = std::uint64_t{1} << 48;

/// Longest interned text kept, in bytes. Longer text is cut to this length (at a byte boundary; the
/// original length is kept in StringRecord::original_length and stored in the session).
inline constexpr std::size_t kMaxStringBytes = 400;

/// Id of an interned string; 0 means "no string".
using StringId = std::uint32_t;

/// Frame / event types (list RS_IPC_EVENT_TYPES of vocabulary.h). The values are the frame header's
/// `type` field and the `event_type` codes stored in the session file; never renumber.
enum class EventType : std::uint16_t { RS_IPC_EVENT_TYPES(RS_IPC_ENUMERATOR) };

/// Names of the event types in value order (kEventTypeNames[i].code == i + 1).
#define RS_IPC_EVENT_NAME(identifier, value, name) EnumName{value, name},
inline constexpr EnumName kEventTypeNames[] = {RS_IPC_EVENT_TYPES(RS_IPC_EVENT_NAME)};
#undef RS_IPC_EVENT_NAME
/// One past the largest EventType value (size of per-type count arrays, index = value).
inline constexpr std::size_t kEventTypeSlots = std::size(kEventTypeNames) + 1;
static_assert(
    [] {
        for (std::size_t i = 0; i < std::size(kEventTypeNames); ++i) {
            if (kEventTypeNames[i].code != static_cast<std::int64_t>(i + 1)) {
                return false;
            }
        }
        return true;
    }(),
    "RS_IPC_EVENT_TYPES: values 1, 2, 3, ...");

/// Lower-case name of an event type ("dispatch", ...; RS_IPC_EVENT_TYPES); "unknown" for values outside
/// the list.
constexpr std::string_view event_type_name(EventType type) noexcept {
    const auto code = static_cast<std::size_t>(type);
    return code >= 1 && code < kEventTypeSlots ? kEventTypeNames[code - 1].name : std::string_view("unknown");
}

enum class DeviceType : std::uint8_t { RS_IPC_DEVICE_TYPES(RS_IPC_ENUMERATOR) };

/// Entry point an allocation came through (vocabulary.h).
enum class AllocationApi : std::uint8_t { RS_IPC_ALLOCATION_APIS(RS_IPC_ENUMERATOR) };

/// `hsa_amd_pointer_type_t` as reported by `hsa_amd_pointer_info` (unknown when not queried).
enum class PointerType : std::uint8_t { RS_IPC_POINTER_TYPES(RS_IPC_ENUMERATOR) };

/// Tracking decision for an allocation (docs/mechanism.md#what-is-tracked).
enum class AllocationClass : std::uint8_t { RS_IPC_ALLOCATION_CLASSES(RS_IPC_ENUMERATOR) };

/// Fate of a module-scope variable found at snapshot time.
enum class VariableStatus : std::uint8_t { RS_IPC_VARIABLE_STATUSES(RS_IPC_ENUMERATOR) };

/// What the engine did with a dispatch: replayed, or declined with the reason (docs/replay-failures.md).
enum class DispatchDecision : std::uint8_t { RS_IPC_DISPATCH_DECISIONS(RS_IPC_ENUMERATOR) };

/// Kind of a captured region.
enum class RegionKind : std::uint8_t { RS_IPC_REGION_KINDS(RS_IPC_ENUMERATOR) };

/// Why a snapshot (or one of its regions) failed (vocabulary.h).
enum class SnapshotFailureReason : std::uint8_t { RS_IPC_SNAPSHOT_FAILURE_REASONS(RS_IPC_ENUMERATOR) };

/// Why a region was not restored before a pass.
enum class RestoreSkipReason : std::uint8_t { RS_IPC_RESTORE_SKIP_REASONS(RS_IPC_ENUMERATOR) };

/// What happened to an hsa_amd_memory_async_copy that touched an agent inside a replay window.
enum class AsyncCopyOutcome : std::uint8_t { RS_IPC_ASYNC_COPY_OUTCOMES(RS_IPC_ENUMERATOR) };

/// Where a snapshot's copy lives: host store, device store, or some regions in each (protocol 5).
enum class SnapshotStore : std::uint8_t { RS_IPC_SNAPSHOT_STORES(RS_IPC_ENUMERATOR) };

/// How a snapshot's chunk hashes were computed (protocol 5; none: not hashed, a full restore).
enum class ChunkHashPath : std::uint8_t { RS_IPC_CHUNK_HASH_PATHS(RS_IPC_ENUMERATOR) };

/// Result of a pass's fidelity check (PassRecord::fidelity).
inline constexpr std::int8_t kFidelityNotChecked = -1;
inline constexpr std::int8_t kFidelityDiffered = 0;
inline constexpr std::int8_t kFidelityMatched = 1;

/// Warning category: the warning's cause (docs/replay-failures.md).
enum class WarningCode : std::uint16_t { RS_IPC_WARNING_CODES(RS_IPC_ENUMERATOR) };

#define RS_IPC_ENUM_NAME(identifier, value, name) EnumName{value, name},
#define RS_IPC_VOCABULARY(Enum, list, table_name)                                                            \
    template <>                                                                                              \
    struct EnumVocabulary<Enum> {                                                                            \
        static constexpr std::string_view table = table_name;                                                \
        static constexpr EnumName names[] = {list(RS_IPC_ENUM_NAME)};                                        \
    };                                                                                                       \
    static_assert(contiguousFromZero(EnumVocabulary<Enum>::names), #list ": values 0, 1, 2, ...");
RS_IPC_VOCABULARY(DeviceType, RS_IPC_DEVICE_TYPES, "device_type")
RS_IPC_VOCABULARY(AllocationApi, RS_IPC_ALLOCATION_APIS, "api")
RS_IPC_VOCABULARY(PointerType, RS_IPC_POINTER_TYPES, "pointer_type")
RS_IPC_VOCABULARY(AllocationClass, RS_IPC_ALLOCATION_CLASSES, "classification")
RS_IPC_VOCABULARY(VariableStatus, RS_IPC_VARIABLE_STATUSES, "variable_status")
RS_IPC_VOCABULARY(DispatchDecision, RS_IPC_DISPATCH_DECISIONS, "decision")
RS_IPC_VOCABULARY(RegionKind, RS_IPC_REGION_KINDS, "region_kind")
RS_IPC_VOCABULARY(SnapshotFailureReason, RS_IPC_SNAPSHOT_FAILURE_REASONS, "snapshot_failure")
RS_IPC_VOCABULARY(RestoreSkipReason, RS_IPC_RESTORE_SKIP_REASONS, "restore_skip")
RS_IPC_VOCABULARY(AsyncCopyOutcome, RS_IPC_ASYNC_COPY_OUTCOMES, "async_copy_outcome")
RS_IPC_VOCABULARY(WarningCode, RS_IPC_WARNING_CODES, "warning")
RS_IPC_VOCABULARY(SnapshotStore, RS_IPC_SNAPSHOT_STORES, "snapshot_store")
RS_IPC_VOCABULARY(ChunkHashPath, RS_IPC_CHUNK_HASH_PATHS, "chunk_hash_path")
#undef RS_IPC_VOCABULARY

/// Names of the fidelity results (PassRecord::fidelity: -1, 0, 1), the session file's "fidelity" table.
inline constexpr EnumName kFidelityNames[] = {RS_IPC_FIDELITY_RESULTS(RS_IPC_ENUM_NAME)};
#undef RS_IPC_ENUM_NAME

/// Every enum_names table of the session file, in the order they are written (docs/session-schema.md).
#define RS_IPC_TABLE(Enum)                                                                                   \
    EnumTable {                                                                                              \
        EnumVocabulary<Enum>::table, EnumVocabulary<Enum>::names, std::size(EnumVocabulary<Enum>::names)     \
    }
// clang-format off
inline constexpr EnumTable kEnumTables[] = {
    RS_IPC_TABLE(DeviceType),
    RS_IPC_TABLE(AllocationApi),
    RS_IPC_TABLE(PointerType),
    RS_IPC_TABLE(AllocationClass),
    RS_IPC_TABLE(VariableStatus),
    RS_IPC_TABLE(DispatchDecision),
    RS_IPC_TABLE(RegionKind),
    RS_IPC_TABLE(SnapshotFailureReason),
    RS_IPC_TABLE(RestoreSkipReason),
    EnumTable{"fidelity", kFidelityNames, std::size(kFidelityNames)},
    RS_IPC_TABLE(AsyncCopyOutcome),
    RS_IPC_TABLE(WarningCode),
    RS_IPC_TABLE(SnapshotStore),
    RS_IPC_TABLE(ChunkHashPath),
};
// clang-format on
#undef RS_IPC_TABLE
static_assert(kFidelityNames[0].code == kFidelityNotChecked && kFidelityNames[1].code == kFidelityDiffered &&
              kFidelityNames[2].code == kFidelityMatched);

/// First frame of a connection: authenticates the target with the session token and names the emitter
/// instance (the process) the frames after it belong to. Also the first frame an emitter instance writes
/// into a spool file it opens (token all '0' there: a spool is not authenticated, only attributed).
struct HelloRecord {
    static constexpr std::size_t kTokenBytes = 64; ///< hex characters of a session token
    char token[kTokenBytes];
    std::uint32_t pid;
    std::uint32_t ppid; ///< parent pid at Emitter::start (protocol 4; 0 from older frames)
    /// Random, never 0, drawn at Emitter::start (protocol 4): the key of the process in the session. A
    /// new process image (after exec) draws a new one. 0 from older frames.
    std::uint64_t instance;
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

/// One region of an inventory (Emitter::emit_inventory expands it into InventoryRegionRecords).
struct InventoryRegion {
    std::uint64_t address;
    std::uint64_t size;          ///< bytes
    std::uint64_t allocation_id; ///< 0 for module variables
    RegionKind kind;
};

/// A snapshot of an agent's regions before a replayed dispatch (its footprint: `bytes`). Followed by
/// `failures` SnapshotFailureRecords and, for a mixed snapshot, one SnapshotPlacementRecord per region.
struct SnapshotRecord {
    std::uint64_t dispatch_id;
    std::uint64_t agent;
    std::uint64_t generation; ///< inventory generation the snapshot copied
    std::uint64_t bytes;      ///< bytes copied into the stores (host_bytes + device_bytes from protocol 5)
    std::uint64_t duration_ns;
    std::uint32_t regions;  ///< regions copied
    std::uint32_t failures; ///< SnapshotFailureRecords that follow
    bool ok;
    // Protocol 5 (0 / host / none / false from older frames).
    std::uint64_t host_bytes;   ///< bytes placed in the host store
    std::uint64_t device_bytes; ///< bytes placed in the device store
    std::uint64_t hash_ns;      ///< time spent computing the snapshot's chunk hashes (0: not hashed)
    std::uint32_t total_chunks; ///< chunks the regions split into (0 when not hashed)
    SnapshotStore store;        ///< host, device or mixed
    ChunkHashPath hash_path;    ///< how the chunk hashes were computed
    bool host_pinned;           ///< the host store's block is page-locked (meaningful when host_bytes > 0)
    /// The window's fence wait (its drain, docs/replay-window.md): steady-clock ns from the start of the
    /// drain until every queue of the agent had drained and the agent was gated, measured just before this
    /// snapshot was taken. -1: not recorded (frames of engines before it was measured: the field is absent).
    std::int64_t fence_wait_ns;
};

/// One region of a mixed snapshot and the store it went to (protocol 5; sent after the SnapshotRecord,
/// for mixed snapshots only: in a host or device snapshot every region is in that store).
struct SnapshotPlacementRecord {
    std::uint64_t dispatch_id;
    std::uint64_t address;
    std::uint64_t size;  ///< bytes
    SnapshotStore store; ///< host or device
};

/// One restore of a dispatch's snapshot (protocol 5): before pass `pass_index` (1 .. passes - 1), or
/// after the last pass (`final_restore`, pass_index = the number of passes run), before the application's
/// own dispatch runs.
struct RestoreRecord {
    std::uint64_t dispatch_id;
    std::uint64_t restored_bytes_host;   ///< bytes copied back from the host store (over the host link)
    std::uint64_t restored_bytes_device; ///< bytes copied back from the device store (inside the device)
    std::uint64_t hash_ns;               ///< time spent hashing the current contents (0 for a full restore)
    std::uint64_t restore_ns;            ///< the whole restore, hashing included
    std::uint32_t pass_index;
    /// Regions of which at least one byte was copied back, by the restore or by the fidelity check's
    /// copy-back of a missed chunk.
    std::uint32_t regions_restored;
    /// Chunks whose hash differed (= total_chunks for a full restore), missed chunks not included.
    std::uint32_t dirty_chunks;
    std::uint32_t total_chunks; ///< chunks compared (0 when the snapshot was not hashed)
    /// Chunks the fidelity check found different after a dirty restore and copied back: counted here, not
    /// in dirty_chunks; their bytes are in restored_bytes_host / restored_bytes_device (they crossed).
    std::uint32_t missed_chunks;
    bool final_restore;
};

/// A chunk that a dirty restore left different from the snapshot, found by the fidelity check and
/// copied back afterwards (protocol 5).
struct RestoreMissRecord {
    std::uint64_t dispatch_id;
    std::uint64_t address;
    std::uint64_t size;          ///< bytes
    std::uint64_t allocation_id; ///< 0 for module variables
    std::uint32_t pass_index;    ///< the restore's pass_index (RestoreRecord)
};

/// A hardware counter's value in one pass of a dispatch (within protocol 5, type 24; docs/counters.md).
struct CounterValueRecord {
    std::uint64_t dispatch_id;
    std::uint64_t value;      ///< sum over the counter's block instances
    std::uint32_t pass_index; ///< 0-based
    std::uint32_t counter;    ///< catalogue id (counters/catalogue.h); the collector refuses an unknown one
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

/// A region that a restore could not write back (protocol 3; docs/replay-failures.md#failed-restore):
/// every copy of it failed, the restore went on with the other regions and the replay of the dispatch
/// stopped. The region holds the output of pass `holds_pass_index`.
struct RestoreFailureRecord {
    std::uint64_t dispatch_id;
    std::uint64_t address;
    std::uint64_t size;          ///< bytes
    std::uint64_t allocation_id; ///< 0 for module variables
    /// The pass this restore was to precede; equal to the number of passes run for the restore after
    /// the last pass (before the application's own dispatch runs). At least 1.
    std::uint32_t pass_index;
    std::uint32_t holds_pass_index; ///< pass_index - 1: the pass whose output the region still holds
    std::uint32_t attempts;         ///< copies made, all failed
    std::uint32_t status;           ///< hsa_status_t of the last copy
    RegionKind kind;
};

struct WarningRecord {
    std::uint64_t dispatch_id; ///< 0 when not about a dispatch
    StringId text;
    WarningCode code;
};

/// Last event of a session: how many events of each type the emitter accepted (index = EventType),
/// how many of those went to the spool instead of the socket, the last sequence number used, and how
/// many engine-internal errors the engine caught and swallowed (protocol 3; 0 from older frames), and
/// the process's exit status (protocol 4).
struct SessionEndRecord {
    std::uint64_t counts[kEventTypeSlots];
    std::uint64_t spooled;
    std::uint64_t last_sequence;
    std::uint64_t internal_errors;
    /// Value the process passed to exit() (0..255), -1 when unknown (not exiting, or older frames).
    std::int32_t exit_status;
};

/// One event: type, per-process sequence number (1-based), CLOCK_MONOTONIC timestamp (ns) and the
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
        RestoreFailureRecord restore_failure;
        SnapshotPlacementRecord snapshot_placement;
        RestoreRecord restore;
        RestoreMissRecord restore_miss;
        CounterValueRecord counter_value;
    };
};
static_assert(std::is_trivially_copyable_v<Record>);

/// CLOCK_MONOTONIC now, in ns (the timestamp clock of every record).
std::uint64_t monotonic_ns() noexcept;
/// CLOCK_REALTIME now, in ns since the epoch.
std::uint64_t wall_clock_ns() noexcept;

} // namespace rs::ipc
