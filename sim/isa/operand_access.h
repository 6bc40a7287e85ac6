// SPDX-License-Identifier: MIT
// Reading and writing operands: scalar sources and destinations, and vector sources lane by lane with
// DPP (CDNA2 ISA §12.6) and SDWA (§12.7) applied, written back under EXEC. Per-lane loops run over all
// 64 lanes and blend by mask, so the compiler vectorises them.
#pragma once

#include "wave.h"

#include <cstdint>
#include <cstring>

namespace sim::isa {

inline uint32_t read_scalar32(const Wave& w, const Operand& o, int part = 0) {
    switch (o.kind) {
    case OperandKind::sgpr:
        return w.sgpr[(o.index + part) % kScalarRegisterCount];
    case OperandKind::constant:
        return static_cast<uint32_t>(o.value >> (32 * part));
    case OperandKind::scc:
        return part == 0 && w.scc ? 1 : 0;
    case OperandKind::execz:
        return part == 0 && w.exec() == 0 ? 1 : 0;
    case OperandKind::vccz:
        return part == 0 && w.vcc() == 0 ? 1 : 0;
    default:
        return 0;
    }
}

inline uint64_t read_scalar64(const Wave& w, const Operand& o) {
    if (o.kind == OperandKind::constant) {
        return o.value;
    }
    return read_scalar32(w, o, 0) | static_cast<uint64_t>(read_scalar32(w, o, 1)) << 32;
}

inline void write_scalar32(Wave& w, const Operand& o, uint32_t v, int part = 0) {
    if (o.kind == OperandKind::sgpr) {
        w.sgpr[(o.index + part) % kScalarRegisterCount] = v;
    }
}

inline void write_scalar64(Wave& w, const Operand& o, uint64_t v) {
    write_scalar32(w, o, static_cast<uint32_t>(v), 0);
    write_scalar32(w, o, static_cast<uint32_t>(v >> 32), 1);
}

/// The lanes a vector instruction writes: EXEC, narrowed by DPP's row and bank masks and, without
/// BOUND_CTRL, by lanes whose DPP source is invalid.
uint64_t vector_write_mask(const Wave& w, const Instruction& in);

/// read_vector_src for DPP and SDWA encodings.
void read_vector_src_modified(const Wave& w, const Instruction& in, int i, uint32_t* out, int part);

/// Source `i` of a vector instruction, dword `part` of its register (or constant), one value per lane:
/// DPP moves lanes of src0, SDWA selects bytes or words of src0/src1 (zero- or sign-extended).
inline void read_vector_src(const Wave& w, const Instruction& in, int i, uint32_t* out, int part = 0) {
    if (in.encoding == Encoding::dpp || in.encoding == Encoding::sdwa) {
        read_vector_src_modified(w, in, i, out, part);
        return;
    }
    const Operand& o = in.src[i];
    if (o.kind == OperandKind::vgpr || o.kind == OperandKind::agpr) {
        std::memcpy(out, o.kind == OperandKind::vgpr ? w.vgpr[o.index + part] : w.agpr[o.index + part],
                    sizeof(uint32_t) * kLanes);
        return;
    }
    const uint32_t s = read_scalar32(w, o, part);
    for (int lane = 0; lane < kLanes; ++lane) {
        out[lane] = s;
    }
}
/// Source `i` as 64 bits per lane (a register pair or a 64-bit constant).
void read_vector_src64(const Wave& w, const Instruction& in, int i, uint64_t* out);
/// Scalar or vector source `i` of lane `lane` only (v_readlane and friends read one lane).
uint32_t read_lane(const Wave& w, const Operand& o, int lane, int part = 0);

/// Writes `values` into dword `part` of destination `d` under `mask` (SDWA DST_SEL/DST_UNUSED applied).
void write_vector_dst(Wave& w, const Instruction& in, int d, const uint32_t* values, uint64_t mask,
                      int part = 0);
void write_vector_dst64(Wave& w, const Instruction& in, int d, const uint64_t* values, uint64_t mask);

/// Lane bit `lane` of a 64-bit mask.
inline bool lane_on(uint64_t mask, int lane) {
    return (mask >> lane) & 1;
}

} // namespace sim::isa
