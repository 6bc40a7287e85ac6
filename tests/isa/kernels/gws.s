// SPDX-License-Identifier: MIT
// Global wave sync (GWS) on resource 0 (M0 = 0), dispatched on the agent's cooperative queue.
.include "common.inc"

// ds_gws_init with in[0] (the first active lane's DATA0).
entry gws_init
  s_load_dwordx2 s[20:21], s[0:1], 0
  v_mov_b32 v1, 0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[20:21]
  s_waitcnt vmcnt(0)
  s_mov_b32 m0, 0
  ds_gws_init v2 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
descriptor gws_init

// A grid barrier between one-wave work-groups: work-group g writes mem[g] = g + 1, one lane waits at
// ds_gws_barrier with plane 0 (the work-groups minus one), then out[g] = mem[(g + 1) % n], n in
// plane 1: right only
// if no work-group passed the barrier before the next one wrote its value.
entry gws_exchange
  s_load_dwordx4 s[20:23], s[0:1], 0
  s_load_dwordx2 s[24:25], s[0:1], 16
  s_waitcnt lgkmcnt(0)
  s_load_dword s26, s[20:21], 0
  s_load_dword s27, s[20:21], 0x100
  s_lshl_b32 s28, s2, 2
  s_add_u32 s29, s2, 1
  s_mov_b64 exec, 1
  v_mov_b32 v2, s29
  v_mov_b32 v3, s28
  global_store_dword v3, v2, s[24:25]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_mov_b32 v4, s26
  s_mov_b32 m0, 0
  ds_gws_barrier v4 gds
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s29, s27
  s_cselect_b32 s30, 0, s29
  s_lshl_b32 s30, s30, 2
  v_mov_b32 v5, s30
  global_load_dword v6, v5, s[24:25]
  s_waitcnt vmcnt(0)
  global_store_dword v3, v6, s[22:23]
  s_waitcnt vmcnt(0)
  s_endpgm
descriptor gws_exchange
