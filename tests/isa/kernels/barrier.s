// SPDX-License-Identifier: MIT
// s_barrier across the four waves of a 256-lane work-group, exchanging values through LDS; out planes
// are 256 lanes wide here (out[id], out[256 + id]).
.include "common.inc"

.macro barrier_descriptor name
  descriptor \name, lds=1024
.endm

// Phase 1: LDS[id] = id + 1, barrier, out[id] = LDS[(id + 64) % 256] (written by the next wave).
// Phase 2 after a second barrier: LDS[id] = id + 1000, barrier, out[256 + id] = LDS[id ^ 128].
entry barrier_exchange
  s_load_dwordx4 s[20:23], s[0:1], 0
  v_lshlrev_b32 v1, 2, v0
  v_add_u32 v2, 1, v0
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_u32 v3, 64, v0
  v_and_b32 v3, 0xff, v3
  v_lshlrev_b32 v3, 2, v3
  ds_read_b32 v10, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_u32 v2, 0x3e8, v0
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_xor_b32 v3, 0x200, v1
  ds_read_b32 v11, v3
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v10, s[22:23]
  global_store_dword v1, v11, s[22:23] offset:1024
  s_waitcnt vmcnt(0)
  s_endpgm
barrier_descriptor barrier_exchange

// The last wave (ids 192-255) ends before the barrier: the other three are released without it.
// out[id] = LDS[(id + 64) % 192] for id < 192.
entry barrier_early_end
  s_load_dwordx4 s[20:23], s[0:1], 0
  v_readfirstlane_b32 s30, v0
  s_cmp_ge_u32 s30, 0xc0
  s_cbranch_scc1 .Lend
  v_lshlrev_b32 v1, 2, v0
  v_add_u32 v2, 1, v0
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_u32 v3, 64, v0
  v_cmp_le_u32 vcc, 0xc0, v3
  v_subrev_u32 v4, 0xc0, v3
  v_cndmask_b32 v3, v3, v4, vcc
  v_lshlrev_b32 v3, 2, v3
  ds_read_b32 v10, v3
  s_waitcnt lgkmcnt(0)
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v10, s[22:23]
  s_waitcnt vmcnt(0)
.Lend:
  s_endpgm
barrier_descriptor barrier_early_end
