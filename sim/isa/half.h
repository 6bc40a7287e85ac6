// SPDX-License-Identifier: MIT
// IEEE binary16 conversions (round to nearest even, denormals kept), through the compiler's _Float16.
#pragma once

#include <cstdint>
#include <cstring>

namespace sim::isa {

inline float half_to_float(uint16_t h) {
    _Float16 x;
    std::memcpy(&x, &h, 2);
    return static_cast<float>(x);
}

inline uint16_t float_to_half(float f) {
    const auto x = static_cast<_Float16>(f);
    uint16_t h;
    std::memcpy(&h, &x, 2);
    return h;
}

inline uint16_t double_to_half(double d) {
    const auto x = static_cast<_Float16>(d);
    uint16_t h;
    std::memcpy(&h, &x, 2);
    return h;
}

/// V_MIN_F16 / V_MAX_F16, and each half of V_PK_MIN_F16 / V_PK_MAX_F16 (CDNA2 ISA): in IEEE mode a
/// signaling NaN operand gives that NaN quieted (S0 first); otherwise a NaN operand gives the other
/// operand; -0 orders below +0. On the operands' bits, so that a signaling NaN is seen as one.
inline uint16_t min_max_f16(uint16_t a, uint16_t b, bool max, bool ieee) {
    auto nan = [](uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; };
    if (ieee && nan(a) && !(a & 0x200)) {
        return static_cast<uint16_t>(a | 0x200);
    }
    if (ieee && nan(b) && !(b & 0x200)) {
        return static_cast<uint16_t>(b | 0x200);
    }
    if (nan(a) || nan(b)) {
        return nan(a) ? b : a;
    }
    const float x = half_to_float(a), y = half_to_float(b);
    if (x == y) { // equal, or +0 and -0
        return (a >> 15) == max ? b : a;
    }
    return (max ? x > y : x < y) ? a : b;
}

} // namespace sim::isa
