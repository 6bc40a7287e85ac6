// SPDX-License-Identifier: MIT
// Vector floating point in f32 and f64: denormals kept and flushed, IEEE-mode min/max with NaN operands,
// VOP3 clamp and output modifiers, conversions with saturation, rounding, the transcendental special
// cases and the MODE register. f32: a = v2, b = v3, c = v4; f64: a = v[2:3], b = v[4:5], c = v[6:7].
.include "common.inc"

vk add_f32, "v_add_f32 v10, v2, v3"
vk add_f32_ftz, "v_add_f32 v10, v2, v3", d32=0
vk mul_f32, "v_mul_f32 v10, v2, v3"
vk mul_f32_ftz, "v_mul_f32 v10, v2, v3", d32=0
vk fma_f32, "v_fma_f32 v10, v2, v3, v4"
vk fmac_f32, "v_fmac_f32 v10, v2, v3"
vk mul_legacy_f32, "v_mul_legacy_f32 v10, v2, v3"
vk min_f32, "v_min_f32 v10, v2, v3"
vk max_f32, "v_max_f32 v10, v2, v3"
vk min_f32_noieee, "v_min_f32 v10, v2, v3", ieee=0
vk min3_f32, "v_min3_f32 v10, v2, v3, v4"
vk med3_f32, "v_med3_f32 v10, v2, v3, v4"
vk add_f32_clamp, "v_add_f32_e64 v10, v2, v3 clamp"
vk add_f32_clamp_nodx10, "v_add_f32_e64 v10, v2, v3 clamp", dx10=0
vk mul_f32_mul2, "v_mul_f32_e64 v10, v2, v3 mul:2"
vk mul_f32_div2, "v_mul_f32_e64 v10, v2, v3 div:2"
vk add_f32_neg_abs, "v_add_f32_e64 v10, -v2, |v3|"
vk cvt_i32_f32, "v_cvt_i32_f32 v10, v2"
vk cvt_u32_f32, "v_cvt_u32_f32 v10, v2"
vk cvt_f32_i32, "v_cvt_f32_i32 v10, v2"
vk cvt_f32_u32, "v_cvt_f32_u32 v10, v2"
vk cvt_rpi_i32_f32, "v_cvt_rpi_i32_f32 v10, v2"
vk cvt_flr_i32_f32, "v_cvt_flr_i32_f32 v10, v2"
vk cvt_f16_f32, "v_cvt_f16_f32 v10, v2"
vk cvt_f32_f16, "v_cvt_f32_f16 v10, v2"
vk cvt_pkrtz_f16_f32, "v_cvt_pkrtz_f16_f32 v10, v2, v3"
vk cvt_pknorm_u16_f32, "v_cvt_pknorm_u16_f32 v10, v2, v3"
vk cvt_pknorm_i16_f32, "v_cvt_pknorm_i16_f32 v10, v2, v3"
vk cvt_f32_ubyte1, "v_cvt_f32_ubyte1 v10, v2"
vk cvt_off_f32_i4, "v_cvt_off_f32_i4 v10, v2"
vk rndne_f32, "v_rndne_f32 v10, v2"
vk fract_f32, "v_fract_f32 v10, v2"
vk trunc_f32, "v_trunc_f32 v10, v2"
vk floor_f32, "v_floor_f32 v10, v2"
vk ceil_f32, "v_ceil_f32 v10, v2"
vk rcp_f32, "v_rcp_f32 v10, v2"
vk sqrt_f32, "v_sqrt_f32 v10, v2"
vk rsq_f32, "v_rsq_f32 v10, v2"
vk exp_f32, "v_exp_f32 v10, v2"
vk log_f32, "v_log_f32 v10, v2"
vk sin_f32, "v_sin_f32 v10, v2"
vk cos_f32, "v_cos_f32 v10, v2"
vk frexp_mant_f32, "v_frexp_mant_f32 v10, v2"
vk frexp_exp_i32_f32, "v_frexp_exp_i32_f32 v10, v2"
vk ldexp_f32, "v_ldexp_f32 v10, v2, v3"
vk ldexp_f32_ftz, "v_ldexp_f32 v10, v2, v3", d32=0
vk div_fixup_f32, "v_div_fixup_f32 v10, v2, v3, v4"
vk add_f32_literal, "v_add_f32 v10, 0x40490fdb, v2"
vk mul_f32_inline, "v_mul_f32 v10, 0.5, v2"

// MODE written at run time: f32 denormals flushed from here on.
kbegin setreg_ftz
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
  v_add_f32 v10, v2, v3
kend setreg_ftz

vk add_f64, "v_add_f64 v[10:11], v[2:3], v[4:5]"
vk add_f64_ftz, "v_add_f64 v[10:11], v[2:3], v[4:5]", d64=0
vk mul_f64, "v_mul_f64 v[10:11], v[2:3], v[4:5]"
vk fma_f64, "v_fma_f64 v[10:11], v[2:3], v[4:5], v[6:7]"
vk min_f64, "v_min_f64 v[10:11], v[2:3], v[4:5]"
vk max_f64, "v_max_f64 v[10:11], v[2:3], v[4:5]"
vk add_f64_clamp, "v_add_f64 v[10:11], v[2:3], v[4:5] clamp"
vk cvt_f32_f64, "v_cvt_f32_f64 v10, v[2:3]"
vk cvt_f64_f32, "v_cvt_f64_f32 v[10:11], v2"
vk cvt_f64_f32_ftz, "v_cvt_f64_f32 v[10:11], v2", d32=0
vk cvt_i32_f64, "v_cvt_i32_f64 v10, v[2:3]"
vk cvt_u32_f64, "v_cvt_u32_f64 v10, v[2:3]"
vk cvt_f64_i32, "v_cvt_f64_i32 v[10:11], v2"
vk cvt_f64_u32, "v_cvt_f64_u32 v[10:11], v2"
vk rndne_f64, "v_rndne_f64 v[10:11], v[2:3]"
vk fract_f64, "v_fract_f64 v[10:11], v[2:3]"
vk floor_f64, "v_floor_f64 v[10:11], v[2:3]"
vk ldexp_f64, "v_ldexp_f64 v[10:11], v[2:3], v4"
vk frexp_exp_i32_f64, "v_frexp_exp_i32_f64 v10, v[2:3]"
vk rcp_f64, "v_rcp_f64 v[10:11], v[2:3]"
vk sqrt_f64, "v_sqrt_f64 v[10:11], v[2:3]"
vk add_f64_inline, "v_add_f64 v[10:11], 1.0, v[2:3]"

// a / b the way LLVM divides correctly rounded with denormals kept: v_div_scale on both operands,
// Newton-Raphson steps on v_rcp, v_div_fmas and v_div_fixup (the quotient in v10, v[10:11]).
kbegin fdiv_f32
  v_div_scale_f32 v18, s[30:31], v3, v3, v2
  v_rcp_f32 v19, v18
  v_div_scale_f32 v20, vcc, v2, v3, v2
  v_fma_f32 v21, -v18, v19, 1.0
  v_fmac_f32 v19, v21, v19
  v_mul_f32 v21, v20, v19
  v_fma_f32 v22, -v18, v21, v20
  v_fmac_f32 v21, v22, v19
  v_fma_f32 v18, -v18, v21, v20
  v_div_fmas_f32 v18, v18, v19, v21
  v_div_fixup_f32 v10, v18, v3, v2
kend fdiv_f32
kbegin fdiv_f64
  v_div_scale_f64 v[18:19], s[30:31], v[4:5], v[4:5], v[2:3]
  v_rcp_f64 v[20:21], v[18:19]
  v_div_scale_f64 v[22:23], vcc, v[2:3], v[4:5], v[2:3]
  v_fma_f64 v[24:25], -v[18:19], v[20:21], 1.0
  v_fmac_f64 v[20:21], v[20:21], v[24:25]
  v_fma_f64 v[24:25], -v[18:19], v[20:21], 1.0
  v_fmac_f64 v[20:21], v[20:21], v[24:25]
  v_mul_f64 v[24:25], v[22:23], v[20:21]
  v_fma_f64 v[18:19], -v[18:19], v[24:25], v[22:23]
  v_div_fmas_f64 v[18:19], v[18:19], v[20:21], v[24:25]
  v_div_fixup_f64 v[10:11], v[18:19], v[4:5], v[2:3]
kend fdiv_f64
