// SPDX-License-Identifier: MIT
// Kernels whose hardware counts tst_sim_aqlprofile derives from this very text: it reads each kernel's
// lines from its label to s_endpgm, counts the instructions by class, and multiplies the lines between
// the label .L<kernel>_body and the s_cbranch that closes the loop by the loop's trip count.
// Kernarg pointer in s[0:1]; work-group id x in s2 where enabled; v0 the work-item id x.

// kernarg {uint32_t iterations}: a do-while loop of `iterations` trips (at least one).
  .text
  .globl count_loop
  .p2align 8
  .type count_loop,@function
count_loop:
  s_load_dword s2, s[0:1], 0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0
  s_mov_b32 s3, 0
.Lcount_loop_body:
  v_add_u32 v1, v1, v0
  v_mul_lo_u32 v2, v1, v1
  v_xor_b32 v1, v1, v2
  s_add_u32 s3, s3, 1
  s_cmp_lt_u32 s3, s2
  s_cbranch_scc1 .Lcount_loop_body
  v_mov_b32 v3, v1
  s_endpgm

// kernarg {const float* in; float* out}: out[i] = in[i] for a grid of 256-wide work-groups.
  .globl copy_floats
  .p2align 8
  .type copy_floats,@function
copy_floats:
  s_load_dwordx4 s[4:7], s[0:1], 0
  s_lshl_b32 s3, s2, 8
  v_add_u32 v1, s3, v0
  v_lshlrev_b32 v1, 2, v1
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm

// kernarg {uint32_t stride}: lane i writes and reads back the LDS dword at byte i * stride.
  .globl lds_strided
  .p2align 8
  .type lds_strided,@function
lds_strided:
  s_load_dword s2, s[0:1], 0
  s_waitcnt lgkmcnt(0)
  v_mul_lo_u32 v1, v0, s2
  ds_write_b32 v1, v0
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  s_endpgm

  .rodata
  .p2align 6
  .amdhsa_kernel count_loop
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_kernarg_size 8
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
  .end_amdhsa_kernel
  .amdhsa_kernel copy_floats
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_kernarg_size 16
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
  .end_amdhsa_kernel
  .amdhsa_kernel lds_strided
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_kernarg_size 8
    .amdhsa_group_segment_fixed_size 16384
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
  .end_amdhsa_kernel

// The loader wants the code object's metadata note; the kernels need nothing from it (their descriptors
// carry what the interpreter uses), so it lists none.
.amdgpu_metadata
---
amdhsa.version:
  - 1
  - 1
amdhsa.kernels: []
...
.end_amdgpu_metadata
