// SPDX-License-Identifier: MIT
// gfx90a kernel whose VALU instruction count depends on device memory it also writes: one wave reads
// n = *trips, runs a loop of n trips (at least one), and stores n + 1 to *trips. Run twice on the same
// buffer it executes more instructions the second time. tests/engine/tst_counter_passes derives the
// counts from this text: every v_ instruction from the label to s_endpgm counts once per wave, those
// between .Lvalu_trips_body and the s_cbranch that closes the loop once per trip.
// Kernarg {uint32_t* trips} in s[0:1]; v0 the work-item id x.
  .text
  .globl valu_trips
  .p2align 8
  .type valu_trips,@function
valu_trips:
  s_load_dwordx2 s[2:3], s[0:1], 0
  s_waitcnt lgkmcnt(0)
  s_load_dword s4, s[2:3], 0
  v_mov_b32 v1, 0
  s_mov_b32 s5, 0
  s_waitcnt lgkmcnt(0)
.Lvalu_trips_body:
  v_add_u32 v1, v1, v0
  v_xor_b32 v1, v1, v0
  s_add_u32 s5, s5, 1
  s_cmp_lt_u32 s5, s4
  s_cbranch_scc1 .Lvalu_trips_body
  s_add_u32 s4, s4, 1
  v_mov_b32 v2, s4
  v_mov_b32 v3, 0
  global_store_dword v3, v2, s[2:3]
  s_waitcnt vmcnt(0)
  s_endpgm

  .rodata
  .p2align 6
  .amdhsa_kernel valu_trips
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_kernarg_size 8
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
  .end_amdhsa_kernel

// The loader wants the code object's metadata note; the kernel needs nothing from it (its descriptor
// carries what the interpreter uses), so it lists none.
.amdgpu_metadata
---
amdhsa.version:
  - 1
  - 1
amdhsa.kernels: []
...
.end_amdgpu_metadata
