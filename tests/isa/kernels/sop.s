// SPDX-License-Identifier: MIT
// Scalar ALU (SOP1, SOP2, SOPK, SOPC) and scalar branches. Scalar frame: s[10:11] = lane 0 of planes
// 0-1 (a), s[12:13] = planes 2-3 (b), s[14:15] = planes 4-5 (the old destination), SCC = plane 6 != 0;
// results: v10 = s14, v11 = s15, v12 = SCC.
.include "common.inc"

.macro sbegin name
  kbegin \name
  v_readfirstlane_b32 s10, v2
  v_readfirstlane_b32 s11, v3
  v_readfirstlane_b32 s12, v4
  v_readfirstlane_b32 s13, v5
  v_readfirstlane_b32 s14, v6
  v_readfirstlane_b32 s15, v7
  v_readfirstlane_b32 s16, v8
  s_cmp_lg_u32 s16, 0
.endm

.macro send name
  s_cselect_b32 s17, 1, 0
  v_mov_b32 v10, s14
  v_mov_b32 v11, s15
  v_mov_b32 v12, s17
  kend \name
.endm

.macro sk name, text
  sbegin \name
  \text
  send \name
.endm

sk s_add_u32, "s_add_u32 s14, s10, s12"
sk s_addc_u32, "s_addc_u32 s14, s10, s12"
sk s_sub_u32, "s_sub_u32 s14, s10, s12"
sk s_subb_u32, "s_subb_u32 s14, s10, s12"
sk s_add_i32, "s_add_i32 s14, s10, s12"
sk s_sub_i32, "s_sub_i32 s14, s10, s12"

// 64-bit add and subtract: the carry of the low dwords goes through SCC.
sbegin s_add_u64
  s_add_u32 s14, s10, s12
  s_addc_u32 s15, s11, s13
send s_add_u64
sbegin s_sub_u64
  s_sub_u32 s14, s10, s12
  s_subb_u32 s15, s11, s13
send s_sub_u64

sk s_lshl_b32, "s_lshl_b32 s14, s10, s12"
sk s_lshr_b32, "s_lshr_b32 s14, s10, s12"
sk s_ashr_i32, "s_ashr_i32 s14, s10, s12"
sk s_lshl_b64, "s_lshl_b64 s[14:15], s[10:11], s12"
sk s_lshr_b64, "s_lshr_b64 s[14:15], s[10:11], s12"
sk s_ashr_i64, "s_ashr_i64 s[14:15], s[10:11], s12"
sk s_bfe_u32, "s_bfe_u32 s14, s10, s12"
sk s_bfe_i32, "s_bfe_i32 s14, s10, s12"
sk s_bfe_u64, "s_bfe_u64 s[14:15], s[10:11], s12"
sk s_bfm_b32, "s_bfm_b32 s14, s10, s12"
sk s_mul_i32, "s_mul_i32 s14, s10, s12"
sk s_mul_hi_u32, "s_mul_hi_u32 s14, s10, s12"
sk s_mul_hi_i32, "s_mul_hi_i32 s14, s10, s12"
sk s_min_i32, "s_min_i32 s14, s10, s12"
sk s_max_u32, "s_max_u32 s14, s10, s12"
sk s_absdiff_i32, "s_absdiff_i32 s14, s10, s12"
sk s_lshl2_add_u32, "s_lshl2_add_u32 s14, s10, s12"
sk s_cselect_b32, "s_cselect_b32 s14, s10, s12"
sk s_cmov_b32, "s_cmov_b32 s14, s10"
sk s_andn2_b64, "s_andn2_b64 s[14:15], s[10:11], s[12:13]"
sk s_xnor_b32, "s_xnor_b32 s14, s10, s12"
sk s_pack_lh_b32_b16, "s_pack_lh_b32_b16 s14, s10, s12"
sk s_pack_hh_b32_b16, "s_pack_hh_b32_b16 s14, s10, s12"
sk s_not_b32, "s_not_b32 s14, s10"
sk s_brev_b32, "s_brev_b32 s14, s10"
sk s_bcnt1_i32_b64, "s_bcnt1_i32_b64 s14, s[10:11]"
sk s_ff1_i32_b32, "s_ff1_i32_b32 s14, s10"
sk s_flbit_i32_b32, "s_flbit_i32_b32 s14, s10"
sk s_flbit_i32, "s_flbit_i32 s14, s10"
sk s_abs_i32, "s_abs_i32 s14, s10"
sk s_sext_i32_i16, "s_sext_i32_i16 s14, s10"
sk s_quadmask_b32, "s_quadmask_b32 s14, s10"
sk s_wqm_b32, "s_wqm_b32 s14, s10"
sk s_bitset1_b32, "s_bitset1_b32 s14, s10"
sk s_cmp_lt_i32, "s_cmp_lt_i32 s10, s12"
sk s_cmp_lt_u32, "s_cmp_lt_u32 s10, s12"
sk s_bitcmp1_b32, "s_bitcmp1_b32 s10, s12"
sk s_movk_i32, "s_movk_i32 s14, 0x8000"
sk s_addk_i32, "s_addk_i32 s14, 0xffff"
sk s_getreg_mode, "s_getreg_b32 s14, hwreg(HW_REG_MODE, 4, 4)"
sk s_getreg_shared_base, "s_getreg_b32 s14, hwreg(HW_REG_SH_MEM_BASES, 16, 16)"

sbegin s_getreg_mode_ftz
  s_getreg_b32 s14, hwreg(HW_REG_MODE, 4, 4)
  s_cselect_b32 s17, 1, 0
  v_mov_b32 v10, s14
  v_mov_b32 v11, s15
  v_mov_b32 v12, s17
kend s_getreg_mode_ftz, d32=0

// Branches: v10 = 2 when a == b, else 1 (s_cbranch_scc1, s_branch); v11 = the first multiple of 3 not
// below a (a loop on s_cbranch_scc1); v12 = 1 when b != 0 (s_cbranch_vccz over a VCC set by v_cmp).
sbegin s_branches
  s_cmp_eq_u32 s10, s12
  s_cbranch_scc1 .Lequal
  v_mov_b32 v10, 1
  s_branch .Lcompared
.Lequal:
  v_mov_b32 v10, 2
.Lcompared:
  s_mov_b32 s30, 0
.Lloop:
  s_add_u32 s30, s30, 3
  s_cmp_lt_u32 s30, s10
  s_cbranch_scc1 .Lloop
  v_mov_b32 v11, s30
  v_mov_b32 v12, 0
  v_cmp_ne_u32 vcc, 0, v4
  s_cbranch_vccz .Lzero
  v_mov_b32 v12, 1
.Lzero:
kend s_branches
