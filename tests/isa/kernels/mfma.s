// SPDX-License-Identifier: MIT
// Matrix fused multiply-add (v_mfma_*). A frame of its own around kernels/common.inc's: the input planes
// 0-1 hold A (v2, v3), planes 2-3 hold B (v4, v5); C is 32 planes of the memory buffer, mem[64 * r + i]
// for register r of lane i, loaded into v[32:63]; the kernel leaves D in v[64:95] (read back from
// a[0:31] when it computed into AGPRs), stored as 32 planes of the output buffer. Kernels whose C is in
// AGPRs copy v[32:63] to a[0:31] first. The s_nops keep the hazard distance the hardware asks for before
// an MFMA result is read; the interpreter does not need them.
.include "common.inc"

// C: mem planes 0-31 into v[32:63] (v18 addresses planes 16 and up).
.macro load_c
  v_add_u32 v18, 4096, v1
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    global_load_dword v[32+\r], v1, s[24:25] offset:256*\r
    global_load_dword v[48+\r], v18, s[24:25] offset:256*\r
  .endr
  s_waitcnt vmcnt(0)
.endm

.macro c_to_acc
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    v_accvgpr_write_b32 a[\r], v[32+\r]
  .endr
.endm

.macro d_from_acc
  s_nop 7
  s_nop 7
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    v_accvgpr_read_b32 v[64+\r], a[\r]
  .endr
.endm

.macro store_d name
  s_mov_b64 exec, -1
  s_nop 7
  s_nop 7
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    global_store_dword v1, v[64+\r], s[22:23] offset:256*\r
    global_store_dword v18, v[80+\r], s[22:23] offset:256*\r
  .endr
  s_waitcnt vmcnt(0)
  s_endpgm
  .rodata
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_kernarg_size 24
    .amdhsa_next_free_vgpr 128
    .amdhsa_next_free_sgpr 48
    .amdhsa_accum_offset 96
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
  .end_amdhsa_kernel
.endm

// mk name, "instruction": C and D in VGPRs (v[32:..], v[64:..]).
.macro mk name, text
  kbegin \name
  load_c
  \text
  store_d \name
.endm

// mka name, "instruction": C and D in AGPRs (a[0:..]).
.macro mka name, text
  kbegin \name
  load_c
  c_to_acc
  \text
  d_from_acc
  store_d \name
.endm

// One of each type and shape family; C and D in AGPRs or in VGPRs.
mka f32_32x32x1, "v_mfma_f32_32x32x1f32 a[0:31], v2, v4, a[0:31]"
mk f32_16x16x4, "v_mfma_f32_16x16x4f32 v[64:67], v2, v4, v[32:35]"
mka f32_4x4x1, "v_mfma_f32_4x4x1f32 a[0:3], v2, v4, a[0:3]"
mk f32_32x32x2, "v_mfma_f32_32x32x2f32 v[64:79], v2, v4, v[32:47]"
mka f32_16x16x1, "v_mfma_f32_16x16x1f32 a[0:15], v2, v4, a[0:15]"
mk f16_32x32x8, "v_mfma_f32_32x32x8f16 v[64:79], v[2:3], v[4:5], v[32:47]"
mka f16_16x16x16, "v_mfma_f32_16x16x16f16 a[0:3], v[2:3], v[4:5], a[0:3]"
mk f16_4x4x4, "v_mfma_f32_4x4x4f16 v[64:67], v[2:3], v[4:5], v[32:35]"
mka f16_32x32x4, "v_mfma_f32_32x32x4f16 a[0:31], v[2:3], v[4:5], a[0:31]"
mka bf16_32x32x2, "v_mfma_f32_32x32x2bf16 a[0:31], v2, v4, a[0:31]"
mk bf16_16x16x8, "v_mfma_f32_16x16x8bf16 v[64:67], v2, v4, v[32:35]"
mka bf16_4x4x2, "v_mfma_f32_4x4x2bf16 a[0:3], v2, v4, a[0:3]"
mk bf16_1k_32x32x8, "v_mfma_f32_32x32x8bf16_1k v[64:79], v[2:3], v[4:5], v[32:47]"
mka bf16_1k_16x16x16, "v_mfma_f32_16x16x16bf16_1k a[0:3], v[2:3], v[4:5], a[0:3]"
mk bf16_1k_4x4x4, "v_mfma_f32_4x4x4bf16_1k v[64:67], v[2:3], v[4:5], v[32:35]"
mka bf16_1k_16x16x4, "v_mfma_f32_16x16x4bf16_1k a[0:15], v[2:3], v[4:5], a[0:15]"
mka i8_32x32x8, "v_mfma_i32_32x32x8i8 a[0:15], v2, v4, a[0:15]"
mk i8_16x16x4, "v_mfma_i32_16x16x4i8 v[64:79], v2, v4, v[32:47]"
mka i8_4x4x4, "v_mfma_i32_4x4x4i8 a[0:3], v2, v4, a[0:3]"
mk i8_16x16x16, "v_mfma_i32_16x16x16i8 v[64:67], v2, v4, v[32:35]"
mka f64_16x16x4, "v_mfma_f64_16x16x4f64 a[0:7], v[2:3], v[4:5], a[0:7]"
mk f64_4x4x4, "v_mfma_f64_4x4x4f64 v[64:65], v[2:3], v[4:5], v[32:33]"

// Inline C: every element of C is the constant (an f64 1.0 is two different dwords).
mk f32_4x4x1_c1, "v_mfma_f32_4x4x1f32 v[64:67], v2, v4, 1.0"
mka f64_4x4x4_c1, "v_mfma_f64_4x4x4f64 a[0:1], v[2:3], v[4:5], 1.0"

// Broadcasts: CBSZ/ABID choose the block whose A a group of blocks multiplies, BLGP the lanes B is read
// from. On gfx90a BLGP of an f64 form changes nothing (there is no negation before gfx940).
mk f32_4x4x1_cbsz2_abid1, "v_mfma_f32_4x4x1f32 v[64:67], v2, v4, v[32:35] cbsz:2 abid:1"
mka f16_16x16x4_cbsz1_abid1, "v_mfma_f32_16x16x4f16 a[0:15], v[2:3], v[4:5], a[0:15] cbsz:1 abid:1"
mka f32_32x32x1_cbsz1_abid1_blgp3, "v_mfma_f32_32x32x1f32 a[0:31], v2, v4, a[0:31] cbsz:1 abid:1 blgp:3"
mk i8_4x4x4_blgp6, "v_mfma_i32_4x4x4i8 v[64:67], v2, v4, v[32:35] cbsz:4 abid:9 blgp:6"
mk bf16_16x16x8_blgp1, "v_mfma_f32_16x16x8bf16 v[64:67], v2, v4, v[32:35] blgp:1"
mk f16_32x32x8_blgp2, "v_mfma_f32_32x32x8f16 v[64:79], v[2:3], v[4:5], v[32:47] blgp:2"
mka f64_16x16x4_blgp7, "v_mfma_f64_16x16x4f64 a[0:7], v[2:3], v[4:5], a[0:7] blgp:7"

// A and B in AGPRs.
kbegin f32_16x16x1_ab_acc
  load_c
  c_to_acc
  v_accvgpr_write_b32 a40, v2
  v_accvgpr_write_b32 a41, v4
  v_mfma_f32_16x16x1f32 a[0:15], a40, a41, a[0:15]
  d_from_acc
  store_d f32_16x16x1_ab_acc
