// SPDX-License-Identifier: MIT
// The interpreter's compact form of one decoded gfx90a instruction: the operation (an entry of the op
// table), its operands and its modifiers, decoded once per kernel (decoder.h) and executed many times.
// Encodings and fields: AMD Instinct MI200 (CDNA2) Instruction Set Architecture, chapter 12
// ("Microcode Formats"); their assembly syntax: LLVM's AMDGPUUsage and AMDGPU operand syntax pages.
#pragma once

#include <cstdint>

namespace sim::isa {

struct Wave;
struct Instruction;
class WorkGroup;

/// Executes one instruction for one wave. Sets the wave's status on a fault, barrier or end of program.
using ExecuteFn = void (*)(Wave& wave, const Instruction& instruction);

/// Where an operand's value lives.
enum class OperandKind : uint8_t {
    none,     ///< absent, or "off"
    sgpr,     ///< scalar register by hardware encoding: s0..s101, flat_scratch 102, vcc 106, m0 124, exec 126
    vgpr,     ///< v0..v255
    agpr,     ///< a0..a255 (accumulation registers)
    constant, ///< inline constant, literal or aperture base: `value`, typed by the operation
    scc,      ///< src_scc
    execz,    ///< src_execz
    vccz,     ///< src_vccz
};

/// Hardware encodings of the special scalar registers (CDNA2 ISA §12.1, SSRC/SDST fields).
inline constexpr uint16_t kFlatScratchLo = 102;
inline constexpr uint16_t kXnackMaskLo = 104;
inline constexpr uint16_t kVccLo = 106;
inline constexpr uint16_t kTtmp0 = 108;
inline constexpr uint16_t kM0 = 124;
inline constexpr uint16_t kExecLo = 126;
inline constexpr uint16_t kScalarRegisterCount = 128;

/// One operand. Registers carry their first index and width in dwords; constants their bits as the
/// operation reads them (a 64-bit float operand's inline 1.0 is 0x3ff0000000000000).
struct Operand {
    OperandKind kind = OperandKind::none;
    uint8_t width = 1;
    uint16_t index = 0;
    bool neg = false;  ///< floating-point negate ("-v1"), after abs
    bool abs = false;  ///< floating-point absolute value ("|v1|")
    bool sext = false; ///< SDWA integer sign extension ("sext(v1)")
    /// Inline floating-point constant before typing: 0 none, else 1..9 for 0.5, -0.5, 1.0, -1.0, 2.0,
    /// -2.0, 4.0, -4.0, 1/(2*pi) (CDNA2 ISA §4.4.1, inline constants 240..248).
    uint8_t inline_float = 0;
    bool literal = false; ///< a 32-bit literal following the instruction (not an inline constant)
    uint64_t value = 0;
};

/// Which encoding variant a vector ALU instruction came in (the mnemonic suffix LLVM prints).
enum class Encoding : uint8_t { native, e32, e64, dpp, sdwa };

/// SDWA operand selections (CDNA2 ISA §12.7, SDWA SRC0_SEL/SRC1_SEL/DST_SEL).
enum SdwaSel : uint8_t {
    kSelByte0 = 0,
    kSelByte1,
    kSelByte2,
    kSelByte3,
    kSelWord0,
    kSelWord1,
    kSelDword,
};
/// SDWA DST_UNUSED: what happens to the destination bits outside DST_SEL.
enum SdwaUnused : uint8_t { kUnusedPad = 0, kUnusedSext, kUnusedPreserve };

/// The unit an instruction issues to (CDNA2 ISA §2.1); hardware counters count per unit.
enum class Unit : uint8_t { salu, smem, branch, valu, vmem_read, vmem_write, flat, lds, mfma, program };
inline constexpr int kUnitCount = 10;

struct Instruction {
    ExecuteFn execute = nullptr;
    uint16_t op = 0; ///< index of the op table entry (op_table.h)
    Unit unit = Unit::program;
    Encoding encoding = Encoding::native;
    uint8_t size = 4; ///< bytes
    uint8_t dst_count = 0;
    uint8_t src_count = 0;
    Operand dst[2];
    Operand src[4];

    // VOP3 output modifiers.
    bool clamp = false;
    uint8_t omod = 0; ///< 0: none, 1: *2, 2: *4, 3: /2

    // Memory: offsets and cache policy.
    int32_t offset = 0;               ///< FLAT/GLOBAL/SCRATCH/MUBUF/SMEM/DS byte offset
    uint8_t offset0 = 0, offset1 = 0; ///< DS two-address forms
    bool glc = false, slc = false, scc_policy = false, nt = false, gds = false;
    bool offen = false, idxen = false, lds = false;

    // VOP3P / VOP3 op_sel, packed negation.
    uint8_t op_sel = 0;
    uint8_t op_sel_hi = 0x7; ///< default: every source's high half from its high half
    uint8_t neg_lo = 0, neg_hi = 0;

    // DPP (CDNA2 ISA §12.6).
    uint16_t dpp_ctrl = 0;
    uint8_t row_mask = 0xf, bank_mask = 0xf;
    bool bound_ctrl = false;

    // SDWA.
    uint8_t dst_sel = kSelDword, dst_unused = kUnusedPad;
    uint8_t src_sel[2] = {kSelDword, kSelDword};

    // MFMA broadcast controls.
    uint8_t cbsz = 0, abid = 0, blgp = 0;

    /// SOPP/SOPK immediate; for branches, the target as an instruction index.
    int64_t simm = 0;
    /// s_getreg/s_setreg: hardware register id, bit offset, bit size.
    uint8_t hwreg_id = 0, hwreg_offset = 0, hwreg_size = 32;

    uint32_t address = 0; ///< byte offset of the instruction from the start of the kernel's code
};

} // namespace sim::isa
