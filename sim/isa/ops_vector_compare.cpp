// SPDX-License-Identifier: MIT
// Vector compares (VOPC and their VOP3 forms): v_cmp_* write a lane mask to VCC or an SGPR pair,
// v_cmpx_* also to EXEC; inactive lanes read 0. v_cmp_class_* test IEEE classes (CDNA2 ISA §6.3, §12.8).
#include "half.h"
#include "op_table.h"
#include "vector_alu.h"

#include <cmath>
#include <string>

namespace sim::isa {

namespace {

using V = ValueType;

/// The 16 floating-point conditions by their VOPC opcode order: F LT EQ LE GT LG GE O U NGE NLG NGT NLE NEQ
/// NLT TRU.
template <typename T>
bool float_condition(int c, T a, T b) {
    const bool unordered = a != a || b != b;
    switch (c) {
    case 0:
        return false;
    case 1:
        return a < b;
    case 2:
        return a == b;
    case 3:
        return a <= b;
    case 4:
        return a > b;
    case 5:
        return a < b || a > b;
    case 6:
        return a >= b;
    case 7:
        return !unordered;
    case 8:
        return unordered;
    case 9:
        return !(a >= b);
    case 10:
        return !(a < b || a > b);
    case 11:
        return !(a > b);
    case 12:
        return !(a <= b);
    case 13:
        return !(a == b);
    case 14:
        return !(a < b);
    default:
        return true;
    }
}

/// Integer conditions in VOPC order: F LT EQ LE GT NE GE T.
template <typename T>
bool int_condition(int c, T a, T b) {
    switch (c) {
    case 0:
        return false;
    case 1:
        return a < b;
    case 2:
        return a == b;
    case 3:
        return a <= b;
    case 4:
        return a > b;
    case 5:
        return a != b;
    case 6:
        return a >= b;
    default:
        return true;
    }
}

void finish(Wave& w, const Instruction& in, uint64_t result, bool to_exec) {
    if (in.dst_count && in.dst[0].kind == OperandKind::sgpr) {
        write_scalar64(w, in.dst[0], result);
    } else if (!to_exec) {
        w.set_vcc(result);
    }
    if (to_exec) {
        w.set_exec(result);
    }
}

enum class Kind { f16, f32, f64, i16, u16, i32, u32, i64, u64 };

template <Kind K, int C, bool X>
void compare(Wave& w, const Instruction& in) {
    const uint64_t mask = w.exec();
    uint64_t result = 0;
    if constexpr (K == Kind::f64 || K == Kind::i64 || K == Kind::u64) {
        Lanes64 a, b;
        if constexpr (K == Kind::f64) {
            read_f64(w, in, 0, a.v);
            read_f64(w, in, 1, b.v);
        } else {
            read_vector_src64(w, in, 0, a.v);
            read_vector_src64(w, in, 1, b.v);
        }
        for (int l = 0; l < kLanes; ++l) {
            bool r;
            if constexpr (K == Kind::f64) {
                r = float_condition(C, bit_cast<double>(a.v[l]), bit_cast<double>(b.v[l]));
            } else if constexpr (K == Kind::i64) {
                r = int_condition(C, static_cast<int64_t>(a.v[l]), static_cast<int64_t>(b.v[l]));
            } else {
                r = int_condition(C, a.v[l], b.v[l]);
            }
            result |= r && lane_on(mask, l) ? 1ull << l : 0;
        }
    } else {
        Lanes a, b;
        if constexpr (K == Kind::f32) {
            read_f32(w, in, 0, a.v);
            read_f32(w, in, 1, b.v);
        } else {
            read_vector_src(w, in, 0, a.v);
            read_vector_src(w, in, 1, b.v);
        }
        for (int l = 0; l < kLanes; ++l) {
            bool r;
            if constexpr (K == Kind::f32) {
                r = float_condition(C, bit_cast<float>(a.v[l]), bit_cast<float>(b.v[l]));
            } else if constexpr (K == Kind::f16) {
                auto h = [&](uint32_t x, const Operand& o) {
                    float f = half_to_float(static_cast<uint16_t>(x));
                    f = o.abs ? std::fabs(f) : f;
                    return o.neg ? -f : f;
                };
                r = float_condition(C, h(a.v[l], in.src[0]), h(b.v[l], in.src[1]));
            } else if constexpr (K == Kind::i16) {
                r = int_condition(C, static_cast<int16_t>(a.v[l]), static_cast<int16_t>(b.v[l]));
            } else if constexpr (K == Kind::u16) {
                r = int_condition(C, static_cast<uint16_t>(a.v[l]), static_cast<uint16_t>(b.v[l]));
            } else if constexpr (K == Kind::i32) {
                r = int_condition(C, static_cast<int32_t>(a.v[l]), static_cast<int32_t>(b.v[l]));
            } else {
                r = int_condition(C, a.v[l], b.v[l]);
            }
            result |= r && lane_on(mask, l) ? 1ull << l : 0;
        }
    }
    finish(w, in, result, X);
}

/// IEEE class bits of V_CMP_CLASS: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
/// 7 +denormal, 8 +normal, 9 +inf.
template <typename T>
uint32_t class_bit(T x, bool signaling) {
    const bool neg = std::signbit(x);
    switch (std::fpclassify(x)) {
    case FP_NAN:
        return signaling ? 0 : 1;
    case FP_INFINITE:
        return neg ? 2 : 9;
    case FP_NORMAL:
        return neg ? 3 : 8;
    case FP_SUBNORMAL:
        return neg ? 4 : 7;
    default:
        return neg ? 5 : 6;
    }
}

template <Kind K, bool X>
void compare_class(Wave& w, const Instruction& in) {
    const uint64_t mask = w.exec();
    uint64_t result = 0;
    Lanes m;
    read_vector_src(w, in, 1, m.v);
    if constexpr (K == Kind::f64) {
        Lanes64 a;
        read_vector_src64(w, in, 0, a.v); // classified as they are: denormals are not flushed
        const uint64_t clear = in.src[0].abs ? 0x7fffffffffffffffull : ~0ull;
        const uint64_t flip = in.src[0].neg ? 0x8000000000000000ull : 0;
        for (int l = 0; l < kLanes; ++l) {
            a.v[l] = (a.v[l] & clear) ^ flip;
            const double x = bit_cast<double>(a.v[l]);
            const bool signaling = x != x && !((a.v[l] >> 51) & 1);
            result |= (m.v[l] >> class_bit(x, signaling)) & 1 && lane_on(mask, l) ? 1ull << l : 0;
        }
    } else {
        Lanes a;
        read_vector_src(w, in, 0, a.v);
        for (int l = 0; l < kLanes; ++l) {
            uint32_t bit;
            if constexpr (K == Kind::f32) {
                uint32_t bits = a.v[l];
                bits = in.src[0].abs ? bits & 0x7fffffffu : bits;
                bits = in.src[0].neg ? bits ^ 0x80000000u : bits;
                const float x = bit_cast<float>(bits);
                bit = class_bit(x, x != x && !((bits >> 22) & 1));
            } else {
                uint16_t bits = static_cast<uint16_t>(a.v[l]);
                bits = in.src[0].abs ? bits & 0x7fff : bits;
                bits = in.src[0].neg ? bits ^ 0x8000 : bits;
                const bool nan = (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff);
                const bool denormal = (bits & 0x7c00) == 0 && (bits & 0x3ff);
                const bool neg = bits >> 15;
                bit = nan        ? ((bits >> 9) & 1 ? 1 : 0)
                      : denormal ? (neg ? 4 : 7)
                                 : class_bit(half_to_float(bits), false);
            }
            result |= (m.v[l] >> bit) & 1 && lane_on(mask, l) ? 1ull << l : 0;
        }
    }
    finish(w, in, result, X);
}

template <Kind K, int C>
void add_pair(OpTable& t, const std::string& cond, const std::string& type, V vt) {
    t.add({"v_cmp_" + cond + "_" + type, compare<K, C, false>, Unit::valu, 1, {vt, vt, V::b32, V::b32}});
    t.add({"v_cmpx_" + cond + "_" + type, compare<K, C, true>, Unit::valu, 1, {vt, vt, V::b32, V::b32}});
}

template <Kind K>
void add_float(OpTable& t, const std::string& type, V vt) {
    add_pair<K, 0>(t, "f", type, vt);
    add_pair<K, 1>(t, "lt", type, vt);
    add_pair<K, 2>(t, "eq", type, vt);
    add_pair<K, 3>(t, "le", type, vt);
    add_pair<K, 4>(t, "gt", type, vt);
    add_pair<K, 5>(t, "lg", type, vt);
    add_pair<K, 6>(t, "ge", type, vt);
    add_pair<K, 7>(t, "o", type, vt);
    add_pair<K, 8>(t, "u", type, vt);
    add_pair<K, 9>(t, "nge", type, vt);
    add_pair<K, 10>(t, "nlg", type, vt);
    add_pair<K, 11>(t, "ngt", type, vt);
    add_pair<K, 12>(t, "nle", type, vt);
    add_pair<K, 13>(t, "neq", type, vt);
    add_pair<K, 14>(t, "nlt", type, vt);
    add_pair<K, 15>(t, "tru", type, vt);
    t.add({"v_cmp_class_" + type, compare_class<K, false>, Unit::valu, 1, {vt, V::b32, V::b32, V::b32}});
    t.add({"v_cmpx_class_" + type, compare_class<K, true>, Unit::valu, 1, {vt, V::b32, V::b32, V::b32}});
}

template <Kind K>
void add_int(OpTable& t, const std::string& type, V vt) {
    add_pair<K, 0>(t, "f", type, vt);
    add_pair<K, 1>(t, "lt", type, vt);
    add_pair<K, 2>(t, "eq", type, vt);
    add_pair<K, 3>(t, "le", type, vt);
    add_pair<K, 4>(t, "gt", type, vt);
    add_pair<K, 5>(t, "ne", type, vt);
    add_pair<K, 6>(t, "ge", type, vt);
    add_pair<K, 7>(t, "t", type, vt);
}

} // namespace

void register_vector_compare_ops(OpTable& t) {
    add_float<Kind::f16>(t, "f16", V::f16);
    add_float<Kind::f32>(t, "f32", V::f32);
    add_float<Kind::f64>(t, "f64", V::f64);
    add_int<Kind::i16>(t, "i16", V::b16);
    add_int<Kind::u16>(t, "u16", V::b16);
    add_int<Kind::i32>(t, "i32", V::b32);
    add_int<Kind::u32>(t, "u32", V::b32);
    add_int<Kind::i64>(t, "i64", V::b64);
    add_int<Kind::u64>(t, "u64", V::b64);
}

} // namespace sim::isa
