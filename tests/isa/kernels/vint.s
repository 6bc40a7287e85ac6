// SPDX-License-Identifier: MIT
// Vector integer ALU (VOP1, VOP2, VOP3): adds with clamp and carries, 16-bit ops, shifts by the width
// or more, multiplies, bit fields, packing. a = v2 (plane 0), b = v3, c = v4; 64-bit a = v[2:3],
// 64-bit b = v[4:5]. Results in v10 (v11: a 64-bit result's high dword or a carry-out lane bit).
.include "common.inc"

// One instruction writing v10, then v11 = 1 where the lane's bit of the carry-out mask \mask is set.
.macro ck name, text, mask=vcc
  kbegin \name
  \text
  v_cndmask_b32_e64 v11, 0, 1, \mask
  kend \name
.endm

vk add_u32, "v_add_u32 v10, v2, v3"
vk add_u32_clamp, "v_add_u32_e64 v10, v2, v3 clamp"
vk sub_u32_clamp, "v_sub_u32_e64 v10, v2, v3 clamp"
vk subrev_u32, "v_subrev_u32 v10, v2, v3"
vk add_i32_clamp, "v_add_i32 v10, v2, v3 clamp"
vk sub_i32_clamp, "v_sub_i32 v10, v2, v3 clamp"
ck add_co_u32, "v_add_co_u32 v10, vcc, v2, v3"
ck sub_co_u32, "v_sub_co_u32 v10, vcc, v2, v3"
ck subrev_co_u32_e64, "v_subrev_co_u32_e64 v10, s[30:31], v2, v3", s[30:31]

// Carry in: lanes where c != 0.
kbegin addc_co_u32
  v_cmp_ne_u32 vcc, 0, v4
  v_addc_co_u32 v10, vcc, v2, v3, vcc
  v_cndmask_b32_e64 v11, 0, 1, vcc
kend addc_co_u32
kbegin subb_co_u32
  v_cmp_ne_u32 s[30:31], 0, v4
  v_subb_co_u32_e64 v10, s[30:31], v2, v3, s[30:31]
  v_cndmask_b32_e64 v11, 0, 1, s[30:31]
kend subb_co_u32
kbegin subbrev_co_u32
  v_cmp_ne_u32 vcc, 0, v4
  v_subbrev_co_u32 v10, vcc, v2, v3, vcc
  v_cndmask_b32_e64 v11, 0, 1, vcc
kend subbrev_co_u32

vk add_u16, "v_add_u16 v10, v2, v3"
vk add_u16_clamp, "v_add_u16_e64 v10, v2, v3 clamp"
vk sub_u16_clamp, "v_sub_u16_e64 v10, v2, v3 clamp"
vk mul_lo_u16, "v_mul_lo_u16 v10, v2, v3"
vk max_i16, "v_max_i16 v10, v2, v3"
vk min_u16, "v_min_u16 v10, v2, v3"
vk lshlrev_b16, "v_lshlrev_b16 v10, v2, v3"
vk ashrrev_i16, "v_ashrrev_i16 v10, v2, v3"
vk lshlrev_b32, "v_lshlrev_b32 v10, v2, v3"
vk lshrrev_b32, "v_lshrrev_b32 v10, v2, v3"
vk ashrrev_i32, "v_ashrrev_i32 v10, v2, v3"
vk lshlrev_b64, "v_lshlrev_b64 v[10:11], v2, v[4:5]"
vk lshrrev_b64, "v_lshrrev_b64 v[10:11], v2, v[4:5]"
vk ashrrev_i64, "v_ashrrev_i64 v[10:11], v2, v[4:5]"
vk mul_lo_u32, "v_mul_lo_u32 v10, v2, v3"
vk mul_hi_u32, "v_mul_hi_u32 v10, v2, v3"
vk mul_hi_i32, "v_mul_hi_i32 v10, v2, v3"
vk mul_u32_u24, "v_mul_u32_u24 v10, v2, v3"
vk mul_hi_u32_u24, "v_mul_hi_u32_u24 v10, v2, v3"
vk mul_i32_i24, "v_mul_i32_i24 v10, v2, v3"
vk mad_u32_u24, "v_mad_u32_u24 v10, v2, v3, v4"
// 64-bit accumulator c = v[4:5] (planes 2, 3); v12 = the carry-out lane bit.
kbegin mad_u64_u32
  v_mad_u64_u32 v[10:11], s[30:31], v2, v3, v[4:5]
  v_cndmask_b32_e64 v12, 0, 1, s[30:31]
kend mad_u64_u32
vk mad_i64_i32, "v_mad_i64_i32 v[10:11], s[30:31], v2, v3, v[4:5]"
vk bfe_u32, "v_bfe_u32 v10, v2, v3, v4"
vk bfe_i32, "v_bfe_i32 v10, v2, v3, v4"
vk bfi_b32, "v_bfi_b32 v10, v2, v3, v4"
vk bfm_b32, "v_bfm_b32 v10, v2, v3"
vk alignbit_b32, "v_alignbit_b32 v10, v2, v3, v4"
vk alignbyte_b32, "v_alignbyte_b32 v10, v2, v3, v4"
vk perm_b32, "v_perm_b32 v10, v2, v3, v4"
vk lshl_add_u32, "v_lshl_add_u32 v10, v2, v3, v4"
vk add_lshl_u32, "v_add_lshl_u32 v10, v2, v3, v4"
vk add3_u32, "v_add3_u32 v10, v2, v3, v4"
vk lshl_or_b32, "v_lshl_or_b32 v10, v2, v3, v4"
vk and_or_b32, "v_and_or_b32 v10, v2, v3, v4"
vk xad_u32, "v_xad_u32 v10, v2, v3, v4"
vk bcnt_u32_b32, "v_bcnt_u32_b32 v10, v2, v3"
vk ffbh_u32, "v_ffbh_u32 v10, v2"
vk ffbl_b32, "v_ffbl_b32 v10, v2"
vk ffbh_i32, "v_ffbh_i32 v10, v2"
vk bfrev_b32, "v_bfrev_b32 v10, v2"
vk min3_i32, "v_min3_i32 v10, v2, v3, v4"
vk max3_u32, "v_max3_u32 v10, v2, v3, v4"
vk med3_i32, "v_med3_i32 v10, v2, v3, v4"
vk med3_u32, "v_med3_u32 v10, v2, v3, v4"
vk sad_u8, "v_sad_u8 v10, v2, v3, v4"
vk sad_hi_u8, "v_sad_hi_u8 v10, v2, v3, v4"
vk msad_u8, "v_msad_u8 v10, v2, v3, v4"
vk lerp_u8, "v_lerp_u8 v10, v2, v3, v4"
vk cvt_pk_u16_u32, "v_cvt_pk_u16_u32 v10, v2, v3"
vk cvt_pk_i16_i32, "v_cvt_pk_i16_i32 v10, v2, v3"
vk sat_pk_u8_i16, "v_sat_pk_u8_i16 v10, v2"
// Inline constants and a literal as sources.
vk add_u32_constants, "v_add_u32 v10, -16, v2"
vk or_b32_literal, "v_or_b32 v10, 0x12345678, v2"

// 64-bit add and subtract per lane through VCC / an SGPR pair: {a, b} + {c, d} in v[10:11] with the
// final carry in v12 and the whole carry mask in v13 / v14; {a, b} - {c, d} in v[15:16], borrow v17.
kbegin add_sub_u64
  v_add_co_u32 v10, vcc, v2, v4
  v_addc_co_u32 v11, vcc, v3, v5, vcc
  v_cndmask_b32_e64 v12, 0, 1, vcc
  v_mov_b32 v13, vcc_lo
  v_mov_b32 v14, vcc_hi
  v_sub_co_u32 v15, s[30:31], v2, v4
  v_subb_co_u32 v16, s[30:31], v3, v5, s[30:31]
  v_cndmask_b32_e64 v17, 0, 1, s[30:31]
kend add_sub_u64
