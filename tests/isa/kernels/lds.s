// SPDX-License-Identifier: MIT
// LDS (DS instructions) with 4096 bytes allocated: reads and writes of every width, the two-address
// forms, addresses at the end of the allocation and past it (reads 0, writes dropped, no wrap to 0),
// the cross-lane ds_swizzle_b32 / ds_permute_b32 / ds_bpermute_b32, and LDS atomics.
// a = v2, b = v3, c = v4, d = v5 (plane 3), e = v6; v1 = 4 * lane.
.include "common.inc"

.macro lds_end name
  kend \name, lds=4096
.endm

// v10 = b, v11 = c of lane ^ 1, v12 / v13 = d, a (ds_read2_b32), v[14:15] = {a, b} (ds_read_b64 of what
// ds_write2_b64 wrote), v16 / v17 = c and b (ds_read2_b64 of two 8-byte elements).
kbegin lds_read_write
  ds_write_b32 v1, v2
  ds_write_b32 v1, v3 offset:256
  ds_write2_b32 v1, v4, v5 offset0:128 offset1:192
  v_lshlrev_b32 v18, 3, v0
  v_add_u32 v18, 0x600, v18
  ds_write_b64 v18, v[2:3]
  ds_write2_b64 v18, v[4:5], v[2:3] offset0:64 offset1:128
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v10, v1 offset:256
  v_xor_b32 v19, 4, v1
  ds_read_b32 v11, v19 offset:512
  ds_read2_b32 v[12:13], v1 offset0:192 offset1:0
  ds_read_b64 v[14:15], v18 offset:1024
  ds_read2_b64 v[20:23], v18 offset0:64 offset1:0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v16, v20
  v_mov_b32 v17, v23
lds_end lds_read_write

// Bytes and halves: [4i] = a, then byte 1 = b, bytes 2-3 = b >> 16. v10 = the dword, v11 = ds_read_i8
// of byte 1, v12 = ds_read_u16 of bytes 2-3, v13 = ds_read_u16_d16_hi of bytes 0-1 (low half of the old
// value kept), v14 = ds_read_i16 of bytes 2-3, v15 = ds_read_u8_d16 of byte 1 (high half kept).
kbegin lds_sub_dword
  ds_write_b32 v1, v2
  ds_write_b8 v1, v3 offset:1
  ds_write_b16_d16_hi v1, v3 offset:2
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v10, v1
  ds_read_i8 v11, v1 offset:1
  ds_read_u16 v12, v1 offset:2
  ds_read_u16_d16_hi v13, v1
  ds_read_i16 v14, v1 offset:2
  ds_read_u8_d16 v15, v1 offset:1
  s_waitcnt lgkmcnt(0)
lds_end lds_sub_dword

// The last 512 bytes: v18 = 3584 + 4i. [3840 + 4i] = a, [4i] = b, a write to [4096 + 4i] (past the end)
// is dropped and must not land on [4i]; ds_write2st64_b32 writes [3584 + 4i] = d and drops [4096 + 4i].
// v10 / v11 = ds_read2st64_b32 of [3840 + 4i] (a) and [4096 + 4i] (0), v12 = [4i] (b), v13 = [3584 + 4i]
// (d), v[14:15] = ds_read_b64 of [4088] by every lane (a of lanes 62 and 63), v16 = ds_read_b32 past
// the end (0).
kbegin lds_end_of_allocation
  v_add_u32 v18, 0xe00, v1
  ds_write_b32 v18, v2 offset:256
  ds_write_b32 v1, v3
  s_waitcnt lgkmcnt(0)
  ds_write_b32 v18, v4 offset:512
  ds_write2st64_b32 v18, v5, v6 offset0:0 offset1:2
  s_waitcnt lgkmcnt(0)
  ds_read2st64_b32 v[10:11], v18 offset0:1 offset1:2
  ds_read_b32 v12, v1
  ds_read_b32 v13, v18
  v_mov_b32 v19, 0xff8
  ds_read_b64 v[14:15], v19
  ds_read_b32 v16, v18 offset:516
  s_waitcnt lgkmcnt(0)
lds_end lds_end_of_allocation

kbegin lds_swizzle
  ds_swizzle_b32 v10, v2 offset:swizzle(QUAD_PERM,3,2,1,0)
  ds_swizzle_b32 v11, v2 offset:swizzle(BITMASK_PERM,"01pip")
  ds_swizzle_b32 v12, v2 offset:swizzle(SWAP,16)
  ds_swizzle_b32 v13, v2 offset:swizzle(REVERSE,8)
  ds_swizzle_b32 v14, v2 offset:swizzle(BROADCAST,8,3)
  s_waitcnt lgkmcnt(0)
lds_end lds_swizzle

// v10 = ds_permute to lane 63 - i; v11 = ds_bpermute from lane 63 - i; v12 = from lane (i + 65) % 64
// (the address wraps at 64 lanes); v13 = from lane i + 2 through the instruction offset.
kbegin lds_permute
  v_sub_u32 v18, 0xfc, v1
  ds_permute_b32 v10, v18, v2
  ds_bpermute_b32 v11, v18, v2
  v_add_u32 v19, 0x104, v1
  ds_bpermute_b32 v12, v19, v2
  ds_bpermute_b32 v13, v1, v2 offset:8
  s_waitcnt lgkmcnt(0)
lds_end lds_permute

// Every lane on one address: [0] = 100 then ds_add_rtn_u32 1 (v10 = the value each lane saw, v11 =
// the final 164); [4] = 0x80000000 then ds_max_i32 of a (v12 = the final maximum); [8] = 0 then
// ds_inc_rtn_u32 with limit 9 (v13 = the final 64 % 10 = 4); [12] = 0 then ds_add_f32 0.5 (v14 = 32.0);
// [16] = -1 then ds_and_b32 of ~(1 << (i % 32)) (v15 = 0).
kbegin lds_atomics_shared
  v_mov_b32 v18, 0
  v_mov_b32 v19, 100
  ds_write_b32 v18, v19
  v_bfrev_b32 v19, 1
  ds_write_b32 v18, v19 offset:4
  v_mov_b32 v19, 0
  ds_write_b32 v18, v19 offset:8
  ds_write_b32 v18, v19 offset:12
  v_mov_b32 v19, -1
  ds_write_b32 v18, v19 offset:16
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v19, 1
  ds_add_rtn_u32 v10, v18, v19
  ds_max_i32 v18, v2 offset:4
  v_mov_b32 v19, 9
  ds_inc_rtn_u32 v20, v18, v19 offset:8
  v_mov_b32 v19, 0.5
  ds_add_f32 v18, v19 offset:12
  v_and_b32 v19, 31, v0
  v_bfm_b32 v19, 1, v19
  v_not_b32 v19, v19
  ds_and_b32 v18, v19 offset:16
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v11, v18
  ds_read_b32 v12, v18 offset:4
  ds_read_b32 v13, v18 offset:8
  ds_read_b32 v14, v18 offset:12
  ds_read_b32 v15, v18 offset:16
  s_waitcnt lgkmcnt(0)
lds_end lds_atomics_shared

// One address per lane, each starting as a: v10 / v11 = ds_cmpst_rtn_b32 (compare b, store c): the
// value returned and the memory after; v12 = ds_mskor_b32 (mask b, or c) result; v13 / v14 =
// ds_wrxchg_rtn_b32 of c: returned and memory; v15 = ds_dec_rtn_u32 of limit b: memory after;
// v[16:17] = ds_add_rtn_u64 of {c, d} to {a, b}: memory after.
kbegin lds_atomics_lane
  v_add_u32 v18, 0x100, v1
  v_add_u32 v19, 0x200, v1
  v_add_u32 v20, 0x300, v1
  v_add_u32 v21, 0x400, v1
  v_lshlrev_b32 v22, 3, v0
  v_add_u32 v22, 0x800, v22
  ds_write_b32 v18, v2
  ds_write_b32 v19, v2
  ds_write_b32 v20, v2
  ds_write_b32 v21, v2
  ds_write_b64 v22, v[2:3]
  s_waitcnt lgkmcnt(0)
  ds_cmpst_rtn_b32 v10, v18, v3, v4
  ds_mskor_b32 v19, v3, v4
  ds_wrxchg_rtn_b32 v13, v20, v4
  ds_dec_rtn_u32 v24, v21, v3
  ds_add_rtn_u64 v[26:27], v22, v[4:5]
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v11, v18
  ds_read_b32 v12, v19
  ds_read_b32 v14, v20
  ds_read_b32 v15, v21
  ds_read_b64 v[16:17], v22
  s_waitcnt lgkmcnt(0)
lds_end lds_atomics_lane

// f64 LDS atomics (gfx90a): [8i] = {a, b} as a double, ds_add_rtn_f64 of {c, d}; v[10:11] returned,
// v[12:13] after; ds_max_f64 / ds_min_f64 at [512 + 8i] from {a, b} with {c, d}: v[14:15] after max,
// then min of the same operand again leaves it: v[16:17].
kbegin lds_atomics_f64
  v_lshlrev_b32 v18, 3, v0
  ds_write_b64 v18, v[2:3]
  ds_write_b64 v18, v[2:3] offset:512
  s_waitcnt lgkmcnt(0)
  ds_add_rtn_f64 v[10:11], v18, v[4:5]
  ds_max_f64 v18, v[4:5] offset:512
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[12:13], v18
  ds_read_b64 v[14:15], v18 offset:512
  ds_min_f64 v18, v[4:5] offset:512
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[16:17], v18 offset:512
  s_waitcnt lgkmcnt(0)
lds_end lds_atomics_f64

// Under EXEC (plane 6 != 0 enables a lane), with lane i ^ 1 as the partner: v10 = ds_bpermute_b32 (a
// disabled source lane reads 0), v11 = ds_permute_b32 (a disabled lane sends nothing); disabled lanes
// keep the old value.
kbegin lds_permute_exec
  v_cmp_ne_u32 vcc, 0, v8
  s_and_saveexec_b64 s[30:31], vcc
  v_xor_b32 v18, 4, v1
  ds_bpermute_b32 v10, v18, v2
  ds_permute_b32 v11, v18, v2
  s_waitcnt lgkmcnt(0)
lds_end lds_permute_exec
