// SPDX-License-Identifier: MIT
// Does a dispatch's kernarg segment point into memory that no snapshot restores?
#pragma once

#include "allocation_inventory.h"

#include <cstdint>

namespace rs::engine {

/// True when any 8-byte-aligned 64-bit word of the kernarg segment `[kernarg, kernarg + size)` is an
/// address inside an allocation of `unrestorable` (host and fine-grained memory a kernel may write but a
/// restore never puts back). Kernel pointer arguments are 8-byte aligned in the kernarg segment (the
/// AMDGPU code-object ABI lays explicit arguments out at their natural alignment; so are the hidden
/// pointer arguments such as the hostcall buffer of a kernel that calls printf), so a pointer argument
/// into such memory is always found; a non-pointer argument whose value happens to fall inside one only
/// costs a replay (the dispatch is declined, never harmed). Pointers stored in memory rather than in the
/// kernarg segment are not followed. `size` in bytes; 0 or a null `kernarg` finds nothing. Reads the
/// segment with memcpy (kernarg memory is host-accessible by HSA's definition, HSA 1.2 system
/// architecture §2.8) under the inventory's read lock; a failure to take it answers true (decline). Throws
/// nothing.
bool kernarg_points_into(const void* kernarg, uint32_t size,
                         const AllocationInventory& unrestorable) noexcept;

} // namespace rs::engine
