// SPDX-License-Identifier: MIT
// Reads one instruction as LLVM prints it for gfx90a ("v_add_f32_e64 v0, -v1, |s2| clamp") into the
// interpreter's Instruction: mnemonic and encoding suffix, operands (registers, inline constants,
// literals, source modifiers) and trailing modifiers (offsets, cache policy, DPP, SDWA, op_sel, MFMA).
// Syntax: LLVM's "AMDGPU Instruction Syntax" and "AMDGPU Operand Syntax" pages.
#pragma once

#include "instruction.h"

#include <string>
#include <string_view>

namespace sim::isa {

/// Fills `out` from `text`. Returns an empty string on success, else why the text cannot be read
/// (unknown operand syntax); `out.execute` then faults. The op is looked up in OpTable; an
/// unimplemented mnemonic yields an instruction that faults when executed, naming the mnemonic.
std::string read_assembly(std::string_view text, Instruction& out);

/// The mnemonic of `text` without its encoding suffix.
std::string_view base_mnemonic(std::string_view text);

} // namespace sim::isa
