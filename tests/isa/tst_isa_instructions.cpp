// SPDX-License-Identifier: MIT
/*
 * The gfx90a interpreter (sim/isa) instruction by instruction. Each kernel of kernels/<class>.s runs a
 * few instructions on inputs the test writes and stores what they produced (kernels/common.inc
 * describes the frame: eight input planes of 64 lanes, eight output planes, and a memory buffer for
 * loads, stores and atomics). The expected values are written out here from the instructions'
 * definitions in AMD's CDNA2 ISA reference (and IEEE-754 for rounding): they are not computed by the
 * interpreter's code. The suite runs with HSA_SIM_EXECUTOR=isa.
 */
#include "isa_kernel_suite.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <thread>
#include <vector>

using namespace rs_test;

using namespace rs_test::isa;

class IsaInstructionsTest : public QObject, IsaKernelSuite {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { init_suite(); }

    void cleanupTestCase() { cleanup_suite(); }

    // SOP1 / SOP2 / SOPK / SOPC and branches. Scalar frame (kernels/sop.s): in = {a lo, a hi, b lo, b hi,
    // old lo, old hi, SCC in}; out = {result lo, result hi, SCC}.
    void scalarAlu_data() {
        columns();
        // A 32-bit operation leaves the old high dword (0x5a5a5a5a).
        auto s32 = [](const char* name, const char* kernel, uint32_t a, uint32_t b, uint32_t scc_in,
                      uint32_t result, uint32_t scc, uint32_t old = 0x11111111) {
            row(name, kernel, {a, 0, b, 0, old, 0x5a5a5a5a, scc_in}, {result, 0x5a5a5a5a, scc});
        };
        auto s64 = [](const char* name, const char* kernel, uint64_t a, uint64_t b, uint32_t scc_in,
                      uint64_t result, uint32_t scc) {
            row(name, kernel, q(a) + q(b) + Words{0x11111111, 0x22222222, scc_in}, q(result) + Words{scc});
        };
        s32("s_add_u32 carry", "s_add_u32", 0xffffffff, 2, 0, 1, 1);
        s32("s_add_u32 no carry", "s_add_u32", 1, 2, 1, 3, 0);
        s32("s_addc_u32 carry in and out", "s_addc_u32", 0xfffffffe, 1, 1, 0, 1);
        s32("s_addc_u32 no carry", "s_addc_u32", 5, 6, 0, 11, 0);
        s32("s_sub_u32 borrow", "s_sub_u32", 1, 2, 0, 0xffffffff, 1);
        s32("s_subb_u32 borrow in and out", "s_subb_u32", 5, 5, 1, 0xffffffff, 1);
        s32("s_add_i32 overflow", "s_add_i32", 0x7fffffff, 1, 0, 0x80000000, 1);
        s32("s_add_i32 no overflow", "s_add_i32", 0xffffffff, 1, 1, 0, 0);
        s32("s_sub_i32 overflow", "s_sub_i32", 0x80000000, 1, 0, 0x7fffffff, 1);
        s64("s_add_u32+s_addc_u32 carry into the high dword", "s_add_u64", 0x00000001ffffffff, 1, 1,
            0x0000000200000000, 0);
        s64("s_add_u32+s_addc_u32 carry out", "s_add_u64", 0xffffffffffffffff, 1, 0, 0, 1);
        s64("s_sub_u32+s_subb_u32 borrow from the high dword", "s_sub_u64", 0x0000000100000000, 1, 1,
            0x00000000ffffffff, 0);
        s64("s_sub_u32+s_subb_u32 borrow out", "s_sub_u64", 0, 1, 0, 0xffffffffffffffff, 1);
        s32("s_lshl_b32 by 33 shifts by 1", "s_lshl_b32", 0x80000001, 33, 0, 2, 1);
        s32("s_lshl_b32 by 32 shifts by 0", "s_lshl_b32", 0x80000001, 32, 0, 0x80000001, 1);
        s32("s_lshl_b32 to zero", "s_lshl_b32", 0x80000000, 1, 1, 0, 0);
        s32("s_lshr_b32 by 63 shifts by 31", "s_lshr_b32", 0x80000000, 63, 0, 1, 1);
        s32("s_ashr_i32 by 32 shifts by 0", "s_ashr_i32", 0x80000000, 32, 0, 0x80000000, 1);
        s32("s_ashr_i32 by 63 shifts by 31", "s_ashr_i32", 0x80000000, 63, 0, 0xffffffff, 1);
        s64("s_lshl_b64 by 65 shifts by 1", "s_lshl_b64", 0x0000000080000001, 65, 0, 0x0000000100000002, 1);
        s64("s_lshl_b64 by 64 shifts by 0", "s_lshl_b64", 0x0000000080000001, 64, 0, 0x0000000080000001, 1);
        s64("s_lshr_b64 by 68 shifts by 4", "s_lshr_b64", 0x123456789abcdef0, 68, 0, 0x0123456789abcdef, 1);
        s64("s_ashr_i64 by 127 shifts by 63", "s_ashr_i64", 0x8000000000000000, 127, 0, 0xffffffffffffffff,
            1);
        s32("s_bfe_u32", "s_bfe_u32", 0xabcd1234, 0x000c0008, 0, 0xd12, 1);
        s32("s_bfe_u32 width 0", "s_bfe_u32", 0xabcd1234, 0x00000008, 1, 0, 0);
        s32("s_bfe_i32 negative field", "s_bfe_i32", 0x00000f00, 0x00040008, 0, 0xffffffff, 1);
        s32("s_bfe_i32 positive field", "s_bfe_i32", 0x00000700, 0x00040008, 0, 7, 1);
        s64("s_bfe_u64 across the dwords", "s_bfe_u64", 0x123456789abcdef0, 0x0008001c, 0, 0x89, 1);
        s32("s_bfm_b32", "s_bfm_b32", 5, 3, 1, 0xf8, 1);
        s32("s_bfm_b32 masks both operands to 5 bits", "s_bfm_b32", 37, 35, 0, 0xf8, 0);
        s32("s_mul_i32", "s_mul_i32", 0x10000, 0x10001, 0, 0x10000, 0);
        s32("s_mul_hi_u32", "s_mul_hi_u32", 0xffffffff, 0xffffffff, 0, 0xfffffffe, 0);
        s32("s_mul_hi_i32", "s_mul_hi_i32", 0x80000000, 2, 0, 0xffffffff, 0);
        s32("s_mul_hi_i32 of -1 * -1", "s_mul_hi_i32", 0xffffffff, 0xffffffff, 1, 0, 1);
        s32("s_min_i32", "s_min_i32", 0xffffffff, 1, 0, 0xffffffff, 1);
        s32("s_max_u32", "s_max_u32", 0xffffffff, 1, 0, 0xffffffff, 1);
        s32("s_absdiff_i32", "s_absdiff_i32", 2, 5, 0, 3, 1);
        s32("s_absdiff_i32 of -1 and 0", "s_absdiff_i32", 0xffffffff, 0, 0, 1, 1);
        s32("s_absdiff_i32 of INT_MIN and 0", "s_absdiff_i32", 0x80000000, 0, 0, 0x80000000, 1);
        s32("s_absdiff_i32 wraps in 32 bits", "s_absdiff_i32", 0x80000000, 1, 0, 0x7fffffff, 1);
        s32("s_absdiff_i32 of INT_MIN and -1", "s_absdiff_i32", 0x80000000, 0xffffffff, 0, 0x7fffffff, 1);
        s32("s_lshl2_add_u32 carry out", "s_lshl2_add_u32", 0x40000000, 1, 0, 1, 1);
        s32("s_lshl2_add_u32", "s_lshl2_add_u32", 3, 4, 1, 16, 0);
        s32("s_cselect_b32 SCC 1", "s_cselect_b32", 7, 9, 1, 7, 1);
        s32("s_cselect_b32 SCC 0", "s_cselect_b32", 7, 9, 0, 9, 0);
        s32("s_cmov_b32 SCC 0 keeps", "s_cmov_b32", 7, 0, 0, 0x11111111, 0);
        s32("s_cmov_b32 SCC 1 moves", "s_cmov_b32", 7, 0, 1, 7, 1);
        s64("s_andn2_b64", "s_andn2_b64", 0xffff0000ffff0000, 0x00ff00ff00ff00ff, 0, 0xff000000ff000000, 1);
        s32("s_xnor_b32", "s_xnor_b32", 0xf0f0f0f0, 0x0ff00ff0, 0, 0x00ff00ff, 1);
        s32("s_pack_lh_b32_b16", "s_pack_lh_b32_b16", 0x1111aaaa, 0xbbbb2222, 0, 0xbbbbaaaa, 0);
        s32("s_pack_hh_b32_b16", "s_pack_hh_b32_b16", 0x1111aaaa, 0xbbbb2222, 0, 0xbbbb1111, 0);
        s32("s_not_b32 to zero", "s_not_b32", 0xffffffff, 0, 1, 0, 0);
        s32("s_brev_b32", "s_brev_b32", 0x12345678, 0, 0, 0x1e6a2c48, 0);
        row("s_bcnt1_i32_b64", "s_bcnt1_i32_b64", {0x00000001, 0xffffffff, 0, 0, 0, 0x5a5a5a5a, 0},
            {33, 0x5a5a5a5a, 1});
        s32("s_bcnt1_i32_b64 of 0", "s_bcnt1_i32_b64", 0, 0, 1, 0, 0);
        s32("s_ff1_i32_b32 of 0", "s_ff1_i32_b32", 0, 0, 0, 0xffffffff, 0);
        s32("s_ff1_i32_b32", "s_ff1_i32_b32", 0x00010000, 0, 0, 16, 0);
        s32("s_flbit_i32_b32", "s_flbit_i32_b32", 0x00010000, 0, 0, 15, 0);
        s32("s_flbit_i32_b32 of 0", "s_flbit_i32_b32", 0, 0, 0, 0xffffffff, 0);
        s32("s_flbit_i32 negative", "s_flbit_i32", 0xffff0000, 0, 0, 16, 0);
        s32("s_flbit_i32 positive", "s_flbit_i32", 0x40000000, 0, 0, 1, 0);
        s32("s_flbit_i32 of -1", "s_flbit_i32", 0xffffffff, 0, 0, 0xffffffff, 0);
        s32("s_abs_i32 of INT_MIN", "s_abs_i32", 0x80000000, 0, 0, 0x80000000, 1);
        s32("s_abs_i32", "s_abs_i32", 0xfffffffb, 0, 0, 5, 1);
        s32("s_sext_i32_i16", "s_sext_i32_i16", 0x00018000, 0, 0, 0xffff8000, 0);
        s32("s_quadmask_b32", "s_quadmask_b32", 0x000000f1, 0, 0, 3, 1);
        s32("s_wqm_b32", "s_wqm_b32", 0x00000012, 0, 0, 0xff, 1);
        s32("s_bitset1_b32 masks the bit index", "s_bitset1_b32", 33, 0, 0, 2, 0, 0);
        s32("s_cmp_lt_i32", "s_cmp_lt_i32", 0xffffffff, 1, 0, 0x11111111, 1);
        s32("s_cmp_lt_u32", "s_cmp_lt_u32", 0xffffffff, 1, 1, 0x11111111, 0);
        s32("s_bitcmp1_b32 masks the bit index", "s_bitcmp1_b32", 0x80000000, 63, 0, 0x11111111, 1);
        s32("s_movk_i32 sign-extends", "s_movk_i32", 0, 0, 0, 0xffff8000, 0);
        s32("s_addk_i32 overflow", "s_addk_i32", 0, 0, 0, 0x7fffffff, 1, 0x80000000);
        s32("s_getreg_b32 MODE.FP_DENORM, denormals kept", "s_getreg_mode", 0, 0, 0, 0xf, 0);
        s32("s_getreg_b32 MODE.FP_DENORM, f32 denormals flushed", "s_getreg_mode_ftz", 0, 0, 0, 0xc, 0);
        // SH_MEM_BASES[31:16]: bits 63:48 of the shared aperture (src_shared_base's high dword >> 16), which
        // a generic pointer to LDS is built from.
        s32("s_getreg_b32 SH_MEM_BASES.SHARED_BASE", "s_getreg_shared_base", 0, 0, 0, 0x1, 0);
        // s_branches: v10 = 2 when a == b else 1; v11 = first multiple of 3 not below a; v12 = b != 0.
        row("branches taken", "s_branches", {10, 0, 10, 0}, {2, 12, 1});
        row("branches not taken", "s_branches", {7, 0, 0, 0}, {1, 9, 0});
    }
    void scalarAlu() { check_row("sop"); }

    // VOP1 / VOP2 / VOP3 integer operations (kernels/vint.s): in = {a, b, c} (64-bit operands as two
    // planes), out = {v10, v11}.
    void vectorInteger_data() {
        columns();
        row("v_add_u32 wraps", "add_u32", {0xffffffff, 2}, {1});
        row("v_add_u32 clamp saturates", "add_u32_clamp", {0xffffffff, 2}, {0xffffffff});
        row("v_add_u32 clamp in range", "add_u32_clamp", {1, 2}, {3});
        row("v_sub_u32 clamp saturates at 0", "sub_u32_clamp", {1, 2}, {0});
        row("v_sub_u32 clamp in range", "sub_u32_clamp", {5, 2}, {3});
        row("v_subrev_u32", "subrev_u32", {1, 5}, {4});
        row("v_add_i32 clamp positive", "add_i32_clamp", {0x7fffffff, 1}, {0x7fffffff});
        row("v_add_i32 clamp negative", "add_i32_clamp", {0x80000000, 0xffffffff}, {0x80000000});
        row("v_sub_i32 clamp negative", "sub_i32_clamp", {0x80000000, 1}, {0x80000000});
        row("v_sub_i32 clamp in range", "sub_i32_clamp", {5, 7}, {0xfffffffe});
        row("v_add_co_u32 carry", "add_co_u32", {0xffffffff, 1}, {0, 1});
        row("v_add_co_u32 no carry", "add_co_u32", {1, 1}, {2, 0});
        row("v_sub_co_u32 borrow", "sub_co_u32", {1, 2}, {0xffffffff, 1});
        row("v_subrev_co_u32_e64 borrow", "subrev_co_u32_e64", {2, 1}, {0xffffffff, 1});
        row("v_addc_co_u32 carry in and out", "addc_co_u32", {0xffffffff, 0, 1}, {0, 1});
        row("v_addc_co_u32 no carry", "addc_co_u32", {5, 6, 0}, {11, 0});
        row("v_subb_co_u32 borrow in and out", "subb_co_u32", {5, 5, 1}, {0xffffffff, 1});
        row("v_subbrev_co_u32 borrow in and out", "subbrev_co_u32", {5, 5, 1}, {0xffffffff, 1});
        row("v_subbrev_co_u32 no borrow out", "subbrev_co_u32", {1, 5, 1}, {3, 0});
        row("v_add_u16 zeroes the high half", "add_u16", {0xabcdfff0, 0x12340020}, {0x00000010});
        row("v_add_u16 clamp saturates", "add_u16_clamp", {0xabcdfff0, 0x12340020}, {0x0000ffff});
        row("v_sub_u16 clamp saturates at 0", "sub_u16_clamp", {0x00000010, 0x00000020}, {0});
        row("v_mul_lo_u16", "mul_lo_u16", {0x00000100, 0x00000101}, {0x00000100});
        row("v_max_i16", "max_i16", {0x00008000, 0x00000001}, {1});
        row("v_min_u16 ignores the high half", "min_u16", {0x12348000, 0x00000001}, {1});
        row("v_lshlrev_b16 by 17 shifts by 1", "lshlrev_b16", {17, 0xffff0003}, {6});
        row("v_ashrrev_i16", "ashrrev_i16", {1, 0xffff8000}, {0x0000c000});
        row("v_lshlrev_b32 by 33 shifts by 1", "lshlrev_b32", {33, 0x80000001}, {2});
        row("v_lshrrev_b32 by 32 shifts by 0", "lshrrev_b32", {32, 0x80000001}, {0x80000001});
        row("v_ashrrev_i32 by 63 shifts by 31", "ashrrev_i32", {63, 0x80000000}, {0xffffffff});
        row("v_lshlrev_b64 by 65 shifts by 1", "lshlrev_b64", Words{65, 0} + q(0x0000000080000001),
            q(0x0000000100000002));
        row("v_lshrrev_b64 by 68 shifts by 4", "lshrrev_b64", Words{68, 0} + q(0x123456789abcdef0),
            q(0x0123456789abcdef));
        row("v_ashrrev_i64 by 127 shifts by 63", "ashrrev_i64", Words{127, 0} + q(0x8000000000000000),
            q(0xffffffffffffffff));
        row("v_mul_lo_u32", "mul_lo_u32", {0x10000, 0x10001}, {0x10000});
        row("v_mul_hi_u32", "mul_hi_u32", {0xffffffff, 0xffffffff}, {0xfffffffe});
        row("v_mul_hi_i32", "mul_hi_i32", {0x80000000, 2}, {0xffffffff});
        row("v_mul_u32_u24 ignores the top byte", "mul_u32_u24", {0xff000002, 0x01000003}, {6});
        row("v_mul_hi_u32_u24", "mul_hi_u32_u24", {0x00ffffff, 0x00ffffff}, {0xffff});
        row("v_mul_i32_i24 sign of bit 23", "mul_i32_i24", {0x00ffffff, 5}, {0xfffffffb});
        row("v_mad_u32_u24", "mad_u32_u24", {0xff000002, 3, 10}, {16});
        row("v_mad_u64_u32 carry out", "mad_u64_u32", Words{0xffffffff, 0xffffffff} + q(0xffffffffffffffff),
            {0, 0xfffffffe, 1});
        row("v_mad_u64_u32", "mad_u64_u32", Words{2, 3} + q(4), {10, 0, 0});
        row("v_mad_i64_i32", "mad_i64_i32", Words{0xffffffff, 2} + q(0), q(0xfffffffffffffffe));
        row("v_bfe_u32", "bfe_u32", {0xabcd1234, 8, 12}, {0xd12});
        row("v_bfe_u32 masks offset and width to 5 bits", "bfe_u32", {0xabcd1234, 36, 33}, {1});
        row("v_bfe_i32", "bfe_i32", {0x00000f00, 8, 4}, {0xffffffff});
        row("v_bfi_b32", "bfi_b32", {0xff00ff00, 0x12345678, 0xabcdef01}, {0x12cd5601});
        row("v_bfm_b32", "bfm_b32", {5, 3}, {0xf8});
        row("v_alignbit_b32", "alignbit_b32", {0x12345678, 0x9abcdef0, 8}, {0x789abcde});
        row("v_alignbit_b32 masks the shift to 5 bits", "alignbit_b32", {0x12345678, 0x9abcdef0, 40},
            {0x789abcde});
        row("v_alignbyte_b32", "alignbyte_b32", {0x12345678, 0x9abcdef0, 2}, {0x56789abc});
        row("v_perm_b32", "perm_b32", {0x80706050, 0x04030201, 0x0b050400}, {0xff605001});
        row("v_lshl_add_u32", "lshl_add_u32", {3, 33, 1}, {7});
        row("v_add_lshl_u32", "add_lshl_u32", {1, 2, 33}, {6});
        row("v_add3_u32", "add3_u32", {0xffffffff, 2, 3}, {4});
        row("v_lshl_or_b32", "lshl_or_b32", {1, 4, 1}, {0x11});
        row("v_and_or_b32", "and_or_b32", {0xf0, 0x3c, 1}, {0x31});
        row("v_xad_u32", "xad_u32", {0xff, 0x0f, 0x10}, {0x100});
        row("v_bcnt_u32_b32", "bcnt_u32_b32", {0xff, 3}, {11});
        row("v_ffbh_u32", "ffbh_u32", {0x00010000}, {15});
        row("v_ffbh_u32 of 0", "ffbh_u32", {0}, {0xffffffff});
        row("v_ffbl_b32", "ffbl_b32", {0x00010000}, {16});
        row("v_ffbh_i32", "ffbh_i32", {0xffff0000}, {16});
        row("v_ffbh_i32 of -1", "ffbh_i32", {0xffffffff}, {0xffffffff});
        row("v_bfrev_b32", "bfrev_b32", {0x12345678}, {0x1e6a2c48});
        row("v_min3_i32", "min3_i32", {5, 0xffffffff, 3}, {0xffffffff});
        row("v_max3_u32", "max3_u32", {5, 0xffffffff, 3}, {0xffffffff});
        row("v_med3_i32", "med3_i32", {5, 0xffffffff, 3}, {3});
        row("v_med3_u32", "med3_u32", {5, 0xffffffff, 3}, {5});
        row("v_sad_u8", "sad_u8", {0x01020304, 0x04030201, 100}, {108});
        row("v_sad_hi_u8", "sad_hi_u8", {0x01020304, 0x04030201, 100}, {0x00080064});
        row("v_msad_u8 skips zero reference bytes", "msad_u8", {0x01020304, 0x00030201, 0}, {5});
        row("v_lerp_u8", "lerp_u8", {0x00ff0102, 0x00010304, 0x00000001}, {0x00800203});
        row("v_cvt_pk_u16_u32 saturates", "cvt_pk_u16_u32", {0x12345, 7}, {0x0007ffff});
        row("v_cvt_pk_i16_i32 saturates", "cvt_pk_i16_i32", {0xfffe0000, 0x00010000}, {0x7fff8000});
        row("v_sat_pk_u8_i16", "sat_pk_u8_i16", {0x0123ff80}, {0x0000ff00});
        row("inline constant -16", "add_u32_constants", {20}, {4});
        row("literal", "or_b32_literal", {0x80000001}, {0x92345679});
    }
    void vectorInteger() { check_row("vint"); }

    // 64-bit add and subtract through v_add_co_u32 / v_addc_co_u32 (VCC) and v_sub_co_u32 /
    // v_subb_co_u32 (an SGPR pair), each lane with its own carry.
    void carryChain() {
        const uint64_t a[] = {0x00000000ffffffff,
                              0xffffffffffffffff,
                              0x123456789abcdef0,
                              0,
                              0x8000000000000000,
                              0x00000001fffffffe,
                              7,
                              0xfffffffffffffffe};
        const uint64_t b[] = {1, 1, 0x0fedcba987654321, 1, 0x8000000000000000, 2, 7, 0xffffffff00000003};
        fill_lanes([&](int plane, int lane) -> uint32_t {
            const uint64_t x = a[lane % 8] + static_cast<uint64_t>(lane / 8) * 0x100000000ull;
            const uint64_t y = b[lane % 8];
            switch (plane) {
            case 0:
                return static_cast<uint32_t>(x);
            case 1:
                return static_cast<uint32_t>(x >> 32);
            case 2:
                return static_cast<uint32_t>(y);
            case 3:
                return static_cast<uint32_t>(y >> 32);
            default:
                return kOld;
            }
        });
        QVERIFY(run("vint", "add_sub_u64"));
        auto x = [&](int i) { return in(0, i) | static_cast<uint64_t>(in(1, i)) << 32; };
        auto y = [&](int i) { return in(2, i) | static_cast<uint64_t>(in(3, i)) << 32; };
        // Carry out of bit 63 of the sum; borrow when y > x.
        auto carry = [&](int i) { return x(i) + y(i) < x(i) ? 1u : 0u; };
        uint64_t carries = 0;
        for (int i = 0; i < kLanes; ++i) {
            carries |= static_cast<uint64_t>(carry(i)) << i;
        }
        QVERIFY(carries != 0 && carries != ~0ull);
        if (!expect("sum lo", out(0), [&](int i) { return static_cast<uint32_t>(x(i) + y(i)); }) ||
            !expect("sum hi", out(1), [&](int i) { return static_cast<uint32_t>((x(i) + y(i)) >> 32); }) ||
            !expect("carry", out(2), carry) ||
            !expect("VCC lo", out(3), [&](int) { return static_cast<uint32_t>(carries); }) ||
            !expect("VCC hi", out(4), [&](int) { return static_cast<uint32_t>(carries >> 32); }) ||
            !expect("difference lo", out(5), [&](int i) { return static_cast<uint32_t>(x(i) - y(i)); }) ||
            !expect("difference hi", out(6),
                    [&](int i) { return static_cast<uint32_t>((x(i) - y(i)) >> 32); })) {
            return;
        }
        expect("borrow", out(7), [&](int i) { return y(i) > x(i) ? 1u : 0u; });
    }

    // f32 and f64 (kernels/vfloat.s). The kernels keep denormals (FLOAT_DENORM_MODE 3) unless named _ftz;
    // IEEE mode and DX10_CLAMP are on unless named otherwise.
    void vectorFloat_data() {
        columns();
        const Words qnan32 = {0x7fc00000};
        row("v_add_f32 denormals in and out", "add_f32", {0x00000001, 0x00000001}, {0x00000002});
        row("v_add_f32 denormal result", "add_f32", {0x00800001, 0x80800000}, {0x00000001});
        row("v_add_f32 flush: denormal inputs", "add_f32_ftz", {0x00000001, 0x00000001}, {0});
        row("v_add_f32 flush: denormal result", "add_f32_ftz", {0x00800001, 0x80800000}, {0});
        row("v_add_f32 flush: normal", "add_f32_ftz", {f(1.5f), f(2.25f)}, {f(3.75f)});
        row("v_add_f32 signaling NaN gives a quiet NaN", "add_f32", {0x7f800001, f(1.0f)}, qnan32, qnan32);
        row("v_add_f32 inf - inf is NaN", "add_f32", {0x7f800000, 0xff800000}, qnan32, qnan32);
        row("v_mul_f32 0 * inf is NaN", "mul_f32", {0, 0x7f800000}, qnan32, qnan32);
        row("v_mul_f32 denormal result", "mul_f32", {0x00800000, f(0.5f)}, {0x00400000});
        row("v_mul_f32 flush: denormal result keeps its sign", "mul_f32_ftz", {0x80800000, f(0.5f)},
            {0x80000000});
        row("v_fma_f32 is fused", "fma_f32", {0x3f800001, 0x3f7ffffe, f(-1.0f)}, {0xa8800000});
        row("v_fmac_f32 accumulates into the destination", "fmac_f32",
            {f(2.0f), f(3.0f), 0, 0, 0, 0, 0, f(1.0f)}, {f(7.0f)});
        row("v_mul_legacy_f32 0 * inf", "mul_legacy_f32", {0, 0x7f800000}, {0});
        row("v_mul_legacy_f32 0 * NaN", "mul_legacy_f32", {0, 0x7fc00000}, {0});
        row("v_min_f32 IEEE: signaling NaN is quieted", "min_f32", {0x7f800001, f(1.0f)}, {0x7fc00001});
        row("v_min_f32 IEEE: signaling NaN second", "min_f32", {f(1.0f), 0x7f800001}, {0x7fc00001});
        row("v_min_f32 IEEE: quiet NaN gives the other", "min_f32", {0x7fc00000, f(1.0f)}, {f(1.0f)});
        row("v_min_f32 +0, -0", "min_f32", {0x00000000, 0x80000000}, {0x80000000});
        row("v_min_f32 -0, +0", "min_f32", {0x80000000, 0x00000000}, {0x80000000});
        row("v_max_f32 IEEE: signaling NaN is quieted", "max_f32", {0x7f800001, f(1.0f)}, {0x7fc00001});
        row("v_max_f32 IEEE: quiet NaN gives the other", "max_f32", {0x7fc00000, f(2.0f)}, {f(2.0f)});
        row("v_max_f32 -0, +0", "max_f32", {0x80000000, 0x00000000}, {0x00000000});
        row("v_min_f32 non-IEEE: signaling NaN gives the other", "min_f32_noieee", {0x7f800001, f(1.0f)},
            {f(1.0f)});
        row("v_min3_f32", "min3_f32", {f(3.0f), f(1.0f), f(2.0f)}, {f(1.0f)});
        row("v_med3_f32", "med3_f32", {f(3.0f), f(1.0f), f(2.0f)}, {f(2.0f)});
        row("v_med3_f32 with NaN is min3", "med3_f32", {0x7fc00000, f(1.0f), f(2.0f)}, {f(1.0f)});
        row("clamp to 1", "add_f32_clamp", {f(0.75f), f(0.5f)}, {f(1.0f)});
        row("clamp to 0", "add_f32_clamp", {f(-0.5f), f(0.25f)}, {0});
        row("clamp NaN with DX10_CLAMP", "add_f32_clamp", {0x7fc00000, f(1.0f)}, {0});
        row("clamp NaN without DX10_CLAMP", "add_f32_clamp_nodx10", {0x7fc00000, f(1.0f)}, qnan32, qnan32);
        row("omod mul:2", "mul_f32_mul2", {f(1.5f), f(2.0f)}, {f(6.0f)});
        row("omod div:2", "mul_f32_div2", {f(3.0f), f(1.0f)}, {f(1.5f)});
        row("neg and abs", "add_f32_neg_abs", {f(1.5f), f(-4.0f)}, {f(2.5f)});
        row("v_cvt_i32_f32 saturates high", "cvt_i32_f32", {f(3e9f)}, {0x7fffffff});
        row("v_cvt_i32_f32 saturates low", "cvt_i32_f32", {f(-3e9f)}, {0x80000000});
        row("v_cvt_i32_f32 NaN", "cvt_i32_f32", {0x7fc00000}, {0});
        row("v_cvt_i32_f32 truncates", "cvt_i32_f32", {f(-1.5f)}, {0xffffffff});
        row("v_cvt_u32_f32 negative", "cvt_u32_f32", {f(-1.0f)}, {0});
        row("v_cvt_u32_f32 saturates", "cvt_u32_f32", {f(5e9f)}, {0xffffffff});
        row("v_cvt_u32_f32 truncates", "cvt_u32_f32", {f(3.99f)}, {3});
        row("v_cvt_f32_i32 rounds", "cvt_f32_i32", {0x7fffffff}, {0x4f000000});
        row("v_cvt_f32_i32 negative", "cvt_f32_i32", {0x80000001}, {0xcf000000});
        row("v_cvt_f32_u32 rounds", "cvt_f32_u32", {0xffffffff}, {0x4f800000});
        row("v_cvt_f32_u32 ties to even", "cvt_f32_u32", {0x01000001}, {0x4b800000});
        row("v_cvt_rpi_i32_f32 2.5", "cvt_rpi_i32_f32", {f(2.5f)}, {3});
        row("v_cvt_rpi_i32_f32 -2.5", "cvt_rpi_i32_f32", {f(-2.5f)}, {0xfffffffe});
        row("v_cvt_flr_i32_f32 -1.5", "cvt_flr_i32_f32", {f(-1.5f)}, {0xfffffffe});
        row("v_cvt_f16_f32 tie to even (down)", "cvt_f16_f32", {0x3f801000}, {0x3c00});
        row("v_cvt_f16_f32 tie to even (up)", "cvt_f16_f32", {0x3f803000}, {0x3c02});
        row("v_cvt_f16_f32 above the tie", "cvt_f16_f32", {0x3f801001}, {0x3c01});
        row("v_cvt_f16_f32 overflows to inf", "cvt_f16_f32", {f(65520.0f)}, {0x7c00});
        row("v_cvt_f16_f32 largest finite", "cvt_f16_f32", {0x477fefff}, {0x7bff});
        row("v_cvt_f16_f32 smallest denormal", "cvt_f16_f32", {0x33800000}, {0x0001});
        row("v_cvt_f16_f32 half the smallest denormal ties to 0", "cvt_f16_f32", {0x33000000}, {0});
        row("v_cvt_f16_f32 above half the smallest denormal", "cvt_f16_f32", {0x33000001}, {0x0001});
        row("v_cvt_f16_f32 -inf", "cvt_f16_f32", {0xff800000}, {0xfc00});
        row("v_cvt_f16_f32 signaling NaN is quieted", "cvt_f16_f32", {0x7f800001}, {0x7e00}, {0xffff7e00});
        row("v_cvt_f32_f16 denormal", "cvt_f32_f16", {0x0001}, {0x33800000});
        row("v_cvt_f32_f16 inf", "cvt_f32_f16", {0x7c00}, {0x7f800000});
        row("v_cvt_f32_f16 ignores the high half", "cvt_f32_f16", {0xabcd3555}, {0x3eaaa000});
        row("v_cvt_pkrtz_f16_f32 rounds toward zero", "cvt_pkrtz_f16_f32", {0x3f803000, f(-65520.0f)},
            {0xfbff3c01});
        row("v_cvt_pknorm_u16_f32 clamps", "cvt_pknorm_u16_f32", {f(2.0f), f(-1.0f)}, {0x0000ffff});
        row("v_cvt_pknorm_i16_f32 clamps", "cvt_pknorm_i16_f32", {f(-2.0f), f(1.0f)}, {0x7fff8001});
        row("v_cvt_f32_ubyte1", "cvt_f32_ubyte1", {0x0000ff00}, {f(255.0f)});
        row("v_cvt_off_f32_i4 -8", "cvt_off_f32_i4", {0x8}, {f(-0.5f)});
        row("v_cvt_off_f32_i4 7", "cvt_off_f32_i4", {0x7}, {f(0.4375f)});
        row("v_rndne_f32 2.5", "rndne_f32", {f(2.5f)}, {f(2.0f)});
        row("v_rndne_f32 3.5", "rndne_f32", {f(3.5f)}, {f(4.0f)});
        row("v_rndne_f32 -0.5", "rndne_f32", {f(-0.5f)}, {0x80000000});
        row("v_fract_f32", "fract_f32", {f(-0.25f)}, {f(0.75f)});
        row("v_fract_f32 stays below 1", "fract_f32", {0xb0800000}, {0x3f7fffff});
        row("v_trunc_f32", "trunc_f32", {f(-1.75f)}, {f(-1.0f)});
        row("v_floor_f32", "floor_f32", {f(-1.5f)}, {f(-2.0f)});
        row("v_ceil_f32 -0.5", "ceil_f32", {f(-0.5f)}, {0x80000000});
        row("v_rcp_f32 2", "rcp_f32", {f(2.0f)}, {f(0.5f)});
        row("v_rcp_f32 +0", "rcp_f32", {0}, {0x7f800000});
        row("v_rcp_f32 -0", "rcp_f32", {0x80000000}, {0xff800000});
        row("v_rcp_f32 inf", "rcp_f32", {0x7f800000}, {0});
        row("v_sqrt_f32 4", "sqrt_f32", {f(4.0f)}, {f(2.0f)});
        row("v_sqrt_f32 -1", "sqrt_f32", {f(-1.0f)}, qnan32, qnan32);
        row("v_sqrt_f32 -0", "sqrt_f32", {0x80000000}, {0x80000000});
        row("v_rsq_f32 4", "rsq_f32", {f(4.0f)}, {f(0.5f)});
        row("v_rsq_f32 0", "rsq_f32", {0}, {0x7f800000});
        row("v_exp_f32 3", "exp_f32", {f(3.0f)}, {f(8.0f)});
        row("v_exp_f32 -inf", "exp_f32", {0xff800000}, {0});
        row("v_log_f32 8", "log_f32", {f(8.0f)}, {f(3.0f)});
        row("v_log_f32 0", "log_f32", {0}, {0xff800000});
        row("v_log_f32 -1", "log_f32", {f(-1.0f)}, qnan32, qnan32);
        row("v_sin_f32 of a quarter turn", "sin_f32", {f(0.25f)}, {f(1.0f)});
        row("v_cos_f32 0", "cos_f32", {0}, {f(1.0f)});
        row("v_frexp_mant_f32", "frexp_mant_f32", {f(-3.0f)}, {f(-0.75f)});
        row("v_frexp_exp_i32_f32", "frexp_exp_i32_f32", {f(8.0f)}, {4});
        row("v_ldexp_f32", "ldexp_f32", {f(1.5f), 3}, {f(12.0f)});
        row("v_ldexp_f32 overflows", "ldexp_f32", {f(1.0f), 200}, {0x7f800000});
        row("v_ldexp_f32 to the smallest denormal", "ldexp_f32", {f(1.0f), static_cast<quint32>(-149)},
            {0x00000001});
        row("v_ldexp_f32 ties to 0", "ldexp_f32", {f(1.0f), static_cast<quint32>(-150)}, {0});
        row("v_ldexp_f32 flush: denormal result", "ldexp_f32_ftz", {f(1.0f), static_cast<quint32>(-149)},
            {0});
        row("v_div_fixup_f32 quotient", "div_fixup_f32", {f(0.5f), f(-2.0f), f(1.0f)}, {f(-0.5f)});
        row("v_div_fixup_f32 x / 0", "div_fixup_f32", {f(1.0f), 0, f(1.0f)}, {0x7f800000});
        row("v_div_fixup_f32 0 / 0", "div_fixup_f32", {f(1.0f), 0, 0}, qnan32, qnan32);
        row("v_div_fixup_f32 x / inf", "div_fixup_f32", {f(1.0f), 0x7f800000, f(1.0f)}, {0});
        row("literal f32", "add_f32_literal", {f(1.0f)}, {0x408487ee});
        row("inline constant 0.5", "mul_f32_inline", {f(3.0f)}, {f(1.5f)});
        row("s_setreg_imm32_b32 MODE: f32 denormals flushed", "setreg_ftz", {0x00000001, 0x00000001}, {0});
        // Division as LLVM emits it (v_div_scale, v_rcp, v_fma, v_div_fmas, v_div_fixup): the correctly
        // rounded quotient, also for denormal, huge and overflowing operands and results.
        const uint32_t fdiv32[][3] = {
            {0x3f800000, 0x40400000, 0x3eaaaaab}, // 1 / 3
            {0x000116c2, 0x40400000, 0x00005ceb}, // 9.99995e-41 / 3
            {0x7f61b1e6, 0x3f000000, 0x7f800000}, // 3e+38 / 0.5
            {0x3f800000, 0x7f61b1e6, 0x00244bfa}, // 1 / 3e+38
            {0x7f7fc99e, 0x3fc00000, 0x7f2a8669}, // 3.4e+38 / 1.5
            {0x3f800000, 0x000ae398, 0x7f800000}, // 1 / 1e-39
            {0x000ae398, 0x000ae398, 0x3f800000}, // 1e-39 / 1e-39
            {0x40000000, 0x006ce3ee, 0x7f16769a}, // 2 / 1e-38
            {0x0da24260, 0x4d8f0d18, 0x00244bfa}, // 1e-30 / 3e+08
            {0x0020aac8, 0x40e00000, 0x0004aaaf}, // 3e-39 / 7
            {0x40a00000, 0x007fffff, 0x7f800000}, // 5 / 1.17549e-38
            {0x7f7fffff, 0x7f7ffffe, 0x3f800001}, // FLT_MAX / the float below it
            {0x00000007, 0x501502f9, 0x00000000}, // 9.80909e-45 / 1e+10
            {0xbf800000, 0x00000000, 0xff800000}, // -1 / 0
            {0x7f800000, 0x40000000, 0x7f800000}, // inf / 2
            {0x08f12070, 0x724f7b5c, 0x00000000}, // 1.45e-33 / 4.1e+30: below the denormals
            {0x80000003, 0x3f000000, 0x80000006}, // -4.2e-45 / 0.5
            {0x00800000, 0x3f800001, 0x007fffff}, // FLT_MIN / (1 + 2^-23): a denormal
        };
        for (const auto& [a, b, quotient] : fdiv32) {
            const QByteArray name =
                "f32 division " + QByteArray::number(a, 16) + " / " + QByteArray::number(b, 16);
            row(name.constData(), "fdiv_f32", {a, b}, {quotient});
        }
        const uint64_t fdiv64[][3] = {
            {0x3ff0000000000000, 0x4008000000000000, 0x3fd5555555555555}, // 1 / 3
            {0x0000000000000001, 0x4008000000000000, 0x0000000000000000}, // 4.94066e-324 / 3
            {0x7fee42d130773b76, 0x3fe0000000000000, 0x7ff0000000000000}, // 1.7e+308 / 0.5
            {0x3ff0000000000000, 0x7fee42d130773b76, 0x00043ad882e2107c}, // 1 / 1.7e+308
            {0x7feab36d48e1acf0, 0x3ff4000000000000, 0x7fe55c576d815726}, // 1.5e+308 / 1.25
            {0x0000000000000001, 0x0000000000000001, 0x3ff0000000000000}, // 4.94066e-324 / 4.94066e-324
            {0x000012688b70e62b, 0x4008000000000000, 0x00000622d925a20e}, // 1e-310 / 3
            {0x4000000000000000, 0x000730d67819e8d2, 0x7ff0000000000000}, // 2 / 1e-308
            {0x01a56e1fc2f8f359, 0x4202a05f20000000, 0x000012688b70e62b}, // 1e-300 / 1e+10
            {0x01764b280482de87, 0x78cfd2b9f82783b3, 0x0000000000000000}, // below the denormals
            {0x835c9b5cc8d60606, 0x034e5e0d694f1527, 0xbffe25148279de27},
            {0x802f4b09988a319e, 0x800e1c2bce1e3268, 0x4011be08c1e6ec23}, // denormal / denormal
        };
        for (const auto& [a, b, quotient] : fdiv64) {
            const QByteArray name =
                "f64 division " + QByteArray::number(a, 16) + " / " + QByteArray::number(b, 16);
            row(name.constData(), "fdiv_f64", q(a) + q(b), q(quotient));
        }
        row("v_add_f64 denormals", "add_f64", d(5e-324) + d(5e-324), q(2));
        row("v_add_f64 flush: denormal inputs", "add_f64_ftz", d(5e-324) + d(5e-324), q(0));
        row("v_mul_f64 denormal result", "mul_f64", q(0x0010000000000000) + d(0.5), q(0x0008000000000000));
        row("v_mul_f64 signaling NaN gives a quiet NaN", "mul_f64", q(0x7ff0000000000001) + d(2.0),
            {0, 0x7ff80000}, {0, 0x7ff80000});
        row("v_fma_f64 is fused", "fma_f64", q(0x3ff0000000000001) + q(0x3feffffffffffffe) + d(-1.0),
            q(0xb970000000000000));
        row("v_min_f64 IEEE: signaling NaN is quieted", "min_f64", q(0x7ff0000000000001) + d(1.0),
            q(0x7ff8000000000001));
        row("v_min_f64 +0, -0", "min_f64", d(0.0) + d(-0.0), q(0x8000000000000000));
        row("v_max_f64 IEEE: quiet NaN gives the other", "max_f64", q(0x7ff8000000000000) + d(2.0), d(2.0));
        row("v_add_f64 clamp to 1", "add_f64_clamp", d(0.75) + d(0.5), d(1.0));
        row("v_add_f64 clamp NaN", "add_f64_clamp", q(0x7ff8000000000000) + d(1.0), d(0.0));
        row("v_cvt_f32_f64 tie to even (down)", "cvt_f32_f64", d(1 + 0x1p-24), {0x3f800000});
        row("v_cvt_f32_f64 tie to even (up)", "cvt_f32_f64", d(1 + 3 * 0x1p-24), {0x3f800002});
        row("v_cvt_f32_f64 overflows to inf", "cvt_f32_f64", d(1e39), {0x7f800000});
        row("v_cvt_f32_f64 underflows to -0", "cvt_f32_f64", d(-1e-50), {0x80000000});
        row("v_cvt_f32_f64 denormal result", "cvt_f32_f64", d(1e-40), {0x000116c2});
        row("v_cvt_f64_f32 denormal", "cvt_f64_f32", {0x00000001}, q(0x36a0000000000000));
        row("v_cvt_f64_f32 flush: denormal input", "cvt_f64_f32_ftz", {0x00000001}, q(0));
        row("v_cvt_i32_f64 saturates", "cvt_i32_f64", d(3e9), {0x7fffffff});
        row("v_cvt_i32_f64 truncates", "cvt_i32_f64", d(-2.5), {0xfffffffe});
        row("v_cvt_i32_f64 NaN", "cvt_i32_f64", q(0x7ff8000000000000), {0});
        row("v_cvt_u32_f64 negative", "cvt_u32_f64", d(-1.0), {0});
        row("v_cvt_u32_f64 saturates", "cvt_u32_f64", d(4294967296.0), {0xffffffff});
        row("v_cvt_f64_i32", "cvt_f64_i32", {0x80000000}, q(0xc1e0000000000000));
        row("v_cvt_f64_u32", "cvt_f64_u32", {0xffffffff}, q(0x41efffffffe00000));
        row("v_rndne_f64 2.5", "rndne_f64", d(2.5), d(2.0));
        row("v_rndne_f64 -3.5", "rndne_f64", d(-3.5), d(-4.0));
        row("v_fract_f64", "fract_f64", d(-0.25), d(0.75));
        row("v_fract_f64 stays below 1", "fract_f64", d(-0x1p-60), q(0x3fefffffffffffff));
        row("v_floor_f64", "floor_f64", d(-1.5), d(-2.0));
        row("v_ldexp_f64 smallest denormal", "ldexp_f64", d(1.0) + Words{static_cast<quint32>(-1074)}, q(1));
        row("v_ldexp_f64 overflows", "ldexp_f64", d(1.0) + Words{1024}, q(0x7ff0000000000000));
        row("v_frexp_exp_i32_f64", "frexp_exp_i32_f64", d(8.0), {4});
        row("v_rcp_f64", "rcp_f64", d(4.0), d(0.25));
        row("v_sqrt_f64", "sqrt_f64", d(16.0), d(4.0));
        row("inline constant 1.0 as f64", "add_f64_inline", d(0.5), d(1.5));
    }
    void vectorFloat() { check_row("vfloat"); }

    // f16 VOP1/VOP2/VOP3, VOP3P packed math, v_fma_mix and the dot products (kernels/vf16.s). VOP1 and
    // VOP2 f16 results zero the high half.
    void halfAndPacked_data() {
        columns();
        row("v_add_f16 zeroes the high half", "add_f16", {0xabcd3c00, 0x12343c00}, {0x00004000});
        row("v_add_f16 denormals", "add_f16", {0x0001, 0x0001}, {0x0002});
        row("v_add_f16 signaling NaN gives a quiet NaN", "add_f16", {0x7c01, 0x3c00}, {0x7e00}, {0xffff7e00});
        row("v_add_f16 clamp to 1", "add_f16_clamp", {0x3c00, 0x3c00}, {0x3c00});
        row("v_add_f16 clamp to 0", "add_f16_clamp", {0xbc00, 0x3800}, {0x0000});
        row("v_mul_f16 overflows to inf", "mul_f16", {0x5c00, 0x5c00}, {0x7c00});
        row("v_mul_f16 denormal result", "mul_f16", {0x0400, 0x3800}, {0x0200});
        // fma(1 + 2^-10, 1 - 2^-11, -1) = 2^-11 - 2^-21 exactly; unfused it would be 0.
        row("v_fma_f16 is fused", "fma_f16", {0x3c01, 0x3bff, 0xbc00}, {0x0ffe}, {0x0000ffff});
        row("v_fma_f16 op_sel: high halves in and out", "fma_f16_opsel",
            {0x40000000, 0x00003e00, 0x38000000, 0, 0, 0, 0, 0x12345678}, {0x43005678});
        row("v_max_f16 IEEE: signaling NaN is quieted", "max_f16", {0x7c01, 0x3c00}, {0x7e01});
        row("v_max_f16", "max_f16", {0x3c00, 0x4000}, {0x4000});
        row("v_min_f16 +0, -0", "min_f16", {0x0000, 0x8000}, {0x8000});
        row("v_cvt_f16_u16 overflows to inf", "cvt_f16_u16", {0xffff}, {0x7c00});
        row("v_cvt_f16_u16 tie to even", "cvt_f16_u16", {2049}, {0x6800});
        row("v_cvt_f16_u16 ignores the high half", "cvt_f16_u16", {0xffff0003}, {0x4200});
        row("v_cvt_u16_f16 negative", "cvt_u16_f16", {0xbc00}, {0});
        row("v_cvt_u16_f16 inf saturates", "cvt_u16_f16", {0x7c00}, {0xffff});
        row("v_cvt_u16_f16 truncates", "cvt_u16_f16", {0x4100}, {2});
        row("v_cvt_i16_f16 inf saturates", "cvt_i16_f16", {0x7c00}, {0x7fff});
        row("v_cvt_i16_f16 -2.5", "cvt_i16_f16", {0xc100}, {0xfffe});
        row("v_ldexp_f16", "ldexp_f16", {0x3c00, 3}, {0x4800});
        row("v_ldexp_f16 smallest denormal", "ldexp_f16", {0x3c00, 0xffe8}, {0x0001});
        row("v_ldexp_f16 overflows", "ldexp_f16", {0x3c00, 16}, {0x7c00});
        row("v_sqrt_f16", "sqrt_f16", {0x4400}, {0x4000});
        row("v_rcp_f16", "rcp_f16", {0x4000}, {0x3800});
        row("v_rcp_f16 0", "rcp_f16", {0}, {0x7c00});
        row("v_rndne_f16 2.5", "rndne_f16", {0x4100}, {0x4000});
        row("v_fract_f16", "fract_f16", {0xb400}, {0x3a00});
        row("v_fma_mix_f32 all f32", "fma_mix_f32_all32", {f(2.0f), f(3.0f), f(1.0f)}, {f(7.0f)});
        row("v_fma_mix_f32 f16 low halves", "fma_mix_f32", {0xabcd4000, 0x12344200, f(1.0f)}, {f(7.0f)});
        row("v_fma_mix_f32 f16 high halves", "fma_mix_f32_hi", {0x40000000, 0x42000000, f(1.0f)}, {f(7.0f)});
        row("v_fma_mix_f32 neg and abs", "fma_mix_f32_mods", {0x4000, 0x4200, f(-1.0f)}, {f(-5.0f)});
        row("v_fma_mixlo_f16 keeps the high half", "fma_mixlo_f16", {0x4000, 0x4200, f(1.0f)}, {0x0bad4700});
        row("v_fma_mixhi_f16 keeps the low half", "fma_mixhi_f16", {0x4000, 0x4200, f(1.0f)}, {0x4700f00d});
        row("v_pk_add_f16", "pk_add_f16", {0x40003c00, 0x3c003c00}, {0x42004000});
        row("v_pk_add_f16 op_sel, op_sel_hi", "pk_add_f16_opsel", {0x40003c00, 0x44003800}, {0x45004100});
        row("v_pk_mul_f16 neg_lo, neg_hi", "pk_mul_f16_neg", {0x40003c00, 0x44004200}, {0xc800c200});
        row("v_pk_fma_f16", "pk_fma_f16", {0x40003c00, 0x44004200, 0x3c003800}, {0x48804300});
        row("v_pk_max_f16 IEEE: signaling NaN is quieted", "pk_max_f16", {0x3c007c01, 0x40003c00},
            {0x40007e01});
        row("v_pk_min_f16 +0, -0", "pk_min_f16", {0x42000000, 0x3c008000}, {0x3c008000});
        row("v_pk_add_f16 inline constant in both halves", "pk_add_f16_inline", {0x40003c00}, {0x42004000});
        row("v_pk_add_u16 clamp", "pk_add_u16_clamp", {0xfff00001, 0x00200002}, {0xffff0003});
        row("v_pk_sub_i16 clamp", "pk_sub_i16_clamp", {0x80000005, 0x00010007}, {0x8000fffe});
        row("v_pk_lshlrev_b16 masks the shift to 4 bits", "pk_lshlrev_b16", {0x00110004, 0x00030001},
            {0x00060010});
        row("v_pk_ashrrev_i16", "pk_ashrrev_i16", {0x00010004, 0x8000ff00}, {0xc000fff0});
        row("v_pk_mad_u16", "pk_mad_u16", {0x00020003, 0x00040005, 0x00010001}, {0x00090010});
        row("v_pk_mul_lo_u16", "pk_mul_lo_u16", {0x01000100, 0x01010003}, {0x01000300});
        row("v_pk_max_i16", "pk_max_i16", {0x8000ffff, 0x00010001}, {0x00010001});
        const Words a = {f(1.0f), f(2.0f)}, b = {f(0.5f), f(0.25f)};
        row("v_pk_add_f32", "pk_add_f32", a + b, {f(1.5f), f(2.25f)});
        row("v_pk_add_f32 op_sel, op_sel_hi", "pk_add_f32_opsel", a + b, {f(2.5f), f(1.25f)});
        row("v_pk_mul_f32 neg_lo, neg_hi", "pk_mul_f32_neg", a + b, {f(-0.5f), f(0.5f)});
        row("v_pk_fma_f32", "pk_fma_f32", a + Words{f(3.0f), f(4.0f)} + b, {f(3.5f), f(8.25f)});
        const Words m = {0xa0, 0xa1, 0xb0, 0xb1};
        row("v_pk_mov_b32", "pk_mov_b32", m, {0xa0, 0xb0});
        row("v_pk_mov_b32 op_sel:[1,0]", "pk_mov_b32_sel10", m, {0xa1, 0xb0});
        row("v_pk_mov_b32 op_sel:[0,1]", "pk_mov_b32_sel01", m, {0xa0, 0xb1});
        row("v_pk_mov_b32 op_sel:[1,1]", "pk_mov_b32_sel11", m, {0xa1, 0xb1});
        row("v_dot2_f32_f16", "dot2_f32_f16", {0x40003c00, 0x44004200, f(0.5f)}, {f(11.5f)});
        row("v_dot2_f32_f16 clamp", "dot2_f32_f16_clamp", {0x40003c00, 0x44004200, f(0.5f)}, {f(1.0f)});
        row("v_dot2_i32_i16", "dot2_i32_i16", {0xfffe0003, 0x0005fffc, 100}, {78});
        row("v_dot2_u32_u16", "dot2_u32_u16", {0xffff0002, 0x00020003, 1}, {0x20005});
        row("v_dot4_i32_i8", "dot4_i32_i8", {0x80ff0102, 0x01020304, 0}, {0xffffff89});
        row("v_dot4_u32_u8", "dot4_u32_u8", {0x80ff0102, 0x01020304, 1}, {0x28a});
        row("v_dot4_u32_u8 clamp saturates", "dot4_u32_u8_clamp", {0x01010101, 0x01010101, 0xffffffff},
            {0xffffffff});
        row("v_dot4_i32_i8 clamp saturates", "dot4_i32_i8_clamp", {0x7f7f7f7f, 0x7f7f7f7f, 0x7fffffff},
            {0x7fffffff});
        row("v_dot8_i32_i4", "dot8_i32_i4", {0x8000007f, 0x10000023, 0}, {3});
        row("v_dot8_u32_u4", "dot8_u32_u4", {0x8000007f, 0x10000023, 0}, {67});
        row("v_dot2c_f32_f16 accumulates into the destination", "dot2c_f32_f16",
            {0x40003c00, 0x44004200, 0, 0, 0, 0, 0, f(0.5f)}, {f(11.5f)});
        row("v_dot4c_i32_i8 accumulates into the destination", "dot4c_i32_i8",
            {0x80ff0102, 0x01020304, 0, 0, 0, 0, 0, 1}, {0xffffff8a});
    }
    void halfAndPacked() { check_row("vf16"); }

    // VOPC and VOP3 compares, v_cndmask (kernels/vcmp.s): out = {lane bit, mask lo, mask hi}.
    void compares_data() {
        columns();
        const Words yes = {1, 0xffffffff, 0xffffffff}, no = {0, 0, 0};
        const quint32 qnan = 0x7fc00000;
        row("v_cmp_lt_f32", "cmp_lt_f32", {f(1.0f), f(2.0f)}, yes);
        row("v_cmp_lt_f32 NaN", "cmp_lt_f32", {qnan, f(2.0f)}, no);
        row("v_cmp_nge_f32 NaN", "cmp_nge_f32", {qnan, f(2.0f)}, yes);
        row("v_cmp_eq_f32 +0 == -0", "cmp_eq_f32", {0, 0x80000000}, yes);
        row("v_cmp_lg_f32 NaN", "cmp_lg_f32", {qnan, f(1.0f)}, no);
        row("v_cmp_lg_f32", "cmp_lg_f32", {f(1.0f), f(2.0f)}, yes);
        row("v_cmp_neq_f32 NaN", "cmp_neq_f32", {qnan, qnan}, yes);
        row("v_cmp_u_f32", "cmp_u_f32", {f(1.0f), qnan}, yes);
        row("v_cmp_eq_f32_e64 |a| == -b", "cmp_eq_f32_mods", {f(-2.0f), f(-2.0f)}, yes);
        row("v_cmp_class_f32 +denormal", "cmp_class_f32", {0x00000001, 0x80}, yes);
        row("v_cmp_class_f32 signaling NaN", "cmp_class_f32", {0x7f800001, 0x1}, yes);
        row("v_cmp_class_f32 quiet NaN is not signaling", "cmp_class_f32", {qnan, 0x1}, no);
        row("v_cmp_class_f32 quiet NaN", "cmp_class_f32", {qnan, 0x2}, yes);
        row("v_cmp_class_f32 -0", "cmp_class_f32", {0x80000000, 0x20}, yes);
        row("v_cmp_class_f32 -inf", "cmp_class_f32", {0xff800000, 0x4}, yes);
        row("v_cmp_class_f32 +normal", "cmp_class_f32", {f(1.0f), 0x100}, yes);
        row("v_cmp_class_f32 +normal is not +inf", "cmp_class_f32", {f(1.0f), 0x200}, no);
        row("v_cmp_class_f64 +denormal", "cmp_class_f64", {1, 0, 0x80}, yes);
        row("v_cmp_class_f16 +denormal", "cmp_class_f16", {0x0001, 0x80}, yes);
        row("v_cmp_class_f16 -inf", "cmp_class_f16", {0xfc00, 0x4}, yes);
        row("v_cmp_class_f16 signaling NaN", "cmp_class_f16", {0x7d00, 0x1}, yes);
        row("v_cmp_lt_f16 ignores the high half", "cmp_lt_f16", {0xffff3c00, 0x00004000}, yes);
        row("v_cmp_lt_f64", "cmp_lt_f64", d(1.0) + d(2.0), yes);
        row("v_cmp_lt_i32", "cmp_lt_i32", {0xffffffff, 1}, yes);
        row("v_cmp_lt_u32", "cmp_lt_u32", {0xffffffff, 1}, no);
        row("v_cmp_gt_i32_e64 into an SGPR pair", "cmp_gt_i32_e64", {1, 0xffffffff}, yes);
        row("v_cmp_lt_i16", "cmp_lt_i16", {0x00008000, 0xffff0001}, yes);
        row("v_cmp_eq_u64", "cmp_eq_u64", {5, 1, 5, 1}, yes);
        row("v_cmp_eq_u64 high dword differs", "cmp_eq_u64", {5, 1, 5, 2}, no);
        row("v_cmp_lt_i64", "cmp_lt_i64", {0, 0x80000000, 0, 0}, yes);
        row("v_cmp_lt_i32 inline -1", "cmp_lt_i32_inline", {0}, yes);
        row("v_cndmask_b32 VCC clear", "cndmask_b32", {1, 2, 0}, {1});
        row("v_cndmask_b32 VCC set", "cndmask_b32", {1, 2, 1}, {2});
        row("v_cndmask_b32_e64 neg", "cndmask_b32_e64_neg", {1, f(1.0f), 1}, {f(-1.0f)});
    }
    void compares() { check_row("vcmp"); }

    // EXEC: lanes it leaves off keep their destination (VALU, SDWA, VOP3 64-bit, loads from memory and
    // LDS) and get 0 in lane masks; v_cmpx writes EXEC (and VCC); s_and_saveexec sets SCC.
    void execMasking() {
        auto enabled = [](int lane) { return lane % 3 != 0 && lane != 40; };
        fill_lanes([&](int plane, int lane) -> uint32_t {
            switch (plane) {
            case 0:
                return 0x100 + static_cast<uint32_t>(lane) * 0x01010101u;
            case 1:
                return mix(1, lane);
            case 6:
                return enabled(lane) ? static_cast<uint32_t>(lane + 1) : 0;
            case 7:
                return 0xdead0000 + static_cast<uint32_t>(lane);
            default:
                return mix(plane, lane);
            }
        });
        QVERIFY(run("vcmp", "exec_untouched"));
        auto a = [&](int i) { return in(0, i); };
        auto b = [&](int i) { return in(1, i); };
        auto old = [&](int i) { return in(7, i); };
        auto on = [&](int i, uint32_t value) { return enabled(i) ? value : old(i); };
        if (!expect("VALU", out(0), [&](int i) { return on(i, a(i) + b(i)); }) ||
            !expect("SDWA", out(1),
                    [&](int i) { return on(i, (old(i) & 0xffffff00) | ((a(i) >> 8) & 0xff)); }) ||
            !expect("VOP3 64-bit lo", out(2), [&](int i) { return on(i, a(i) << 4); }) ||
            !expect("VOP3 64-bit hi", out(3), [&](int i) { return on(i, b(i) << 4 | a(i) >> 28); }) ||
            !expect("global load", out(4), [&](int i) { return on(i, b(i)); }) ||
            !expect("LDS read", out(5), [&](int i) { return on(i, b(i)); }) ||
            !expect("compare mask", out(6), [&](int i) { return enabled(i) ? 1u : 0u; }) ||
            !expect("carry-out mask", out(7), [&](int i) { return enabled(i) ? 1u : 0u; })) {
            return;
        }

        QVERIFY(run("vcmp", "exec_if_else"));
        if (!expect("if / else", out(0), [](int i) { return i < 32 ? 1u : 2u; }) ||
            !expect("SCC of s_and_saveexec", out(1), [](int) { return 1u; }) ||
            !expect("SCC of s_and_saveexec to no lane", out(2), [](int) { return 0u; }) ||
            !expect("s_cbranch_execz", out(3), [&](int i) { return old(i); })) {
            return;
        }

        // v_cmpx_lt_u32: EXEC = VCC = (a < b) per lane.
        fill_lanes([](int plane, int lane) -> uint32_t {
            if (plane == 0) {
                return static_cast<uint32_t>(lane * 7 % 64);
            }
            return plane == 1 ? 32u : mix(plane, lane);
        });
        QVERIFY(run("vcmp", "cmpx_lt_u32"));
        uint64_t below = 0;
        for (int i = 0; i < kLanes; ++i) {
            below |= static_cast<uint64_t>(in(0, i) < 32 ? 1 : 0) << i;
        }
        auto lo = [](uint64_t m) { return [m](int) { return static_cast<uint32_t>(m); }; };
        auto hi = [](uint64_t m) { return [m](int) { return static_cast<uint32_t>(m >> 32); }; };
        if (!expect("v_cmpx: enabled lanes", out(0),
                    [&](int i) { return (below >> i) & 1 ? in(1, i) : in(7, i); }) ||
            !expect("v_cmpx: EXEC lo", out(1), lo(below)) || !expect("v_cmpx: EXEC hi", out(2), hi(below)) ||
            !expect("v_cmpx: VCC lo", out(3), lo(below)) || !expect("v_cmpx: VCC hi", out(4), hi(below))) {
            return;
        }
        // v_cmpx_gt_i32_e64 into s[30:31]: EXEC and the SGPR pair = (a > b) signed.
        fill_lanes([](int plane, int lane) -> uint32_t {
            if (plane == 0) {
                return static_cast<uint32_t>(lane - 20);
            }
            return plane == 1 ? 0xfffffff0u + static_cast<uint32_t>(lane % 5) * 8 : mix(plane, lane);
        });
        QVERIFY(run("vcmp", "cmpx_e64"));
        uint64_t greater = 0;
        for (int i = 0; i < kLanes; ++i) {
            greater |= static_cast<uint64_t>(static_cast<int32_t>(in(0, i)) > static_cast<int32_t>(in(1, i)))
                       << i;
        }
        QVERIFY(greater != 0 && greater != ~0ull);
        if (!expect("v_cmpx_e64: enabled lanes", out(0),
                    [&](int i) { return (greater >> i) & 1 ? in(1, i) : in(7, i); }) ||
            !expect("v_cmpx_e64: mask lo", out(1), lo(greater))) {
            return;
        }
        expect("v_cmpx_e64: mask hi", out(2), hi(greater));
    }

    // DPP (kernels/dpp_sdwa.s): a[i] = 0x100 + i, b[i] = 0x10000 * i, old = 0xdead0000 + i.
    void dpp() {
        fill_lanes([](int plane, int lane) -> uint32_t {
            const auto i = static_cast<uint32_t>(lane);
            switch (plane) {
            case 0:
                return 0x100 + i;
            case 1:
                return 0x10000 * i;
            case 6:
                return lane % 5 == 2 || lane == 33 ? 0 : 1;
            case 7:
                return 0xdead0000 + i;
            default:
                return 0;
            }
        });
        auto a = [&](int i) { return in(0, i); };
        auto b = [&](int i) { return in(1, i); };
        auto old = [&](int i) { return in(7, i); };
        QVERIFY(run("dpp_sdwa", "dpp_row_shift"));
        if (!expect("row_shr:1", out(0), [&](int i) { return i % 16 == 0 ? old(i) : a(i - 1); }) ||
            !expect("row_shr:1 bound_ctrl", out(1), [&](int i) { return i % 16 == 0 ? 0 : a(i - 1); }) ||
            !expect("row_shl:15", out(2), [&](int i) { return i % 16 == 0 ? a(i + 15) : old(i); }) ||
            !expect("row_ror:4", out(3), [&](int i) { return a((i & ~15) | ((i + 12) & 15)); }) ||
            !expect("quad_perm:[3,2,1,0]", out(4), [&](int i) { return a(i ^ 3); }) ||
            !expect("quad_perm:[0,0,0,0]", out(5), [&](int i) { return a(i & ~3) + b(i); })) {
            return;
        }
        QVERIFY(run("dpp_sdwa", "dpp_masks"));
        auto masked = [&](int i) {
            const int row = i / 16, bank = (i % 16) / 4;
            return (row == 0 || row == 2) && (bank == 1 || bank == 3) ? a(i - 1) + b(i) : old(i);
        };
        if (!expect("row_mask:0x5 bank_mask:0xa", out(0), masked) ||
            !expect("row_mask:0x5 bank_mask:0xa bound_ctrl", out(1), masked)) {
            return;
        }
        QVERIFY(run("dpp_sdwa", "dpp_broadcast"));
        if (!expect("row_bcast:15 row_mask:0xa", out(0),
                    [&](int i) { return i / 16 % 2 == 1 ? a((i & ~15) - 1) + b(i) : old(i); }) ||
            !expect("row_bcast:31 row_mask:0xc", out(1),
                    [&](int i) { return i >= 32 ? a(31) + b(i) : old(i); }) ||
            !expect("wave_shr:1", out(2), [&](int i) { return i == 0 ? old(i) : a(i - 1); }) ||
            !expect("wave_rol:1", out(3), [&](int i) { return a((i + 1) % 64); }) ||
            !expect("row_mirror", out(4), [&](int i) { return a((i & ~15) | (15 - i % 16)); }) ||
            !expect("row_half_mirror", out(5), [&](int i) { return a((i & ~7) | (7 - i % 8)); })) {
            return;
        }
        QVERIFY(run("dpp_sdwa", "dpp_exec"));
        auto on = [&](int i) { return in(6, i) != 0; };
        auto valid = [&](int i) { return i % 16 != 0 && on(i - 1); };
        if (!expect("row_shr:1 from a disabled lane", out(0),
                    [&](int i) { return on(i) && valid(i) ? a(i - 1) : old(i); }) ||
            !expect("row_shr:1 bound_ctrl from a disabled lane", out(1),
                    [&](int i) { return on(i) ? (valid(i) ? a(i - 1) : 0) : old(i); })) {
            return;
        }
        // -a[i ^ 1] + |b[i]| with a[i] = i, b[i] = -i: +1 on odd lanes, -1 on even ones.
        fill_lanes([](int plane, int lane) -> uint32_t {
            if (plane == 0) {
                return f(static_cast<float>(lane));
            }
            return plane == 1 ? f(-static_cast<float>(lane)) : 0;
        });
        QVERIFY(run("dpp_sdwa", "dpp_f32_mods"));
        expect("v_add_f32_dpp -a, |b|", out(0), [](int i) { return f(i % 2 ? 1.0f : -1.0f); });
    }

    // SDWA (kernels/dpp_sdwa.s): byte and word selects of the sources (zero- or sign-extended) and of
    // the destination (the rest padded with 0, sign-extended or preserved).
    void sdwa_data() {
        columns();
        row("src0 BYTE_1 + src1 WORD_1", "sdwa_sel", {0x0000ab00, 0x12340000}, {0x12df});
        row("sext(src0 BYTE_0) + src1 BYTE_3", "sdwa_sext_byte", {0x00000080, 0x05000000}, {0xffffff85});
        row("sext(WORD_0) - sext(WORD_1)", "sdwa_sext_word", {0x00008000, 0xffff0000}, {0xffff8001});
        row("dst BYTE_2 UNUSED_PRESERVE", "sdwa_preserve", {0x000000ab, 0, 0, 0, 0, 0, 0, 0x11223344},
            {0x11ab3344});
        row("dst WORD_1 UNUSED_PAD", "sdwa_pad", {0x1234abcd}, {0xabcd0000});
        row("dst BYTE_1 UNUSED_SEXT", "sdwa_sext_dst", {0x00000080}, {0xffff8000});
        row("dst WORD_0 UNUSED_SEXT", "sdwa_sext_dst_word", {0x80010000}, {0xffff8001});
        row("v_add_f16 high halves, low half kept", "sdwa_f16_high",
            {0x40001111, 0x22223c00, 0, 0, 0, 0, 0, 0x11112222}, {0x42002222});
        row("v_cvt_f32_f16 of WORD_1", "sdwa_cvt_f32_f16", {0x3c000000}, {f(1.0f)});
        row("SGPR source", "sdwa_scalar", {0, 0x00ff0000, 0x0000ab00}, {0xab});
    }
    void sdwa() { check_row("dpp_sdwa"); }

    // LDS reads and writes of every width, the two-address forms (kernels/lds.s).
    void ldsReadWrite() {
        fill_lanes([](int plane, int lane) { return mix(plane, lane); });
        QVERIFY(run("lds", "lds_read_write"));
        auto v = [&](int plane) { return [this, plane](int i) { return in(plane, i); }; };
        if (!expect("ds_read_b32 offset", out(0), v(1)) ||
            !expect("ds_write2_b32 / ds_read_b32 of lane ^ 1", out(1), [&](int i) { return in(2, i ^ 1); }) ||
            !expect("ds_read2_b32 first", out(2), v(3)) || !expect("ds_read2_b32 second", out(3), v(0)) ||
            !expect("ds_read_b64 lo", out(4), v(0)) || !expect("ds_read_b64 hi", out(5), v(1)) ||
            !expect("ds_read2_b64 first element", out(6), v(2)) ||
            !expect("ds_read2_b64 second element", out(7), v(1))) {
            return;
        }
        QVERIFY(run("lds", "lds_sub_dword"));
        auto a = v(0), b = v(1), old = v(7);
        auto dword = [&](int i) { return (a(i) & 0xff) | (b(i) & 0xff) << 8 | (b(i) & 0xffff0000); };
        if (!expect("ds_write_b8 / ds_write_b16_d16_hi into a dword", out(0), dword) ||
            !expect("ds_read_i8", out(1), [&](int i) { return sext8(b(i)); }) ||
            !expect("ds_read_u16", out(2), [&](int i) { return b(i) >> 16; }) ||
            !expect("ds_read_u16_d16_hi", out(3),
                    [&](int i) { return (old(i) & 0xffff) | dword(i) << 16; }) ||
            !expect("ds_read_i16", out(4), [&](int i) { return sext16(b(i) >> 16); })) {
            return;
        }
        expect("ds_read_u8_d16", out(5), [&](int i) { return (old(i) & 0xffff0000) | (b(i) & 0xff); });
    }

    // The end of a 4096-byte allocation: the last dwords are reachable, addresses past the end read 0
    // and drop writes, and nothing wraps around to address 0.
    void ldsEndOfAllocation() {
        fill_lanes([](int plane, int lane) { return mix(plane, lane) | 1; });
        QVERIFY(run("lds", "lds_end_of_allocation"));
        if (!expect("ds_read2st64_b32 in range", out(0), [&](int i) { return in(0, i); }) ||
            !expect("ds_read2st64_b32 past the end", out(1), [](int) { return 0u; }) ||
            !expect("no wrap to address 0", out(2), [&](int i) { return in(1, i); }) ||
            !expect("ds_write2st64_b32 in range", out(3), [&](int i) { return in(3, i); }) ||
            !expect("ds_read_b64 of the last 8 bytes, lo", out(4), [&](int) { return in(0, 62); }) ||
            !expect("ds_read_b64 of the last 8 bytes, hi", out(5), [&](int) { return in(0, 63); })) {
            return;
        }
        expect("ds_read_b32 past the end", out(6), [](int) { return 0u; });
    }

    // ds_swizzle_b32, ds_permute_b32, ds_bpermute_b32.
    void ldsCrossLane() {
        fill_lanes([](int plane, int lane) { return mix(plane, lane); });
        auto a = [&](int i) { return in(0, i); };
        QVERIFY(run("lds", "lds_swizzle"));
        if (!expect("swizzle QUAD_PERM 3,2,1,0", out(0), [&](int i) { return a(i ^ 3); }) ||
            !expect("swizzle BITMASK_PERM 01pip", out(1),
                    [&](int i) { return a((i & 0x20) | (((i & 7) | 8) ^ 2)); }) ||
            !expect("swizzle SWAP 16", out(2), [&](int i) { return a(i ^ 16); }) ||
            !expect("swizzle REVERSE 8", out(3), [&](int i) { return a(i ^ 7); }) ||
            !expect("swizzle BROADCAST 8, 3", out(4), [&](int i) { return a((i & ~7) | 3); })) {
            return;
        }
        QVERIFY(run("lds", "lds_permute"));
        if (!expect("ds_permute_b32 to lane 63 - i", out(0), [&](int i) { return a(63 - i); }) ||
            !expect("ds_bpermute_b32 from lane 63 - i", out(1), [&](int i) { return a(63 - i); }) ||
            !expect("ds_bpermute_b32 wraps at 64 lanes", out(2), [&](int i) { return a((i + 1) % 64); })) {
            return;
        }
        if (!expect("ds_bpermute_b32 offset", out(3), [&](int i) { return a((i + 2) % 64); })) {
            return;
        }
        // Under EXEC: a disabled lane neither sends (ds_permute) nor is read (ds_bpermute: 0), and keeps
        // its destination.
        fill_lanes([](int plane, int lane) -> uint32_t {
            return plane == 6 ? (lane % 3 == 0 || lane == 7 ? 0 : 1) : mix(plane, lane);
        });
        QVERIFY(run("lds", "lds_permute_exec"));
        auto on = [&](int i) { return in(6, i) != 0; };
        auto partner = [&](int i) { return on(i) ? (on(i ^ 1) ? a(i ^ 1) : 0u) : in(7, i); };
        if (!expect("ds_bpermute_b32 under EXEC", out(0), partner)) {
            return;
        }
        expect("ds_permute_b32 under EXEC", out(1), partner);
    }

    // LDS atomics: all lanes on one address (the returned values are the prior values in some order),
    // one address per lane, and the f64 atomics of gfx90a.
    void ldsAtomics() {
        fill_lanes([](int plane, int lane) -> uint32_t {
            if (plane == 0) {
                return static_cast<uint32_t>(lane * 37 % 101) - 50;
            }
            return mix(plane, lane);
        });
        QVERIFY(run("lds", "lds_atomics_shared"));
        std::vector<uint32_t> seen(out(0), out(0) + kLanes);
        std::sort(seen.begin(), seen.end());
        int32_t largest = INT32_MIN;
        for (int i = 0; i < kLanes; ++i) {
            largest = std::max(largest, static_cast<int32_t>(in(0, i)));
        }
        if (!expect("ds_add_rtn_u32 prior values", seen.data(), [](int i) { return 100 + i; }) ||
            !expect("ds_add_rtn_u32 final", out(1), [](int) { return 164u; }) ||
            !expect("ds_max_i32", out(2), [&](int) { return static_cast<uint32_t>(largest); }) ||
            !expect("ds_inc_rtn_u32 wraps at the limit", out(3), [](int) { return 4u; }) ||
            !expect("ds_add_f32", out(4), [](int) { return f(32.0f); }) ||
            !expect("ds_and_b32", out(5), [](int) { return 0u; })) {
            return;
        }

        fill_lanes([](int plane, int lane) -> uint32_t {
            const uint32_t a = mix(0, lane) % 1000;
            switch (plane) {
            case 0:
                return a;
            case 1: // equal to a on even lanes (ds_cmpst stores, ds_dec wraps to the limit when a > b)
                return lane % 2 == 0 ? a : (lane % 4 == 1 ? a + 7 : a / 2);
            default:
                return mix(plane, lane);
            }
        });
        QVERIFY(run("lds", "lds_atomics_lane"));
        auto a = [&](int i) { return in(0, i); };
        auto b = [&](int i) { return in(1, i); };
        auto c = [&](int i) { return in(2, i); };
        auto x = [&](int i) {
            return (a(i) | static_cast<uint64_t>(b(i)) << 32) +
                   (c(i) | static_cast<uint64_t>(in(3, i)) << 32);
        };
        if (!expect("ds_cmpst_rtn_b32 returns", out(0), a) ||
            !expect("ds_cmpst_rtn_b32 stores DATA1 when DATA0 matches", out(1),
                    [&](int i) { return a(i) == b(i) ? c(i) : a(i); }) ||
            !expect("ds_mskor_b32", out(2), [&](int i) { return (a(i) & ~b(i)) | c(i); }) ||
            !expect("ds_wrxchg_rtn_b32 returns", out(3), a) ||
            !expect("ds_wrxchg_rtn_b32 stores", out(4), c) ||
            !expect("ds_dec_rtn_u32", out(5),
                    [&](int i) { return a(i) == 0 || a(i) > b(i) ? b(i) : a(i) - 1; }) ||
            !expect("ds_add_rtn_u64 lo", out(6), [&](int i) { return static_cast<uint32_t>(x(i)); })) {
            return;
        }
        if (!expect("ds_add_rtn_u64 hi", out(7), [&](int i) { return static_cast<uint32_t>(x(i) >> 32); })) {
            return;
        }

        fill_lanes([](int plane, int lane) -> uint32_t {
            const Words v = plane < 2 ? d(1.5 * lane) : d(100.0 - 2.25 * lane);
            return plane < 4 ? v[plane % 2] : 0;
        });
        QVERIFY(run("lds", "lds_atomics_f64"));
        auto xd = [&](int i) { return as_double(in(0, i), in(1, i)); };
        auto yd = [&](int i) { return as_double(in(2, i), in(3, i)); };
        auto word = [](double v, int k) { return d(v)[k]; };
        for (int k = 0; k < 2; ++k) {
            const QString half = k ? QStringLiteral(" hi") : QStringLiteral(" lo");
            if (!expect("ds_add_rtn_f64 returns" + half, out(k), [&](int i) { return word(xd(i), k); }) ||
                !expect("ds_add_rtn_f64 stores" + half, out(2 + k),
                        [&](int i) { return word(xd(i) + yd(i), k); }) ||
                !expect("ds_max_f64" + half, out(4 + k),
                        [&](int i) { return word(std::max(xd(i), yd(i)), k); }) ||
                !expect("ds_min_f64" + half, out(6 + k),
                        [&](int i) { return word(std::min(std::max(xd(i), yd(i)), yd(i)), k); })) {
                return;
            }
        }
    }

    // Global and flat loads and stores (kernels/global.s), mem[j] filled with a pattern first.
    void globalLoadsStores() {
        auto pattern = [](int j) { return mix(9, j) ^ (j & 1 ? 0x80008000u : 0); };
        auto fill_mem = [&] {
            for (size_t j = 0; j < kBufferWords; ++j) {
                mem_[j] = pattern(static_cast<int>(j));
            }
        };
        fill_lanes([](int plane, int lane) { return mix(plane, lane); });
        fill_mem();
        QVERIFY(run("global", "global_loads"));
        auto old = [&](int i) { return in(7, i); };
        if (!expect("global_load_dwordx2 lo", out(0), [&](int i) { return pattern(2 * i); }) ||
            !expect("global_load_dwordx2 hi", out(1), [&](int i) { return pattern(2 * i + 1); }) ||
            !expect("global_load_ubyte", out(2), [&](int i) { return pattern(i) >> 24; }) ||
            !expect("global_load_sbyte", out(3), [&](int i) { return sext8(pattern(i) >> 24); }) ||
            !expect("global_load_sshort", out(4), [&](int i) { return sext16(pattern(i) >> 16); }) ||
            !expect("global_load_short_d16_hi", out(5),
                    [&](int i) { return (old(i) & 0xffff) | pattern(i) << 16; }) ||
            !expect("global_load_dword, 64-bit address", out(6), [&](int i) { return pattern(64 + i); }) ||
            !expect("flat_load_dword of global memory", out(7), [&](int i) { return pattern(i + 1); })) {
            return;
        }

        fill_lanes([](int plane, int lane) -> uint32_t {
            return plane == 6 ? (lane % 4 == 1 ? 0 : 1) : mix(plane, lane);
        });
        fill_mem();
        QVERIFY(run("global", "global_stores"));
        auto v = [&](int plane) { return [this, plane](int i) { return in(plane, i); }; };
        auto a = v(0), b = v(1), c = v(2), dd = v(3);
        if (!expect("global_store_byte", mem_,
                    [&](int i) { return (pattern(i) & 0xffff00ff) | (a(i) & 0xff) << 8; }) ||
            !expect("global_store_short_d16_hi", mem_ + 64,
                    [&](int i) { return (pattern(64 + i) & 0xffff) | (a(i) & 0xffff0000); }) ||
            !expect(
                "global_store_dwordx2", mem_ + 128, [&](int j) { return in(j % 2, j / 2); }, 2 * kLanes) ||
            !expect("flat_store_dword to global memory", mem_ + 256, b) ||
            !expect("global_store_dword negative offset", mem_ + 320, dd) ||
            !expect("global_store_dword under EXEC", mem_ + 384,
                    [&](int i) { return in(6, i) ? c(i) : pattern(384 + i); })) {
            return;
        }
        QVERIFY(run("global", "flat_lds"));
        if (!expect("flat_store_dword to LDS", out(0), a) || !expect("flat_load_dword from LDS", out(1), b)) {
            return;
        }

        // MUBUF range checking: a raw buffer of 256 bytes and a structured one of 16 records of 8 bytes.
        fill_mem();
        QVERIFY(run("global", "buffer_range"));
        if (!expect("buffer_load_dword past NUM_RECORDS bytes reads 0", out(0),
                    [&](int i) { return 128 + 4 * i < 256 ? pattern(32 + i) : 0u; }) ||
            !expect("buffer_store_dword past NUM_RECORDS bytes is dropped", mem_ + 64,
                    [&](int i) { return pattern(64 + i); }) ||
            !expect("buffer_load_dword idxen past NUM_RECORDS records reads 0", out(1),
                    [&](int i) { return i < 16 ? pattern(2 * i) : 0u; })) {
            return;
        }
        expect("buffer_load_dword idxen, offset 4", out(2),
               [&](int i) { return i < 16 ? pattern(2 * i + 1) : 0u; });
    }

    // Global and flat atomics: integer, 64-bit, f32, packed f16 and f64 (gfx90a).
    void globalAtomics() {
        fill_lanes([](int plane, int lane) -> uint32_t {
            if (plane < 2) {
                return d(lane * 3.5 - 100.0)[plane];
            }
            return mix(plane, lane);
        });
        std::fill(mem_, mem_ + kBufferWords, 0u);
        mem_[0] = 10;
        mem_[1] = 1000;
        mem_[2] = 5;
        mem_[3] = f(1.0f);
        mem_[4] = 0;
        std::memcpy(mem_ + 6, d(1.0).constData(), 8);
        std::memcpy(mem_ + 8, d(-1e300).constData(), 8);
        std::memcpy(mem_ + 10, d(1e300).constData(), 8);
        mem_[12] = 0;
        mem_[13] = 7;
        mem_[14] = 1;
        mem_[15] = 0;
        QVERIFY(run("global", "global_atomics_shared"));
        std::vector<uint32_t> seen(out(0), out(0) + kLanes);
        std::sort(seen.begin(), seen.end());
        uint32_t umax = 5;
        for (int i = 0; i < kLanes; ++i) {
            umax = std::max(umax, in(0, i));
        }
        const Words largest = d(63 * 3.5 - 100.0), smallest = d(-100.0);
        const uint32_t want[] = {74,         1064,       umax,       f(33.0f),   0x58005400,  0,
                                 d(17.0)[0], d(17.0)[1], largest[0], largest[1], smallest[0], smallest[1],
                                 4,          71,         0xffffffc1, 0x3f};
        if (!expect("global_atomic_add glc returns the prior values", seen.data(),
                    [](int i) { return 1000 + i; }) ||
            !expect("mem[0..15] after the atomics", mem_, [&](int j) { return want[j]; }, 16)) {
            return;
        }

        fill_lanes([](int plane, int lane) -> uint32_t {
            const uint32_t a = mix(0, lane);
            switch (plane) {
            case 0:
                return a;
            case 1: // compare value b: a on even lanes
                return lane % 2 == 0 ? a : a ^ 0x10;
            case 4: // 64-bit compare {e, f}: {a, b} on lanes 0 mod 3
                return lane % 3 == 0 ? a : 0;
            case 5:
                return lane % 3 == 0 ? (lane % 2 == 0 ? a : a ^ 0x10) : 0;
            default:
                return mix(plane, lane);
            }
        });
        std::fill(mem_, mem_ + kBufferWords, 0u);
        for (int i = 0; i < kLanes; ++i) {
            const uint32_t a = in(0, i);
            mem_[64 + i] = a;
            mem_[128 + 2 * i] = a;
            mem_[129 + 2 * i] = in(1, i);
            mem_[448 + i] = a;
            mem_[256 + i] = a;
            mem_[320 + i] = a;
        }
        QVERIFY(run("global", "global_atomics_lane"));
        auto v = [&](int plane) { return [this, plane](int i) { return in(plane, i); }; };
        auto a = v(0), b = v(1), c = v(2), dd = v(3), e = v(4), ff = v(5);
        auto swapped = [&](int i) { return a(i) == e(i) && b(i) == ff(i); };
        if (!expect("global_atomic_cmpswap returns", out(0), a) ||
            !expect("global_atomic_cmpswap stores when the value matches", mem_ + 64,
                    [&](int i) { return a(i) == b(i) ? c(i) : a(i); }) ||
            !expect("global_atomic_cmpswap_x2 returns lo", out(2), a) ||
            !expect("global_atomic_cmpswap_x2 returns hi", out(3), b) ||
            !expect(
                "global_atomic_cmpswap_x2 stores", mem_ + 128,
                [&](int j) { return swapped(j / 2) ? (j % 2 ? dd(j / 2) : c(j / 2)) : in(j % 2, j / 2); },
                2 * kLanes) ||
            !expect("global_atomic_smin returns", out(4), a) ||
            !expect("global_atomic_smin stores", mem_ + 320,
                    [&](int i) {
                        return static_cast<int32_t>(b(i)) < static_cast<int32_t>(a(i)) ? b(i) : a(i);
                    }) ||
            !expect("global_atomic_sub returns", out(5), a) ||
            !expect("global_atomic_sub stores", mem_ + 448, [&](int i) { return a(i) - 1; }) ||
            !expect("global_atomic_swap returns", out(6), a)) {
            return;
        }
        expect("global_atomic_swap stores", mem_ + 256, dd);
    }

    // Scratch through the private segment buffer (MUBUF) and through FLAT_SCRATCH (scratch_*).
    void scratch() {
        fill_lanes([](int plane, int lane) { return mix(plane, lane); });
        auto v = [&](int plane) { return [this, plane](int i) { return in(plane, i); }; };
        auto a = v(0), b = v(1), c = v(2), dd = v(3);
        QVERIFY(run("scratch", "scratch_buffer"));
        if (!expect("buffer_store_byte into a dword", out(0),
                    [&](int i) { return (a(i) & 0xffff00ff) | (c(i) & 0xff) << 8; }) ||
            !expect("buffer offen", out(1), b) ||
            !expect("buffer_load_ubyte", out(2), [&](int i) { return c(i) & 0xff; }) ||
            !expect("buffer_load_dwordx2 lo", out(4), c) || !expect("buffer_load_dwordx2 hi", out(5), dd) ||
            !expect("each lane's own private memory", out(6), a)) {
            return;
        }
        QVERIFY(run("scratch", "scratch_flat"));
        if (!expect("scratch vaddr", out(0), a) || !expect("scratch saddr + offset", out(1), b) ||
            !expect("scratch_load_ushort", out(2), [&](int i) { return c(i) & 0xffff; }) ||
            !expect("written through the private segment buffer", out(3), dd) ||
            !expect("scratch_load_dwordx2 lo", out(4), a)) {
            return;
        }
        expect("scratch_load_dwordx2 hi", out(5), b);
    }

    // v_readlane_b32, v_writelane_b32, v_readfirstlane_b32, v_mbcnt_lo/hi_u32_b32 (kernels/lanes.s).
    void laneOps() {
        auto enabled = [](int lane) { return lane >= 13 && lane % 2 == 1; };
        fill_lanes([&](int plane, int lane) -> uint32_t {
            if (plane == 6) {
                return enabled(lane) ? 1 : 0;
            }
            return mix(plane, lane);
        });
        QVERIFY(run("lanes", "lane_ops"));
        auto a = [&](int i) { return in(0, i); };
        auto old = [&](int i) { return in(7, i); };
        const uint64_t mask = 0xf0f0f0f055555555ull;
        if (!expect("v_readlane_b32 lane 37", out(0), [&](int) { return a(37); }) ||
            !expect("v_readlane_b32 lane select 71 is lane 7", out(1), [&](int) { return a(7); }) ||
            !expect("v_writelane_b32 lane 5", out(2), [&](int i) { return i == 5 ? 0x1234 : old(i); }) ||
            !expect("v_writelane_b32 ignores EXEC", out(3),
                    [&](int i) { return i == 40 ? 0x5678 : old(i); }) ||
            !expect("v_readfirstlane_b32", out(4), [&](int) { return a(13); }) ||
            !expect("v_readfirstlane_b32 with no lane enabled", out(5), [&](int) { return a(0); }) ||
            !expect("v_mbcnt of all ones", out(6), [](int i) { return i; })) {
            return;
        }
        expect("v_mbcnt", out(7), [&](int i) { return std::popcount(mask & ((1ull << i) - 1)); });
    }

    // s_barrier across the four waves of a 256-lane work-group, and with one wave ended before it.
    void barrier() {
        std::fill(out_, out_ + kBufferWords, kUnwritten);
        QVERIFY(run("barrier", "barrier_exchange", 256, 256));
        if (!expect(
                "after the first barrier", out_, [](int id) { return (id + 64) % 256 + 1; }, 256) ||
            !expect("after the third barrier", out_ + 256, [](int id) { return (id ^ 128) + 1000; }, 256)) {
            return;
        }
        std::fill(out_, out_ + kBufferWords, kUnwritten);
        QVERIFY(run("barrier", "barrier_early_end", 256, 256));
        expect(
            "three waves past the barrier", out_,
            [](int id) { return id < 192 ? static_cast<uint32_t>((id + 64) % 192 + 1) : kUnwritten; }, 256);
    }

    // Global wave sync on the agent's cooperative queue (its one GWS resource, as ROCr allocates it):
    // ds_gws_init sets resource 0 to 7, and ds_gws_barrier holds each of 8 one-wave work-groups until
    // all 8 arrived (each reads the next one's value written before the barrier). The completed barrier
    // re-arms the resource with its value, so a second dispatch without ds_gws_init works too. On a
    // queue without GWS resources (MULTI) a GWS instruction fails the dispatch with a queue error.
    void globalWaveSync() {
        constexpr int kGroups = 8;
        const uint64_t init = kernel_object_of("gws", "gws_init");
        const uint64_t exchange = kernel_object_of("gws", "gws_exchange");
        QVERIFY(init && exchange);
        hsa_queue_t* coop = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr, UINT32_MAX,
                                  UINT32_MAX, &coop),
                 HSA_STATUS_SUCCESS);
        auto run_on = [&](hsa_queue_t* q, uint64_t object, uint32_t groups) {
            hsa_signal_t done{0};
            if (hsa_signal_create(1, 0, nullptr, &done) != HSA_STATUS_SUCCESS) {
                return false;
            }
            dispatch(q, object, args_, groups * kLanes, kLanes, done, true);
            const bool ok = wait_below_one(done, 10000) == 0;
            hsa_signal_destroy(done);
            return ok;
        };
        fill_uniform({kGroups - 1, kGroups});
        QVERIFY(run_on(coop, init, 1));
        for (int pass = 0; pass < 2; ++pass) {
            std::fill(mem_, mem_ + kGroups, 0u);
            std::fill(out_, out_ + kGroups, kUnwritten);
            QVERIFY2(run_on(coop, exchange, kGroups), "the grid barrier did not complete");
            QVERIFY(expect(
                QStringLiteral("pass %1, after the grid barrier").arg(pass), out_,
                [](int g) { return (g + 1) % kGroups + 1; }, kGroups));
        }
        QCOMPARE(hsa_queue_destroy(coop), HSA_STATUS_SUCCESS);

        QueueError error;
        const QByteArray text = dispatch_expecting_queue_error(init, error);
        QCOMPARE(error.count.load(), 1);
        QCOMPARE(error.status.load(), static_cast<int>(HSA_STATUS_ERROR_EXCEPTION));
        QVERIFY2(text.contains("kernel gws_init") && text.contains("no global wave sync (GWS) resources"),
                 text.constData());
    }

    // An instruction the interpreter does not implement fails the dispatch: a queue error, a message on
    // stderr naming the instruction, the packet never completes, and nothing after it runs.
    void unimplementedInstruction() {
        fill_uniform({1, 2, 3});
        const uint64_t object = kernel_object_of("unimplemented", "unimplemented");
        QVERIFY(object);
        QueueError error;
        const QByteArray text = dispatch_expecting_queue_error(object, error);
        QCOMPARE(error.count.load(), 1);
        QCOMPARE(error.status.load(), static_cast<int>(HSA_STATUS_ERROR_EXCEPTION));
        QVERIFY2(text.contains("kernel unimplemented"), text.constData());
        QVERIFY2(text.contains("(s_set_gpr_idx_on s30, gpr_idx(SRC0)): the interpreter does not implement "
                               "this instruction"),
                 text.constData());
        QVERIFY2(
            QRegularExpression(QStringLiteral("hsa_sim: queue \\d+: kernel unimplemented: .*pc 0x[0-9a-f]+ "))
                .match(QString::fromUtf8(text))
                .hasMatch(),
            text.constData());
        QVERIFY(!error.packet_completed);
        QCOMPARE(out_[0], kUnwritten); // nothing after the instruction ran
    }
};

QTEST_GUILESS_MAIN(IsaInstructionsTest)
#include "tst_isa_instructions.moc"
