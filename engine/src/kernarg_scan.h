// SPDX-License-Identifier: MIT
// Does a dispatch's kernarg segment point into memory that no snapshot restores?
#pragma once

#include "allocation_inventory.h"

#include <cstdint>
#include <vector>

namespace rs::engine {

/// True when a 64-bit window of the kernarg segment `[kernarg, kernarg + size)` starting at a multiple
/// of 4 bytes is an address inside an entry of `unrestorable` (memory a kernel may write but a restore
/// never puts back: host, fine-grained, locked and managed memory, module variables over the snapshot
/// cap), or its end (one past the last byte, which C and C++ allow a kernel to receive and index
/// backwards from). Explicit pointer arguments are 8-byte aligned in the AMDGPU kernarg layout, but a
/// pointer inside a packed by-value struct is only 4-byte aligned or less; every 4-byte-aligned window
/// covers the first, and the packed layouts hipcc emits for structs of 32-bit fields. A pointer at an
/// odd or 2-byte offset is not seen.
///
/// A window whose offset is in `read_only_offsets` (ascending byte offsets of the pointer arguments the
/// kernel's code object metadata declares read-only, kernel_metadata.h) does not count: the kernel only
/// reads through it, so its passes leave that memory unchanged. Every other window counts, hidden
/// arguments and by-value structs included. A non-pointer value that happens to fall inside such memory
/// only costs the dispatch's replay (declined, never harmed). Pointers stored in memory rather than in
/// the segment are not followed.
///
/// `size` in bytes (HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE); 0 or a null `kernarg` finds
/// nothing. Reads the segment with memcpy (kernarg memory is host-accessible by HSA's definition, HSA
/// 1.2 system architecture §2.8) under the inventory's read lock; a failure to take it answers true
/// (decline). Throws nothing.
///
/// With `restorable` (the engine's tracked inventory), a window equal to the end of unrestorable memory
/// that lies inside a tracked allocation is taken as a pointer to that allocation, not as an end pointer:
/// allocations are often adjacent (a pinned host range ending exactly where a device buffer starts). It
/// is looked up after the scan's read lock is released, under `restorable`'s own.
bool kernarg_points_into(const void* kernarg, uint32_t size, const AllocationInventory& unrestorable,
                         const std::vector<uint32_t>* read_only_offsets = nullptr,
                         const AllocationInventory* restorable = nullptr) noexcept;

/// True when a window of the segment (the same windows, end pointers and read-only exemption as
/// kernarg_points_into) is inside or at the end of an allocation of `tracked` (the engine's inventory of
/// tracked device memory) owned by an agent other than `agent` (the handle of the agent the dispatch
/// runs on). A window of `agent` snapshots only `agent`'s memory, so such a kernel's extra passes would
/// write that other agent's memory with nothing to put it back (docs/replay-failures.md, "Arguments in
/// another agent's memory"). Same locking and cost as kernarg_points_into over `tracked`; a failure to
/// take the lock answers true. Throws nothing.
bool kernarg_points_into_peer(const void* kernarg, uint32_t size, const AllocationInventory& tracked,
                              uint64_t agent,
                              const std::vector<uint32_t>* read_only_offsets = nullptr) noexcept;

} // namespace rs::engine
