// SPDX-License-Identifier: MIT
#include "operand_access.h"

#include <array>
#include <cstring>

namespace sim::isa {

namespace {

/// DPP_CTRL values (CDNA2 ISA §12.6 table "DPP_CTRL enumeration").
constexpr uint16_t kQuadPermLast = 0x0ff;
constexpr uint16_t kRowShl = 0x100, kRowShr = 0x110, kRowRor = 0x120;
constexpr uint16_t kWaveShl = 0x130, kWaveRol = 0x134, kWaveShr = 0x138, kWaveRor = 0x13c;
constexpr uint16_t kRowMirror = 0x140, kRowHalfMirror = 0x141, kRowBcast15 = 0x142, kRowBcast31 = 0x143;

/// The lane lane `lane` reads under DPP control `ctrl`, or -1 when that source is out of range.
int dpp_source(uint16_t ctrl, int lane) {
    const int row_lane = lane & 15;
    if (ctrl <= kQuadPermLast) {
        return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3);
    }
    if (ctrl > kRowShl && ctrl < kRowShl + 16) {
        const int n = ctrl - kRowShl;
        return row_lane + n < 16 ? lane + n : -1;
    }
    if (ctrl > kRowShr && ctrl < kRowShr + 16) {
        const int n = ctrl - kRowShr;
        return row_lane >= n ? lane - n : -1;
    }
    if (ctrl > kRowRor && ctrl < kRowRor + 16) {
        const int n = ctrl - kRowRor;
        return (lane & ~15) | ((row_lane - n) & 15);
    }
    switch (ctrl) {
    case kWaveShl:
        return lane < kLanes - 1 ? lane + 1 : -1;
    case kWaveRol:
        return (lane + 1) & 63;
    case kWaveShr:
        return lane > 0 ? lane - 1 : -1;
    case kWaveRor:
        return (lane - 1) & 63;
    case kRowMirror:
        return (lane & ~15) | (15 - row_lane);
    case kRowHalfMirror:
        return (lane & ~7) | (7 - (lane & 7));
    case kRowBcast15:
        return lane >= 16 ? (lane & ~15) - 1 : -1;
    case kRowBcast31:
        return lane >= 32 ? 31 : -1;
    default:
        return -1;
    }
}

/// Bits of `value` selected by an SDWA selection, zero- or sign-extended to 32 bits.
uint32_t sdwa_select(uint32_t value, uint8_t sel, bool sext) {
    switch (sel) {
    case kSelByte0:
    case kSelByte1:
    case kSelByte2:
    case kSelByte3: {
        const uint32_t b = (value >> (8 * sel)) & 0xff;
        return sext ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b))) : b;
    }
    case kSelWord0:
    case kSelWord1: {
        const uint32_t h = (value >> (16 * (sel - kSelWord0))) & 0xffff;
        return sext ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(h))) : h;
    }
    default:
        return value;
    }
}

} // namespace

void expand_lane_mask(uint64_t mask, uint32_t* out) {
    // One table row per byte of the mask: eight lanes of all-ones or zero.
    static const auto kRows = [] {
        std::array<std::array<uint32_t, 8>, 256> rows{};
        for (int b = 0; b < 256; ++b) {
            for (int i = 0; i < 8; ++i) {
                rows[b][i] = (b >> i) & 1 ? ~0u : 0u;
            }
        }
        return rows;
    }();
    for (int byte = 0; byte < 8; ++byte) {
        std::memcpy(out + 8 * byte, kRows[(mask >> (8 * byte)) & 0xff].data(), sizeof(uint32_t) * 8);
    }
}

uint32_t read_lane(const Wave& w, const Operand& o, int lane, int part) {
    switch (o.kind) {
    case OperandKind::vgpr:
        return w.vgpr[o.index + part][lane];
    case OperandKind::agpr:
        return w.agpr[o.index + part][lane];
    default:
        return read_scalar32(w, o, part);
    }
}

uint64_t vector_write_mask(const Wave& w, const Instruction& in) {
    uint64_t mask = w.exec();
    if (in.encoding != Encoding::dpp) {
        return mask;
    }
    for (int lane = 0; lane < kLanes; ++lane) {
        const bool row_on = (in.row_mask >> (lane >> 4)) & 1;
        const bool bank_on = (in.bank_mask >> ((lane & 15) >> 2)) & 1;
        const int src = dpp_source(in.dpp_ctrl, lane);
        const bool src_valid = src >= 0 && lane_on(w.exec(), src);
        if (!row_on || !bank_on || (!src_valid && !in.bound_ctrl)) {
            mask &= ~(1ull << lane);
        }
    }
    return mask;
}

void read_vector_src_modified(const Wave& w, const Instruction& in, int i, uint32_t* out, int part) {
    const Operand& o = in.src[i];
    if (o.kind == OperandKind::vgpr || o.kind == OperandKind::agpr) {
        const uint32_t* r = o.kind == OperandKind::vgpr ? w.vgpr[o.index + part] : w.agpr[o.index + part];
        if (i == 0 && in.encoding == Encoding::dpp) {
            const uint64_t exec = w.exec();
            for (int lane = 0; lane < kLanes; ++lane) {
                const int src = dpp_source(in.dpp_ctrl, lane);
                out[lane] = src >= 0 && lane_on(exec, src) ? r[src] : 0;
            }
            return;
        }
        for (int lane = 0; lane < kLanes; ++lane) {
            out[lane] = r[lane];
        }
    } else {
        const uint32_t s = read_scalar32(w, o, part);
        for (int lane = 0; lane < kLanes; ++lane) {
            out[lane] = s;
        }
    }
    if (in.encoding == Encoding::sdwa && i < 2 && in.src_sel[i] != kSelDword) {
        for (int lane = 0; lane < kLanes; ++lane) {
            out[lane] = sdwa_select(out[lane], in.src_sel[i], o.sext);
        }
    }
}

void read_vector_src64(const Wave& w, const Instruction& in, int i, uint64_t* out) {
    const Operand& o = in.src[i];
    if (o.kind == OperandKind::vgpr || o.kind == OperandKind::agpr) {
        alignas(64) uint32_t lo[kLanes], hi[kLanes];
        read_vector_src(w, in, i, lo, 0);
        read_vector_src(w, in, i, hi, 1);
        for (int lane = 0; lane < kLanes; ++lane) {
            out[lane] = lo[lane] | static_cast<uint64_t>(hi[lane]) << 32;
        }
        return;
    }
    const uint64_t s = read_scalar64(w, o);
    for (int lane = 0; lane < kLanes; ++lane) {
        out[lane] = s;
    }
}

void write_vector_dst(Wave& w, const Instruction& in, int d, const uint32_t* values, uint64_t mask,
                      int part) {
    const Operand& o = in.dst[d];
    uint32_t* r;
    if (o.kind == OperandKind::vgpr) {
        r = w.vgpr[o.index + part];
    } else if (o.kind == OperandKind::agpr) {
        r = w.agpr[o.index + part];
    } else {
        return;
    }
    if (in.encoding == Encoding::sdwa && in.dst_sel != kSelDword) {
        const uint32_t shift = in.dst_sel <= kSelByte3 ? 8 * in.dst_sel : 16 * (in.dst_sel - kSelWord0);
        const uint32_t bits = in.dst_sel <= kSelByte3 ? 0xffu : 0xffffu;
        for (int lane = 0; lane < kLanes; ++lane) {
            if (!lane_on(mask, lane)) {
                continue;
            }
            const uint32_t field = (values[lane] & bits) << shift;
            uint32_t result;
            if (in.dst_unused == kUnusedPreserve) {
                result = (r[lane] & ~(bits << shift)) | field;
            } else if (in.dst_unused == kUnusedSext) {
                const uint32_t top_bit = (field >> (shift + (bits == 0xff ? 7 : 15))) & 1;
                const uint32_t above = shift + (bits == 0xff ? 8 : 16) >= 32
                                           ? 0
                                           : (top_bit ? ~0u << (shift + (bits == 0xff ? 8 : 16)) : 0);
                result = field | above;
            } else {
                result = field;
            }
            r[lane] = result;
        }
        return;
    }
    if (mask == ~uint64_t{0}) { // every lane on, the common case: no merge with the old value
        std::memcpy(r, values, sizeof(uint32_t) * kLanes);
        return;
    }
    alignas(64) uint32_t select[kLanes];
    expand_lane_mask(mask, select);
    for (int lane = 0; lane < kLanes; ++lane) {
        r[lane] = (values[lane] & select[lane]) | (r[lane] & ~select[lane]);
    }
}

void write_vector_dst64(Wave& w, const Instruction& in, int d, const uint64_t* values, uint64_t mask) {
    alignas(64) uint32_t lo[kLanes], hi[kLanes];
    for (int lane = 0; lane < kLanes; ++lane) {
        lo[lane] = static_cast<uint32_t>(values[lane]);
        hi[lane] = static_cast<uint32_t>(values[lane] >> 32);
    }
    write_vector_dst(w, in, d, lo, mask, 0);
    write_vector_dst(w, in, d, hi, mask, 1);
}

} // namespace sim::isa
