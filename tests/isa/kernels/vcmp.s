// SPDX-License-Identifier: MIT
// Vector compares (VOPC and VOP3), v_cndmask, and EXEC: v_cmpx, s_*_saveexec, lanes EXEC leaves off.
// a = v2, b = v3, c = v4 (64-bit: v[2:3], v[4:5]); plane 6 (v8) enables lanes where EXEC is narrowed.
.include "common.inc"

// A compare into \mask; v10 = the lane's bit, v11 / v12 = the mask's low / high dword.
.macro cmpk name, text, mask=vcc, lo=vcc_lo, hi=vcc_hi
  kbegin \name
  \text
  v_cndmask_b32_e64 v10, 0, 1, \mask
  v_mov_b32 v11, \lo
  v_mov_b32 v12, \hi
  kend \name
.endm

cmpk cmp_lt_f32, "v_cmp_lt_f32 vcc, v2, v3"
cmpk cmp_nge_f32, "v_cmp_nge_f32 vcc, v2, v3"
cmpk cmp_eq_f32, "v_cmp_eq_f32 vcc, v2, v3"
cmpk cmp_lg_f32, "v_cmp_lg_f32 vcc, v2, v3"
cmpk cmp_neq_f32, "v_cmp_neq_f32 vcc, v2, v3"
cmpk cmp_u_f32, "v_cmp_u_f32 vcc, v2, v3"
cmpk cmp_eq_f32_mods, "v_cmp_eq_f32_e64 s[30:31], |v2|, -v3", s[30:31], s30, s31
cmpk cmp_class_f32, "v_cmp_class_f32 vcc, v2, v3"
cmpk cmp_class_f64, "v_cmp_class_f64 vcc, v[2:3], v4"
cmpk cmp_class_f16, "v_cmp_class_f16 vcc, v2, v3"
cmpk cmp_lt_f16, "v_cmp_lt_f16 vcc, v2, v3"
cmpk cmp_lt_f64, "v_cmp_lt_f64 vcc, v[2:3], v[4:5]"
cmpk cmp_lt_i32, "v_cmp_lt_i32 vcc, v2, v3"
cmpk cmp_lt_u32, "v_cmp_lt_u32 vcc, v2, v3"
cmpk cmp_gt_i32_e64, "v_cmp_gt_i32_e64 s[30:31], v2, v3", s[30:31], s30, s31
cmpk cmp_lt_i16, "v_cmp_lt_i16 vcc, v2, v3"
cmpk cmp_eq_u64, "v_cmp_eq_u64 vcc, v[2:3], v[4:5]"
cmpk cmp_lt_i64, "v_cmp_lt_i64 vcc, v[2:3], v[4:5]"
cmpk cmp_lt_i32_inline, "v_cmp_lt_i32 vcc, -1, v2"

// v10 = c != 0 ? b : a.
kbegin cndmask_b32
  v_cmp_ne_u32 vcc, 0, v4
  v_cndmask_b32 v10, v2, v3, vcc
kend cndmask_b32
kbegin cndmask_b32_e64_neg
  v_cmp_ne_u32 s[30:31], 0, v4
  v_cndmask_b32_e64 v10, v2, -v3, s[30:31]
kend cndmask_b32_e64_neg

// v_cmpx: EXEC = (a < b); v10 = b where enabled; v11 / v12 = EXEC; v13 / v14 = VCC (also written).
kbegin cmpx_lt_u32
  v_cmpx_lt_u32 vcc, v2, v3
  v_mov_b32 v10, v3
  s_mov_b64 s[34:35], exec
  s_mov_b64 exec, -1
  v_mov_b32 v11, s34
  v_mov_b32 v12, s35
  v_mov_b32 v13, vcc_lo
  v_mov_b32 v14, vcc_hi
kend cmpx_lt_u32
kbegin cmpx_e64
  v_cmpx_gt_i32_e64 s[30:31], v2, v3
  v_mov_b32 v10, v3
  s_mov_b64 exec, -1
  v_mov_b32 v11, s30
  v_mov_b32 v12, s31
kend cmpx_e64

// Lanes with plane 6 == 0 are off; each instruction below must leave their destination (plane 7) as it
// was: VALU v10, VOP3 64-bit v[12:13], SDWA v11 (preserving), a global load v14, an LDS read v15, a
// compare's mask bits (v16 = 1 where the bit is set, read with every lane on) and a carry-out (v17).
kbegin exec_untouched
  ds_write_b32 v1, v3
  s_waitcnt lgkmcnt(0)
  v_cmp_ne_u32 vcc, 0, v8
  s_and_saveexec_b64 s[30:31], vcc
  v_add_u32 v10, v2, v3
  v_mov_b32_sdwa v11, v2 dst_sel:BYTE_0 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1
  v_lshlrev_b64 v[12:13], 4, v[2:3]
  global_load_dword v14, v1, s[20:21] offset:256
  ds_read_b32 v15, v1
  v_cmp_eq_u32 s[34:35], v2, v2
  v_add_co_u32 v18, s[36:37], -1, v2
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_mov_b64 exec, -1
  v_cndmask_b32_e64 v16, 0, 1, s[34:35]
  v_cndmask_b32_e64 v17, 0, 1, s[36:37]
kend exec_untouched, lds=512

// if / else on EXEC: v10 = 1 for lanes < 32, 2 for the others; v11 = SCC after s_and_saveexec
// (EXEC != 0); v12 = SCC after an s_and_saveexec that left no lane (0) and v13 = 3 where the
// s_cbranch_execz did not skip (never).
kbegin exec_if_else
  v_cmp_gt_u32 vcc, 32, v0
  s_and_saveexec_b64 s[30:31], vcc
  s_cselect_b32 s34, 1, 0
  v_mov_b32 v10, 1
  s_andn2_b64 exec, s[30:31], exec
  v_mov_b32 v10, 2
  s_mov_b64 exec, s[30:31]
  v_cmp_gt_u32 vcc, 0, v0
  s_and_saveexec_b64 s[36:37], vcc
  s_cselect_b32 s35, 1, 0
  s_cbranch_execz .Lskipped
  s_mov_b64 exec, -1
  v_mov_b32 v13, 3
.Lskipped:
  s_mov_b64 exec, s[36:37]
  v_mov_b32 v11, s34
  v_mov_b32 v12, s35
kend exec_if_else
