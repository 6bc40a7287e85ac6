// SPDX-License-Identifier: MIT
// An instruction the interpreter does not implement (s_set_gpr_idx_on, VGPR indexing mode): the
// dispatch must fail with a queue error naming it, and nothing after it may run.
.include "common.inc"

kbegin unimplemented
  v_mov_b32 v10, 1
  s_mov_b32 s30, 0
  s_set_gpr_idx_on s30, gpr_idx(SRC0)
  v_mov_b32 v10, v2
  s_set_gpr_idx_off
kend unimplemented
