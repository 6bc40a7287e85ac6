// SPDX-License-Identifier: MIT
// Scratch (private memory, 256 bytes per lane): MUBUF through the private segment buffer V# in s[0:3]
// with the wave's offset in its system SGPR, and scratch_* through FLAT_SCRATCH set up from the
// flat scratch init SGPRs. The kernarg pointer follows the private segment buffer: s[4:5].
// a = v2, b = v3, c = v4, d = v5; v18 = a per-lane private offset (b & 60).
.include "common.inc"

.macro scratch_descriptor name, flat_scratch_init
  .rodata
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_user_sgpr_private_segment_buffer 1
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_user_sgpr_flat_scratch_init \flat_scratch_init
    .amdhsa_system_sgpr_private_segment_wavefront_offset 1
    .amdhsa_private_segment_fixed_size 256
    .amdhsa_kernarg_size 24
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 48
    .amdhsa_accum_offset 32
  .end_amdhsa_kernel
.endm

// SGPRs: s[0:3] private segment buffer, s[4:5] kernarg, s6 work-group id x, s7 wave offset.
// v10 = private[16] after a dword store of a and a byte store of c at 17; v11 = private[v18] = b
// (offen); v12 = ubyte at 17 (c & 0xff); v[14:15] = private[96], [100] = {c, d} (dwordx2); v16 =
// private[252] written by every lane with its own a: each lane reads its own (lanes do not share).
entry scratch_buffer
  load_frame s[4:5]
  v_and_b32 v18, 60, v3
  buffer_store_dword v2, off, s[0:3], s7 offset:16
  buffer_store_byte v4, off, s[0:3], s7 offset:17
  buffer_store_dword v3, v18, s[0:3], s7 offen offset:128
  buffer_store_dwordx2 v[4:5], off, s[0:3], s7 offset:96
  buffer_store_dword v2, off, s[0:3], s7 offset:252
  s_waitcnt vmcnt(0)
  buffer_load_dword v10, off, s[0:3], s7 offset:16
  buffer_load_dword v11, v18, s[0:3], s7 offen offset:128
  buffer_load_ubyte v12, off, s[0:3], s7 offset:17
  buffer_load_dwordx2 v[14:15], off, s[0:3], s7 offset:96
  buffer_load_dword v16, off, s[0:3], s7 offset:252
  s_waitcnt vmcnt(0)
  store_frame
scratch_descriptor scratch_buffer, 0

// SGPRs: s[0:3] private segment buffer, s[4:5] kernarg, s[6:7] flat scratch init, s8 work-group id x,
// s9 wave offset; FLAT_SCRATCH = init + wave offset (the gfx9 kernel prologue).
// v10 = private[v18] = a (vaddr form); v11 = private[136] = b (saddr form, s30 = 128, offset 8);
// v12 = ushort at 64 + v18 = c & 0xffff; v13 = private[200] stored through the private segment buffer
// (d): both paths address the same swizzled memory; v[14:15] = scratch_load_dwordx2 at 160 = {a, b}.
entry scratch_flat
  s_add_u32 flat_scratch_lo, s6, s9
  s_addc_u32 flat_scratch_hi, s7, 0
  load_frame s[4:5]
  v_and_b32 v18, 60, v3
  s_mov_b32 s30, 128
  scratch_store_dword v18, v2, off
  scratch_store_dword off, v3, s30 offset:8
  scratch_store_short v18, v4, off offset:64
  buffer_store_dword v5, off, s[0:3], s9 offset:200
  scratch_store_dwordx2 off, v[2:3], s30 offset:32
  s_waitcnt vmcnt(0)
  scratch_load_dword v10, v18, off
  scratch_load_dword v11, off, s30 offset:8
  scratch_load_ushort v12, v18, off offset:64
  s_mov_b32 s31, 0
  scratch_load_dword v13, off, s31 offset:200
  scratch_load_dwordx2 v[14:15], off, s31 offset:160
  s_waitcnt vmcnt(0)
  store_frame
scratch_descriptor scratch_flat, 1
