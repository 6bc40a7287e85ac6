// SPDX-License-Identifier: MIT
// Lane operations: v_readlane_b32, v_writelane_b32 (ignores EXEC), v_readfirstlane_b32 (the first
// enabled lane, lane 0 when none), v_mbcnt_lo/hi_u32_b32. a = v2; plane 6 (v8) != 0 enables a lane.
.include "common.inc"

// v10 = a of lane 37; v11 = a of lane 7 (lane select 71 from an SGPR: bits 5:0); v12 = old with lane 5
// = 0x1234 (v_writelane); v13 = old with lane 40 (lane select in M0) = 0x5678, written while only lane 0
// is enabled;
// v14 = a of the first enabled lane; v15 = a of lane 0 (v_readfirstlane with no lane enabled);
// v16 = the lane id (v_mbcnt of all ones); v17 = the number of bits below the lane in
// 0xf0f0f0f0_55555555.
kbegin lane_ops
  v_readlane_b32 s30, v2, 37
  v_mov_b32 v10, s30
  s_movk_i32 s31, 0x47
  v_readlane_b32 s30, v2, s31
  v_mov_b32 v11, s30
  s_movk_i32 s30, 0x1234
  v_writelane_b32 v12, s30, 5
  s_mov_b64 exec, 1
  s_movk_i32 s30, 0x5678
  s_mov_b32 m0, 40
  v_writelane_b32 v13, s30, m0
  s_mov_b64 exec, -1
  v_cmp_ne_u32 vcc, 0, v8
  s_and_saveexec_b64 s[34:35], vcc
  v_readfirstlane_b32 s30, v2
  s_mov_b64 exec, 0
  v_readfirstlane_b32 s31, v2
  s_mov_b64 exec, -1
  v_mov_b32 v14, s30
  v_mov_b32 v15, s31
  v_mbcnt_lo_u32_b32 v16, -1, 0
  v_mbcnt_hi_u32_b32 v16, -1, v16
  s_mov_b32 s30, 0x55555555
  s_mov_b32 s31, 0xf0f0f0f0
  v_mbcnt_lo_u32_b32 v17, s30, 0
  v_mbcnt_hi_u32_b32 v17, s31, v17
kend lane_ops
