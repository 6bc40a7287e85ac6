// SPDX-License-Identifier: MIT
// The one list of every enum of the session protocol: identifier, wire value and name.
//
// Each RS_IPC_*(X) list below expands X(identifier, value, "name") once per value. records.h defines
// the enums from these lists (EventType included); enumName() (log lines, the inspector), enum_max() (frame
// validation) and the session file's enum_names table (session_store.cpp) are derived from the same lists, so
// a value added here has its name, its validation bound and its table row at once. Names are lower-case with
// hyphens, except AllocationApi's, which are the HSA entry points. Values are contiguous from 0 and are
// never renumbered (they are stored in session files). Meaning of every decision and warning code:
// docs/replay-failures.md; session file tables: docs/session-schema.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

// clang-format off
/* Frame / event types: the frame header's `type` field and the `event_type` codes of the session file's
   event_counts (named there as here). Numbered from 1 (0 is no frame); the protocol version that added
   a type: fidelity_mismatch and async_copy 2, restore_failure 3, snapshot_placement, restore and
   restore_miss 5. */
#define RS_IPC_EVENT_TYPES(X) \
    X(hello, 1, "hello") \
    X(session_start, 2, "session_start") \
    X(string, 3, "string") \
    X(agent, 4, "agent") \
    X(allocation, 5, "allocation") \
    X(free, 6, "free") \
    X(executable_loaded, 7, "executable_loaded") \
    X(module_variable, 8, "module_variable") \
    X(dispatch, 9, "dispatch") \
    X(inventory, 10, "inventory") \
    X(inventory_region, 11, "inventory_region") \
    X(snapshot, 12, "snapshot") \
    X(snapshot_failure, 13, "snapshot_failure") \
    X(pass, 14, "pass") \
    X(restore_skip, 15, "restore_skip") \
    X(warning, 16, "warning") \
    X(session_end, 17, "session_end") \
    X(fidelity_mismatch, 18, "fidelity_mismatch") \
    X(async_copy, 19, "async_copy") \
    X(restore_failure, 20, "restore_failure") \
    X(snapshot_placement, 21, "snapshot_placement") \
    X(restore, 22, "restore") \
    X(restore_miss, 23, "restore_miss") \
    X(counter_value, 24, "counter_value")

#define RS_IPC_DEVICE_TYPES(X) \
    X(cpu, 0, "cpu") \
    X(gpu, 1, "gpu") \
    X(dsp, 2, "dsp") \
    X(other, 3, "other")

/* Entry point an allocation came through; vmem_map: a mapping made by hsa_amd_vmem_map (its unmap is a
   FreeRecord). */
#define RS_IPC_ALLOCATION_APIS(X) \
    X(memory_pool_allocate, 0, "hsa_amd_memory_pool_allocate") \
    X(memory_allocate, 1, "hsa_memory_allocate") \
    X(vmem_map, 2, "hsa_amd_vmem_map") \
    X(memory_lock, 3, "hsa_amd_memory_lock") \
    X(memory_lock_to_pool, 4, "hsa_amd_memory_lock_to_pool")

/* hsa_amd_pointer_type_t as reported by hsa_amd_pointer_info (unknown when not queried). */
#define RS_IPC_POINTER_TYPES(X) \
    X(unknown, 0, "unknown") \
    X(hsa, 1, "hsa") \
    X(locked, 2, "locked") \
    X(graphics, 3, "graphics") \
    X(ipc, 4, "ipc")

/* Tracking decision for an allocation (docs/mechanism.md#what-is-tracked). */
#define RS_IPC_ALLOCATION_CLASSES(X) \
    X(tracked, 0, "tracked") \
    X(excluded_kernarg, 1, "kernarg") \
    X(excluded_host, 2, "host") \
    X(excluded_fine_grained, 3, "fine-grained") \
    X(excluded_executable, 4, "executable") \
    X(excluded_not_owned, 5, "not-owned") \
    X(excluded_unknown_pointer, 6, "unknown-pointer")

/* Fate of a module-scope variable found at snapshot time (too-large: over the 1 GiB sanity cap). */
#define RS_IPC_VARIABLE_STATUSES(X) \
    X(captured, 0, "captured") \
    X(skipped_zero_address, 1, "zero-address") \
    X(skipped_zero_size, 2, "zero-size") \
    X(skipped_too_large, 3, "too-large")

/* What the engine did with a dispatch: replayed, or declined with the reason
   (docs/replay-failures.md, "Decisions"). */
#define RS_IPC_DISPATCH_DECISIONS(X) \
    X(replayed, 0, "replayed") \
    X(declined_multi_packet, 1, "multi-packet") \
    X(declined_graph_launch, 2, "graph-launch") \
    X(declined_snapshot_incomplete, 3, "snapshot-incomplete") \
    X(declined_footprint_budget, 4, "footprint-budget") \
    X(declined_drain_timeout, 5, "drain-timeout") \
    X(declined_filtered, 6, "filtered") \
    X(declined_restore_failed, 7, "restore-failed") \
    X(declined_runtime_kernel, 8, "runtime-kernel") \
    X(declined_unrestorable_memory, 9, "unrestorable-memory") \
    X(declined_pass_timeout, 10, "pass-timeout") \
    X(declined_no_private_queue, 11, "no-private-queue") \
    X(declined_out_of_memory, 12, "out-of-memory") \
    X(declined_signal_unavailable, 13, "signal-unavailable") \
    X(declined_internal_error, 14, "internal-error") \
    X(declined_abandoned, 15, "abandoned") \
    X(declined_pass_failed, 16, "pass-failed") \
    X(declined_peer_memory, 17, "peer-memory") \
    X(declined_iteration_range, 18, "iteration-range")

/* Kind of a captured region. */
#define RS_IPC_REGION_KINDS(X) \
    X(allocation, 0, "allocation") \
    X(module_variable, 1, "module-variable")

/* Why a snapshot (or one of its regions) failed. The first two name a region; the last two are
   whole-snapshot conditions (address 0). */
#define RS_IPC_SNAPSHOT_FAILURE_REASONS(X) \
    X(host_allocation, 0, "host-allocation") \
    X(copy_failed, 1, "copy-failed") \
    X(inventory_reserve, 2, "inventory-reserve") \
    X(symbol_enumeration, 3, "symbol-enumeration")

/* Why a region was not restored before a pass. */
#define RS_IPC_RESTORE_SKIP_REASONS(X) \
    X(freed, 0, "freed") \
    X(reallocated, 1, "reallocated") \
    X(copy_failed, 2, "copy-failed")

/* What happened to an hsa_amd_memory_async_copy that touched an agent inside a replay window:
   not-fenced: let through without waiting; waited: held until the window ended; timed-out: held, then
   let through when the wait timed out; held: made to depend on the window's release signal (held back
   on the GPU side, the calling host thread not blocked). */
#define RS_IPC_ASYNC_COPY_OUTCOMES(X) \
    X(not_fenced, 0, "not-fenced") \
    X(waited, 1, "waited") \
    X(timed_out, 2, "timed-out") \
    X(held, 3, "held")

/* Warning category: the cause of the warning (docs/replay-failures.md, "Warning codes"). general is
   only found in session files written before every warning named its cause. 6 is reserved: no build ever
   sent it (the emitter reports a full queue in SessionEnd's spooled count). Its placeholder
   retired_emitter is never emitted; it keeps the list contiguous, the value from being reused and the
   name "emitter" in enum_names. */
#define RS_IPC_WARNING_CODES(X) \
    X(general, 0, "general") \
    X(graph_launch, 1, "graph-launch") \
    X(snapshot_incomplete, 2, "snapshot-incomplete") \
    X(restore_failed, 3, "restore-failed") \
    X(fidelity_mismatch, 4, "fidelity-mismatch") \
    X(configuration, 5, "configuration") \
    X(retired_emitter, 6, "emitter") \
    X(drain_timeout, 7, "drain-timeout") \
    X(pass_timeout, 8, "pass-timeout") \
    X(no_private_queue, 9, "no-private-queue") \
    X(footprint_budget, 10, "footprint-budget") \
    X(signal_unavailable, 11, "signal-unavailable") \
    X(out_of_memory, 12, "out-of-memory") \
    X(queue_intercept_failed, 13, "queue-intercept-failed") \
    X(internal_error, 14, "internal-error") \
    X(pinned_host_store_unavailable, 15, "pinned-host-store-unavailable") \
    X(device_hash_unavailable, 16, "device-hash-unavailable") \
    X(restore_missed_chunk, 17, "restore-missed-chunk") \
    X(device_store_reclaimed, 18, "device-store-reclaimed") \
    X(device_store_short, 19, "device-store-short") \
    X(restore_not_verified, 20, "restore-not-verified") \
    X(abandoned, 21, "abandoned") \
    X(pass_failed, 22, "pass-failed") \
    X(restore_recovered, 23, "restore-recovered") \
    X(unrestorable_memory_written, 24, "unrestorable-memory-written") \
    X(unrestorable_memory_unchecked, 25, "unrestorable-memory-unchecked") \
    X(counters_unavailable, 26, "counters-unavailable") \
    X(counter_read_failed, 27, "counter-read-failed") \
    X(counter_mismatch, 28, "counter-mismatch")

/* Where a snapshot's copy lives (protocol 5): host: the agent's host store (page-locked when possible);
   device: the agent's device store (coarse-grained memory of the same agent); mixed: some regions in
   each (a SnapshotPlacementRecord per region follows the SnapshotRecord). */
#define RS_IPC_SNAPSHOT_STORES(X) \
    X(host, 0, "host") \
    X(device, 1, "device") \
    X(mixed, 2, "mixed")

/* How a snapshot's chunk hashes were computed (protocol 5): none: not hashed (full restore); device: the
   engine's chunk-hash kernel on the agent; host: on the host, over a copy of the contents. */
#define RS_IPC_CHUNK_HASH_PATHS(X) \
    X(none, 0, "none") \
    X(device, 1, "device") \
    X(host, 2, "host")

/* Result of a pass's fidelity check (PassRecord::fidelity, a signed byte, not an enum). */
#define RS_IPC_FIDELITY_RESULTS(X) \
    X(not_checked, -1, "not-checked") \
    X(differed, 0, "differed") \
    X(matched, 1, "matched")
// clang-format on

/// Expands a list into enumerators (`identifier = value,`).
#define RS_IPC_ENUMERATOR(identifier, value, name) identifier = value,

namespace rs::ipc {

/// One value of an enum list: wire value and name.
struct EnumName {
    std::int64_t code;
    std::string_view name;
};

/// Vocabulary of an enum E, specialised in records.h for every list-defined enum:
///   `table`: the enum's name in the session file's enum_names table ("decision", ...);
///   `names`: the list in value order (names[i].code == i, checked at compile time).
template <typename E>
struct EnumVocabulary;

/// Largest value of E (frame validation rejects anything above it).
template <typename E>
constexpr std::uint32_t enum_max() noexcept {
    return static_cast<std::uint32_t>(std::size(EnumVocabulary<E>::names) - 1);
}

/// Name of `value` from E's list ("drain-timeout", ...); "unknown" for a value outside the list
/// (e.g. read from a newer session file).
template <typename E>
constexpr std::string_view enum_name(E value) noexcept {
    const auto code = static_cast<std::size_t>(value);
    return code < std::size(EnumVocabulary<E>::names) ? EnumVocabulary<E>::names[code].name
                                                      : std::string_view("unknown");
}

/// True when the list's codes are 0, 1, 2, ... in order (so that enumName indexes and enum_max holds).
template <std::size_t N>
constexpr bool contiguousFromZero(const EnumName (&names)[N]) noexcept {
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i].code != static_cast<std::int64_t>(i)) {
            return false;
        }
    }
    return true;
}

/// One enum_names table of the session file: its name and its rows.
struct EnumTable {
    std::string_view table;
    const EnumName* names;
    std::size_t count;
};

} // namespace rs::ipc
