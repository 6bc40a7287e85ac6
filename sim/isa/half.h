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

} // namespace sim::isa
