// SPDX-License-Identifier: MIT
// Vector integer, bitwise and lane operations of VOP1/VOP2/VOP3 (CDNA2 ISA §6, §12.7-12.10 opcode
// tables): moves, shifts, adds with carry, 24-bit and 32-bit multiplies, bit fields, v_cndmask, the lane
// reads and writes (v_readlane, v_writelane, v_readfirstlane, v_mbcnt) and the AGPR moves.
#include "op_table.h"
#include "vector_alu.h"

#include <algorithm>
#include <bit>

namespace sim::isa {

namespace {

using V = ValueType;

uint32_t mov(uint32_t a) {
    return a;
}
uint32_t bit_not(uint32_t a) {
    return ~a;
}
uint32_t bfrev(uint32_t a) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) {
        r |= ((a >> i) & 1) << (31 - i);
    }
    return r;
}
uint32_t ffbh_u32(uint32_t a) {
    return a == 0 ? ~0u : static_cast<uint32_t>(std::countl_zero(a));
}
uint32_t ffbl_b32(uint32_t a) {
    return a == 0 ? ~0u : static_cast<uint32_t>(std::countr_zero(a));
}
uint32_t ffbh_i32(uint32_t a) {
    if (a == 0 || a == ~0u) {
        return ~0u;
    }
    return static_cast<uint32_t>(std::countl_zero(static_cast<int32_t>(a) < 0 ? ~a : a));
}
uint32_t bit_and(uint32_t a, uint32_t b) {
    return a & b;
}
uint32_t bit_or(uint32_t a, uint32_t b) {
    return a | b;
}
uint32_t bit_xor(uint32_t a, uint32_t b) {
    return a ^ b;
}
uint32_t bit_xnor(uint32_t a, uint32_t b) {
    return ~(a ^ b);
}
uint32_t lshlrev(uint32_t a, uint32_t b) {
    return b << (a & 31);
}
uint32_t lshrrev(uint32_t a, uint32_t b) {
    return b >> (a & 31);
}
uint32_t ashrrev(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>(static_cast<int32_t>(b) >> (a & 31));
}
uint32_t lshlrev_b16(uint32_t a, uint32_t b) {
    return static_cast<uint16_t>(b << (a & 15));
}
uint32_t lshrrev_b16(uint32_t a, uint32_t b) {
    return static_cast<uint16_t>((b & 0xffff) >> (a & 15));
}
uint32_t ashrrev_i16(uint32_t a, uint32_t b) {
    return static_cast<uint16_t>(static_cast<int16_t>(b) >> (a & 15));
}
uint32_t mul_lo_u16(uint32_t a, uint32_t b) {
    return static_cast<uint16_t>((a & 0xffff) * (b & 0xffff));
}
uint32_t max_u16(uint32_t a, uint32_t b) {
    return std::max(a & 0xffff, b & 0xffff);
}
uint32_t min_u16(uint32_t a, uint32_t b) {
    return std::min(a & 0xffff, b & 0xffff);
}
uint32_t max_i16(uint32_t a, uint32_t b) {
    return static_cast<uint16_t>(std::max(static_cast<int16_t>(a), static_cast<int16_t>(b)));
}
uint32_t min_i16(uint32_t a, uint32_t b) {
    return static_cast<uint16_t>(std::min(static_cast<int16_t>(a), static_cast<int16_t>(b)));
}
int32_t i24(uint32_t a) {
    return static_cast<int32_t>(a << 8) >> 8;
}
uint32_t mul_i32_i24(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>(static_cast<int64_t>(i24(a)) * i24(b));
}
uint32_t mul_hi_i32_i24(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>(static_cast<uint64_t>(static_cast<int64_t>(i24(a)) * i24(b)) >> 32);
}
uint32_t mul_u32_u24(uint32_t a, uint32_t b) {
    return (a & 0xffffff) * (b & 0xffffff);
}
uint32_t mul_hi_u32_u24(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>((static_cast<uint64_t>(a & 0xffffff) * (b & 0xffffff)) >> 32);
}
uint32_t mul_lo_u32(uint32_t a, uint32_t b) {
    return a * b;
}
uint32_t mul_hi_u32(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
}
uint32_t mul_hi_i32(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>(
        static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a)) * static_cast<int32_t>(b)) >> 32);
}
uint32_t min_i32(uint32_t a, uint32_t b) {
    return static_cast<int32_t>(a) < static_cast<int32_t>(b) ? a : b;
}
uint32_t max_i32(uint32_t a, uint32_t b) {
    return static_cast<int32_t>(a) > static_cast<int32_t>(b) ? a : b;
}
uint32_t min_u32(uint32_t a, uint32_t b) {
    return std::min(a, b);
}
uint32_t max_u32(uint32_t a, uint32_t b) {
    return std::max(a, b);
}
uint32_t min3_i32(uint32_t a, uint32_t b, uint32_t c) {
    return min_i32(min_i32(a, b), c);
}
uint32_t max3_i32(uint32_t a, uint32_t b, uint32_t c) {
    return max_i32(max_i32(a, b), c);
}
uint32_t min3_u32(uint32_t a, uint32_t b, uint32_t c) {
    return std::min({a, b, c});
}
uint32_t max3_u32(uint32_t a, uint32_t b, uint32_t c) {
    return std::max({a, b, c});
}
uint32_t med3_i32(uint32_t a, uint32_t b, uint32_t c) {
    return max_i32(min_i32(a, b), min_i32(max_i32(a, b), c));
}
uint32_t med3_u32(uint32_t a, uint32_t b, uint32_t c) {
    return std::max(std::min(a, b), std::min(std::max(a, b), c));
}
uint32_t mad_u32_u24(uint32_t a, uint32_t b, uint32_t c) {
    return mul_u32_u24(a, b) + c;
}
uint32_t mad_i32_i24(uint32_t a, uint32_t b, uint32_t c) {
    return mul_i32_i24(a, b) + c;
}
uint32_t mad_u32_u16(uint32_t a, uint32_t b, uint32_t c) {
    return (a & 0xffff) * (b & 0xffff) + c;
}
uint32_t mad_i32_i16(uint32_t a, uint32_t b, uint32_t c) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(a)) * static_cast<int16_t>(b)) + c;
}
uint32_t bfe_u32(uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t offset = b & 31, width = c & 31;
    return width == 0 ? 0 : (a >> offset) & ((1u << width) - 1);
}
uint32_t bfe_i32(uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t offset = b & 31, width = c & 31;
    if (width == 0) {
        return 0;
    }
    const uint32_t field = (a >> offset) & ((1u << width) - 1);
    const uint32_t sign = 1u << (width - 1);
    return (field ^ sign) - sign;
}
uint32_t bfi_b32(uint32_t a, uint32_t b, uint32_t c) {
    return (a & b) | (~a & c);
}
uint32_t bfm_b32(uint32_t a, uint32_t b) {
    return ((a & 31) == 0 ? 0u : (1u << (a & 31)) - 1) << (b & 31);
}
uint32_t alignbit(uint32_t a, uint32_t b, uint32_t c) {
    return static_cast<uint32_t>(((static_cast<uint64_t>(a) << 32) | b) >> (c & 31));
}
uint32_t alignbyte(uint32_t a, uint32_t b, uint32_t c) {
    return static_cast<uint32_t>(((static_cast<uint64_t>(a) << 32) | b) >> (8 * (c & 3)));
}
uint32_t perm_b32(uint32_t a, uint32_t b, uint32_t c) {
    // Bytes of {S0, S1} selected by each byte of S2 (CDNA2 ISA, V_PERM_B32).
    const uint64_t bytes = static_cast<uint64_t>(a) << 32 | b;
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
        const uint32_t sel = (c >> (8 * i)) & 0xff;
        uint32_t v;
        if (sel <= 7) {
            v = (bytes >> (8 * sel)) & 0xff;
        } else if (sel == 8) {
            v = (bytes >> 15 & 1) ? 0xff : 0;
        } else if (sel == 9) {
            v = (bytes >> 31 & 1) ? 0xff : 0;
        } else if (sel == 10) {
            v = (bytes >> 47 & 1) ? 0xff : 0;
        } else if (sel == 11) {
            v = (bytes >> 63 & 1) ? 0xff : 0;
        } else if (sel == 12) {
            v = 0;
        } else {
            v = 0xff;
        }
        r |= v << (8 * i);
    }
    return r;
}
uint32_t lshl_add(uint32_t a, uint32_t b, uint32_t c) {
    return (a << (b & 31)) + c;
}
uint32_t add_lshl(uint32_t a, uint32_t b, uint32_t c) {
    return (a + b) << (c & 31);
}
uint32_t add3(uint32_t a, uint32_t b, uint32_t c) {
    return a + b + c;
}
uint32_t lshl_or(uint32_t a, uint32_t b, uint32_t c) {
    return (a << (b & 31)) | c;
}
uint32_t and_or(uint32_t a, uint32_t b, uint32_t c) {
    return (a & b) | c;
}
uint32_t or3(uint32_t a, uint32_t b, uint32_t c) {
    return a | b | c;
}
uint32_t xad(uint32_t a, uint32_t b, uint32_t c) {
    return (a ^ b) + c;
}
uint32_t bcnt(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>(std::popcount(a)) + b;
}
uint32_t lerp_u8(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
        const uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff, z = (c >> (8 * i)) & 1;
        r |= ((x + y + z) >> 1) << (8 * i);
    }
    return r;
}
uint32_t sad_u8(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = c;
    for (int i = 0; i < 4; ++i) {
        const uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
        r += x > y ? x - y : y - x;
    }
    return r;
}
uint32_t sad_hi_u8(uint32_t a, uint32_t b, uint32_t c) {
    return (sad_u8(a, b, 0) << 16) + c;
}
uint32_t sad_u16(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = c;
    for (int i = 0; i < 2; ++i) {
        const uint32_t x = (a >> (16 * i)) & 0xffff, y = (b >> (16 * i)) & 0xffff;
        r += x > y ? x - y : y - x;
    }
    return r;
}
uint32_t sad_u32(uint32_t a, uint32_t b, uint32_t c) {
    return (a > b ? a - b : b - a) + c;
}
uint32_t msad_u8(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = c;
    for (int i = 0; i < 4; ++i) {
        const uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
        r += y == 0 ? 0 : (x > y ? x - y : y - x);
    }
    return r;
}
uint32_t cvt_pk_u16_u32(uint32_t a, uint32_t b) {
    return std::min(a, 0xffffu) | std::min(b, 0xffffu) << 16;
}
uint32_t clamp_i16(uint32_t a) {
    return static_cast<uint16_t>(std::clamp(static_cast<int32_t>(a), -32768, 32767));
}
uint32_t cvt_pk_i16_i32(uint32_t a, uint32_t b) {
    return clamp_i16(a) | clamp_i16(b) << 16;
}
uint32_t sat_pk_u8_i16(uint32_t a) {
    auto sat = [](uint32_t h) {
        return static_cast<uint32_t>(std::clamp<int32_t>(static_cast<int16_t>(h), 0, 255));
    };
    return sat(a) | sat(a >> 16) << 8;
}

/// VOP3 u32 adds with CLAMP saturate.
void add_u32_op(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const uint64_t s = static_cast<uint64_t>(a.v[l]) + b.v[l];
        r.v[l] = in.clamp && s > 0xffffffffu ? 0xffffffffu : static_cast<uint32_t>(s);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <bool Reverse>
void sub_u32_op(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, Reverse ? 1 : 0, a.v);
    read_vector_src(w, in, Reverse ? 0 : 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = in.clamp && b.v[l] > a.v[l] ? 0 : a.v[l] - b.v[l];
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
/// v_add_u16 / v_sub_u16 / v_subrev_u16: VOP3 CLAMP saturates to [0, 0xffff] (CDNA2 ISA §6.2).
template <int Kind> // 0 add, 1 sub, 2 subrev
void addsub_u16_op(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, Kind == 2 ? 1 : 0, a.v);
    read_vector_src(w, in, Kind == 2 ? 0 : 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const int32_t x = static_cast<int32_t>(a.v[l] & 0xffff), y = static_cast<int32_t>(b.v[l] & 0xffff);
        const int32_t s = Kind == 0 ? x + y : x - y;
        r.v[l] = static_cast<uint16_t>(in.clamp ? std::clamp(s, 0, 0xffff) : s);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
/// v_add_i16 / v_sub_i16 (VOP3): signed 16-bit, CLAMP saturates to [-32768, 32767].
template <bool Subtract>
void addsub_i16_op(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const int32_t x = static_cast<int16_t>(a.v[l]), y = static_cast<int16_t>(b.v[l]);
        const int32_t s = Subtract ? x - y : x + y;
        r.v[l] = static_cast<uint16_t>(in.clamp ? std::clamp(s, -32768, 32767) : s);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
/// v_mad_u16 / v_mad_i16: D = S0 * S1 + S2 in 16 bits, CLAMP saturating to the type's range.
template <bool Signed>
void mad_16_op(Wave& w, const Instruction& in) {
    Lanes a, b, c, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    read_vector_src(w, in, 2, c.v);
    for (int l = 0; l < kLanes; ++l) {
        const int64_t s =
            Signed ? static_cast<int64_t>(static_cast<int16_t>(a.v[l])) * static_cast<int16_t>(b.v[l]) +
                         static_cast<int16_t>(c.v[l])
                   : static_cast<int64_t>(a.v[l] & 0xffff) * (b.v[l] & 0xffff) + (c.v[l] & 0xffff);
        const int64_t clamped = !in.clamp ? s
                                : Signed  ? std::clamp<int64_t>(s, -32768, 32767)
                                          : std::clamp<int64_t>(s, 0, 0xffff);
        r.v[l] = static_cast<uint16_t>(clamped);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <bool Subtract>
void addsub_i32_op(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const int64_t s =
            Subtract ? static_cast<int64_t>(static_cast<int32_t>(a.v[l])) - static_cast<int32_t>(b.v[l])
                     : static_cast<int64_t>(static_cast<int32_t>(a.v[l])) + static_cast<int32_t>(b.v[l]);
        const int64_t c = in.clamp ? std::clamp<int64_t>(s, INT32_MIN, INT32_MAX) : s;
        r.v[l] = static_cast<uint32_t>(c);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

/// Writes a lane mask to a scalar destination (VCC or an SGPR pair); inactive lanes read as 0.
void write_lane_mask(Wave& w, const Operand& dst, uint64_t bits) {
    write_scalar64(w, dst, bits);
}

/// Reads a lane mask source (VCC or an SGPR pair) of a VOP2/VOP3 carry-in or v_cndmask.
uint64_t read_lane_mask(const Wave& w, const Instruction& in, int i) {
    if (i >= in.src_count) {
        return w.vcc();
    }
    return read_scalar64(w, in.src[i]);
}

/// Adds and subtracts with carry out (and, for Carry, carry in) (CDNA2 ISA, V_ADD_CO_U32 ...
/// V_SUBBREV_CO_U32).
template <int Kind, bool CarryIn>
void carry_op(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    const uint64_t cin = CarryIn ? read_lane_mask(w, in, 2) : 0;
    const uint64_t mask = vector_write_mask(w, in);
    uint64_t cout = 0;
    for (int l = 0; l < kLanes; ++l) {
        const uint64_t c = (cin >> l) & 1;
        uint64_t x = a.v[l], y = b.v[l];
        if (Kind == 2) {
            std::swap(x, y); // reversed subtract
        }
        uint64_t carry;
        if (Kind == 0) {
            const uint64_t s = x + y + c;
            r.v[l] = static_cast<uint32_t>(s);
            carry = s >> 32;
        } else {
            r.v[l] = static_cast<uint32_t>(x - y - c);
            carry = y + c > x ? 1 : 0;
        }
        cout |= lane_on(mask, l) ? carry << l : 0;
    }
    write_vector_dst(w, in, 0, r.v, mask);
    write_lane_mask(w, in.dst[1], cout);
}

void cndmask(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    const uint64_t sel = read_lane_mask(w, in, 2);
    // Float modifiers apply to v_cndmask_b32_e64 sources.
    for (int i = 0; i < 2; ++i) {
        Lanes& x = i == 0 ? a : b;
        const Operand& o = in.src[i];
        if (o.abs || o.neg) {
            for (int l = 0; l < kLanes; ++l) {
                x.v[l] = (x.v[l] & (o.abs ? 0x7fffffffu : ~0u)) ^ (o.neg ? 0x80000000u : 0);
            }
        }
    }
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = lane_on(sel, l) ? b.v[l] : a.v[l];
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

template <int Kind> // 0 lshl, 1 lshr, 2 ashr
void shift_b64(Wave& w, const Instruction& in) {
    Lanes s;
    Lanes64 v, r;
    read_vector_src(w, in, 0, s.v);
    read_vector_src64(w, in, 1, v.v);
    for (int l = 0; l < kLanes; ++l) {
        const uint32_t n = s.v[l] & 63;
        r.v[l] = Kind == 0   ? v.v[l] << n
                 : Kind == 1 ? v.v[l] >> n
                             : static_cast<uint64_t>(static_cast<int64_t>(v.v[l]) >> n);
    }
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}

template <bool Signed>
void mad_64_32(Wave& w, const Instruction& in) {
    Lanes a, b;
    Lanes64 c, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    read_vector_src64(w, in, 2, c.v);
    const uint64_t mask = vector_write_mask(w, in);
    uint64_t cout = 0;
    for (int l = 0; l < kLanes; ++l) {
        if (Signed) {
            const int64_t p =
                static_cast<int64_t>(static_cast<int32_t>(a.v[l])) * static_cast<int32_t>(b.v[l]);
            int64_t sum;
            const bool overflow = __builtin_add_overflow(p, static_cast<int64_t>(c.v[l]), &sum);
            r.v[l] = static_cast<uint64_t>(sum);
            cout |= lane_on(mask, l) && overflow ? 1ull << l : 0;
        } else {
            const uint64_t p = static_cast<uint64_t>(a.v[l]) * b.v[l];
            const uint64_t sum = p + c.v[l];
            r.v[l] = sum;
            cout |= lane_on(mask, l) && sum < p ? 1ull << l : 0;
        }
    }
    write_vector_dst64(w, in, 0, r.v, mask);
    write_lane_mask(w, in.dst[1], cout);
}

void readlane(Wave& w, const Instruction& in) {
    const uint32_t lane = read_scalar32(w, in.src[1]) & 63;
    write_scalar32(w, in.dst[0], read_lane(w, in.src[0], static_cast<int>(lane)));
}
void readfirstlane(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    const int lane = exec ? std::countr_zero(exec) : 0;
    write_scalar32(w, in.dst[0], read_lane(w, in.src[0], lane));
}
void writelane(Wave& w, const Instruction& in) {
    const uint32_t lane = read_scalar32(w, in.src[1]) & 63;
    const Operand& d = in.dst[0];
    if (d.kind == OperandKind::vgpr) {
        w.v(d.index)[lane] = read_scalar32(w, in.src[0]);
    }
}
template <bool High>
void mbcnt(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const uint64_t below = l == 0 ? 0 : (~0ull >> (64 - l));
        const uint32_t half = static_cast<uint32_t>(High ? below >> 32 : below);
        r.v[l] = static_cast<uint32_t>(std::popcount(a.v[l] & half)) + b.v[l];
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

/// v_movrels_b32 / v_movreld_b32 / v_movrelsd_b32: VGPR indexed by M0 (CDNA2 ISA §6.4.2).
template <bool IndexSource, bool IndexDest>
void movrel(Wave& w, const Instruction& in) {
    const uint32_t m0 = w.sgpr[kM0];
    const uint32_t src = in.src[0].index + (IndexSource ? m0 : 0);
    const uint32_t dst = in.dst[0].index + (IndexDest ? m0 : 0);
    if (src >= w.vgpr_count || dst >= w.vgpr_count) {
        fault(w, in, "M0-relative VGPR index out of range");
        return;
    }
    const uint64_t mask = w.exec();
    Lanes a;
    if (in.src[0].kind == OperandKind::vgpr) {
        for (int l = 0; l < kLanes; ++l) {
            a.v[l] = w.vgpr[src][l];
        }
    } else {
        read_vector_src(w, in, 0, a.v);
    }
    for (int l = 0; l < kLanes; ++l) {
        w.vgpr[dst][l] = lane_on(mask, l) ? a.v[l] : w.vgpr[dst][l];
    }
}

void swap_b32(Wave& w, const Instruction& in) {
    const uint64_t mask = w.exec();
    uint32_t* x = w.v(in.dst[0].index);
    uint32_t* y = w.v(in.src[0].index);
    for (int l = 0; l < kLanes; ++l) {
        if (lane_on(mask, l)) {
            std::swap(x[l], y[l]);
        }
    }
}

void add(OpTable& t, const char* name, ExecuteFn fn, uint8_t dsts = 1, V t0 = V::b32, V t1 = V::b32,
         V t2 = V::b32) {
    t.add({name, fn, Unit::valu, dsts, {t0, t1, t2, V::b32}});
}

} // namespace

void register_vector_int_ops(OpTable& t) {
    add(t, "v_nop", [](Wave&, const Instruction&) {}, 0);
    add(t, "v_mov_b32", vop_u32_1<mov>);
    add(t, "v_mov_b32_dpp", vop_u32_1<mov>);
    add(t, "v_not_b32", vop_u32_1<bit_not>);
    add(t, "v_bfrev_b32", vop_u32_1<bfrev>);
    add(t, "v_ffbh_u32", vop_u32_1<ffbh_u32>);
    add(t, "v_ffbl_b32", vop_u32_1<ffbl_b32>);
    add(t, "v_ffbh_i32", vop_u32_1<ffbh_i32>);
    add(t, "v_sat_pk_u8_i16", vop_u32_1<sat_pk_u8_i16>);
    add(t, "v_and_b32", vop_u32_2<bit_and>);
    add(t, "v_or_b32", vop_u32_2<bit_or>);
    add(t, "v_xor_b32", vop_u32_2<bit_xor>);
    add(t, "v_xnor_b32", vop_u32_2<bit_xnor>);
    add(t, "v_lshlrev_b32", vop_u32_2<lshlrev>);
    add(t, "v_lshrrev_b32", vop_u32_2<lshrrev>);
    add(t, "v_ashrrev_i32", vop_u32_2<ashrrev>);
    add(t, "v_lshlrev_b16", vop_u32_2<lshlrev_b16>, 1, V::b16, V::b16);
    add(t, "v_lshrrev_b16", vop_u32_2<lshrrev_b16>, 1, V::b16, V::b16);
    add(t, "v_ashrrev_i16", vop_u32_2<ashrrev_i16>, 1, V::b16, V::b16);
    add(t, "v_lshlrev_b64", shift_b64<0>, 1, V::b32, V::b64);
    add(t, "v_lshrrev_b64", shift_b64<1>, 1, V::b32, V::b64);
    add(t, "v_ashrrev_i64", shift_b64<2>, 1, V::b32, V::b64);
    add(t, "v_add_u32", add_u32_op);
    add(t, "v_sub_u32", sub_u32_op<false>);
    add(t, "v_subrev_u32", sub_u32_op<true>);
    add(t, "v_add_i32", addsub_i32_op<false>);
    add(t, "v_sub_i32", addsub_i32_op<true>);
    add(t, "v_add_co_u32", carry_op<0, false>, 2);
    add(t, "v_sub_co_u32", carry_op<1, false>, 2);
    add(t, "v_subrev_co_u32", carry_op<2, false>, 2);
    add(t, "v_addc_co_u32", carry_op<0, true>, 2, V::b32, V::b32, V::b64);
    add(t, "v_subb_co_u32", carry_op<1, true>, 2, V::b32, V::b32, V::b64);
    add(t, "v_subbrev_co_u32", carry_op<2, true>, 2, V::b32, V::b32, V::b64);
    add(t, "v_add_u16", addsub_u16_op<0>, 1, V::b16, V::b16);
    add(t, "v_add_i16", addsub_i16_op<false>, 1, V::b16, V::b16);
    add(t, "v_sub_i16", addsub_i16_op<true>, 1, V::b16, V::b16);
    add(t, "v_mad_u16", mad_16_op<false>, 1, V::b16, V::b16, V::b16);
    add(t, "v_mad_i16", mad_16_op<true>, 1, V::b16, V::b16, V::b16);
    add(t, "v_sub_u16", addsub_u16_op<1>, 1, V::b16, V::b16);
    add(t, "v_subrev_u16", addsub_u16_op<2>, 1, V::b16, V::b16);
    add(t, "v_mul_lo_u16", vop_u32_2<mul_lo_u16>, 1, V::b16, V::b16);
    add(t, "v_max_u16", vop_u32_2<max_u16>, 1, V::b16, V::b16);
    add(t, "v_min_u16", vop_u32_2<min_u16>, 1, V::b16, V::b16);
    add(t, "v_max_i16", vop_u32_2<max_i16>, 1, V::b16, V::b16);
    add(t, "v_min_i16", vop_u32_2<min_i16>, 1, V::b16, V::b16);
    add(t, "v_mul_i32_i24", vop_u32_2<mul_i32_i24>);
    add(t, "v_mul_hi_i32_i24", vop_u32_2<mul_hi_i32_i24>);
    add(t, "v_mul_u32_u24", vop_u32_2<mul_u32_u24>);
    add(t, "v_mul_hi_u32_u24", vop_u32_2<mul_hi_u32_u24>);
    add(t, "v_mul_lo_u32", vop_u32_2<mul_lo_u32>);
    add(t, "v_mul_hi_u32", vop_u32_2<mul_hi_u32>);
    add(t, "v_mul_hi_i32", vop_u32_2<mul_hi_i32>);
    add(t, "v_min_i32", vop_u32_2<min_i32>);
    add(t, "v_max_i32", vop_u32_2<max_i32>);
    add(t, "v_min_u32", vop_u32_2<min_u32>);
    add(t, "v_max_u32", vop_u32_2<max_u32>);
    add(t, "v_min3_i32", vop_u32_3<min3_i32>);
    add(t, "v_max3_i32", vop_u32_3<max3_i32>);
    add(t, "v_min3_u32", vop_u32_3<min3_u32>);
    add(t, "v_max3_u32", vop_u32_3<max3_u32>);
    add(t, "v_med3_i32", vop_u32_3<med3_i32>);
    add(t, "v_med3_u32", vop_u32_3<med3_u32>);
    add(t, "v_mad_u32_u24", vop_u32_3<mad_u32_u24>);
    add(t, "v_mad_i32_i24", vop_u32_3<mad_i32_i24>);
    add(t, "v_mad_u32_u16", vop_u32_3<mad_u32_u16>);
    add(t, "v_mad_i32_i16", vop_u32_3<mad_i32_i16>);
    add(t, "v_mad_u64_u32", mad_64_32<false>, 2, V::b32, V::b32, V::b64);
    add(t, "v_mad_i64_i32", mad_64_32<true>, 2, V::b32, V::b32, V::b64);
    add(t, "v_bfe_u32", vop_u32_3<bfe_u32>);
    add(t, "v_bfe_i32", vop_u32_3<bfe_i32>);
    add(t, "v_bfi_b32", vop_u32_3<bfi_b32>);
    add(t, "v_bfm_b32", vop_u32_2<bfm_b32>);
    add(t, "v_alignbit_b32", vop_u32_3<alignbit>);
    add(t, "v_alignbyte_b32", vop_u32_3<alignbyte>);
    add(t, "v_perm_b32", vop_u32_3<perm_b32>);
    add(t, "v_lshl_add_u32", vop_u32_3<lshl_add>);
    add(t, "v_add_lshl_u32", vop_u32_3<add_lshl>);
    add(t, "v_add3_u32", vop_u32_3<add3>);
    add(t, "v_lshl_or_b32", vop_u32_3<lshl_or>);
    add(t, "v_and_or_b32", vop_u32_3<and_or>);
    add(t, "v_or3_b32", vop_u32_3<or3>);
    add(t, "v_xad_u32", vop_u32_3<xad>);
    add(t, "v_bcnt_u32_b32", vop_u32_2<bcnt>);
    add(t, "v_lerp_u8", vop_u32_3<lerp_u8>);
    add(t, "v_sad_u8", vop_u32_3<sad_u8>);
    add(t, "v_sad_hi_u8", vop_u32_3<sad_hi_u8>);
    add(t, "v_sad_u16", vop_u32_3<sad_u16>);
    add(t, "v_sad_u32", vop_u32_3<sad_u32>);
    add(t, "v_msad_u8", vop_u32_3<msad_u8>);
    add(t, "v_cvt_pk_u16_u32", vop_u32_2<cvt_pk_u16_u32>);
    add(t, "v_cvt_pk_i16_i32", vop_u32_2<cvt_pk_i16_i32>);
    add(t, "v_cndmask_b32", cndmask, 1, V::b32, V::b32, V::b64);
    add(t, "v_readlane_b32", readlane);
    add(t, "v_readfirstlane_b32", readfirstlane);
    add(t, "v_writelane_b32", writelane);
    add(t, "v_mbcnt_lo_u32_b32", mbcnt<false>);
    add(t, "v_mbcnt_hi_u32_b32", mbcnt<true>);
    add(t, "v_movrels_b32", movrel<true, false>);
    add(t, "v_movreld_b32", movrel<false, true>);
    add(t, "v_movrelsd_b32", movrel<true, true>);
    add(t, "v_swap_b32", swap_b32);
    // AGPR moves (gfx90a): operands name a0.. or v0.. explicitly, so a plain move serves all three.
    add(t, "v_accvgpr_read_b32", vop_u32_1<mov>);
    add(t, "v_accvgpr_write_b32", vop_u32_1<mov>);
    add(t, "v_accvgpr_mov_b32", vop_u32_1<mov>);
}

} // namespace sim::isa
