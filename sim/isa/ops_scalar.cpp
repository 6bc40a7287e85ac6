// SPDX-License-Identifier: MIT
// Scalar ALU operations: SOP1, SOP2, SOPK, SOPC (CDNA2 ISA §12.1-12.4, semantics in chapter 5).
#include "op_table.h"
#include "operand_access.h"

#include <bit>
#include <string>

namespace sim::isa {

namespace {

using V = ValueType;

uint32_t s0(const Wave& w, const Instruction& in) {
    return read_scalar32(w, in.src[0]);
}
uint32_t s1(const Wave& w, const Instruction& in) {
    return read_scalar32(w, in.src[1]);
}
uint64_t s0_64(const Wave& w, const Instruction& in) {
    return read_scalar64(w, in.src[0]);
}
uint64_t s1_64(const Wave& w, const Instruction& in) {
    return read_scalar64(w, in.src[1]);
}

/// SOP2 with a 32-bit result; `F` returns the result and may set SCC.
template <uint32_t (*F)(Wave&, uint32_t, uint32_t)>
void sop2_32(Wave& w, const Instruction& in) {
    const uint32_t r = F(w, s0(w, in), s1(w, in));
    write_scalar32(w, in.dst[0], r);
}

template <uint64_t (*F)(Wave&, uint64_t, uint64_t)>
void sop2_64(Wave& w, const Instruction& in) {
    const uint64_t r = F(w, s0_64(w, in), s1_64(w, in));
    write_scalar64(w, in.dst[0], r);
}

/// SOP2 with a 64-bit first source and 32-bit second (shifts, bfe of 64 bits).
template <uint64_t (*F)(Wave&, uint64_t, uint32_t)>
void sop2_64_32(Wave& w, const Instruction& in) {
    const uint64_t r = F(w, s0_64(w, in), s1(w, in));
    write_scalar64(w, in.dst[0], r);
}

uint32_t add_u32(Wave& w, uint32_t a, uint32_t b) {
    const uint64_t r = static_cast<uint64_t>(a) + b;
    w.scc = r >> 32;
    return static_cast<uint32_t>(r);
}
uint32_t sub_u32(Wave& w, uint32_t a, uint32_t b) {
    w.scc = b > a;
    return a - b;
}
uint32_t add_i32(Wave& w, uint32_t a, uint32_t b) {
    const uint32_t r = a + b;
    w.scc = ((a ^ ~b) & (a ^ r)) >> 31; // signed overflow
    return r;
}
uint32_t sub_i32(Wave& w, uint32_t a, uint32_t b) {
    const uint32_t r = a - b;
    w.scc = ((a ^ b) & (a ^ r)) >> 31;
    return r;
}
uint32_t addc_u32(Wave& w, uint32_t a, uint32_t b) {
    const uint64_t r = static_cast<uint64_t>(a) + b + (w.scc ? 1 : 0);
    w.scc = r >> 32;
    return static_cast<uint32_t>(r);
}
uint32_t subb_u32(Wave& w, uint32_t a, uint32_t b) {
    const uint64_t sub = static_cast<uint64_t>(b) + (w.scc ? 1 : 0);
    w.scc = sub > a;
    return static_cast<uint32_t>(a - sub);
}
uint32_t min_i32(Wave& w, uint32_t a, uint32_t b) {
    w.scc = static_cast<int32_t>(a) < static_cast<int32_t>(b);
    return w.scc ? a : b;
}
uint32_t min_u32(Wave& w, uint32_t a, uint32_t b) {
    w.scc = a < b;
    return w.scc ? a : b;
}
uint32_t max_i32(Wave& w, uint32_t a, uint32_t b) {
    w.scc = static_cast<int32_t>(a) > static_cast<int32_t>(b);
    return w.scc ? a : b;
}
uint32_t max_u32(Wave& w, uint32_t a, uint32_t b) {
    w.scc = a > b;
    return w.scc ? a : b;
}
uint32_t cselect_b32(Wave& w, uint32_t a, uint32_t b) {
    return w.scc ? a : b;
}
uint64_t cselect_b64(Wave& w, uint64_t a, uint64_t b) {
    return w.scc ? a : b;
}
template <typename T>
T set_nonzero(Wave& w, T r) {
    w.scc = r != 0;
    return r;
}
uint32_t and_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, a & b);
}
uint64_t and_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, a & b);
}
uint32_t or_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, a | b);
}
uint64_t or_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, a | b);
}
uint32_t xor_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, a ^ b);
}
uint64_t xor_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, a ^ b);
}
uint32_t andn2_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, a & ~b);
}
uint64_t andn2_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, a & ~b);
}
uint32_t orn2_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, a | ~b);
}
uint64_t orn2_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, a | ~b);
}
uint32_t nand_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, ~(a & b));
}
uint64_t nand_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, ~(a & b));
}
uint32_t nor_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, ~(a | b));
}
uint64_t nor_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, ~(a | b));
}
uint32_t xnor_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, ~(a ^ b));
}
uint64_t xnor_b64(Wave& w, uint64_t a, uint64_t b) {
    return set_nonzero(w, ~(a ^ b));
}
uint32_t lshl_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, a << (b & 31));
}
uint64_t lshl_b64(Wave& w, uint64_t a, uint32_t b) {
    return set_nonzero(w, a << (b & 63));
}
uint32_t lshr_b32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, a >> (b & 31));
}
uint64_t lshr_b64(Wave& w, uint64_t a, uint32_t b) {
    return set_nonzero(w, a >> (b & 63));
}
uint32_t ashr_i32(Wave& w, uint32_t a, uint32_t b) {
    return set_nonzero(w, static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)));
}
uint64_t ashr_i64(Wave& w, uint64_t a, uint32_t b) {
    return set_nonzero(w, static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63)));
}
uint32_t bfm_b32(Wave&, uint32_t a, uint32_t b) {
    return (((a & 31) == 0 ? 0u : (1u << (a & 31)) - 1)) << (b & 31);
}
uint64_t bfm_b64(Wave&, uint64_t a, uint32_t b) {
    const uint32_t width = static_cast<uint32_t>(a) & 63;
    return (width == 0 ? 0ull : (1ull << width) - 1) << (b & 63);
}
uint32_t mul_i32(Wave&, uint32_t a, uint32_t b) {
    return a * b;
}
uint32_t mul_hi_u32(Wave&, uint32_t a, uint32_t b) {
    return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
}
uint32_t mul_hi_i32(Wave&, uint32_t a, uint32_t b) {
    const int64_t r = static_cast<int64_t>(static_cast<int32_t>(a)) * static_cast<int32_t>(b);
    return static_cast<uint32_t>(static_cast<uint64_t>(r) >> 32);
}
uint32_t bfe_u32(Wave& w, uint32_t a, uint32_t b) {
    const uint32_t offset = b & 31, width = (b >> 16) & 0x7f;
    uint32_t r = width == 0 ? 0 : (a >> offset) & (width >= 32 ? ~0u : (1u << width) - 1);
    return set_nonzero(w, r);
}
uint32_t bfe_i32(Wave& w, uint32_t a, uint32_t b) {
    const uint32_t offset = b & 31, width = (b >> 16) & 0x7f;
    if (width == 0) {
        return set_nonzero(w, 0u);
    }
    if (width >= 32) {
        return set_nonzero(w, static_cast<uint32_t>(static_cast<int32_t>(a) >> offset));
    }
    const uint32_t field = (a >> offset) & ((1u << width) - 1);
    const uint32_t sign = 1u << (width - 1);
    return set_nonzero(w, (field ^ sign) - sign);
}
uint64_t bfe_u64(Wave& w, uint64_t a, uint32_t b) {
    const uint32_t offset = b & 63, width = (b >> 16) & 0x7f;
    return set_nonzero(w, width == 0 ? 0 : (a >> offset) & (width >= 64 ? ~0ull : (1ull << width) - 1));
}
uint64_t bfe_i64(Wave& w, uint64_t a, uint32_t b) {
    const uint32_t offset = b & 63, width = (b >> 16) & 0x7f;
    if (width == 0) {
        return set_nonzero(w, uint64_t{0});
    }
    if (width >= 64) {
        return set_nonzero(w, static_cast<uint64_t>(static_cast<int64_t>(a) >> offset));
    }
    const uint64_t field = (a >> offset) & ((1ull << width) - 1);
    const uint64_t sign = 1ull << (width - 1);
    return set_nonzero(w, (field ^ sign) - sign);
}
uint32_t absdiff_i32(Wave& w, uint32_t a, uint32_t b) {
    // The difference wraps in 32 bits before its sign is taken: (0x80000000, 1) gives 0x7fffffff.
    const auto d = static_cast<int32_t>(a - b);
    const uint32_t r = d < 0 ? 0u - static_cast<uint32_t>(d) : static_cast<uint32_t>(d);
    return set_nonzero(w, r);
}
uint32_t lshl_add(Wave& w, uint32_t a, uint32_t b, uint32_t shift) {
    const uint64_t r = (static_cast<uint64_t>(a) << shift) + b;
    w.scc = r >> 32 != 0;
    return static_cast<uint32_t>(r);
}
uint32_t lshl1_add_u32(Wave& w, uint32_t a, uint32_t b) {
    return lshl_add(w, a, b, 1);
}
uint32_t lshl2_add_u32(Wave& w, uint32_t a, uint32_t b) {
    return lshl_add(w, a, b, 2);
}
uint32_t lshl3_add_u32(Wave& w, uint32_t a, uint32_t b) {
    return lshl_add(w, a, b, 3);
}
uint32_t lshl4_add_u32(Wave& w, uint32_t a, uint32_t b) {
    return lshl_add(w, a, b, 4);
}
uint32_t pack_ll(Wave&, uint32_t a, uint32_t b) {
    return (a & 0xffff) | b << 16;
}
uint32_t pack_lh(Wave&, uint32_t a, uint32_t b) {
    return (a & 0xffff) | (b & 0xffff0000u);
}
uint32_t pack_hh(Wave&, uint32_t a, uint32_t b) {
    return a >> 16 | (b & 0xffff0000u);
}

// SOP1.
template <uint32_t (*F)(Wave&, uint32_t)>
void sop1_32(Wave& w, const Instruction& in) {
    write_scalar32(w, in.dst[0], F(w, s0(w, in)));
}
template <uint64_t (*F)(Wave&, uint64_t)>
void sop1_64(Wave& w, const Instruction& in) {
    write_scalar64(w, in.dst[0], F(w, s0_64(w, in)));
}
template <uint32_t (*F)(Wave&, uint64_t)>
void sop1_32_of_64(Wave& w, const Instruction& in) {
    write_scalar32(w, in.dst[0], F(w, s0_64(w, in)));
}
uint32_t mov_b32(Wave&, uint32_t a) {
    return a;
}
uint64_t mov_b64(Wave&, uint64_t a) {
    return a;
}
uint32_t not_b32(Wave& w, uint32_t a) {
    return set_nonzero(w, ~a);
}
uint64_t not_b64(Wave& w, uint64_t a) {
    return set_nonzero(w, ~a);
}
uint32_t wqm_b32(Wave& w, uint32_t a) {
    uint32_t r = 0;
    for (int q = 0; q < 8; ++q) {
        r |= (a >> (4 * q)) & 0xf ? 0xfu << (4 * q) : 0;
    }
    return set_nonzero(w, r);
}
uint64_t wqm_b64(Wave& w, uint64_t a) {
    uint64_t r = 0;
    for (int q = 0; q < 16; ++q) {
        r |= (a >> (4 * q)) & 0xf ? 0xfull << (4 * q) : 0;
    }
    return set_nonzero(w, r);
}
uint32_t brev_b32(Wave&, uint32_t a) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) {
        r |= ((a >> i) & 1) << (31 - i);
    }
    return r;
}
uint64_t brev_b64(Wave&, uint64_t a) {
    uint64_t r = 0;
    for (int i = 0; i < 64; ++i) {
        r |= ((a >> i) & 1) << (63 - i);
    }
    return r;
}
uint32_t bcnt0_b32(Wave& w, uint32_t a) {
    return set_nonzero(w, static_cast<uint32_t>(std::popcount(~a)));
}
uint32_t bcnt0_b64(Wave& w, uint64_t a) {
    return set_nonzero(w, static_cast<uint32_t>(std::popcount(~a)));
}
uint32_t bcnt1_b32(Wave& w, uint32_t a) {
    return set_nonzero(w, static_cast<uint32_t>(std::popcount(a)));
}
uint32_t bcnt1_b64(Wave& w, uint64_t a) {
    return set_nonzero(w, static_cast<uint32_t>(std::popcount(a)));
}
uint32_t ff0_b32(Wave&, uint32_t a) {
    return ~a == 0 ? ~0u : static_cast<uint32_t>(std::countr_zero(~a));
}
uint32_t ff0_b64(Wave&, uint64_t a) {
    return ~a == 0 ? ~0u : static_cast<uint32_t>(std::countr_zero(~a));
}
uint32_t ff1_b32(Wave&, uint32_t a) {
    return a == 0 ? ~0u : static_cast<uint32_t>(std::countr_zero(a));
}
uint32_t ff1_b64(Wave&, uint64_t a) {
    return a == 0 ? ~0u : static_cast<uint32_t>(std::countr_zero(a));
}
uint32_t flbit_b32(Wave&, uint32_t a) {
    return a == 0 ? ~0u : static_cast<uint32_t>(std::countl_zero(a));
}
uint32_t flbit_b64(Wave&, uint64_t a) {
    return a == 0 ? ~0u : static_cast<uint32_t>(std::countl_zero(a));
}
uint32_t flbit_i32(Wave&, uint32_t a) {
    if (a == 0 || a == ~0u) {
        return ~0u;
    }
    return static_cast<uint32_t>(std::countl_zero(static_cast<int32_t>(a) < 0 ? ~a : a));
}
uint32_t flbit_i64(Wave&, uint64_t a) {
    if (a == 0 || a == ~0ull) {
        return ~0u;
    }
    return static_cast<uint32_t>(std::countl_zero(static_cast<int64_t>(a) < 0 ? ~a : a));
}
uint32_t sext_i32_i8(Wave&, uint32_t a) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(a)));
}
uint32_t sext_i32_i16(Wave&, uint32_t a) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(a)));
}
uint32_t abs_i32(Wave& w, uint32_t a) {
    const auto v = static_cast<int32_t>(a);
    return set_nonzero(w, v < 0 ? 0u - a : a);
}
uint32_t quadmask_b32(Wave& w, uint32_t a) {
    uint32_t r = 0;
    for (int q = 0; q < 8; ++q) {
        r |= (a >> (4 * q)) & 0xf ? 1u << q : 0;
    }
    return set_nonzero(w, r);
}
uint64_t quadmask_b64(Wave& w, uint64_t a) {
    uint64_t r = 0;
    for (int q = 0; q < 16; ++q) {
        r |= (a >> (4 * q)) & 0xf ? 1ull << q : 0;
    }
    return set_nonzero(w, r);
}

void cmov_b32(Wave& w, const Instruction& in) {
    if (w.scc) {
        write_scalar32(w, in.dst[0], s0(w, in));
    }
}
void cmov_b64(Wave& w, const Instruction& in) {
    if (w.scc) {
        write_scalar64(w, in.dst[0], s0_64(w, in));
    }
}
void bitset0_b32(Wave& w, const Instruction& in) {
    const uint32_t d = read_scalar32(w, in.dst[0]);
    write_scalar32(w, in.dst[0], d & ~(1u << (s0(w, in) & 31)));
}
void bitset1_b32(Wave& w, const Instruction& in) {
    const uint32_t d = read_scalar32(w, in.dst[0]);
    write_scalar32(w, in.dst[0], d | 1u << (s0(w, in) & 31));
}
void bitset0_b64(Wave& w, const Instruction& in) {
    const uint64_t d = read_scalar64(w, in.dst[0]);
    write_scalar64(w, in.dst[0], d & ~(1ull << (s0(w, in) & 63)));
}
void bitset1_b64(Wave& w, const Instruction& in) {
    const uint64_t d = read_scalar64(w, in.dst[0]);
    write_scalar64(w, in.dst[0], d | 1ull << (s0(w, in) & 63));
}

/// s_<op>_saveexec_b64: D = EXEC; EXEC = F(S0, EXEC); SCC = EXEC != 0 (CDNA2 ISA §12.2).
template <uint64_t (*F)(uint64_t, uint64_t)>
void saveexec(Wave& w, const Instruction& in) {
    const uint64_t src = s0_64(w, in);
    const uint64_t old = w.exec();
    write_scalar64(w, in.dst[0], old);
    const uint64_t exec = F(src, old);
    w.set_exec(exec);
    w.scc = exec != 0;
}
uint64_t se_and(uint64_t s, uint64_t e) {
    return s & e;
}
uint64_t se_or(uint64_t s, uint64_t e) {
    return s | e;
}
uint64_t se_xor(uint64_t s, uint64_t e) {
    return s ^ e;
}
uint64_t se_andn2(uint64_t s, uint64_t e) {
    return s & ~e;
}
uint64_t se_orn2(uint64_t s, uint64_t e) {
    return s | ~e;
}
uint64_t se_nand(uint64_t s, uint64_t e) {
    return ~(s & e);
}
uint64_t se_nor(uint64_t s, uint64_t e) {
    return ~(s | e);
}
uint64_t se_xnor(uint64_t s, uint64_t e) {
    return ~(s ^ e);
}
uint64_t se_andn1(uint64_t s, uint64_t e) {
    return ~s & e;
}
uint64_t se_orn1(uint64_t s, uint64_t e) {
    return ~s | e;
}
/// s_andn1_wrexec_b64 / s_andn2_wrexec_b64: EXEC = D = F(S0, EXEC); SCC = EXEC != 0.
template <uint64_t (*F)(uint64_t, uint64_t)>
void wrexec(Wave& w, const Instruction& in) {
    const uint64_t exec = F(s0_64(w, in), w.exec());
    w.set_exec(exec);
    write_scalar64(w, in.dst[0], exec);
    w.scc = exec != 0;
}

void getpc_b64(Wave& w, const Instruction& in) {
    write_scalar64(w, in.dst[0], w.program->base_address + in.address + in.size);
}
void jump_to(Wave& w, const Instruction& in, uint64_t target) {
    const int32_t index = w.program->index_at_absolute(target);
    if (index < 0) {
        fault(w, in, "jump to an address outside the decoded code");
        return;
    }
    w.pc = static_cast<uint32_t>(index);
}
void setpc_b64(Wave& w, const Instruction& in) {
    jump_to(w, in, s0_64(w, in));
}
void swappc_b64(Wave& w, const Instruction& in) {
    const uint64_t target = s0_64(w, in);
    write_scalar64(w, in.dst[0], w.program->base_address + in.address + in.size);
    jump_to(w, in, target);
}
void movrels_b32(Wave& w, const Instruction& in) {
    write_scalar32(w, in.dst[0], w.sgpr[(in.src[0].index + w.sgpr[kM0]) % kScalarRegisterCount]);
}
void movrels_b64(Wave& w, const Instruction& in) {
    const uint32_t i = (in.src[0].index + w.sgpr[kM0]) % kScalarRegisterCount;
    write_scalar64(w, in.dst[0], w.sgpr64(static_cast<uint16_t>(i)));
}
void movreld_b32(Wave& w, const Instruction& in) {
    w.sgpr[(in.dst[0].index + w.sgpr[kM0]) % kScalarRegisterCount] = s0(w, in);
}
void movreld_b64(Wave& w, const Instruction& in) {
    const uint32_t i = (in.dst[0].index + w.sgpr[kM0]) % kScalarRegisterCount;
    const uint64_t v = s0_64(w, in);
    w.sgpr[i] = static_cast<uint32_t>(v);
    w.sgpr[(i + 1) % kScalarRegisterCount] = static_cast<uint32_t>(v >> 32);
}

// SOPC: SCC = compare(S0, S1).
template <bool (*F)(uint32_t, uint32_t)>
void sopc_32(Wave& w, const Instruction& in) {
    w.scc = F(s0(w, in), s1(w, in));
}
template <bool (*F)(uint64_t, uint64_t)>
void sopc_64(Wave& w, const Instruction& in) {
    w.scc = F(s0_64(w, in), s1_64(w, in));
}
bool eq_u(uint32_t a, uint32_t b) {
    return a == b;
}
bool lg_u(uint32_t a, uint32_t b) {
    return a != b;
}
bool gt_u(uint32_t a, uint32_t b) {
    return a > b;
}
bool ge_u(uint32_t a, uint32_t b) {
    return a >= b;
}
bool lt_u(uint32_t a, uint32_t b) {
    return a < b;
}
bool le_u(uint32_t a, uint32_t b) {
    return a <= b;
}
bool gt_i(uint32_t a, uint32_t b) {
    return static_cast<int32_t>(a) > static_cast<int32_t>(b);
}
bool ge_i(uint32_t a, uint32_t b) {
    return static_cast<int32_t>(a) >= static_cast<int32_t>(b);
}
bool lt_i(uint32_t a, uint32_t b) {
    return static_cast<int32_t>(a) < static_cast<int32_t>(b);
}
bool le_i(uint32_t a, uint32_t b) {
    return static_cast<int32_t>(a) <= static_cast<int32_t>(b);
}
bool eq_u64(uint64_t a, uint64_t b) {
    return a == b;
}
bool lg_u64(uint64_t a, uint64_t b) {
    return a != b;
}
bool bitcmp0_b32(uint32_t a, uint32_t b) {
    return ((a >> (b & 31)) & 1) == 0;
}
bool bitcmp1_b32(uint32_t a, uint32_t b) {
    return ((a >> (b & 31)) & 1) == 1;
}
bool bitcmp0_b64(uint64_t a, uint64_t b) {
    return ((a >> (b & 63)) & 1) == 0;
}
bool bitcmp1_b64(uint64_t a, uint64_t b) {
    return ((a >> (b & 63)) & 1) == 1;
}

// SOPK: the 16-bit immediate is the last source.
int32_t simm16(const Instruction& in, int i) {
    return static_cast<int16_t>(static_cast<uint16_t>(in.src[i].value));
}
void movk_i32(Wave& w, const Instruction& in) {
    write_scalar32(w, in.dst[0], static_cast<uint32_t>(simm16(in, 0)));
}
void cmovk_i32(Wave& w, const Instruction& in) {
    if (w.scc) {
        write_scalar32(w, in.dst[0], static_cast<uint32_t>(simm16(in, 0)));
    }
}
void addk_i32(Wave& w, const Instruction& in) {
    const uint32_t d = read_scalar32(w, in.dst[0]);
    write_scalar32(w, in.dst[0], add_i32(w, d, static_cast<uint32_t>(simm16(in, 0))));
}
void mulk_i32(Wave& w, const Instruction& in) {
    const uint32_t d = read_scalar32(w, in.dst[0]);
    write_scalar32(w, in.dst[0], d * static_cast<uint32_t>(simm16(in, 0)));
}
template <bool (*F)(uint32_t, uint32_t), bool Signed>
void cmpk(Wave& w, const Instruction& in) {
    const uint32_t imm =
        Signed ? static_cast<uint32_t>(simm16(in, 1)) : static_cast<uint32_t>(in.src[1].value & 0xffff);
    w.scc = F(s0(w, in), imm);
}

/// Hardware registers s_getreg/s_setreg reach (CDNA2 ISA §3.8); others read as 0, writes are dropped.
uint32_t* hwreg(Wave& w, uint8_t id) {
    switch (id) {
    case 1:
        return &w.mode;
    case 3:
        return &w.trapsts;
    default:
        return nullptr;
    }
}
/// The value of a hardware register s_getreg reads (CDNA2 ISA §3.8, "Hardware Registers"); false for one
/// the interpreter does not model, which faults rather than reading as 0.
bool hwreg_value(const Wave& w, uint8_t id, uint32_t& value) {
    switch (id) {
    case 1: // MODE
        value = w.mode;
        return true;
    case 2: // STATUS: SCC (bit 0), EXECZ (9), VCCZ (10)
        value = (w.scc ? 1u : 0u) | (w.exec() == 0 ? 1u << 9 : 0u) | (w.vcc() == 0 ? 1u << 10 : 0u);
        return true;
    case 3: // TRAPSTS
        value = w.trapsts;
        return true;
    case 4: // HW_ID: the wave's id within its work-group in bits 3:0
        value = w.wave_in_group & 0xf;
        return true;
    case 5: { // GPR_ALLOC: VGPR_SIZE in bits 13:8 (granules of 8, minus 1), SGPR_SIZE in 27:24 (of 16)
        const uint32_t vgpr_granules =
            w.program && w.dispatch ? (w.dispatch->kernel->descriptor.vgpr_count() / 8) : 1;
        value = ((vgpr_granules - 1) & 0x3f) << 8 | ((112 / 16 - 1) & 0xf) << 24;
        return true;
    }
    case 6: // LDS_ALLOC: LDS size in 64-dword granules, bits 20:12
        value = ((w.lds_size + 255) / 256) << 12;
        return true;
    case 7: // IB_STS: no outstanding memory counts, every access is complete when it ends
        value = 0;
        return true;
    case 15: // SH_MEM_BASES: private aperture base bits 63:48 in 15:0, shared aperture's in 31:16
        value = static_cast<uint32_t>(kPrivateApertureBase >> 48) |
                static_cast<uint32_t>(kSharedApertureBase >> 48) << 16;
        return true;
    default:
        return false;
    }
}
uint32_t field_mask(const Instruction& in) {
    return in.hwreg_size >= 32 ? ~0u : ((1u << in.hwreg_size) - 1);
}
void getreg_b32(Wave& w, const Instruction& in) {
    uint32_t value = 0;
    if (!hwreg_value(w, in.hwreg_id, value)) {
        fault(w, in, "hardware register " + std::to_string(in.hwreg_id) + " is not simulated");
        return;
    }
    write_scalar32(w, in.dst[0], (value >> in.hwreg_offset) & field_mask(in));
}
void set_hwreg(Wave& w, const Instruction& in, uint32_t value) {
    if (uint32_t* r = hwreg(w, in.hwreg_id)) {
        const uint32_t mask = field_mask(in) << in.hwreg_offset;
        *r = (*r & ~mask) | ((value << in.hwreg_offset) & mask);
    }
}
void setreg_b32(Wave& w, const Instruction& in) {
    set_hwreg(w, in, s0(w, in));
}

void add(OpTable& t, const char* name, ExecuteFn fn, uint8_t dsts = 1, V t0 = V::b32, V t1 = V::b32) {
    t.add({name, fn, Unit::salu, dsts, {t0, t1, V::b32, V::b32}});
}

} // namespace

void register_scalar_ops(OpTable& t) {
    // SOP2
    add(t, "s_add_u32", sop2_32<add_u32>);
    add(t, "s_sub_u32", sop2_32<sub_u32>);
    add(t, "s_add_i32", sop2_32<add_i32>);
    add(t, "s_sub_i32", sop2_32<sub_i32>);
    add(t, "s_addc_u32", sop2_32<addc_u32>);
    add(t, "s_subb_u32", sop2_32<subb_u32>);
    add(t, "s_min_i32", sop2_32<min_i32>);
    add(t, "s_min_u32", sop2_32<min_u32>);
    add(t, "s_max_i32", sop2_32<max_i32>);
    add(t, "s_max_u32", sop2_32<max_u32>);
    add(t, "s_cselect_b32", sop2_32<cselect_b32>);
    add(t, "s_cselect_b64", sop2_64<cselect_b64>, 1, V::b64, V::b64);
    add(t, "s_and_b32", sop2_32<and_b32>);
    add(t, "s_and_b64", sop2_64<and_b64>, 1, V::b64, V::b64);
    add(t, "s_or_b32", sop2_32<or_b32>);
    add(t, "s_or_b64", sop2_64<or_b64>, 1, V::b64, V::b64);
    add(t, "s_xor_b32", sop2_32<xor_b32>);
    add(t, "s_xor_b64", sop2_64<xor_b64>, 1, V::b64, V::b64);
    add(t, "s_andn2_b32", sop2_32<andn2_b32>);
    add(t, "s_andn2_b64", sop2_64<andn2_b64>, 1, V::b64, V::b64);
    add(t, "s_orn2_b32", sop2_32<orn2_b32>);
    add(t, "s_orn2_b64", sop2_64<orn2_b64>, 1, V::b64, V::b64);
    add(t, "s_nand_b32", sop2_32<nand_b32>);
    add(t, "s_nand_b64", sop2_64<nand_b64>, 1, V::b64, V::b64);
    add(t, "s_nor_b32", sop2_32<nor_b32>);
    add(t, "s_nor_b64", sop2_64<nor_b64>, 1, V::b64, V::b64);
    add(t, "s_xnor_b32", sop2_32<xnor_b32>);
    add(t, "s_xnor_b64", sop2_64<xnor_b64>, 1, V::b64, V::b64);
    add(t, "s_lshl_b32", sop2_32<lshl_b32>);
    add(t, "s_lshl_b64", sop2_64_32<lshl_b64>, 1, V::b64);
    add(t, "s_lshr_b32", sop2_32<lshr_b32>);
    add(t, "s_lshr_b64", sop2_64_32<lshr_b64>, 1, V::b64);
    add(t, "s_ashr_i32", sop2_32<ashr_i32>);
    add(t, "s_ashr_i64", sop2_64_32<ashr_i64>, 1, V::b64);
    add(t, "s_bfm_b32", sop2_32<bfm_b32>);
    add(t, "s_bfm_b64", sop2_64_32<bfm_b64>);
    add(t, "s_mul_i32", sop2_32<mul_i32>);
    add(t, "s_mul_hi_u32", sop2_32<mul_hi_u32>);
    add(t, "s_mul_hi_i32", sop2_32<mul_hi_i32>);
    add(t, "s_bfe_u32", sop2_32<bfe_u32>);
    add(t, "s_bfe_i32", sop2_32<bfe_i32>);
    add(t, "s_bfe_u64", sop2_64_32<bfe_u64>, 1, V::b64);
    add(t, "s_bfe_i64", sop2_64_32<bfe_i64>, 1, V::b64);
    add(t, "s_absdiff_i32", sop2_32<absdiff_i32>);
    add(t, "s_lshl1_add_u32", sop2_32<lshl1_add_u32>);
    add(t, "s_lshl2_add_u32", sop2_32<lshl2_add_u32>);
    add(t, "s_lshl3_add_u32", sop2_32<lshl3_add_u32>);
    add(t, "s_lshl4_add_u32", sop2_32<lshl4_add_u32>);
    add(t, "s_pack_ll_b32_b16", sop2_32<pack_ll>);
    add(t, "s_pack_lh_b32_b16", sop2_32<pack_lh>);
    add(t, "s_pack_hh_b32_b16", sop2_32<pack_hh>);
    // SOP1
    add(t, "s_mov_b32", sop1_32<mov_b32>);
    add(t, "s_mov_b64", sop1_64<mov_b64>, 1, V::b64);
    add(t, "s_cmov_b32", cmov_b32);
    add(t, "s_cmov_b64", cmov_b64, 1, V::b64);
    add(t, "s_not_b32", sop1_32<not_b32>);
    add(t, "s_not_b64", sop1_64<not_b64>, 1, V::b64);
    add(t, "s_wqm_b32", sop1_32<wqm_b32>);
    add(t, "s_wqm_b64", sop1_64<wqm_b64>, 1, V::b64);
    add(t, "s_brev_b32", sop1_32<brev_b32>);
    add(t, "s_brev_b64", sop1_64<brev_b64>, 1, V::b64);
    add(t, "s_bcnt0_i32_b32", sop1_32<bcnt0_b32>);
    add(t, "s_bcnt0_i32_b64", sop1_32_of_64<bcnt0_b64>, 1, V::b64);
    add(t, "s_bcnt1_i32_b32", sop1_32<bcnt1_b32>);
    add(t, "s_bcnt1_i32_b64", sop1_32_of_64<bcnt1_b64>, 1, V::b64);
    add(t, "s_ff0_i32_b32", sop1_32<ff0_b32>);
    add(t, "s_ff0_i32_b64", sop1_32_of_64<ff0_b64>, 1, V::b64);
    add(t, "s_ff1_i32_b32", sop1_32<ff1_b32>);
    add(t, "s_ff1_i32_b64", sop1_32_of_64<ff1_b64>, 1, V::b64);
    add(t, "s_flbit_i32_b32", sop1_32<flbit_b32>);
    add(t, "s_flbit_i32_b64", sop1_32_of_64<flbit_b64>, 1, V::b64);
    add(t, "s_flbit_i32", sop1_32<flbit_i32>);
    add(t, "s_flbit_i32_i64", sop1_32_of_64<flbit_i64>, 1, V::b64);
    add(t, "s_sext_i32_i8", sop1_32<sext_i32_i8>);
    add(t, "s_sext_i32_i16", sop1_32<sext_i32_i16>);
    add(t, "s_bitset0_b32", bitset0_b32);
    add(t, "s_bitset1_b32", bitset1_b32);
    add(t, "s_bitset0_b64", bitset0_b64);
    add(t, "s_bitset1_b64", bitset1_b64);
    add(t, "s_abs_i32", sop1_32<abs_i32>);
    add(t, "s_quadmask_b32", sop1_32<quadmask_b32>);
    add(t, "s_quadmask_b64", sop1_64<quadmask_b64>, 1, V::b64);
    add(t, "s_and_saveexec_b64", saveexec<se_and>, 1, V::b64);
    add(t, "s_or_saveexec_b64", saveexec<se_or>, 1, V::b64);
    add(t, "s_xor_saveexec_b64", saveexec<se_xor>, 1, V::b64);
    add(t, "s_andn2_saveexec_b64", saveexec<se_andn2>, 1, V::b64);
    add(t, "s_orn2_saveexec_b64", saveexec<se_orn2>, 1, V::b64);
    add(t, "s_nand_saveexec_b64", saveexec<se_nand>, 1, V::b64);
    add(t, "s_nor_saveexec_b64", saveexec<se_nor>, 1, V::b64);
    add(t, "s_xnor_saveexec_b64", saveexec<se_xnor>, 1, V::b64);
    add(t, "s_andn1_saveexec_b64", saveexec<se_andn1>, 1, V::b64);
    add(t, "s_orn1_saveexec_b64", saveexec<se_orn1>, 1, V::b64);
    add(t, "s_andn1_wrexec_b64", wrexec<se_andn1>, 1, V::b64);
    add(t, "s_andn2_wrexec_b64", wrexec<se_andn2>, 1, V::b64);
    add(t, "s_getpc_b64", getpc_b64);
    add(t, "s_setpc_b64", setpc_b64, 0, V::b64);
    add(t, "s_swappc_b64", swappc_b64, 1, V::b64);
    add(t, "s_movrels_b32", movrels_b32);
    add(t, "s_movrels_b64", movrels_b64);
    add(t, "s_movreld_b32", movreld_b32);
    add(t, "s_movreld_b64", movreld_b64, 1, V::b64);
    // SOPC
    add(t, "s_cmp_eq_i32", sopc_32<eq_u>, 0);
    add(t, "s_cmp_lg_i32", sopc_32<lg_u>, 0);
    add(t, "s_cmp_gt_i32", sopc_32<gt_i>, 0);
    add(t, "s_cmp_ge_i32", sopc_32<ge_i>, 0);
    add(t, "s_cmp_lt_i32", sopc_32<lt_i>, 0);
    add(t, "s_cmp_le_i32", sopc_32<le_i>, 0);
    add(t, "s_cmp_eq_u32", sopc_32<eq_u>, 0);
    add(t, "s_cmp_lg_u32", sopc_32<lg_u>, 0);
    add(t, "s_cmp_gt_u32", sopc_32<gt_u>, 0);
    add(t, "s_cmp_ge_u32", sopc_32<ge_u>, 0);
    add(t, "s_cmp_lt_u32", sopc_32<lt_u>, 0);
    add(t, "s_cmp_le_u32", sopc_32<le_u>, 0);
    add(t, "s_cmp_eq_u64", sopc_64<eq_u64>, 0, V::b64, V::b64);
    add(t, "s_cmp_lg_u64", sopc_64<lg_u64>, 0, V::b64, V::b64);
    add(t, "s_bitcmp0_b32", sopc_32<bitcmp0_b32>, 0);
    add(t, "s_bitcmp1_b32", sopc_32<bitcmp1_b32>, 0);
    add(t, "s_bitcmp0_b64", sopc_64<bitcmp0_b64>, 0, V::b64);
    add(t, "s_bitcmp1_b64", sopc_64<bitcmp1_b64>, 0, V::b64);
    // SOPK
    add(t, "s_movk_i32", movk_i32);
    add(t, "s_cmovk_i32", cmovk_i32);
    add(t, "s_addk_i32", addk_i32);
    add(t, "s_mulk_i32", mulk_i32);
    add(t, "s_cmpk_eq_i32", cmpk<eq_u, true>, 0);
    add(t, "s_cmpk_lg_i32", cmpk<lg_u, true>, 0);
    add(t, "s_cmpk_gt_i32", cmpk<gt_i, true>, 0);
    add(t, "s_cmpk_ge_i32", cmpk<ge_i, true>, 0);
    add(t, "s_cmpk_lt_i32", cmpk<lt_i, true>, 0);
    add(t, "s_cmpk_le_i32", cmpk<le_i, true>, 0);
    add(t, "s_cmpk_eq_u32", cmpk<eq_u, false>, 0);
    add(t, "s_cmpk_lg_u32", cmpk<lg_u, false>, 0);
    add(t, "s_cmpk_gt_u32", cmpk<gt_u, false>, 0);
    add(t, "s_cmpk_ge_u32", cmpk<ge_u, false>, 0);
    add(t, "s_cmpk_lt_u32", cmpk<lt_u, false>, 0);
    add(t, "s_cmpk_le_u32", cmpk<le_u, false>, 0);
    add(t, "s_getreg_b32", getreg_b32);
    add(t, "s_setreg_b32", setreg_b32, 0);
    add(t, "s_setreg_imm32_b32", setreg_b32, 0);
}

} // namespace sim::isa
