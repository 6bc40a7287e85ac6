// SPDX-License-Identifier: MIT
// Decodes a kernel's gfx90a machine code into a Program, once per kernel. Instruction boundaries,
// operand fields, literals and DPP/SDWA/VOP3P modifiers come from LLVM's AMDGPU MC disassembler (Debian's
// libLLVM-19): it knows every encoding, and prints exactly what llvm-objdump prints, the oracle of the
// decoder's tests. The printed form is then read into the interpreter's Instruction (assembly_reader.h).
// See docs/sim-fidelity.md, "The gfx90a interpreter".
#pragma once

#include "program.h"

#include <cstdint>
#include <memory>
#include <string>

namespace sim::isa {

/// One instruction as LLVM decodes it.
struct DisassembledInstruction {
    uint32_t size = 0; ///< bytes; 0 when the bytes are not a gfx90a instruction
    std::string text;  ///< LLVM's printed form, without leading white space
};

/// Disassembles one instruction at `bytes` (at most `available` bytes). Thread-safe.
DisassembledInstruction disassemble(const uint8_t* bytes, size_t available);

/// Decodes the machine code in [begin, end) (host-visible memory: a loaded code object's executable
/// segment) instruction by instruction. Never fails: bytes that are not an instruction, and
/// instructions the interpreter does not implement, become instructions that fault the wave when
/// executed, naming themselves.
std::shared_ptr<const Program> decode_program(uint64_t begin, uint64_t end);

/// The kernel whose descriptor is at `descriptor_address`, with its code in `program`.
Kernel make_kernel(std::shared_ptr<const Program> program, uint64_t descriptor_address, std::string name);

} // namespace sim::isa
