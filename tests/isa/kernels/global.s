// SPDX-License-Identifier: MIT
// Global and flat memory: loads and stores of every width, saddr and 64-bit vaddr forms, negative
// offsets, stores under EXEC, flat accesses to global memory and to LDS through the shared aperture,
// and atomics (integer, 64-bit, f32 / packed f16 / f64). mem = s[24:25], filled by the test.
// a = v2, b = v3, c = v4, d = v5; plane 6 (v8) != 0 enables a lane for the masked store.
.include "common.inc"

// v[10:11] = mem[2i], mem[2i + 1] (global_load_dwordx2); v12 / v13 = byte 3 of mem[i] zero- / sign-
// extended; v14 = the high half of mem[i] sign-extended; v15 = old with its high half from the low half
// of mem[i] (global_load_short_d16_hi); v16 = mem[64 + i] through a 64-bit address (vaddr, off);
// v17 = mem[i + 1] through flat_load_dword.
kbegin global_loads
  v_lshlrev_b32 v18, 3, v0
  global_load_dwordx2 v[10:11], v18, s[24:25]
  global_load_ubyte v12, v1, s[24:25] offset:3
  global_load_sbyte v13, v1, s[24:25] offset:3
  global_load_sshort v14, v1, s[24:25] offset:2
  global_load_short_d16_hi v15, v1, s[24:25]
  v_mov_b32 v19, s25
  v_add_co_u32 v18, vcc, s24, v1
  v_addc_co_u32 v19, vcc, 0, v19, vcc
  global_load_dword v16, v[18:19], off offset:256
  flat_load_dword v17, v[18:19] offset:4
  s_waitcnt vmcnt(0) lgkmcnt(0)
kend global_loads

// Stores into mem (the test checks mem): byte 1 of mem[i] = a; the high half of mem[64 + i] = a >> 16;
// mem[128 + 2i], mem[129 + 2i] = a, b (dwordx2); mem[256 + i] = b (flat, 64-bit address); mem[320 + i]
// = d through a negative offset; mem[384 + i] = c for enabled lanes only.
kbegin global_stores
  global_store_byte v1, v2, s[24:25] offset:1
  global_store_short_d16_hi v1, v2, s[24:25] offset:258
  v_lshlrev_b32 v18, 3, v0
  global_store_dwordx2 v18, v[2:3], s[24:25] offset:512
  v_mov_b32 v19, s25
  v_add_co_u32 v18, vcc, s24, v1
  v_addc_co_u32 v19, vcc, 0, v19, vcc
  flat_store_dword v[18:19], v3 offset:1024
  v_add_u32 v20, 0x508, v1
  global_store_dword v20, v5, s[24:25] offset:-8
  v_cmp_ne_u32 vcc, 0, v8
  s_and_saveexec_b64 s[30:31], vcc
  global_store_dword v1, v4, s[24:25] offset:1536
  s_waitcnt vmcnt(0)
kend global_stores

// Flat addresses in the shared aperture reach LDS: v10 = a stored by flat, read by ds_read_b32;
// v11 = b stored by ds_write_b32, read by flat_load_dword.
kbegin flat_lds
  v_mov_b32 v19, src_shared_base
  v_mov_b32 v18, v1
  flat_store_dword v[18:19], v2
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ds_read_b32 v10, v1
  ds_write_b32 v1, v3 offset:256
  s_waitcnt lgkmcnt(0)
  v_add_u32 v18, 0x100, v1
  flat_load_dword v11, v[18:19]
  s_waitcnt vmcnt(0) lgkmcnt(0)
kend flat_lds, lds=512

// Every lane on one address each: mem[0] += 1 (no return); mem[1] += 1 returning the prior value
// (v10); mem[2] = umax(a); mem[3] += 0.5f; mem[4] += {1.0h, 2.0h} (packed f16); mem[6:7] += 0.25
// (f64); mem[8:9] = max of {a, b} as doubles, mem[10:11] = their min; mem[12] = inc with limit 9;
// mem[13] += 1 through flat; mem[14:15] += 0xffffffff (64-bit).
kbegin global_atomics_shared
  v_mov_b32 v18, 0
  v_mov_b32 v19, 1
  global_atomic_add v18, v19, s[24:25]
  global_atomic_add v10, v18, v19, s[24:25] offset:4 glc
  global_atomic_umax v18, v2, s[24:25] offset:8
  v_mov_b32 v20, 0.5
  global_atomic_add_f32 v18, v20, s[24:25] offset:12
  v_mov_b32 v20, 0x40003c00
  global_atomic_pk_add_f16 v18, v20, s[24:25] offset:16
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0x3fd00000
  global_atomic_add_f64 v18, v[20:21], s[24:25] offset:24
  global_atomic_max_f64 v18, v[2:3], s[24:25] offset:32
  global_atomic_min_f64 v18, v[2:3], s[24:25] offset:40
  v_mov_b32 v20, 9
  global_atomic_inc v18, v20, s[24:25] offset:48
  v_mov_b32 v23, s25
  v_mov_b32 v22, s24
  flat_atomic_add v[22:23], v19 offset:52
  v_mov_b32 v20, -1
  v_mov_b32 v21, 0
  global_atomic_add_x2 v18, v[20:21], s[24:25] offset:56
  s_waitcnt vmcnt(0) lgkmcnt(0)
kend global_atomics_shared

// One address per lane, mem[64 + i] = a and mem[128 + 2i .. 129 + 2i] = {a, b} beforehand; each atomic
// returns the prior value: v10 = global_atomic_cmpswap at mem[64 + i] (store c if the value is b);
// v[12:13] = global_atomic_cmpswap_x2 at mem[128 + 2i] (store {c, d} if the value is {e, f}); v14 =
// global_atomic_smin of b at mem[320 + i] (= a, through a negative offset); v15 = global_atomic_sub of 1
// at mem[448 + i] (= a); v16 = global_atomic_swap of d at mem[256 + i] (= a).
kbegin global_atomics_lane
  v_mov_b32 v18, v4
  v_mov_b32 v19, v3
  global_atomic_cmpswap v10, v1, v[18:19], s[24:25] offset:256 glc
  v_lshlrev_b32 v26, 3, v0
  v_mov_b32 v20, v4
  v_mov_b32 v21, v5
  v_mov_b32 v22, v6
  v_mov_b32 v23, v7
  global_atomic_cmpswap_x2 v[12:13], v26, v[20:23], s[24:25] offset:512 glc
  v_add_u32 v27, 0x600, v1
  global_atomic_smin v14, v27, v3, s[24:25] offset:-256 glc
  v_mov_b32 v19, 1
  global_atomic_sub v15, v1, v19, s[24:25] offset:1792 glc
  global_atomic_swap v16, v1, v5, s[24:25] offset:1024 glc
  s_waitcnt vmcnt(0)
kend global_atomics_lane

// MUBUF range checking with a buffer resource over mem built here: s[28:31] = raw buffer (stride 0) of
// 256 bytes; s[32:35] = 16 records of 8 bytes. v10 = buffer_load_dword at 128 + 4i (0 from 256 bytes
// on); a buffer_store_dword at 256 + 4i is dropped (mem[64 + i] keeps its value); v11 =
// buffer_load_dword of record i (idxen): mem[2i] for i < 16, else 0; v12 = the same record read at
// offset 4 (mem[2i + 1]).
kbegin buffer_range
  s_mov_b32 s28, s24
  s_and_b32 s29, s25, 0xffff
  s_movk_i32 s30, 0x100
  s_mov_b32 s31, 0
  s_mov_b32 s32, s24
  s_or_b32 s33, s29, 0x80000
  s_mov_b32 s34, 16
  s_mov_b32 s35, 0
  buffer_load_dword v10, v1, s[28:31], 0 offen offset:128
  buffer_store_dword v2, v1, s[28:31], 0 offen offset:256
  buffer_load_dword v11, v0, s[32:35], 0 idxen
  buffer_load_dword v12, v0, s[32:35], 0 idxen offset:4
  s_waitcnt vmcnt(0)
kend buffer_range
