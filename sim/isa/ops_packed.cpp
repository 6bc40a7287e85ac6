// SPDX-License-Identifier: MIT
// VOP3P packed math: two 16-bit lanes per dword (v_pk_*_f16/u16/i16), two f32 per register pair
// (v_pk_*_f32, gfx90a), mixed-precision fma (v_fma_mix_*), dot products (v_dot*), with op_sel /
// op_sel_hi choosing each source half and neg_lo / neg_hi negating them (CDNA2 ISA §6.5, §12.11).
#include "half.h"
#include "op_table.h"
#include "vector_alu.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sim::isa {

namespace {

using V = ValueType;

/// The 16-bit half of a source that result half `hi` reads, per op_sel / op_sel_hi. Inline constants
/// serve both halves.
uint32_t half_of(const Instruction& in, int i, uint32_t value, bool hi) {
    const Operand& o = in.src[i];
    if (o.kind == OperandKind::constant && !o.literal) {
        return value & 0xffff;
    }
    const bool take_high = hi ? (in.op_sel_hi >> i) & 1 : (in.op_sel >> i) & 1;
    return (take_high ? value >> 16 : value) & 0xffff;
}

bool negated(const Instruction& in, int i, bool hi) {
    return ((hi ? in.neg_hi : in.neg_lo) >> i) & 1;
}

template <typename F>
void packed16(Wave& w, const Instruction& in, int sources, bool is_float, F f) {
    Lanes s[3], r;
    for (int i = 0; i < sources; ++i) {
        read_vector_src(w, in, i, s[i].v);
    }
    for (int l = 0; l < kLanes; ++l) {
        uint32_t out = 0;
        for (int h = 0; h < 2; ++h) {
            uint32_t x[3] = {0, 0, 0};
            for (int i = 0; i < sources; ++i) {
                x[i] = half_of(in, i, s[i].v[l], h == 1);
                if (negated(in, i, h == 1)) {
                    x[i] = is_float ? x[i] ^ 0x8000 : static_cast<uint16_t>(0u - x[i]);
                }
            }
            uint32_t y = f(x[0], x[1], x[2]) & 0xffff;
            if (is_float && in.clamp) {
                const float c = half_to_float(static_cast<uint16_t>(y));
                y = float_to_half(c != c ? 0.0f : std::clamp(c, 0.0f, 1.0f));
            }
            out |= y << (16 * h);
        }
        r.v[l] = out;
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

float h2f(uint32_t x) {
    return half_to_float(static_cast<uint16_t>(x));
}

template <int Op>
void pk_f16(Wave& w, const Instruction& in) {
    const int sources = Op == 2 ? 3 : 2;
    const bool ieee = (w.mode >> 9) & 1; // MODE.IEEE
    packed16(w, in, sources, true, [ieee](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
        switch (Op) {
        case 0:
            return float_to_half(h2f(a) + h2f(b));
        case 1:
            return float_to_half(h2f(a) * h2f(b));
        case 2:
            return float_to_half(std::fma(h2f(a), h2f(b), h2f(c)));
        default: // v_pk_min_f16, v_pk_max_f16: each half as v_min_f16 / v_max_f16
            return min_max_f16(static_cast<uint16_t>(a), static_cast<uint16_t>(b), Op == 4, ieee);
        }
    });
}

template <int Op>
void pk_int16(Wave& w, const Instruction& in) {
    const int sources = Op == 10 || Op == 11 ? 3 : 2;
    packed16(w, in, sources, false, [&in](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
        const auto sa = static_cast<int16_t>(a), sb = static_cast<int16_t>(b);
        switch (Op) {
        case 0: { // add_u16
            const uint32_t s = a + b;
            return in.clamp ? std::min(s, 0xffffu) : s;
        }
        case 1: { // sub_u16
            return in.clamp && b > a ? 0 : a - b;
        }
        case 2: { // add_i16
            const int32_t s = sa + sb;
            return static_cast<uint16_t>(in.clamp ? std::clamp(s, -32768, 32767) : s);
        }
        case 3: {
            const int32_t s = sa - sb;
            return static_cast<uint16_t>(in.clamp ? std::clamp(s, -32768, 32767) : s);
        }
        case 4:
            return a * b;
        case 5:
            return std::min(a, b);
        case 6:
            return std::max(a, b);
        case 7:
            return static_cast<uint16_t>(std::min(sa, sb));
        case 8:
            return static_cast<uint16_t>(std::max(sa, sb));
        case 9:
            return b << (a & 15);
        case 10:
            return a * b + c; // mad_u16
        case 11:
            return static_cast<uint16_t>(sa * sb + static_cast<int16_t>(c)); // mad_i16
        case 12:
            return (b & 0xffff) >> (a & 15);
        default:
            return static_cast<uint16_t>(sb >> (a & 15));
        }
    });
}

/// v_pk_*_f32: each result dword from the dword op_sel (low result) / op_sel_hi (high result) picks of
/// each source, negated by neg_lo / neg_hi; an inline constant serves both dwords.
template <int Op>
void pk_f32(Wave& w, const Instruction& in) {
    const int sources = Op == 2 ? 3 : 2;
    Lanes lo[3], hi[3], x[2][3], r[2];
    for (int i = 0; i < sources; ++i) {
        read_vector_src(w, in, i, lo[i].v, 0);
        read_vector_src(w, in, i, hi[i].v, in.src[i].kind == OperandKind::constant ? 0 : 1);
    }
    for (int h = 0; h < 2; ++h) {
        const uint32_t* operand[3] = {};
        for (int i = 0; i < sources; ++i) {
            // v_pk_mov_b32 picks each source's dword by op_sel alone: D = {S0[op_sel[0]], S1[op_sel[1]]}.
            const bool take_high = h && Op != 3 ? (in.op_sel_hi >> i) & 1 : (in.op_sel >> i) & 1;
            const uint32_t* from = take_high ? hi[i].v : lo[i].v;
            operand[i] = from;
            if (negated(in, i, h == 1)) { // a negated source is copied with its sign bits flipped
                for (int l = 0; l < kLanes; ++l) {
                    x[h][i].v[l] = from[l] ^ 0x80000000u;
                }
                operand[i] = x[h][i].v;
            }
        }
        uint32_t* out = r[h].v;
        const uint32_t *a = operand[0], *b = operand[1];
        switch (Op) {
        case 0:
            for (int l = 0; l < kLanes; ++l) {
                out[l] = bit_cast<uint32_t>(bit_cast<float>(a[l]) + bit_cast<float>(b[l]));
            }
            break;
        case 1:
            for (int l = 0; l < kLanes; ++l) {
                out[l] = bit_cast<uint32_t>(bit_cast<float>(a[l]) * bit_cast<float>(b[l]));
            }
            break;
        case 2:
            fma_lanes(a, b, operand[2], out);
            break;
        default: // v_pk_mov_b32: the low result from src0, the high one from src1
            std::memcpy(out, operand[h], sizeof(uint32_t) * kLanes);
            break;
        }
    }
    const uint64_t mask = vector_write_mask(w, in);
    write_vector_dst(w, in, 0, r[0].v, mask, 0);
    write_vector_dst(w, in, 0, r[1].v, mask, 1);
}

/// v_fma_mix_f32 / _mixlo_f16 / _mixhi_f16: each source an f32 or (op_sel_hi set) an f16 half chosen by
/// op_sel.
template <int Kind>
void fma_mix(Wave& w, const Instruction& in) {
    Lanes s[3], r;
    for (int i = 0; i < 3; ++i) {
        read_vector_src(w, in, i, s[i].v);
    }
    for (int l = 0; l < kLanes; ++l) {
        float x[3];
        for (int i = 0; i < 3; ++i) {
            const bool f16 = (in.op_sel_hi >> i) & 1;
            float v =
                f16 ? h2f((in.op_sel >> i) & 1 ? s[i].v[l] >> 16 : s[i].v[l]) : bit_cast<float>(s[i].v[l]);
            v = in.src[i].abs ? std::fabs(v) : v;
            x[i] = in.src[i].neg ? -v : v;
        }
        float y = std::fma(x[0], x[1], x[2]);
        if (in.clamp) {
            y = y != y ? 0.0f : std::clamp(y, 0.0f, 1.0f);
        }
        const uint32_t old = read_lane(w, in.dst[0], l);
        if (Kind == 0) {
            r.v[l] = bit_cast<uint32_t>(y);
        } else if (Kind == 1) {
            r.v[l] = (old & 0xffff0000u) | float_to_half(y);
        } else {
            r.v[l] = (old & 0xffffu) | static_cast<uint32_t>(float_to_half(y)) << 16;
        }
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

/// Dot products: D = sum of element products of S0 and S1 + S2 (v_dot2c/4c accumulate into D); CLAMP
/// saturates the integer sums to the result's range and clamps the f32 sum to [0, 1].
template <int Kind, bool Accumulate>
void dot(Wave& w, const Instruction& in) {
    const bool clamp = in.clamp;
    auto sat_i = [clamp](int64_t v) {
        return static_cast<uint32_t>(clamp ? std::clamp<int64_t>(v, INT32_MIN, INT32_MAX) : v);
    };
    auto sat_u = [clamp](uint64_t v) {
        return static_cast<uint32_t>(clamp ? std::min<uint64_t>(v, ~0u) : v);
    };
    Lanes a, b, c, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    if (Accumulate) {
        read_vector_dst(w, in, 0, c.v);
    } else {
        read_vector_src(w, in, 2, c.v);
    }
    for (int l = 0; l < kLanes; ++l) {
        const uint32_t x = a.v[l], y = b.v[l];
        switch (Kind) {
        case 0: { // f32 += f16 x f16 (2)
            const float s = h2f(x) * h2f(y) + h2f(x >> 16) * h2f(y >> 16);
            float v = s + bit_cast<float>(c.v[l]);
            if (clamp) {
                v = v != v ? (dx10_clamp(w) ? 0.0f : v) : std::clamp(v, 0.0f, 1.0f);
            }
            r.v[l] = bit_cast<uint32_t>(v);
            break;
        }
        case 1: { // i32 += i16 x i16 (2)
            const int64_t s = int64_t{static_cast<int16_t>(x) * static_cast<int16_t>(y)} +
                              static_cast<int16_t>(x >> 16) * static_cast<int16_t>(y >> 16);
            r.v[l] = sat_i(s + static_cast<int32_t>(c.v[l]));
            break;
        }
        case 2: { // u32 += u16 x u16 (2)
            r.v[l] =
                sat_u(static_cast<uint64_t>((x & 0xffff) * (y & 0xffff)) + (x >> 16) * (y >> 16) + c.v[l]);
            break;
        }
        case 3: { // i32 += i8 x i8 (4)
            int64_t s = 0;
            for (int k = 0; k < 4; ++k) {
                s += static_cast<int8_t>(x >> (8 * k)) * static_cast<int8_t>(y >> (8 * k));
            }
            r.v[l] = sat_i(s + static_cast<int32_t>(c.v[l]));
            break;
        }
        case 4: { // u32 += u8 x u8 (4)
            uint64_t s = 0;
            for (int k = 0; k < 4; ++k) {
                s += ((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
            }
            r.v[l] = sat_u(s + c.v[l]);
            break;
        }
        case 5: { // i32 += i4 x i4 (8)
            int64_t s = 0;
            for (int k = 0; k < 8; ++k) {
                s += (static_cast<int32_t>(x << (28 - 4 * k)) >> 28) *
                     (static_cast<int32_t>(y << (28 - 4 * k)) >> 28);
            }
            r.v[l] = sat_i(s + static_cast<int32_t>(c.v[l]));
            break;
        }
        default: { // u32 += u4 x u4 (8)
            uint64_t s = 0;
            for (int k = 0; k < 8; ++k) {
                s += ((x >> (4 * k)) & 0xf) * ((y >> (4 * k)) & 0xf);
            }
            r.v[l] = sat_u(s + c.v[l]);
            break;
        }
        }
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

void add(OpTable& t, const char* name, ExecuteFn fn, V type) {
    t.add({name, fn, Unit::valu, 1, {type, type, type, V::b32}});
}

} // namespace

void register_packed_ops(OpTable& t) {
    add(t, "v_pk_add_f16", pk_f16<0>, V::f16);
    add(t, "v_pk_mul_f16", pk_f16<1>, V::f16);
    add(t, "v_pk_fma_f16", pk_f16<2>, V::f16);
    add(t, "v_pk_min_f16", pk_f16<3>, V::f16);
    add(t, "v_pk_max_f16", pk_f16<4>, V::f16);
    add(t, "v_pk_add_u16", pk_int16<0>, V::b16);
    add(t, "v_pk_sub_u16", pk_int16<1>, V::b16);
    add(t, "v_pk_add_i16", pk_int16<2>, V::b16);
    add(t, "v_pk_sub_i16", pk_int16<3>, V::b16);
    add(t, "v_pk_mul_lo_u16", pk_int16<4>, V::b16);
    add(t, "v_pk_min_u16", pk_int16<5>, V::b16);
    add(t, "v_pk_max_u16", pk_int16<6>, V::b16);
    add(t, "v_pk_min_i16", pk_int16<7>, V::b16);
    add(t, "v_pk_max_i16", pk_int16<8>, V::b16);
    add(t, "v_pk_lshlrev_b16", pk_int16<9>, V::b16);
    add(t, "v_pk_mad_u16", pk_int16<10>, V::b16);
    add(t, "v_pk_mad_i16", pk_int16<11>, V::b16);
    add(t, "v_pk_lshrrev_b16", pk_int16<12>, V::b16);
    add(t, "v_pk_ashrrev_i16", pk_int16<13>, V::b16);
    add(t, "v_pk_add_f32", pk_f32<0>, V::f32);
    add(t, "v_pk_mul_f32", pk_f32<1>, V::f32);
    add(t, "v_pk_fma_f32", pk_f32<2>, V::f32);
    add(t, "v_pk_mov_b32", pk_f32<3>, V::b32);
    add(t, "v_fma_mix_f32", fma_mix<0>, V::f32);
    add(t, "v_fma_mixlo_f16", fma_mix<1>, V::f32);
    add(t, "v_fma_mixhi_f16", fma_mix<2>, V::f32);
    add(t, "v_mad_mix_f32", fma_mix<0>, V::f32);
    add(t, "v_mad_mixlo_f16", fma_mix<1>, V::f32);
    add(t, "v_mad_mixhi_f16", fma_mix<2>, V::f32);
    add(t, "v_dot2_f32_f16", dot<0, false>, V::b32);
    add(t, "v_dot2_i32_i16", dot<1, false>, V::b32);
    add(t, "v_dot2_u32_u16", dot<2, false>, V::b32);
    add(t, "v_dot4_i32_i8", dot<3, false>, V::b32);
    add(t, "v_dot4_u32_u8", dot<4, false>, V::b32);
    add(t, "v_dot8_i32_i4", dot<5, false>, V::b32);
    add(t, "v_dot8_u32_u4", dot<6, false>, V::b32);
    add(t, "v_dot2c_f32_f16", dot<0, true>, V::b32);
    add(t, "v_dot2c_i32_i16", dot<1, true>, V::b32);
    add(t, "v_dot4c_i32_i8", dot<3, true>, V::b32);
    add(t, "v_dot8c_i32_i4", dot<5, true>, V::b32);
}

} // namespace sim::isa
