// SPDX-License-Identifier: MIT
// What one executed instruction adds to its wave's hardware counts (perf_counters.h) while a profile runs
// on the agent: its instruction class, the LDS bank conflicts of a DS instruction, the cache lines and
// L2 requests of a global or FLAT access, and its issue cycles. Exact and deterministic: computed from
// the instruction and the lanes' addresses, never from host time. Definitions: docs/sim-fidelity.md,
// "Hardware counters (aqlprofile)".
#pragma once

#include "instruction.h"

#include <cstdint>

namespace sim::isa {

struct Wave;

/// LDS banks of a gfx90a compute unit (4 bytes each) and the lanes served per LDS cycle (a half-wave).
inline constexpr uint32_t kLdsBanks = 32;
inline constexpr uint32_t kLdsLanesPerCycle = 32;

/// Adds `in`, about to execute on `w` (its operands still as they were before it), to `*w.counts`.
/// Call only when `w.counts` is set.
void count_instruction(Wave& w, const Instruction& in);

/// Bank-conflict cycles of one LDS access: for each group of kLdsLanesPerCycle lanes and each dword the
/// lanes access (k-th dword of every lane together), the most distinct dword addresses falling into one
/// bank, less one; summed. `dword_address[lane * dwords + k]` for the lanes set in `exec`.
uint64_t lds_bank_conflict_cycles(const uint32_t* dword_address, uint32_t dwords, uint64_t exec);

} // namespace sim::isa
