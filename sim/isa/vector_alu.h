// SPDX-License-Identifier: MIT
// The shapes of vector ALU operations (VOP1, VOP2, VOP3, VOPC): read every source for all 64 lanes, apply
// the input modifiers, compute lane by lane, apply the output modifiers, write under the lane mask
// (CDNA2 ISA §6 "Vector ALU Operations", §12.6-12.7 for DPP and SDWA). Each operation is a template
// instance over a plain per-lane function, so the lane loop inlines and vectorises.
#pragma once

#include "operand_access.h"

#include <cmath>
#include <cstdint>

namespace sim::isa {

struct alignas(64) Lanes {
    uint32_t v[kLanes];
};
struct alignas(64) Lanes64 {
    uint64_t v[kLanes];
};

/// MODE.FP_DENORM (bits 7:4): f32 denormals are flushed unless bits 5:4 are 3.
inline bool flushes_f32(const Wave& w) {
    return ((w.mode >> 4) & 3) != 3;
}
inline bool flushes_f64(const Wave& w) {
    return ((w.mode >> 6) & 3) != 3;
}

/// Source `i` read as f32 bits with abs/neg applied (and denormals flushed when MODE says so).
inline void read_f32(const Wave& w, const Instruction& in, int i, uint32_t* out) {
    read_vector_src(w, in, i, out);
    const Operand& o = in.src[i];
    if (!o.abs && !o.neg && !flushes_f32(w)) {
        return;
    }
    const uint32_t clear = o.abs ? 0x7fffffffu : 0xffffffffu;
    const uint32_t flip = o.neg ? 0x80000000u : 0;
    const bool flush = flushes_f32(w);
    for (int l = 0; l < kLanes; ++l) {
        uint32_t x = (out[l] & clear) ^ flip;
        if (flush && (x & 0x7f800000u) == 0) {
            x &= 0x80000000u;
        }
        out[l] = x;
    }
}

inline void read_f64(const Wave& w, const Instruction& in, int i, uint64_t* out) {
    read_vector_src64(w, in, i, out);
    const Operand& o = in.src[i];
    const uint64_t clear = o.abs ? 0x7fffffffffffffffull : ~0ull;
    const uint64_t flip = o.neg ? 0x8000000000000000ull : 0;
    const bool flush = flushes_f64(w);
    for (int l = 0; l < kLanes; ++l) {
        uint64_t x = (out[l] & clear) ^ flip;
        if (flush && (x & 0x7ff0000000000000ull) == 0) {
            x &= 0x8000000000000000ull;
        }
        out[l] = x;
    }
}

/// MODE.DX10_CLAMP (bit 8): CLAMP turns a NaN result into 0; without it the NaN passes through.
inline bool dx10_clamp(const Wave& w) {
    return (w.mode >> 8) & 1;
}

/// Applies VOP3 OMOD and CLAMP to f32 results (clamp to [0, 1], NaN to 0 under DX10_CLAMP).
inline void output_f32(const Wave& w, const Instruction& in, uint32_t* r) {
    if (in.omod) {
        const float m = in.omod == 1 ? 2.0f : in.omod == 2 ? 4.0f : 0.5f;
        for (int l = 0; l < kLanes; ++l) {
            r[l] = bit_cast<uint32_t>(bit_cast<float>(r[l]) * m);
        }
    }
    if (in.clamp) {
        const uint32_t nan = dx10_clamp(w) ? 0 : 1;
        for (int l = 0; l < kLanes; ++l) {
            const float f = bit_cast<float>(r[l]);
            r[l] = f != f ? r[l] * nan : bit_cast<uint32_t>(f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f);
        }
    }
    if (flushes_f32(w)) {
        for (int l = 0; l < kLanes; ++l) {
            if ((r[l] & 0x7f800000u) == 0) {
                r[l] &= 0x80000000u;
            }
        }
    }
}

inline void output_f64(const Wave& w, const Instruction& in, uint64_t* r) {
    if (in.omod) {
        const double m = in.omod == 1 ? 2.0 : in.omod == 2 ? 4.0 : 0.5;
        for (int l = 0; l < kLanes; ++l) {
            r[l] = bit_cast<uint64_t>(bit_cast<double>(r[l]) * m);
        }
    }
    if (in.clamp) {
        const uint64_t nan = dx10_clamp(w) ? 0 : 1;
        for (int l = 0; l < kLanes; ++l) {
            const double f = bit_cast<double>(r[l]);
            r[l] = f != f ? r[l] * nan : bit_cast<uint64_t>(f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f);
        }
    }
    if (flushes_f64(w)) {
        for (int l = 0; l < kLanes; ++l) {
            if ((r[l] & 0x7ff0000000000000ull) == 0) {
                r[l] &= 0x8000000000000000ull;
            }
        }
    }
}

/// Fused multiply-add of f32 lanes, r = a * b + c rounded once (V_FMA_F32). The product of two floats is
/// exact in double and the sum rounds once there; rounding that to float again equals the single rounding
/// unless the double lies exactly halfway between two floats or below the normal float range, where the
/// lane takes the library's fmaf. The first loop vectorises; the second rarely calls.
inline void fma_lanes(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
    alignas(64) uint64_t d[kLanes];
    for (int l = 0; l < kLanes; ++l) {
        const double x =
            static_cast<double>(bit_cast<float>(a[l])) * static_cast<double>(bit_cast<float>(b[l])) +
            static_cast<double>(bit_cast<float>(c[l]));
        d[l] = bit_cast<uint64_t>(x);
        r[l] = bit_cast<uint32_t>(static_cast<float>(x));
    }
    for (int l = 0; l < kLanes; ++l) {
        const uint64_t exponent = (d[l] >> 52) & 0x7ff;
        if ((d[l] & 0x1fffffffull) == 0x10000000ull || (exponent < 1023 - 126 && (d[l] << 1) != 0)) {
            r[l] = bit_cast<uint32_t>(
                std::fma(bit_cast<float>(a[l]), bit_cast<float>(b[l]), bit_cast<float>(c[l])));
        }
    }
}

/// The current value of destination `d`, dword `part`, lane by lane (for instructions that accumulate).
inline void read_vector_dst(const Wave& w, const Instruction& in, int d, uint32_t* out, int part = 0) {
    const Operand& o = in.dst[d];
    if (o.kind == OperandKind::vgpr || o.kind == OperandKind::agpr) {
        std::memcpy(out, o.kind == OperandKind::vgpr ? w.vgpr[o.index + part] : w.agpr[o.index + part],
                    sizeof(uint32_t) * kLanes);
    } else {
        std::memset(out, 0, sizeof(uint32_t) * kLanes);
    }
}

// ---- Shapes ----

template <uint32_t (*F)(uint32_t)>
void vop_u32_1(Wave& w, const Instruction& in) {
    Lanes a, r;
    read_vector_src(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = F(a.v[l]);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

template <uint32_t (*F)(uint32_t, uint32_t)>
void vop_u32_2(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = F(a.v[l], b.v[l]);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

template <uint32_t (*F)(uint32_t, uint32_t, uint32_t)>
void vop_u32_3(Wave& w, const Instruction& in) {
    Lanes a, b, c, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    read_vector_src(w, in, 2, c.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = F(a.v[l], b.v[l], c.v[l]);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

template <float (*F)(float)>
void vop_f32_1(Wave& w, const Instruction& in) {
    Lanes a, r;
    read_f32(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint32_t>(F(bit_cast<float>(a.v[l])));
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

template <float (*F)(float, float)>
void vop_f32_2(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint32_t>(F(bit_cast<float>(a.v[l]), bit_cast<float>(b.v[l])));
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

template <float (*F)(float, float, float)>
void vop_f32_3(Wave& w, const Instruction& in) {
    Lanes a, b, c, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    read_f32(w, in, 2, c.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] =
            bit_cast<uint32_t>(F(bit_cast<float>(a.v[l]), bit_cast<float>(b.v[l]), bit_cast<float>(c.v[l])));
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

template <double (*F)(double)>
void vop_f64_1(Wave& w, const Instruction& in) {
    Lanes64 a, r;
    read_f64(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint64_t>(F(bit_cast<double>(a.v[l])));
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}

template <double (*F)(double, double)>
void vop_f64_2(Wave& w, const Instruction& in) {
    Lanes64 a, b, r;
    read_f64(w, in, 0, a.v);
    read_f64(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint64_t>(F(bit_cast<double>(a.v[l]), bit_cast<double>(b.v[l])));
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}

template <double (*F)(double, double, double)>
void vop_f64_3(Wave& w, const Instruction& in) {
    Lanes64 a, b, c, r;
    read_f64(w, in, 0, a.v);
    read_f64(w, in, 1, b.v);
    read_f64(w, in, 2, c.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint64_t>(
            F(bit_cast<double>(a.v[l]), bit_cast<double>(b.v[l]), bit_cast<double>(c.v[l])));
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}

} // namespace sim::isa
