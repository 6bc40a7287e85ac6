// SPDX-License-Identifier: MIT
// DPP (row shifts and rotates, quad_perm, row/wave broadcasts and mirrors, row_mask / bank_mask,
// bound_ctrl, disabled source lanes) and SDWA (byte / word selects, sext, dst_sel with dst_unused).
// a = v2, b = v3; the old destination value is plane 7; plane 6 != 0 enables a lane in dpp_exec.
.include "common.inc"

kbegin dpp_row_shift
  v_mov_b32_dpp v10, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v11, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  v_mov_b32_dpp v12, v2 row_shl:15 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v13, v2 row_ror:4 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v14, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  v_add_u32_dpp v15, v2, v3 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf
kend dpp_row_shift

// Row and bank masks: rows 0 and 2, banks 1 and 3 are written; bound_ctrl does not lift the masks.
kbegin dpp_masks
  v_add_u32_dpp v10, v2, v3 row_shr:1 row_mask:0x5 bank_mask:0xa
  v_add_u32_dpp v11, v2, v3 row_shr:1 row_mask:0x5 bank_mask:0xa bound_ctrl:1
kend dpp_masks

kbegin dpp_broadcast
  v_add_u32_dpp v10, v2, v3 row_bcast:15 row_mask:0xa bank_mask:0xf
  v_add_u32_dpp v11, v2, v3 row_bcast:31 row_mask:0xc bank_mask:0xf
  v_mov_b32_dpp v12, v2 wave_shr:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v13, v2 wave_rol:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v14, v2 row_mirror row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v15, v2 row_half_mirror row_mask:0xf bank_mask:0xf
kend dpp_broadcast

// A disabled source lane is invalid: not written without bound_ctrl, 0 with it.
kbegin dpp_exec
  v_cmp_ne_u32 vcc, 0, v8
  s_and_saveexec_b64 s[30:31], vcc
  v_mov_b32_dpp v10, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v11, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
kend dpp_exec

// Float modifiers apply to the moved value.
vk dpp_f32_mods, "v_add_f32_dpp v10, -v2, |v3| quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"

vk sdwa_sel, "v_add_u32_sdwa v10, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1"
vk sdwa_sext_byte, "v_add_u32_sdwa v10, sext(v2), v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_3"
vk sdwa_sext_word, "v_sub_u32_sdwa v10, sext(v2), sext(v3) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_1"
vk sdwa_preserve, "v_mov_b32_sdwa v10, v2 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0"
vk sdwa_pad, "v_mov_b32_sdwa v10, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0"
vk sdwa_sext_dst, "v_mov_b32_sdwa v10, v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0"
vk sdwa_sext_dst_word, "v_mov_b32_sdwa v10, v2 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1"
vk sdwa_f16_high, "v_add_f16_sdwa v10, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0"
vk sdwa_cvt_f32_f16, "v_cvt_f32_f16_sdwa v10, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1"
// An SGPR source (c of lane 0) under SDWA.
kbegin sdwa_scalar
  v_readfirstlane_b32 s30, v4
  v_and_b32_sdwa v10, s30, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:BYTE_2
kend sdwa_scalar
