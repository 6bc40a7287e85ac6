// SPDX-License-Identifier: MIT
// Vector floating-point operations of VOP1/VOP2/VOP3 in f32, f64 and f16: arithmetic (IEEE-mode min/max,
// fused and unfused multiply-add), conversions, rounding, the transcendental approximations (computed
// here to the nearest representable result) and the division helpers v_div_scale/fmas/fixup (CDNA2 ISA
// §6, §12.9-12.10 opcode descriptions).
#include "half.h"
#include "op_table.h"
#include "vector_alu.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <type_traits>

namespace sim::isa {

namespace {

using V = ValueType;

// ---- f32 ----
float add_f32(float a, float b) {
    return a + b;
}
float sub_f32(float a, float b) {
    return a - b;
}
float subrev_f32(float a, float b) {
    return b - a;
}
float mul_f32(float a, float b) {
    return a * b;
}
float mul_legacy_f32(float a, float b) {
    return a == 0.0f || b == 0.0f ? 0.0f : a * b; // 0 * anything is +0 (DX9 rules)
}
/// IEEE-mode min/max: a quiet NaN operand yields the other operand.
template <typename T>
T ieee_min(T a, T b) {
    if (a != a) {
        return b != b ? std::numeric_limits<T>::quiet_NaN() : b;
    }
    if (b != b) {
        return a;
    }
    if (a == b) {
        return std::signbit(a) ? a : b; // min(-0, +0) = -0
    }
    return a < b ? a : b;
}
template <typename T>
T ieee_max(T a, T b) {
    if (a != a) {
        return b != b ? std::numeric_limits<T>::quiet_NaN() : b;
    }
    if (b != b) {
        return a;
    }
    if (a == b) {
        return std::signbit(a) ? b : a;
    }
    return a > b ? a : b;
}
/// MODE.IEEE (bit 9).
bool ieee_mode(const Wave& w) {
    return (w.mode >> 9) & 1;
}
/// V_MIN_F32 / V_MAX_F32 / V_MIN_F64 / V_MAX_F64 on the operands' bits U (CDNA2 ISA): in IEEE mode a
/// signaling NaN operand gives that NaN quieted (S0 first); otherwise a NaN operand gives the other
/// operand; -0 orders below +0.
template <bool Max, typename T, typename U>
U min_max_bits(U a, U b, U quiet, bool ieee) {
    const T x = bit_cast<T>(a), y = bit_cast<T>(b);
    if (ieee && x != x && !(a & quiet)) {
        return a | quiet;
    }
    if (ieee && y != y && !(b & quiet)) {
        return b | quiet;
    }
    if (x != x || y != y) {
        return x != x ? b : a;
    }
    return bit_cast<U>(Max ? ieee_max(x, y) : ieee_min(x, y));
}
template <bool Max>
void min_max_f32(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    const bool ieee = ieee_mode(w);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = min_max_bits<Max, float>(a.v[l], b.v[l], 0x00400000u, ieee);
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <bool Max>
void min_max_f64(Wave& w, const Instruction& in) {
    Lanes64 a, b, r;
    read_f64(w, in, 0, a.v);
    read_f64(w, in, 1, b.v);
    const bool ieee = ieee_mode(w);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = min_max_bits<Max, double>(a.v[l], b.v[l], uint64_t{0x0008000000000000}, ieee);
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}
float min3_f32(float a, float b, float c) {
    return ieee_min(ieee_min(a, b), c);
}
float max3_f32(float a, float b, float c) {
    return ieee_max(ieee_max(a, b), c);
}
float med3_f32(float a, float b, float c) {
    if (a != a || b != b || c != c) {
        return ieee_min(ieee_min(a, b), c);
    }
    return ieee_max(ieee_min(a, b), ieee_min(ieee_max(a, b), c));
}
float mad_f32(float a, float b, float c) {
    return a * b + c; // unfused: the product is rounded first
}
float mad_legacy_f32(float a, float b, float c) {
    return mul_legacy_f32(a, b) + c;
}
float fract_f32(float a) {
    if (std::isinf(a)) {
        return std::numeric_limits<float>::quiet_NaN();
    }
    return std::min(a - std::floor(a), 0x1.fffffep-1f);
}
float trunc_f32(float a) {
    return std::trunc(a);
}
float ceil_f32(float a) {
    return std::ceil(a);
}
float rndne_f32(float a) {
    return std::nearbyint(a);
}
float floor_f32(float a) {
    return std::floor(a);
}
float exp_f32(float a) {
    return std::exp2(a);
}
float log_f32(float a) {
    return std::log2(a);
}
float rcp_f32(float a) {
    return 1.0f / a;
}
float rsq_f32(float a) {
    return 1.0f / std::sqrt(a);
}
float sqrt_f32(float a) {
    return std::sqrt(a);
}
float sin_f32(float a) {
    return static_cast<float>(std::sin(static_cast<double>(a) * 6.283185307179586));
}
float cos_f32(float a) {
    return static_cast<float>(std::cos(static_cast<double>(a) * 6.283185307179586));
}
float frexp_mant_f32(float a) {
    if (std::isnan(a) || std::isinf(a)) {
        return a;
    }
    int e;
    return std::frexp(a, &e);
}
float exp_legacy_f32(float a) {
    return std::exp2(a);
}
float log_legacy_f32(float a) {
    return std::log2(a);
}

// f32 ops whose operands are not all f32.
template <uint32_t (*F)(float)>
void f32_to_u32(Wave& w, const Instruction& in) {
    Lanes a, r;
    read_f32(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = F(bit_cast<float>(a.v[l]));
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <float (*F)(uint32_t)>
void u32_to_f32(Wave& w, const Instruction& in) {
    Lanes a, r;
    read_vector_src(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint32_t>(F(a.v[l]));
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
uint32_t cvt_i32(double x) {
    if (x != x) {
        return 0;
    }
    return static_cast<uint32_t>(
        static_cast<int32_t>(std::clamp(std::trunc(x), -2147483648.0, 2147483647.0)));
}
uint32_t cvt_u32(double x) {
    if (x != x) {
        return 0;
    }
    return static_cast<uint32_t>(std::clamp(std::trunc(x), 0.0, 4294967295.0));
}
uint32_t cvt_i32_f32(float a) {
    return cvt_i32(a);
}
uint32_t cvt_u32_f32(float a) {
    return cvt_u32(a);
}
uint32_t cvt_rpi_i32_f32(float a) {
    return cvt_i32(std::floor(static_cast<double>(a) + 0.5));
}
uint32_t cvt_flr_i32_f32(float a) {
    return cvt_i32(std::floor(a));
}
uint32_t frexp_exp_i32_f32(float a) {
    if (std::isnan(a) || std::isinf(a) || a == 0.0f) {
        return 0;
    }
    int e;
    std::frexp(a, &e);
    return static_cast<uint32_t>(e);
}
float cvt_f32_i32(uint32_t a) {
    return static_cast<float>(static_cast<int32_t>(a));
}
float cvt_f32_u32(uint32_t a) {
    return static_cast<float>(a);
}
float cvt_f32_f16(uint32_t a) {
    return half_to_float(static_cast<uint16_t>(a));
}
template <int Byte>
float cvt_f32_ubyte(uint32_t a) {
    return static_cast<float>((a >> (8 * Byte)) & 0xff);
}
float cvt_off_f32_i4(uint32_t a) {
    return static_cast<float>(static_cast<int32_t>((a & 0xf) << 28) >> 28) * 0.0625f;
}

void cvt_f16_f32_op(Wave& w, const Instruction& in) {
    Lanes a, r;
    read_f32(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = float_to_half(bit_cast<float>(a.v[l]));
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

void ldexp_f32(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_f32(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const int e = std::clamp(static_cast<int32_t>(b.v[l]), -1000, 1000);
        r.v[l] = bit_cast<uint32_t>(std::ldexp(bit_cast<float>(a.v[l]), e));
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

/// v_mac_f32 / v_fmac_f32: D = S0 * S1 + D.
template <bool Fused>
void mac_f32(Wave& w, const Instruction& in) {
    Lanes a, b, d, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    read_vector_dst(w, in, 0, d.v);
    if (Fused) {
        fma_lanes(a.v, b.v, d.v, r.v);
    } else {
        for (int l = 0; l < kLanes; ++l) {
            r.v[l] = bit_cast<uint32_t>(bit_cast<float>(a.v[l]) * bit_cast<float>(b.v[l]) +
                                        bit_cast<float>(d.v[l]));
        }
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
/// v_madmk_f32 D = S0 * K + S1 (operands: S0, K, S1); v_madak_f32 D = S0 * S1 + K.
void madmk_f32(Wave& w, const Instruction& in) {
    Lanes a, k, b, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, k.v);
    read_f32(w, in, 2, b.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] =
            bit_cast<uint32_t>(bit_cast<float>(a.v[l]) * bit_cast<float>(k.v[l]) + bit_cast<float>(b.v[l]));
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
/// v_fma_f32, v_fmamk_f32 (S0 * K + S1) and v_fmaak_f32 (S0 * S1 + K): the operands in printed order.
void fma_f32_op(Wave& w, const Instruction& in) {
    Lanes a, b, c, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    read_f32(w, in, 2, c.v);
    fma_lanes(a.v, b.v, c.v, r.v);
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

/// v_div_scale_f32/f64 (CDNA2 ISA, V_DIV_SCALE_F32/F64): S0 is the operand to scale (the denominator or
/// the numerator of the division), S1 the denominator, S2 the numerator. Where the division's
/// intermediate values would leave the normal range, scales by 2^64 (f32) / 2^128 (f64) either both
/// operands alike (the quotient is unchanged) or one of them, and then sets VCC: v_div_fmas scales the
/// quotient back. Special operands (0, inf, NaN) give NaN; v_div_fixup answers for them.
template <typename T>
T div_scale(T s0, T s1, T s2, bool& vcc) {
    using Limits = std::numeric_limits<T>;
    constexpr int kScale = sizeof(T) == 4 ? 64 : 128;
    constexpr int kMantissa = Limits::digits - 1;
    constexpr int kFarApart = sizeof(T) == 4 ? 96 : 768; // exponents this far apart: near the largest value
    auto exponent = [](T x) {                            // the biased exponent field
        if constexpr (sizeof(T) == 4) {
            return static_cast<int>((bit_cast<uint32_t>(x) >> 23) & 0xff);
        } else {
            return static_cast<int>((bit_cast<uint64_t>(x) >> 52) & 0x7ff);
        }
    };
    // Below the normal range (or underflowing to 0), computed without rounding to T first.
    using Wide = std::conditional_t<sizeof(T) == 4, double, long double>;
    auto below_normal = [](Wide x) { return std::fabs(x) < Wide{Limits::min()}; };
    vcc = false;
    if (s2 == 0 || s1 == 0 || !std::isfinite(s1) || !std::isfinite(s2)) {
        return Limits::quiet_NaN();
    }
    if (exponent(s2) - exponent(s1) >= kFarApart) {
        vcc = true; // the denominator up, the quotient back up
        return s0 == s1 ? std::ldexp(s0, kScale) : s0;
    }
    if (std::fpclassify(s1) == FP_SUBNORMAL) {
        return std::ldexp(s0, kScale);
    }
    const bool tiny_quotient = below_normal(Wide{s2} / Wide{s1});
    if (below_normal(Wide{1} / Wide{s1})) {
        if (!tiny_quotient) {
            return std::ldexp(s0, -kScale);
        }
        vcc = true; // the denominator down, the quotient back down
        return s0 == s1 ? std::ldexp(s0, -kScale) : s0;
    }
    if (tiny_quotient) {
        vcc = true; // the numerator up, the quotient back down
        return s0 == s2 ? std::ldexp(s0, kScale) : s0;
    }
    if (exponent(s2) <= kMantissa) {
        return std::ldexp(s0, kScale); // a tiny numerator: both up
    }
    return s0;
}

void div_scale_f32(Wave& w, const Instruction& in) {
    Lanes a, b, c, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    read_f32(w, in, 2, c.v);
    const uint64_t mask = w.exec();
    uint64_t vcc = 0;
    for (int l = 0; l < kLanes; ++l) {
        bool v;
        r.v[l] = bit_cast<uint32_t>(
            div_scale(bit_cast<float>(a.v[l]), bit_cast<float>(b.v[l]), bit_cast<float>(c.v[l]), v));
        vcc |= v && lane_on(mask, l) ? 1ull << l : 0;
    }
    write_vector_dst(w, in, 0, r.v, mask);
    write_scalar64(w, in.dst[1], vcc);
}
void div_scale_f64(Wave& w, const Instruction& in) {
    Lanes64 a, b, c, r;
    read_f64(w, in, 0, a.v);
    read_f64(w, in, 1, b.v);
    read_f64(w, in, 2, c.v);
    const uint64_t mask = w.exec();
    uint64_t vcc = 0;
    for (int l = 0; l < kLanes; ++l) {
        bool v;
        r.v[l] = bit_cast<uint64_t>(
            div_scale(bit_cast<double>(a.v[l]), bit_cast<double>(b.v[l]), bit_cast<double>(c.v[l]), v));
        vcc |= v && lane_on(mask, l) ? 1ull << l : 0;
    }
    write_vector_dst64(w, in, 0, r.v, mask);
    write_scalar64(w, in.dst[1], vcc);
}
/// v_div_fmas: fma(S0, S1, S2); where VCC is set (v_div_scale scaled one operand) scaled back by 2^64
/// (f32) / 2^128 (f64): up when the quotient S2 is at least 2, down otherwise. The scaled sum is rounded
/// once to the result (in a wider format first: the rounding can differ only on exact midpoints).
void div_fmas_f32(Wave& w, const Instruction& in) {
    Lanes a, b, c, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    read_f32(w, in, 2, c.v);
    const uint64_t vcc = w.vcc();
    for (int l = 0; l < kLanes; ++l) {
        const float x = bit_cast<float>(a.v[l]), y = bit_cast<float>(b.v[l]), z = bit_cast<float>(c.v[l]);
        if (lane_on(vcc, l)) {
            const int scale = ((c.v[l] >> 23) & 0xff) > 127 ? 64 : -64;
            r.v[l] = bit_cast<uint32_t>(
                static_cast<float>(std::ldexp(std::fma(double{x}, double{y}, double{z}), scale)));
        } else {
            r.v[l] = bit_cast<uint32_t>(std::fma(x, y, z));
        }
    }
    output_f32(w, in, r.v);
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
void div_fmas_f64(Wave& w, const Instruction& in) {
    Lanes64 a, b, c, r;
    read_f64(w, in, 0, a.v);
    read_f64(w, in, 1, b.v);
    read_f64(w, in, 2, c.v);
    const uint64_t vcc = w.vcc();
    for (int l = 0; l < kLanes; ++l) {
        const double x = bit_cast<double>(a.v[l]), y = bit_cast<double>(b.v[l]), z = bit_cast<double>(c.v[l]);
        if (lane_on(vcc, l)) {
            const int scale = ((c.v[l] >> 52) & 0x7ff) > 1023 ? 128 : -128;
            using Wide = long double;
            r.v[l] = bit_cast<uint64_t>(
                static_cast<double>(std::ldexp(std::fma(Wide{x}, Wide{y}, Wide{z}), scale)));
        } else {
            r.v[l] = bit_cast<uint64_t>(std::fma(x, y, z));
        }
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}
/// v_div_fixup: S0 quotient estimate, S1 denominator, S2 numerator; special cases of division.
template <typename T>
T div_fixup(T q, T d, T n) {
    using Limits = std::numeric_limits<T>;
    const bool sign = std::signbit(d) != std::signbit(n);
    if (std::isnan(d)) {
        return d;
    }
    if (std::isnan(n)) {
        return n;
    }
    if ((d == 0 && n == 0) || (std::isinf(d) && std::isinf(n))) {
        return Limits::quiet_NaN();
    }
    if (d == 0 || std::isinf(n)) {
        return sign ? -Limits::infinity() : Limits::infinity();
    }
    if (std::isinf(d) || n == 0) {
        return sign ? -T(0) : T(0);
    }
    if (std::isnan(q)) {
        return sign ? -Limits::infinity() : Limits::infinity();
    }
    return sign ? -std::fabs(q) : std::fabs(q);
}
float div_fixup_f32(float a, float b, float c) {
    return div_fixup(a, b, c);
}
double div_fixup_f64(double a, double b, double c) {
    return div_fixup(a, b, c);
}

// ---- f64 ----
double add_f64(double a, double b) {
    return a + b;
}
double mul_f64(double a, double b) {
    return a * b;
}
double fma_f64(double a, double b, double c) {
    return std::fma(a, b, c);
}
double fract_f64(double a) {
    if (std::isinf(a)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return std::min(a - std::floor(a), 0x1.fffffffffffffp-1);
}
double trunc_f64(double a) {
    return std::trunc(a);
}
double ceil_f64(double a) {
    return std::ceil(a);
}
double rndne_f64(double a) {
    return std::nearbyint(a);
}
double floor_f64(double a) {
    return std::floor(a);
}
double rcp_f64(double a) {
    return 1.0 / a;
}
double rsq_f64(double a) {
    return 1.0 / std::sqrt(a);
}
double sqrt_f64(double a) {
    return std::sqrt(a);
}
double frexp_mant_f64(double a) {
    if (std::isnan(a) || std::isinf(a)) {
        return a;
    }
    int e;
    return std::frexp(a, &e);
}

template <uint32_t (*F)(double)>
void f64_to_u32(Wave& w, const Instruction& in) {
    Lanes64 a;
    Lanes r;
    read_f64(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = F(bit_cast<double>(a.v[l]));
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <double (*F)(uint32_t)>
void u32_to_f64(Wave& w, const Instruction& in) {
    Lanes a;
    Lanes64 r;
    read_vector_src(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint64_t>(F(a.v[l]));
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}
uint32_t cvt_i32_f64(double a) {
    return cvt_i32(a);
}
uint32_t cvt_u32_f64(double a) {
    return cvt_u32(a);
}
uint32_t cvt_f32_f64(double a) {
    return bit_cast<uint32_t>(static_cast<float>(a));
}
uint32_t frexp_exp_i32_f64(double a) {
    if (std::isnan(a) || std::isinf(a) || a == 0.0) {
        return 0;
    }
    int e;
    std::frexp(a, &e);
    return static_cast<uint32_t>(e);
}
double cvt_f64_i32(uint32_t a) {
    return static_cast<int32_t>(a);
}
double cvt_f64_u32(uint32_t a) {
    return a;
}
void cvt_f64_f32(Wave& w, const Instruction& in) {
    Lanes a;
    Lanes64 r;
    read_f32(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = bit_cast<uint64_t>(static_cast<double>(bit_cast<float>(a.v[l])));
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}
void ldexp_f64(Wave& w, const Instruction& in) {
    Lanes64 a, r;
    Lanes b;
    read_f64(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const int e = std::clamp(static_cast<int32_t>(b.v[l]), -5000, 5000);
        r.v[l] = bit_cast<uint64_t>(std::ldexp(bit_cast<double>(a.v[l]), e));
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}
void fmac_f64(Wave& w, const Instruction& in) {
    Lanes64 a, b, d, r;
    read_f64(w, in, 0, a.v);
    read_f64(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        d.v[l] = read_lane(w, in.dst[0], l, 0) | static_cast<uint64_t>(read_lane(w, in.dst[0], l, 1)) << 32;
        r.v[l] = bit_cast<uint64_t>(
            std::fma(bit_cast<double>(a.v[l]), bit_cast<double>(b.v[l]), bit_cast<double>(d.v[l])));
    }
    output_f64(w, in, r.v);
    write_vector_dst64(w, in, 0, r.v, vector_write_mask(w, in));
}

// ---- f16 ----
// 16-bit results go to the low half with the high half zeroed, or with VOP3 op_sel[3] to the high half
// with the low half kept; op_sel[0..2] pick each source's high half.
template <typename F>
void f16_op(Wave& w, const Instruction& in, int sources, F f) {
    Lanes s[3], r;
    for (int i = 0; i < sources; ++i) {
        read_vector_src(w, in, i, s[i].v);
    }
    const uint64_t mask = vector_write_mask(w, in);
    const bool write_high = (in.op_sel >> 3) & 1;
    for (int l = 0; l < kLanes; ++l) {
        float x[3] = {0, 0, 0};
        for (int i = 0; i < sources; ++i) {
            const uint32_t bits = (in.op_sel >> i) & 1 ? s[i].v[l] >> 16 : s[i].v[l];
            float v = half_to_float(static_cast<uint16_t>(bits));
            v = in.src[i].abs ? std::fabs(v) : v;
            x[i] = in.src[i].neg ? -v : v;
        }
        float y = f(x[0], x[1], x[2]);
        if (in.omod) {
            y *= in.omod == 1 ? 2.0f : in.omod == 2 ? 4.0f : 0.5f;
        }
        if (in.clamp) {
            y = y != y ? 0.0f : std::clamp(y, 0.0f, 1.0f);
        }
        const uint32_t h = float_to_half(y);
        const uint32_t old = read_lane(w, in.dst[0], l);
        r.v[l] = write_high ? (old & 0xffffu) | h << 16 : h;
    }
    write_vector_dst(w, in, 0, r.v, mask);
}
template <float (*F)(float, float)>
void vop_f16_2(Wave& w, const Instruction& in) {
    f16_op(w, in, 2,
           [](float a, float b, float) { return static_cast<float>(static_cast<_Float16>(F(a, b))); });
}
template <float (*F)(float)>
void vop_f16_1(Wave& w, const Instruction& in) {
    f16_op(w, in, 1, [](float a, float, float) { return F(a); });
}
float fma_f16_fn(float a, float b, float c) {
    return static_cast<float>(static_cast<_Float16>(std::fma(a, b, c)));
}
void fma_f16(Wave& w, const Instruction& in) {
    f16_op(w, in, 3, fma_f16_fn);
}
void mad_f16(Wave& w, const Instruction& in) {
    f16_op(w, in, 3, [](float a, float b, float c) {
        const float p = static_cast<float>(static_cast<_Float16>(a * b));
        return p + c;
    });
}
void div_fixup_f16(Wave& w, const Instruction& in) {
    f16_op(w, in, 3, [](float a, float b, float c) { return div_fixup(a, b, c); });
}
void mac_f16(Wave& w, const Instruction& in) {
    Lanes d;
    read_vector_dst(w, in, 0, d.v);
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const float x = half_to_float(static_cast<uint16_t>(a.v[l])),
                    y = half_to_float(static_cast<uint16_t>(b.v[l]));
        const float z = half_to_float(static_cast<uint16_t>(d.v[l]));
        r.v[l] = float_to_half(std::fma(x, y, z));
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
/// v_min_f16 / v_max_f16: min_max_f16 on the operands with their modifiers, then clamp and omod.
template <bool Max>
void min_max_f16_op(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    const bool ieee = ieee_mode(w);
    auto modified = [&in](uint32_t x, int i) {
        return static_cast<uint16_t>((x & (in.src[i].abs ? 0x7fff : 0xffff)) ^ (in.src[i].neg ? 0x8000 : 0));
    };
    for (int l = 0; l < kLanes; ++l) {
        uint16_t h = min_max_f16(modified(a.v[l], 0), modified(b.v[l], 1), Max, ieee);
        if (in.omod || in.clamp) {
            const float scale = in.omod == 1 ? 2.0f : in.omod == 2 ? 4.0f : in.omod == 3 ? 0.5f : 1.0f;
            float y = half_to_float(h) * scale;
            if (in.clamp) {
                y = y != y ? (dx10_clamp(w) ? 0.0f : y) : std::clamp(y, 0.0f, 1.0f);
            }
            h = float_to_half(y);
        }
        r.v[l] = h;
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
float f16_rcp(float a) {
    return 1.0f / a;
}
float f16_rsq(float a) {
    return 1.0f / std::sqrt(a);
}
float f16_fract(float a) {
    return std::isinf(a) ? std::numeric_limits<float>::quiet_NaN()
                         : std::min(a - std::floor(a), 0.99951171875f);
}
void ldexp_f16(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        const int e = std::clamp(static_cast<int32_t>(static_cast<int16_t>(b.v[l])), -100, 100);
        r.v[l] = float_to_half(std::ldexp(half_to_float(static_cast<uint16_t>(a.v[l])), e));
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <bool Signed>
void cvt_f16_int16(Wave& w, const Instruction& in) {
    Lanes a, r;
    read_vector_src(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        const float v =
            Signed ? static_cast<float>(static_cast<int16_t>(a.v[l])) : static_cast<float>(a.v[l] & 0xffff);
        r.v[l] = float_to_half(v);
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <bool Signed>
void cvt_int16_f16(Wave& w, const Instruction& in) {
    Lanes a, r;
    read_vector_src(w, in, 0, a.v);
    for (int l = 0; l < kLanes; ++l) {
        const float v = std::trunc(half_to_float(static_cast<uint16_t>(a.v[l])));
        r.v[l] = v != v   ? 0
                 : Signed ? static_cast<uint16_t>(static_cast<int16_t>(std::clamp(v, -32768.0f, 32767.0f)))
                          : static_cast<uint32_t>(std::clamp(v, 0.0f, 65535.0f));
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
void cvt_pkrtz_f16_f32(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    auto rtz = [](float f) {
        uint16_t h = float_to_half(f);
        // Round toward zero: step back when nearest rounding went away from zero.
        const float back = half_to_float(h);
        if (std::isfinite(f) && std::fabs(back) > std::fabs(f)) {
            h = static_cast<uint16_t>(h - 1);
        }
        return static_cast<uint32_t>(h);
    };
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = rtz(bit_cast<float>(a.v[l])) | rtz(bit_cast<float>(b.v[l])) << 16;
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
template <bool Signed>
void cvt_pknorm(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_f32(w, in, 0, a.v);
    read_f32(w, in, 1, b.v);
    auto norm = [](float f) {
        if (f != f) {
            return 0u;
        }
        if (Signed) {
            return static_cast<uint32_t>(static_cast<uint16_t>(
                static_cast<int16_t>(std::nearbyint(std::clamp(f, -1.0f, 1.0f) * 32767.0f))));
        }
        return static_cast<uint32_t>(std::nearbyint(std::clamp(f, 0.0f, 1.0f) * 65535.0f));
    };
    for (int l = 0; l < kLanes; ++l) {
        r.v[l] = norm(bit_cast<float>(a.v[l])) | norm(bit_cast<float>(b.v[l])) << 16;
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
void pack_b32_f16(Wave& w, const Instruction& in) {
    Lanes a, b, r;
    read_vector_src(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    for (int l = 0; l < kLanes; ++l) {
        uint32_t x = (in.op_sel & 1) ? a.v[l] >> 16 : a.v[l];
        uint32_t y = (in.op_sel & 2) ? b.v[l] >> 16 : b.v[l];
        x = (x & (in.src[0].abs ? 0x7fff : 0xffff)) ^ (in.src[0].neg ? 0x8000 : 0);
        y = (y & (in.src[1].abs ? 0x7fff : 0xffff)) ^ (in.src[1].neg ? 0x8000 : 0);
        r.v[l] = (x & 0xffff) | (y & 0xffff) << 16;
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}
void cvt_pk_u8_f32(Wave& w, const Instruction& in) {
    Lanes a, b, c, r;
    read_f32(w, in, 0, a.v);
    read_vector_src(w, in, 1, b.v);
    read_vector_src(w, in, 2, c.v);
    for (int l = 0; l < kLanes; ++l) {
        const float f = bit_cast<float>(a.v[l]);
        const uint32_t byte = f != f ? 0 : static_cast<uint32_t>(std::nearbyint(std::clamp(f, 0.0f, 255.0f)));
        const uint32_t shift = 8 * (b.v[l] & 3);
        r.v[l] = (c.v[l] & ~(0xffu << shift)) | byte << shift;
    }
    write_vector_dst(w, in, 0, r.v, vector_write_mask(w, in));
}

void add(OpTable& t, const char* name, ExecuteFn fn, V t0 = V::f32, V t1 = V::f32, V t2 = V::f32,
         uint8_t dsts = 1) {
    t.add({name, fn, Unit::valu, dsts, {t0, t1, t2, V::b32}});
}

} // namespace

void register_vector_float_ops(OpTable& t) {
    add(t, "v_add_f32", vop_f32_2<add_f32>);
    add(t, "v_sub_f32", vop_f32_2<sub_f32>);
    add(t, "v_subrev_f32", vop_f32_2<subrev_f32>);
    add(t, "v_mul_f32", vop_f32_2<mul_f32>);
    add(t, "v_mul_legacy_f32", vop_f32_2<mul_legacy_f32>);
    add(t, "v_min_f32", min_max_f32<false>);
    add(t, "v_max_f32", min_max_f32<true>);
    add(t, "v_min3_f32", vop_f32_3<min3_f32>);
    add(t, "v_max3_f32", vop_f32_3<max3_f32>);
    add(t, "v_med3_f32", vop_f32_3<med3_f32>);
    add(t, "v_fma_f32", fma_f32_op);
    add(t, "v_mad_f32", vop_f32_3<mad_f32>);
    add(t, "v_mad_legacy_f32", vop_f32_3<mad_legacy_f32>);
    add(t, "v_mac_f32", mac_f32<false>);
    add(t, "v_fmac_f32", mac_f32<true>);
    add(t, "v_madmk_f32", madmk_f32);
    add(t, "v_madak_f32", [](Wave& w, const Instruction& in) { vop_f32_3<mad_f32>(w, in); });
    add(t, "v_fmamk_f32", fma_f32_op);
    add(t, "v_fmaak_f32", fma_f32_op);
    add(t, "v_fract_f32", vop_f32_1<fract_f32>);
    add(t, "v_trunc_f32", vop_f32_1<trunc_f32>);
    add(t, "v_ceil_f32", vop_f32_1<ceil_f32>);
    add(t, "v_rndne_f32", vop_f32_1<rndne_f32>);
    add(t, "v_floor_f32", vop_f32_1<floor_f32>);
    add(t, "v_exp_f32", vop_f32_1<exp_f32>);
    add(t, "v_log_f32", vop_f32_1<log_f32>);
    add(t, "v_exp_legacy_f32", vop_f32_1<exp_legacy_f32>);
    add(t, "v_log_legacy_f32", vop_f32_1<log_legacy_f32>);
    add(t, "v_rcp_f32", vop_f32_1<rcp_f32>);
    add(t, "v_rcp_iflag_f32", vop_f32_1<rcp_f32>);
    add(t, "v_rsq_f32", vop_f32_1<rsq_f32>);
    add(t, "v_sqrt_f32", vop_f32_1<sqrt_f32>);
    add(t, "v_sin_f32", vop_f32_1<sin_f32>);
    add(t, "v_cos_f32", vop_f32_1<cos_f32>);
    add(t, "v_frexp_mant_f32", vop_f32_1<frexp_mant_f32>);
    add(t, "v_frexp_exp_i32_f32", f32_to_u32<frexp_exp_i32_f32>);
    add(t, "v_ldexp_f32", ldexp_f32, V::f32, V::b32);
    add(t, "v_cvt_i32_f32", f32_to_u32<cvt_i32_f32>);
    add(t, "v_cvt_u32_f32", f32_to_u32<cvt_u32_f32>);
    add(t, "v_cvt_rpi_i32_f32", f32_to_u32<cvt_rpi_i32_f32>);
    add(t, "v_cvt_flr_i32_f32", f32_to_u32<cvt_flr_i32_f32>);
    add(t, "v_cvt_f16_f32", cvt_f16_f32_op);
    add(t, "v_cvt_f32_i32", u32_to_f32<cvt_f32_i32>, V::b32);
    add(t, "v_cvt_f32_u32", u32_to_f32<cvt_f32_u32>, V::b32);
    add(t, "v_cvt_f32_f16", u32_to_f32<cvt_f32_f16>, V::f16);
    add(t, "v_cvt_f32_ubyte0", u32_to_f32<cvt_f32_ubyte<0>>, V::b32);
    add(t, "v_cvt_f32_ubyte1", u32_to_f32<cvt_f32_ubyte<1>>, V::b32);
    add(t, "v_cvt_f32_ubyte2", u32_to_f32<cvt_f32_ubyte<2>>, V::b32);
    add(t, "v_cvt_f32_ubyte3", u32_to_f32<cvt_f32_ubyte<3>>, V::b32);
    add(t, "v_cvt_off_f32_i4", u32_to_f32<cvt_off_f32_i4>, V::b32);
    add(t, "v_cvt_pkrtz_f16_f32", cvt_pkrtz_f16_f32);
    add(t, "v_cvt_pknorm_i16_f32", cvt_pknorm<true>);
    add(t, "v_cvt_pknorm_u16_f32", cvt_pknorm<false>);
    add(t, "v_cvt_pk_u8_f32", cvt_pk_u8_f32, V::f32, V::b32, V::b32);
    add(t, "v_div_scale_f32", div_scale_f32, V::f32, V::f32, V::f32, 2);
    add(t, "v_div_fmas_f32", div_fmas_f32);
    add(t, "v_div_fixup_f32", vop_f32_3<div_fixup_f32>);
    // f64
    add(t, "v_add_f64", vop_f64_2<add_f64>, V::f64, V::f64);
    add(t, "v_mul_f64", vop_f64_2<mul_f64>, V::f64, V::f64);
    add(t, "v_min_f64", min_max_f64<false>, V::f64, V::f64);
    add(t, "v_max_f64", min_max_f64<true>, V::f64, V::f64);
    add(t, "v_fma_f64", vop_f64_3<fma_f64>, V::f64, V::f64, V::f64);
    add(t, "v_fmac_f64", fmac_f64, V::f64, V::f64);
    add(t, "v_fract_f64", vop_f64_1<fract_f64>, V::f64);
    add(t, "v_trunc_f64", vop_f64_1<trunc_f64>, V::f64);
    add(t, "v_ceil_f64", vop_f64_1<ceil_f64>, V::f64);
    add(t, "v_rndne_f64", vop_f64_1<rndne_f64>, V::f64);
    add(t, "v_floor_f64", vop_f64_1<floor_f64>, V::f64);
    add(t, "v_rcp_f64", vop_f64_1<rcp_f64>, V::f64);
    add(t, "v_rsq_f64", vop_f64_1<rsq_f64>, V::f64);
    add(t, "v_sqrt_f64", vop_f64_1<sqrt_f64>, V::f64);
    add(t, "v_frexp_mant_f64", vop_f64_1<frexp_mant_f64>, V::f64);
    add(t, "v_frexp_exp_i32_f64", f64_to_u32<frexp_exp_i32_f64>, V::f64);
    add(t, "v_ldexp_f64", ldexp_f64, V::f64, V::b32);
    add(t, "v_cvt_i32_f64", f64_to_u32<cvt_i32_f64>, V::f64);
    add(t, "v_cvt_u32_f64", f64_to_u32<cvt_u32_f64>, V::f64);
    add(t, "v_cvt_f32_f64", f64_to_u32<cvt_f32_f64>, V::f64);
    add(t, "v_cvt_f64_i32", u32_to_f64<cvt_f64_i32>, V::b32);
    add(t, "v_cvt_f64_u32", u32_to_f64<cvt_f64_u32>, V::b32);
    add(t, "v_cvt_f64_f32", cvt_f64_f32);
    add(t, "v_div_scale_f64", div_scale_f64, V::f64, V::f64, V::f64, 2);
    add(t, "v_div_fmas_f64", div_fmas_f64, V::f64, V::f64, V::f64);
    add(t, "v_div_fixup_f64", vop_f64_3<div_fixup_f64>, V::f64, V::f64, V::f64);
    // f16
    add(t, "v_add_f16", vop_f16_2<add_f32>, V::f16, V::f16);
    add(t, "v_sub_f16", vop_f16_2<sub_f32>, V::f16, V::f16);
    add(t, "v_subrev_f16", vop_f16_2<subrev_f32>, V::f16, V::f16);
    add(t, "v_mul_f16", vop_f16_2<mul_f32>, V::f16, V::f16);
    add(t, "v_min_f16", min_max_f16_op<false>, V::f16, V::f16);
    add(t, "v_max_f16", min_max_f16_op<true>, V::f16, V::f16);
    add(t, "v_fma_f16", fma_f16, V::f16, V::f16, V::f16);
    add(t, "v_mad_f16", mad_f16, V::f16, V::f16, V::f16);
    add(t, "v_mad_legacy_f16", mad_f16, V::f16, V::f16, V::f16);
    add(t, "v_div_fixup_f16", div_fixup_f16, V::f16, V::f16, V::f16);
    add(t, "v_mac_f16", mac_f16, V::f16, V::f16);
    add(t, "v_fmac_f16", mac_f16, V::f16, V::f16);
    add(t, "v_ldexp_f16", ldexp_f16, V::f16, V::b16);
    add(t, "v_sqrt_f16", vop_f16_1<sqrt_f32>, V::f16);
    add(t, "v_rcp_f16", vop_f16_1<f16_rcp>, V::f16);
    add(t, "v_rsq_f16", vop_f16_1<f16_rsq>, V::f16);
    add(t, "v_log_f16", vop_f16_1<log_f32>, V::f16);
    add(t, "v_exp_f16", vop_f16_1<exp_f32>, V::f16);
    add(t, "v_floor_f16", vop_f16_1<floor_f32>, V::f16);
    add(t, "v_ceil_f16", vop_f16_1<ceil_f32>, V::f16);
    add(t, "v_trunc_f16", vop_f16_1<trunc_f32>, V::f16);
    add(t, "v_rndne_f16", vop_f16_1<rndne_f32>, V::f16);
    add(t, "v_fract_f16", vop_f16_1<f16_fract>, V::f16);
    add(t, "v_sin_f16", vop_f16_1<sin_f32>, V::f16);
    add(t, "v_cos_f16", vop_f16_1<cos_f32>, V::f16);
    add(t, "v_cvt_f16_u16", cvt_f16_int16<false>, V::b16);
    add(t, "v_cvt_f16_i16", cvt_f16_int16<true>, V::b16);
    add(t, "v_cvt_u16_f16", cvt_int16_f16<false>, V::f16);
    add(t, "v_cvt_i16_f16", cvt_int16_f16<true>, V::f16);
    add(t, "v_pack_b32_f16", pack_b32_f16, V::f16, V::f16);
}

} // namespace sim::isa
