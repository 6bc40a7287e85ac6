// SPDX-License-Identifier: MIT
/*
 * The gfx90a interpreter's matrix fused multiply-add (v_mfma_*, kernels/mfma.s): every element of D of
 * each type and shape family against a reference written here from the CDNA2 ISA reference's matrix
 * chapter, not computed by the interpreter's code. The frame is tst_isa_instructions' (isa_kernel_suite.h).
 */
#include "isa_kernel_suite.h"

#include <QTest>

#include <cmath>
#include <cstring>

using namespace rs_test;
using namespace rs_test::isa;

namespace {

/// The element types of an MFMA's A and B (kernels/mfma.s).
enum MfmaType : int { kMfmaF32, kMfmaF16, kMfmaBf16, kMfmaI8, kMfmaF64 };

/// An MFMA's shape: M x N x K with M = N, `blocks` blocks, and its broadcast controls.
struct MfmaShape {
    int type, m, k, blocks, cbsz, abid, blgp;
    /// Elements of A (and of B) that one lane holds.
    int per_lane() const { return m * k * blocks / kLanes; }
    /// 32-bit registers of C and D.
    int d_registers() const { return m * m * blocks * (type == kMfmaF64 ? 2 : 1) / kLanes; }
};

/// Bits of a small float (a multiple of 1/4 or 1/8, so that every product and sum of a test is exact)
/// in f16 and bf16.
uint32_t f16_bits(float x) {
    return std::bit_cast<uint16_t>(static_cast<_Float16>(x));
}
uint32_t bf16_bits(float x) {
    return std::bit_cast<uint32_t>(x) >> 16; // exact: the values have few significant bits
}

/// A small value from `seed`: a multiple of `step` in [-16 step, 16 step].
float small(uint32_t seed, float step) {
    return (static_cast<int>(seed % 33) - 16) * step;
}

/// Input plane `plane` (0-1: A, 2-3: B) of lane `lane` for an MFMA of `type`; `denormal_a`: every element
/// of A a denormal, every element of B large.
uint32_t mfma_input(int type, int plane, int lane, bool denormal_a) {
    const uint32_t seed = mix(plane, lane);
    if (denormal_a) {
        // A: the smallest denormal (2^-24 in f16, 2^-133 in bf16); B: 2^15 in f16, 2^127 in bf16, so that
        // a product that is not flushed shows in the sum.
        const uint32_t sign = plane < 2 && (lane & 1) ? 0x8000 : 0;
        const uint32_t h = (plane < 2 ? 0x0001 : type == kMfmaF16 ? 0x7800 : 0x7f00) | sign;
        return h | h << 16;
    }
    switch (type) {
    case kMfmaF32:
        return f(small(seed, 0.25f));
    case kMfmaF16:
        return f16_bits(small(seed, 0.25f)) | f16_bits(small(seed >> 8, 0.25f)) << 16;
    case kMfmaBf16:
        return bf16_bits(small(seed, 0.25f)) | bf16_bits(small(seed >> 8, 0.25f)) << 16;
    case kMfmaI8:
        return seed; // four bytes of every sign
    default: {       // f64: planes 0-1 and 2-3 are register pairs
        const auto bits = std::bit_cast<uint64_t>(static_cast<double>(small(mix(plane & ~1, lane), 0.25f)));
        return static_cast<uint32_t>(plane & 1 ? bits >> 32 : bits);
    }
    }
}

/// Register `reg` of lane `lane` of C (the memory buffer's plane `reg`).
uint32_t mfma_c(int type, int reg, int lane) {
    const uint32_t seed = mix(reg + 8, lane);
    switch (type) {
    case kMfmaI8:
        return seed;
    case kMfmaF64: {
        const auto bits =
            std::bit_cast<uint64_t>(static_cast<double>(small(mix((reg & ~1) + 8, lane), 0.5f)));
        return static_cast<uint32_t>(reg & 1 ? bits >> 32 : bits);
    }
    default:
        return f(small(seed, 0.5f));
    }
}

} // namespace

class IsaMatrixTest : public QObject, IsaKernelSuite {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { init_suite(); }

    void cleanupTestCase() { cleanup_suite(); }

    // MFMA (kernels/mfma.s), one instruction per row: every element of D against a reference written from
    // the layouts of the CDNA2 ISA reference's matrix arithmetic chapter (as AMD's matrix instruction
    // calculator states them), read here from register to element:
    //  - A[i][k] of block b in lane i + M (b + blocks (k / P)), element k % P of the lane's registers (P
    //    elements a lane, packed from bit 0: f16/bf16 two a dword, i8 four); B[k][j] alike;
    //  - D register r, lane l: 32x32 is block r / 16, row 8 ((r % 16) / 4) + 4 (l / 32) + r % 4, column
    //    l % 32; 16x16 is block r / 4, row 4 (l / 16) + r % 4, column l % 16; 4x4 is block l / 4, row r,
    //    column l % 4; f64 16x16x4 pair p is row 4p + l / 16, column l % 16; f64 4x4x4 is block (l / 4) % 4,
    //    row l / 16, column l % 4. C is read where D is written.
    // CBSZ/ABID: block b multiplies the A of block (b rounded down to a multiple of 2^CBSZ) + ABID. BLGP:
    // B's lane l is read from lane l % 32 (1), 32 + l % 32 (2), (l + 16) % 64 (3), 16 (BLGP - 4) + l % 16
    // (4-7); not on the f64 forms of gfx90a. Inputs are small multiples of 1/4 so that every sum is exact
    // whatever the order; f16 and bf16 denormal inputs are zero (MI200 flushes them).
    void matrixFma_data() {
        QTest::addColumn<QByteArray>("kernel");
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("blocks");
        QTest::addColumn<int>("cbsz");
        QTest::addColumn<int>("abid");
        QTest::addColumn<int>("blgp");
        QTest::addColumn<double>("c"); ///< every element of an inline C; NaN: C in registers
        QTest::addColumn<bool>("denormal_a");
        const double regs = std::numeric_limits<double>::quiet_NaN();
        auto r = [&](const char* name, const char* kernel, int type, int m, int k, int blocks, int cbsz = 0,
                     int abid = 0, int blgp = 0, double c = std::numeric_limits<double>::quiet_NaN(),
                     bool denormal_a = false) {
            QTest::newRow(name) << QByteArray(kernel) << type << m << k << blocks << cbsz << abid << blgp << c
                                << denormal_a;
        };
        r("v_mfma_f32_32x32x1f32, C and D in AGPRs", "f32_32x32x1", kMfmaF32, 32, 1, 2);
        r("v_mfma_f32_16x16x4f32, C and D in VGPRs", "f32_16x16x4", kMfmaF32, 16, 4, 1);
        r("v_mfma_f32_4x4x1f32", "f32_4x4x1", kMfmaF32, 4, 1, 16);
        r("v_mfma_f32_32x32x2f32", "f32_32x32x2", kMfmaF32, 32, 2, 1);
        r("v_mfma_f32_16x16x1f32", "f32_16x16x1", kMfmaF32, 16, 1, 4);
        r("v_mfma_f32_16x16x1f32, A and B in AGPRs", "f32_16x16x1_ab_acc", kMfmaF32, 16, 1, 4);
        r("v_mfma_f32_32x32x8f16", "f16_32x32x8", kMfmaF16, 32, 8, 1);
        r("v_mfma_f32_16x16x16f16", "f16_16x16x16", kMfmaF16, 16, 16, 1);
        r("v_mfma_f32_4x4x4f16", "f16_4x4x4", kMfmaF16, 4, 4, 16);
        r("v_mfma_f32_32x32x4f16", "f16_32x32x4", kMfmaF16, 32, 4, 2);
        r("v_mfma_f32_32x32x2bf16", "bf16_32x32x2", kMfmaBf16, 32, 2, 2);
        r("v_mfma_f32_16x16x8bf16", "bf16_16x16x8", kMfmaBf16, 16, 8, 1);
        r("v_mfma_f32_4x4x2bf16", "bf16_4x4x2", kMfmaBf16, 4, 2, 16);
        r("v_mfma_f32_32x32x8bf16_1k", "bf16_1k_32x32x8", kMfmaBf16, 32, 8, 1);
        r("v_mfma_f32_16x16x16bf16_1k", "bf16_1k_16x16x16", kMfmaBf16, 16, 16, 1);
        r("v_mfma_f32_4x4x4bf16_1k", "bf16_1k_4x4x4", kMfmaBf16, 4, 4, 16);
        r("v_mfma_f32_16x16x4bf16_1k", "bf16_1k_16x16x4", kMfmaBf16, 16, 4, 4);
        r("v_mfma_i32_32x32x8i8", "i8_32x32x8", kMfmaI8, 32, 8, 1);
        r("v_mfma_i32_16x16x4i8", "i8_16x16x4", kMfmaI8, 16, 4, 4);
        r("v_mfma_i32_4x4x4i8", "i8_4x4x4", kMfmaI8, 4, 4, 16);
        r("v_mfma_i32_16x16x16i8", "i8_16x16x16", kMfmaI8, 16, 16, 1);
        r("v_mfma_f64_16x16x4f64", "f64_16x16x4", kMfmaF64, 16, 4, 1);
        r("v_mfma_f64_4x4x4f64", "f64_4x4x4", kMfmaF64, 4, 4, 4);
        r("v_mfma_f32_4x4x1f32, C inline 1.0", "f32_4x4x1_c1", kMfmaF32, 4, 1, 16, 0, 0, 0, 1.0);
        r("v_mfma_f64_4x4x4f64, C inline 1.0", "f64_4x4x4_c1", kMfmaF64, 4, 4, 4, 0, 0, 0, 1.0);
        r("v_mfma_f32_4x4x1f32 cbsz:2 abid:1", "f32_4x4x1_cbsz2_abid1", kMfmaF32, 4, 1, 16, 2, 1);
        r("v_mfma_f32_16x16x4f16 cbsz:1 abid:1", "f16_16x16x4_cbsz1_abid1", kMfmaF16, 16, 4, 4, 1, 1);
        r("v_mfma_f32_32x32x1f32 cbsz:1 abid:1 blgp:3", "f32_32x32x1_cbsz1_abid1_blgp3", kMfmaF32, 32, 1, 2,
          1, 1, 3);
        r("v_mfma_i32_4x4x4i8 cbsz:4 abid:9 blgp:6", "i8_4x4x4_blgp6", kMfmaI8, 4, 4, 16, 4, 9, 6);
        r("v_mfma_f32_16x16x8bf16 blgp:1", "bf16_16x16x8_blgp1", kMfmaBf16, 16, 8, 1, 0, 0, 1);
        r("v_mfma_f32_32x32x8f16 blgp:2", "f16_32x32x8_blgp2", kMfmaF16, 32, 8, 1, 0, 0, 2);
        r("v_mfma_f64_16x16x4f64 blgp:7 neither negates nor moves lanes", "f64_16x16x4_blgp7", kMfmaF64, 16,
          4, 1);
        r("v_mfma_f32_16x16x16f16, denormal A flushed", "f16_16x16x16", kMfmaF16, 16, 16, 1, 0, 0, 0, regs,
          true);
        r("v_mfma_f32_16x16x8bf16, denormal A flushed", "bf16_16x16x8", kMfmaBf16, 16, 8, 1, 0, 0, 0, regs,
          true);
    }

    void matrixFma() {
        QFETCH(QByteArray, kernel);
        QFETCH(int, type);
        QFETCH(int, m);
        QFETCH(int, k);
        QFETCH(int, blocks);
        QFETCH(int, cbsz);
        QFETCH(int, abid);
        QFETCH(int, blgp);
        QFETCH(double, c);
        QFETCH(bool, denormal_a);
        const MfmaShape s{type, m, k, blocks, cbsz, abid, blgp};
        for (int plane = 0; plane < kInPlanes; ++plane) {
            for (int lane = 0; lane < kLanes; ++lane) {
                in_[plane * kLanes + lane] =
                    plane < 4 ? mfma_input(type, plane, lane, denormal_a) : mix(plane, lane);
            }
        }
        for (int reg = 0; reg < 32; ++reg) {
            for (int lane = 0; lane < kLanes; ++lane) {
                mem_[reg * kLanes + lane] = mfma_c(type, reg, lane);
            }
        }
        std::fill(out_, out_ + kBufferWords, kUnwritten);
        QVERIFY(run("mfma", kernel.constData()));

        // Element t of lane `lane` of the source in planes `plane`, `plane + 1`, as a double.
        auto element = [&](int plane, int lane, int t) -> double {
            const uint32_t lo = in(plane, lane), hi = in(plane + 1, lane);
            switch (type) {
            case kMfmaF32:
                return std::bit_cast<float>(lo);
            case kMfmaF16:
            case kMfmaBf16: {
                const uint32_t h = ((t < 2 ? lo : hi) >> (16 * (t % 2))) & 0xffff;
                const bool denormal = type == kMfmaF16 ? (h & 0x7c00) == 0 : (h & 0x7f80) == 0;
                if (denormal) {
                    return h & 0x8000 ? -0.0 : 0.0;
                }
                return type == kMfmaF16
                           ? static_cast<double>(std::bit_cast<_Float16>(static_cast<uint16_t>(h)))
                           : static_cast<double>(std::bit_cast<float>(h << 16));
            }
            case kMfmaI8:
                return static_cast<int8_t>(lo >> (8 * t));
            default:
                return as_double(lo, hi);
            }
        };
        const int per = s.per_lane();
        auto a_at = [&](int b, int i, int kk) {
            return element(0, i + m * (b + blocks * (kk / per)), kk % per);
        };
        auto b_at = [&](int b, int kk, int j) {
            int lane = j + m * (b + blocks * (kk / per));
            if (type != kMfmaF64) {
                lane = blgp == 1   ? lane & 31
                       : blgp == 2 ? lane | 32
                       : blgp == 3 ? (lane + 16) & 63
                       : blgp >= 4 ? (blgp - 4) * 16 + (lane & 15)
                                   : lane;
            }
            return element(2, lane, kk % per);
        };
        const bool f64 = type == kMfmaF64;
        for (int reg = 0; reg < s.d_registers(); reg += f64 ? 2 : 1) {
            for (int lane = 0; lane < kLanes; ++lane) {
                int b = 0, i = 0, j = 0;
                if (f64 && m == 16) {
                    i = 4 * (reg / 2) + lane / 16, j = lane % 16;
                } else if (f64) {
                    b = (lane / 4) % 4, i = lane / 16, j = lane % 4;
                } else if (m == 32) {
                    b = reg / 16, i = 8 * ((reg % 16) / 4) + 4 * (lane / 32) + reg % 4, j = lane % 32;
                } else if (m == 16) {
                    b = reg / 4, i = 4 * (lane / 16) + reg % 4, j = lane % 16;
                } else {
                    b = lane / 4, i = reg, j = lane % 4;
                }
                const int a_block = b - b % (1 << cbsz) + abid;
                const uint32_t c_lo = mem_[reg * kLanes + lane], c_hi = mem_[(reg + 1) * kLanes + lane];
                uint32_t want[2] = {0, 0};
                if (type == kMfmaI8) {
                    uint32_t sum = c_lo;
                    for (int kk = 0; kk < k; ++kk) {
                        sum += static_cast<uint32_t>(
                            static_cast<int32_t>(a_at(a_block, i, kk) * b_at(b, kk, j)));
                    }
                    want[0] = sum;
                } else {
                    double sum = c == c ? c : f64 ? as_double(c_lo, c_hi) : std::bit_cast<float>(c_lo);
                    for (int kk = 0; kk < k; ++kk) {
                        sum += a_at(a_block, i, kk) * b_at(b, kk, j);
                    }
                    if (f64) {
                        const Words w = d(sum);
                        want[0] = w[0], want[1] = w[1];
                    } else {
                        want[0] = f(static_cast<float>(sum));
                    }
                }
                for (int part = 0; part < (f64 ? 2 : 1); ++part) {
                    const uint32_t got = out_[(reg + part) * kLanes + lane];
                    if (got != want[part]) {
                        QFAIL(qPrintable(
                            QStringLiteral("%1: D register %2, lane %3 (block %4, row %5, column %6): "
                                           "%7, expected %8")
                                .arg(QString::fromLatin1(kernel))
                                .arg(reg + part)
                                .arg(lane)
                                .arg(b)
                                .arg(i)
                                .arg(j)
                                .arg(hex(got), hex(want[part]))));
                    }
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(IsaMatrixTest)
#include "tst_isa_matrix.moc"
