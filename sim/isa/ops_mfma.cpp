// SPDX-License-Identifier: MIT
// Matrix fused multiply-add (VOP3P-MAI, v_mfma_*): D = A x B + C for each of a wave's blocks, the
// matrices spread over the lanes of its registers (CDNA2 ISA chapter 7, matrix arithmetic, and the
// VOP3P-MAI format of chapter 12). Where each element lives follows AMD's matrix instruction calculator
// for CDNA2, which states the ISA reference's layouts as formulas:
//  - A[i][k] of block b sits in lane i + M * (b + blocks * (k / P)), element k % P of that lane, where P
//    (elements per lane) is M * K * blocks / 64; elements pack from the low bits of the register (two
//    16-bit or four 8-bit ones a dword) and continue in the next register. B[k][j] alike with j for i.
//  - C and D: 32x32 shapes put D[i][j] of block b in register 16b + 4(i/8) + i%4, lane 32((i/4)%2) + j;
//    16x16 shapes in register 4b + i%4, lane 16(i/4) + j; 4x4 shapes in register i, lane 4b + j. The f64
//    shapes use register pairs: 16x16x4 pair i/4, lane 16(i%4) + j; 4x4x4 pair 0, lane 16i + 4b + j.
//  - CBSZ and ABID: blocks form groups of 2^CBSZ, and every block of a group takes its A from block ABID
//    of the group (ABID reduced modulo the group size). BLGP: B's lanes are read through one of eight
//    lane patterns (broadcasts of a half or a quarter of the wave, or a rotation by 16 lanes).
// gfx90a has no negation for MFMA: LLVM 19 prints a gfx90a f64 MFMA's BLGP bits as "blgp:N" (the
// "neg:[..]" form and its meaning of negated A, B, C belong to gfx940), and AMD's calculator lists BLGP
// as unsupported by CDNA2's f64 forms; the f64 forms here ignore BLGP, CBSZ and ABID.
// Arithmetic: every product is accumulated into D[i][j] in the order k = 0, 1, ... starting from C, each
// step one fused multiply-add rounded to the accumulator's type (f32 for f32, f16 and bf16 sources,
// whose products are exact in f32; f64; i32 wrapping). EXEC is not applied: MFMA writes every lane
// (compilers issue it with every lane on).
// Denormals: the f16 and bf16 forms flush denormal inputs (A, B, C) and results to zero on MI200
// whatever MODE says (ROCm's MIOpen documents this); the f32, f64 and i8 forms keep them.
#include "op_table.h"
#include "vector_alu.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace sim::isa {

namespace {

using V = ValueType;

/// The element type of A and B.
enum class Kind : uint8_t { f32, f16, bf16, i8, f64 };

/// What a kind accumulates in.
template <Kind T>
using Acc = std::conditional_t<T == Kind::f64, double, std::conditional_t<T == Kind::i8, uint32_t, float>>;

/// Elements of a kind in one 32-bit register (0: an f64 takes two registers).
template <Kind T>
constexpr int kPerDword = T == Kind::f32   ? 1
                          : T == Kind::i8  ? 4
                          : T == Kind::f64 ? 0
                                           : 2;

/// Rows (64 lanes each) of `count` consecutive registers of operand `o`. A constant fills `scratch`: a
/// 64-bit one (`wide`) gives every register pair its two dwords, a 32-bit one every register its value.
void operand_rows(Wave& w, const Operand& o, int count, bool wide, Lanes* scratch, const uint32_t** rows) {
    if (o.kind == OperandKind::vgpr || o.kind == OperandKind::agpr) {
        for (int r = 0; r < count; ++r) {
            const auto index = static_cast<uint16_t>(o.index + r);
            rows[r] = o.kind == OperandKind::vgpr ? w.v(index) : w.a(index);
        }
        return;
    }
    for (int part = 0; part < (wide ? 2 : 1); ++part) {
        const uint32_t value = read_scalar32(w, o, part);
        for (int lane = 0; lane < kLanes; ++lane) {
            scratch[part].v[lane] = value;
        }
    }
    for (int r = 0; r < count; ++r) {
        rows[r] = scratch[wide ? r % 2 : 0].v;
    }
}

/// f32 bits with a denormal turned into a zero of its sign.
uint32_t flush_f32(uint32_t x) {
    return (x & 0x7f800000u) == 0 ? x & 0x80000000u : x;
}

/// Element `t` of lane `lane` of a source whose registers are `rows`, converted to the accumulator type
/// (f16 and bf16 denormals flushed to a signed zero).
template <Kind T>
Acc<T> element(const uint32_t* const* rows, int lane, int t) {
    if constexpr (T == Kind::f32) {
        return bit_cast<float>(rows[0][lane]);
    } else if constexpr (T == Kind::f64) {
        return bit_cast<double>(rows[0][lane] | static_cast<uint64_t>(rows[1][lane]) << 32);
    } else if constexpr (T == Kind::i8) {
        return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(rows[0][lane] >> (8 * t))));
    } else {
        auto h = static_cast<uint16_t>(rows[t / 2][lane] >> (16 * (t % 2)));
        if constexpr (T == Kind::f16) {
            // Without denormals the conversion only rebiases the exponent (infinities and NaNs keep their
            // payload, the quiet bit included).
            const uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
            return bit_cast<float>(exponent == 0    ? sign
                                   : exponent == 31 ? sign | 0x7f800000u | mantissa << 13
                                                    : sign | (exponent + 112) << 23 | mantissa << 13);
        } else {
            h = (h & 0x7f80) == 0 ? static_cast<uint16_t>(h & 0x8000) : h;
            return bit_cast<float>(static_cast<uint32_t>(h) << 16);
        }
    }
}

/// The lane whose B value lane `lane` reads under BLGP `blgp`.
constexpr int blgp_lane(int lane, int blgp) {
    switch (blgp) {
    case 1: // the first 32 lanes to both halves
        return lane % 32;
    case 2: // the second 32 lanes to both halves
        return 32 + lane % 32;
    case 3: // rotate down by 16 lanes
        return (lane + 16) % 64;
    case 4:
    case 5:
    case 6:
    case 7: // one quarter of the wave to every quarter
        return 16 * (blgp - 4) + lane % 16;
    default:
        return lane;
    }
}

/// Register (of 32-bit elements; the f64 shapes: of the element's low dword) and lane of D[i][j] of
/// block `b`, for an M x M shape.
template <Kind T, int M>
constexpr void place(int b, int i, int j, int& reg, int& lane) {
    if constexpr (T == Kind::f64) {
        reg = M == 16 ? 2 * (i / 4) : 0;
        lane = M == 16 ? 16 * (i % 4) + j : 16 * i + 4 * b + j;
    } else if constexpr (M == 32) {
        reg = 16 * b + 4 * (i / 8) + i % 4;
        lane = 32 * ((i / 4) % 2) + j;
    } else if constexpr (M == 16) {
        reg = 4 * b + i % 4;
        lane = 16 * (i / 4) + j;
    } else {
        reg = i;
        lane = 4 * b + j;
    }
}

/// d[j] = fma(a, b[j], d[j]) for j < n, each rounded once to f32 (V_FMA_F32's rounding). As fma_lanes
/// (vector_alu.h): the product is exact in double and the sum rounds once there; rounding to float again
/// is exact unless the double sits halfway between two floats or below the normal float range, where the
/// element takes the library's fmaf. The first loop vectorises; the second rarely calls.
void fma_row_portable(float a, const float* b, float* d, int n) {
    uint64_t bits[32];
    float old[32];
    for (int j = 0; j < n; ++j) {
        const double x = static_cast<double>(a) * static_cast<double>(b[j]) + static_cast<double>(d[j]);
        bits[j] = bit_cast<uint64_t>(x);
        old[j] = d[j];
        d[j] = static_cast<float>(x);
    }
    for (int j = 0; j < n; ++j) {
        const uint64_t exponent = (bits[j] >> 52) & 0x7ff;
        if ((bits[j] & 0x1fffffffull) == 0x10000000ull || (exponent < 1023 - 126 && (bits[j] << 1) != 0)) {
            d[j] = std::fma(a, b[j], old[j]);
        }
    }
}

/// d[j] += a * b[j] for j < n in wrapping 32-bit integers, and d[j] = fma(a, b[j], d[j]) rounded once in
/// f64 (the library's fma).
void fma_row_portable(uint32_t a, const uint32_t* b, uint32_t* d, int n) {
    for (int j = 0; j < n; ++j) {
        d[j] += a * b[j];
    }
}
void fma_row_portable(double a, const double* b, double* d, int n) {
    for (int j = 0; j < n; ++j) {
        d[j] = std::fma(a, b[j], d[j]);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
/// The rows with AVX2 and the processor's fused multiply-add (FMA3), several elements an instruction and
/// the same roundings: the build targets plain x86-64, so these clones are chosen at run time where the
/// processor has both.
template <typename A>
__attribute__((target("avx2,fma"))) void fma_row_avx2(A a, const A* b, A* d, int n) {
    for (int j = 0; j < n; ++j) {
        if constexpr (std::is_integral_v<A>) {
            d[j] += a * b[j];
        } else {
            d[j] = std::fma(a, b[j], d[j]);
        }
    }
}
/// Whether the processor has AVX2 and FMA3.
bool has_avx2_fma() {
    __builtin_cpu_init(); // this may run before the library's own constructors
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
const bool kHasAvx2Fma = has_avx2_fma();
#else
constexpr bool kHasAvx2Fma = false;
template <typename A>
void fma_row_avx2(A, const A*, A*, int) {}
#endif

/// d[j] = a * b[j] + d[j] for j < n in the accumulator type A, one rounding per element.
template <typename A>
void fma_row(A a, const A* b, A* d, int n) {
    if (kHasAvx2Fma) {
        fma_row_avx2(a, b, d, n);
    } else {
        fma_row_portable(a, b, d, n);
    }
}

/// One MFMA of element kind T, shape M x M x K, `Blocks` blocks: gathers A, B and C into dense matrices,
/// multiplies block by block with plain loops, and scatters D into the destination registers.
template <Kind T, int M, int K, int Blocks>
void mfma(Wave& w, const Instruction& in) {
    using A = Acc<T>;
    constexpr int kPer = M * K * Blocks / kLanes; // elements of A (and B) per lane
    constexpr int kSrcRegs = kPerDword<T> ? (kPer + kPerDword<T> - 1) / kPerDword<T> : 2;
    constexpr int kDstRegs = M * M * Blocks * (T == Kind::f64 ? 2 : 1) / kLanes;
    static_assert(kPer * kLanes == M * K * Blocks && kDstRegs <= 32);

    Lanes scratch[2];
    const uint32_t* rows[2];
    alignas(64) A a[Blocks * M * K]; // a[b][i][k]
    alignas(64) A b[Blocks * K * M]; // b[b][k][j]
    operand_rows(w, in.src[0], kSrcRegs, T == Kind::f64, scratch, rows);
    for (int lane = 0; lane < kLanes; ++lane) {
        const int i = lane % M, g = lane / M, block = g % Blocks, k0 = g / Blocks * kPer;
        for (int t = 0; t < kPer; ++t) {
            a[(block * M + i) * K + k0 + t] = element<T>(rows, lane, t);
        }
    }
    const int blgp = T == Kind::f64 ? 0 : in.blgp;
    operand_rows(w, in.src[1], kSrcRegs, T == Kind::f64, scratch, rows);
    for (int lane = 0; lane < kLanes; ++lane) {
        const int j = lane % M, g = lane / M, block = g % Blocks, k0 = g / Blocks * kPer;
        const int from = blgp_lane(lane, blgp);
        for (int t = 0; t < kPer; ++t) {
            b[(block * K + k0 + t) * M + j] = element<T>(rows, from, t);
        }
    }

    // C into the accumulators d[b][i][j].
    alignas(64) A d[Blocks * M * M];
    {
        Lanes c_scratch[2];
        const uint32_t* c_rows[kDstRegs];
        operand_rows(w, in.src[2], kDstRegs, T == Kind::f64, c_scratch, c_rows);
        for (int block = 0; block < Blocks; ++block) {
            for (int i = 0; i < M; ++i) {
                for (int j = 0; j < M; ++j) {
                    int reg = 0, lane = 0;
                    place<T, M>(block, i, j, reg, lane);
                    A& x = d[(block * M + i) * M + j];
                    if constexpr (T == Kind::f64) {
                        x = bit_cast<double>(c_rows[reg][lane] | static_cast<uint64_t>(c_rows[reg + 1][lane])
                                                                     << 32);
                    } else if constexpr (T == Kind::i8) {
                        x = c_rows[reg][lane];
                    } else if constexpr (T == Kind::f32) {
                        x = bit_cast<float>(c_rows[reg][lane]);
                    } else {
                        x = bit_cast<float>(flush_f32(c_rows[reg][lane]));
                    }
                }
            }
        }
    }

    // CBSZ / ABID: the block whose A each block multiplies.
    const int group = T == Kind::f64 ? 1 : (1 << in.cbsz) < Blocks ? 1 << in.cbsz : Blocks;
    const int abid = in.abid % group;
    for (int block = 0; block < Blocks; ++block) {
        const A* ab = a + (block / group * group + abid) * M * K;
        const A* bb = b + block * K * M;
        A* db = d + block * M * M;
        for (int k = 0; k < K; ++k) {
            for (int i = 0; i < M; ++i) {
                const A x = ab[i * K + k];
                A* row = db + i * M;
                const A* brow = bb + k * M;
                fma_row(x, brow, row, M);
            }
        }
    }

    // D into the destination registers, every lane.
    const Operand& dst = in.dst[0];
    if (dst.kind != OperandKind::vgpr && dst.kind != OperandKind::agpr) {
        fault(w, in, "MFMA destination is not a register range");
        return;
    }
    uint32_t* out[kDstRegs];
    for (int r = 0; r < kDstRegs; ++r) {
        const auto index = static_cast<uint16_t>(dst.index + r);
        out[r] = dst.kind == OperandKind::vgpr ? w.v(index) : w.a(index);
    }
    for (int block = 0; block < Blocks; ++block) {
        for (int i = 0; i < M; ++i) {
            for (int j = 0; j < M; ++j) {
                int reg = 0, lane = 0;
                place<T, M>(block, i, j, reg, lane);
                const A x = d[(block * M + i) * M + j];
                if constexpr (T == Kind::f64) {
                    const auto bits = bit_cast<uint64_t>(x);
                    out[reg][lane] = static_cast<uint32_t>(bits);
                    out[reg + 1][lane] = static_cast<uint32_t>(bits >> 32);
                } else if constexpr (T == Kind::i8) {
                    out[reg][lane] = x;
                } else if constexpr (T == Kind::f32) {
                    out[reg][lane] = bit_cast<uint32_t>(x);
                } else {
                    out[reg][lane] = flush_f32(bit_cast<uint32_t>(x));
                }
            }
        }
    }
}

void add(OpTable& t, const char* name, ExecuteFn fn, V c_type) {
    t.add({name,
           fn,
           Unit::mfma,
           1,
           {c_type == V::f64 ? V::f64 : V::b32, c_type == V::f64 ? V::f64 : V::b32, c_type, V::b32}});
}

} // namespace

void register_mfma_ops(OpTable& t) {
    add(t, "v_mfma_f32_32x32x1f32", mfma<Kind::f32, 32, 1, 2>, V::f32);
    add(t, "v_mfma_f32_16x16x1f32", mfma<Kind::f32, 16, 1, 4>, V::f32);
    add(t, "v_mfma_f32_4x4x1f32", mfma<Kind::f32, 4, 1, 16>, V::f32);
    add(t, "v_mfma_f32_32x32x2f32", mfma<Kind::f32, 32, 2, 1>, V::f32);
    add(t, "v_mfma_f32_16x16x4f32", mfma<Kind::f32, 16, 4, 1>, V::f32);
    add(t, "v_mfma_f32_32x32x4f16", mfma<Kind::f16, 32, 4, 2>, V::f32);
    add(t, "v_mfma_f32_16x16x4f16", mfma<Kind::f16, 16, 4, 4>, V::f32);
    add(t, "v_mfma_f32_4x4x4f16", mfma<Kind::f16, 4, 4, 16>, V::f32);
    add(t, "v_mfma_f32_32x32x8f16", mfma<Kind::f16, 32, 8, 1>, V::f32);
    add(t, "v_mfma_f32_16x16x16f16", mfma<Kind::f16, 16, 16, 1>, V::f32);
    add(t, "v_mfma_f32_32x32x2bf16", mfma<Kind::bf16, 32, 2, 2>, V::f32);
    add(t, "v_mfma_f32_16x16x2bf16", mfma<Kind::bf16, 16, 2, 4>, V::f32);
    add(t, "v_mfma_f32_4x4x2bf16", mfma<Kind::bf16, 4, 2, 16>, V::f32);
    add(t, "v_mfma_f32_32x32x4bf16", mfma<Kind::bf16, 32, 4, 1>, V::f32);
    add(t, "v_mfma_f32_16x16x8bf16", mfma<Kind::bf16, 16, 8, 1>, V::f32);
    add(t, "v_mfma_f32_32x32x4bf16_1k", mfma<Kind::bf16, 32, 4, 2>, V::f32);
    add(t, "v_mfma_f32_16x16x4bf16_1k", mfma<Kind::bf16, 16, 4, 4>, V::f32);
    add(t, "v_mfma_f32_4x4x4bf16_1k", mfma<Kind::bf16, 4, 4, 16>, V::f32);
    add(t, "v_mfma_f32_32x32x8bf16_1k", mfma<Kind::bf16, 32, 8, 1>, V::f32);
    add(t, "v_mfma_f32_16x16x16bf16_1k", mfma<Kind::bf16, 16, 16, 1>, V::f32);
    add(t, "v_mfma_i32_32x32x4i8", mfma<Kind::i8, 32, 4, 2>, V::b32);
    add(t, "v_mfma_i32_16x16x4i8", mfma<Kind::i8, 16, 4, 4>, V::b32);
    add(t, "v_mfma_i32_4x4x4i8", mfma<Kind::i8, 4, 4, 16>, V::b32);
    add(t, "v_mfma_i32_32x32x8i8", mfma<Kind::i8, 32, 8, 1>, V::b32);
    add(t, "v_mfma_i32_16x16x16i8", mfma<Kind::i8, 16, 16, 1>, V::b32);
    add(t, "v_mfma_f64_16x16x4f64", mfma<Kind::f64, 16, 4, 1>, V::f64);
    add(t, "v_mfma_f64_4x4x4f64", mfma<Kind::f64, 4, 4, 4>, V::f64);
}

} // namespace sim::isa
