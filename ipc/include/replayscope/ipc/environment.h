// SPDX-License-Identifier: MIT
// Environment variables through which replayscope-run configures the target (emitter and engine): the
// one list of their names, used by the emitter, the engine's configuration (engine/src/configuration.h),
// the runner and the inspector. Documented in docs/session-schema.md ("Target environment").
#pragma once

namespace rs::ipc::env {

/// Common prefix of every variable below (the runner drops stale ones of an outer session by it).
inline constexpr const char* kPrefix = "REPLAYSCOPE_";

/// Collector socket path (absolute, in a private 0700 directory).
inline constexpr const char* kSocket = "REPLAYSCOPE_SOCKET";
/// Per-session token (64 hex characters) the emitter sends in its Hello frame.
inline constexpr const char* kToken = "REPLAYSCOPE_TOKEN";
/// Spool file the emitter appends to when the queue is full or the collector is gone. replayscope-run
/// passes "<session>.spool.d/<run id>.%p": the directory is the run's private one (mode 0700), "%p"
/// becomes the emitter's pid, and the emitter creates the file exclusively (never an existing file or a
/// symbolic link; a name taken gets a numeric suffix).
inline constexpr const char* kSpool = "REPLAYSCOPE_SPOOL";
/// The run's identity, 16 hex characters drawn by replayscope-run: the emitter writes it into the
/// Hello of its spool (the token's first 16 characters, the rest '0'), so that a spool names its run.
inline constexpr const char* kRunId = "REPLAYSCOPE_RUN_ID";
/// "0": only the first instrumented process of the run records (the engine of any later one stays
/// inert); unset or "1": every process of the run (children, exec'd programs) records. Set by
/// replayscope-run --follow-children=no|yes.
inline constexpr const char* kFollowChildren = "REPLAYSCOPE_FOLLOW_CHILDREN";
/// Emitter queue capacity in records (rounded up to a power of two; default 16384).
inline constexpr const char* kQueueCapacity = "REPLAYSCOPE_QUEUE_CAPACITY";

// Replay options, read by the engine.
inline constexpr const char* kPasses = "REPLAYSCOPE_PASSES"; ///< passes per dispatch
inline constexpr const char* kKernelIncludeRegex = "REPLAYSCOPE_KERNEL_INCLUDE_REGEX"; ///< ECMAScript regex
inline constexpr const char* kKernelExcludeRegex = "REPLAYSCOPE_KERNEL_EXCLUDE_REGEX"; ///< ECMAScript regex
inline constexpr const char* kDispatchSkip = "REPLAYSCOPE_DISPATCH_SKIP"; ///< dispatches to let through first
inline constexpr const char* kDispatchCount =
    "REPLAYSCOPE_DISPATCH_COUNT"; ///< dispatches to replay (0 = all)
/// rocprofv3's --kernel-iteration-range: the iterations of each kernel (1-based, counted per loaded kernel
/// symbol) that may be replayed, as "[1-3],[5]" (iteration_ranges.h reads it); unset: every iteration.
inline constexpr const char* kKernelIterationRange = "REPLAYSCOPE_KERNEL_ITERATION_RANGE";
inline constexpr const char* kAgentFilter = "REPLAYSCOPE_AGENT_FILTER"; ///< agent indices/names, comma list
inline constexpr const char* kHostMemoryBudget = "REPLAYSCOPE_HOST_MEMORY_BUDGET"; ///< bytes (0 = no budget)
inline constexpr const char* kFidelityCheck = "REPLAYSCOPE_FIDELITY_CHECK";        ///< "1" to hash regions
/// Bytes of memory no restore puts back (host, fine-grained, locked, managed) the fidelity check hashes
/// before and after pass 0 of a window, in all; ranges beyond it are named and left out. Default 268435456.
inline constexpr const char* kFidelityUnrestorableBudget = "REPLAYSCOPE_FIDELITY_UNRESTORABLE_BUDGET";
/// "0" to leave hsa_amd_vmem_map mappings out of the inventory (ROCr 6.x; the fidelity check still
/// watches them, docs/replay-window.md); unset or "1": tracked.
inline constexpr const char* kTrackVmem = "REPLAYSCOPE_TRACK_VMEM";
/// Engine log on stderr ("1"); passed through from the caller's environment.
inline constexpr const char* kLog = "REPLAYSCOPE_LOG";
/// How long a replay waits for earlier work to drain before declining (drain-timeout), ms; default 10000.
inline constexpr const char* kDrainTimeoutMs = "REPLAYSCOPE_DRAIN_TIMEOUT_MS";
/// How long a replay waits for one pass to complete before declining (pass-timeout), ms; default 60000.
inline constexpr const char* kPassTimeoutMs = "REPLAYSCOPE_PASS_TIMEOUT_MS";
/// Where snapshots are kept: "auto" (default: the device store while it fits, else the host store),
/// "host" or "device" (device store; regions that do not fit go to the host store, reported).
inline constexpr const char* kSnapshotStore = "REPLAYSCOPE_SNAPSHOT_STORE";
/// Device memory left free for the application when sizing the device store, bytes; default 1073741824.
inline constexpr const char* kDeviceStoreReserve = "REPLAYSCOPE_DEVICE_STORE_RESERVE";
/// How a snapshot is restored: "full" (every region), "dirty" (default: only the chunks whose hash changed,
/// hashed on the device) or "dirty-host" (the same, hashed on the host after reading the device back).
inline constexpr const char* kRestore = "REPLAYSCOPE_RESTORE";
/// Chunk size of the dirty restore, bytes: a power of two in [4096, 1073741824]; default 65536.
inline constexpr const char* kRestoreChunkSize = "REPLAYSCOPE_RESTORE_CHUNK_SIZE";
/// Hardware counters to collect per pass (--pmc, -i): request lines separated by ';', counter names by
/// ',' (rs::counters::encode_request); unset: none (docs/counters.md).
inline constexpr const char* kPmc = "REPLAYSCOPE_PMC";

} // namespace rs::ipc::env
