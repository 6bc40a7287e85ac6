// SPDX-License-Identifier: MIT
// Memory operations: SMEM (scalar loads and stores, s_memtime), FLAT / GLOBAL / SCRATCH and MUBUF loads,
// stores and atomics (CDNA2 ISA chapters 7, 9 and 10). Memory is complete when the instruction ends.
#include "half.h"
#include "memory_access.h"
#include "op_table.h"
#include "operand_access.h"

#include <chrono>
#include <cstring>
#include <string>

namespace sim::isa {

namespace {

using V = ValueType;

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof(b), "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

// ---- SMEM ----

template <int Dwords>
void s_load(Wave& w, const Instruction& in) {
    const uint64_t base = read_scalar64(w, in.src[0]);
    const uint64_t offset = in.src_count > 1 ? read_scalar32(w, in.src[1]) : 0;
    const uint64_t address = (base + offset) & ~3ull;
    if (bad_global_address(address)) {
        fault(w, in, "scalar load from address " + hex(address));
        return;
    }
    uint32_t data[Dwords];
    std::memcpy(data, reinterpret_cast<const void*>(address), sizeof(data));
    for (int i = 0; i < Dwords; ++i) {
        write_scalar32(w, in.dst[0], data[i], i);
    }
}

template <int Dwords>
void s_buffer_load(Wave& w, const Instruction& in) {
    const uint32_t w0 = read_scalar32(w, in.src[0], 0), w1 = read_scalar32(w, in.src[0], 1);
    const uint64_t base = w0 | static_cast<uint64_t>(w1 & 0xffff) << 32;
    const uint32_t records = read_scalar32(w, in.src[0], 2);
    const uint64_t offset = (in.src_count > 1 ? read_scalar32(w, in.src[1]) : 0) & ~3ull;
    for (int i = 0; i < Dwords; ++i) {
        const uint64_t at = offset + 4ull * i;
        uint32_t v = 0;
        if (at < records) {
            std::memcpy(&v, reinterpret_cast<const void*>(base + at), 4);
        }
        write_scalar32(w, in.dst[0], v, i);
    }
}

template <int Dwords>
void s_store(Wave& w, const Instruction& in) {
    const uint64_t base = read_scalar64(w, in.src[1]);
    const uint64_t offset = in.src_count > 2 ? read_scalar32(w, in.src[2]) : 0;
    const uint64_t address = (base + offset) & ~3ull;
    if (bad_global_address(address)) {
        fault(w, in, "scalar store to address " + hex(address));
        return;
    }
    for (int i = 0; i < Dwords; ++i) {
        const uint32_t v = read_scalar32(w, in.src[0], i);
        std::memcpy(reinterpret_cast<void*>(address + 4ull * i), &v, 4);
    }
}

void s_memtime(Wave& w, const Instruction& in) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    write_scalar64(w, in.dst[0],
                   static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()));
}
void s_memrealtime(Wave& w, const Instruction& in) {
    // The 100 MHz constant clock (AMDGPUUsage: s_memrealtime).
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    write_scalar64(
        w, in.dst[0],
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() / 10));
}

// ---- Vector memory ----

/// How a load fills its destination: whole dwords, an extended byte or short, or a 16-bit half.
enum class Fill : uint8_t { dwords, u8, i8, u16, i16, lo_u8, lo_i8, lo_16, hi_u8, hi_i8, hi_16 };

uint32_t fill_bytes(Fill f) {
    switch (f) {
    case Fill::u8:
    case Fill::i8:
    case Fill::lo_u8:
    case Fill::lo_i8:
    case Fill::hi_u8:
    case Fill::hi_i8:
        return 1;
    case Fill::u16:
    case Fill::i16:
    case Fill::lo_16:
    case Fill::hi_16:
        return 2;
    default:
        return 4;
    }
}

template <Segment S, int Dwords, Fill F>
void vload(Wave& w, const Instruction& in) {
    VectorAccess a;
    compute_addresses(w, in, S, a);
    const uint64_t exec = w.exec();
    const Operand& dst = in.dst[0];
    uint32_t* regs[4];
    for (int k = 0; k < Dwords; ++k) {
        regs[k] = dst.kind == OperandKind::agpr ? w.a(static_cast<uint16_t>(dst.index + k))
                                                : w.v(static_cast<uint16_t>(dst.index + k));
    }
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        if constexpr (F == Fill::dwords) {
            if (contiguous(a, lane)) {
                // One host access for the whole load: aligned dword and qword loads are single-copy
                // atomic, as other waves' stores of them are.
                uint8_t* p = locate(w, a, lane, 0);
                if (!p) {
                    fault(w, in,
                          "memory read at " + hex(a.address[lane]) + " (lane " + std::to_string(lane) + ")");
                    return;
                }
                uint32_t data[Dwords];
                copy_shared(data, p, 4 * Dwords, false);
                for (int k = 0; k < Dwords; ++k) {
                    regs[k][lane] = data[k];
                }
                continue;
            }
            for (int k = 0; k < Dwords; ++k) {
                uint8_t* p = locate(w, a, lane, 4u * k);
                if (!p) {
                    if (S == Segment::buffer || S == Segment::scratch) {
                        regs[k][lane] = 0; // out of range reads return 0
                        continue;
                    }
                    fault(w, in,
                          "memory read at " + hex(a.address[lane] + 4u * k) + " (lane " +
                              std::to_string(lane) + ")");
                    return;
                }
                std::memcpy(&regs[k][lane], p, 4);
            }
        } else {
            uint8_t* p = locate(w, a, lane, 0);
            uint32_t v = 0;
            if (!p && S != Segment::buffer && S != Segment::scratch) {
                fault(w, in,
                      "memory read at " + hex(a.address[lane]) + " (lane " + std::to_string(lane) + ")");
                return;
            }
            if (p) {
                std::memcpy(&v, p, fill_bytes(F));
            }
            uint32_t& d = regs[0][lane];
            switch (F) {
            case Fill::u8:
            case Fill::u16:
                d = v;
                break;
            case Fill::i8:
                d = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v)));
                break;
            case Fill::i16:
                d = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(v)));
                break;
            case Fill::lo_u8:
            case Fill::lo_16:
                d = (d & 0xffff0000u) | v;
                break;
            case Fill::lo_i8:
                d = (d & 0xffff0000u) |
                    (static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v))) & 0xffff);
                break;
            case Fill::hi_u8:
            case Fill::hi_16:
                d = (d & 0xffffu) | v << 16;
                break;
            case Fill::hi_i8:
                d = (d & 0xffffu) | static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v))) << 16;
                break;
            default:
                break;
            }
        }
    }
}

/// Which source holds the stored data.
template <Segment S>
int data_source() {
    return S == Segment::buffer ? 0 : 1;
}

template <Segment S, int Dwords, int Bytes, bool High>
void vstore(Wave& w, const Instruction& in) {
    VectorAccess a;
    compute_addresses(w, in, S, a);
    const uint64_t exec = w.exec();
    const Operand& data = in.src[data_source<S>()];
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        if (Bytes == 4 && contiguous(a, lane)) {
            uint8_t* p = locate(w, a, lane, 0);
            if (!p) {
                fault(w, in,
                      "memory write at " + hex(a.address[lane]) + " (lane " + std::to_string(lane) + ")");
                return;
            }
            uint32_t words[Dwords];
            for (int k = 0; k < Dwords; ++k) {
                words[k] = read_lane(w, in.src[data_source<S>()], lane, k);
            }
            copy_shared(p, words, 4 * Dwords, true);
            continue;
        }
        for (int k = 0; k < Dwords; ++k) {
            uint8_t* p = locate(w, a, lane, 4u * k);
            if (!p) {
                if (S == Segment::buffer || S == Segment::scratch) {
                    continue; // out of range writes are dropped
                }
                fault(w, in,
                      "memory write at " + hex(a.address[lane] + 4u * k) + " (lane " + std::to_string(lane) +
                          ")");
                return;
            }
            uint32_t v = read_lane(w, data, lane, k);
            if (High) {
                v >>= 16;
            }
            std::memcpy(p, &v, Bytes < 4 ? Bytes : 4);
        }
    }
}

// ---- Atomics ----

enum class Atomic : uint8_t {
    swap,
    cmpswap,
    add,
    sub,
    smin,
    umin,
    smax,
    umax,
    bit_and,
    bit_or,
    bit_xor,
    inc,
    dec,
    fadd,
    fmin,
    fmax,
    pk_fadd_f16
};

template <typename T>
T combine(Atomic op, T old, T src, T cmp) {
    using S = std::make_signed_t<T>;
    switch (op) {
    case Atomic::swap:
        return src;
    case Atomic::cmpswap:
        return old == cmp ? src : old;
    case Atomic::add:
        return old + src;
    case Atomic::sub:
        return old - src;
    case Atomic::smin:
        return static_cast<S>(old) < static_cast<S>(src) ? old : src;
    case Atomic::umin:
        return old < src ? old : src;
    case Atomic::smax:
        return static_cast<S>(old) > static_cast<S>(src) ? old : src;
    case Atomic::umax:
        return old > src ? old : src;
    case Atomic::bit_and:
        return old & src;
    case Atomic::bit_or:
        return old | src;
    case Atomic::bit_xor:
        return old ^ src;
    case Atomic::inc:
        return old >= src ? 0 : old + 1;
    case Atomic::dec:
        return old == 0 || old > src ? src : old - 1;
    case Atomic::fadd:
    case Atomic::fmin:
    case Atomic::fmax: {
        if constexpr (sizeof(T) == 4) {
            const float a = bit_cast<float>(old), b = bit_cast<float>(src);
            const float r = op == Atomic::fadd   ? a + b
                            : op == Atomic::fmin ? (b < a || a != a ? b : a)
                                                 : (b > a || a != a ? b : a);
            return bit_cast<T>(r);
        } else {
            const double a = bit_cast<double>(old), b = bit_cast<double>(src);
            const double r = op == Atomic::fadd   ? a + b
                             : op == Atomic::fmin ? (b < a || a != a ? b : a)
                                                  : (b > a || a != a ? b : a);
            return bit_cast<T>(r);
        }
    }
    case Atomic::pk_fadd_f16:
        return src; // handled by the caller
    }
    return old;
}

/// Applies `op` atomically at `p` (naturally aligned) and returns the prior value.
template <typename T>
T atomic_apply(uint8_t* p, Atomic op, T src, T cmp) {
    T* target = reinterpret_cast<T*>(p);
    T old = __atomic_load_n(target, __ATOMIC_RELAXED);
    for (;;) {
        T next;
        if constexpr (sizeof(T) == 4) {
            if (op == Atomic::pk_fadd_f16) {
                const uint32_t o = old, s = src;
                const uint16_t lo = float_to_half(half_to_float(static_cast<uint16_t>(o)) +
                                                  half_to_float(static_cast<uint16_t>(s)));
                const uint16_t hi = float_to_half(half_to_float(static_cast<uint16_t>(o >> 16)) +
                                                  half_to_float(static_cast<uint16_t>(s >> 16)));
                next = static_cast<T>(lo | static_cast<uint32_t>(hi) << 16);
            } else {
                next = combine(op, old, src, cmp);
            }
        } else {
            next = combine(op, old, src, cmp);
        }
        if (__atomic_compare_exchange_n(target, &old, next, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
            return old;
        }
    }
}

template <Segment S, Atomic Op, bool Wide>
void vatomic(Wave& w, const Instruction& in) {
    VectorAccess a;
    compute_addresses(w, in, S, a);
    const uint64_t exec = w.exec();
    // FLAT/GLOBAL: [vdst], vaddr, data, [saddr]; MUBUF: vdata (data and return), vaddr, srsrc, soffset.
    const Operand& data = S == Segment::buffer ? in.src[0] : in.src[1];
    const bool returns = in.glc;
    const Operand& ret = S == Segment::buffer ? in.src[0] : in.dst[0];
    const int width = Wide ? 2 : 1;
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        uint8_t* p = locate(w, a, lane, 0);
        if (!p) {
            if (S == Segment::buffer || S == Segment::scratch) {
                continue;
            }
            fault(w, in, "atomic at " + hex(a.address[lane]) + " (lane " + std::to_string(lane) + ")");
            return;
        }
        uint64_t old;
        if (Wide) {
            const uint64_t src =
                read_lane(w, data, lane, 0) | static_cast<uint64_t>(read_lane(w, data, lane, 1)) << 32;
            const uint64_t cmp =
                Op == Atomic::cmpswap
                    ? (read_lane(w, data, lane, 2) | static_cast<uint64_t>(read_lane(w, data, lane, 3)) << 32)
                    : 0;
            old = atomic_apply<uint64_t>(p, Op, src, cmp);
        } else {
            const uint32_t src = read_lane(w, data, lane, 0);
            const uint32_t cmp = Op == Atomic::cmpswap ? read_lane(w, data, lane, 1) : 0;
            old = atomic_apply<uint32_t>(p, Op, src, cmp);
        }
        if (returns && (ret.kind == OperandKind::vgpr || ret.kind == OperandKind::agpr)) {
            for (int k = 0; k < width; ++k) {
                uint32_t* r = ret.kind == OperandKind::vgpr ? w.v(static_cast<uint16_t>(ret.index + k))
                                                            : w.a(static_cast<uint16_t>(ret.index + k));
                r[lane] = static_cast<uint32_t>(old >> (32 * k));
            }
        }
    }
}

void add(OpTable& t, const std::string& name, ExecuteFn fn, Unit unit, uint8_t dsts) {
    t.add({name, fn, unit, dsts, {V::b32, V::b32, V::b32, V::b32}});
}

template <Segment S>
void add_vector_memory(OpTable& t, const std::string& prefix) {
    const Unit rd = S == Segment::flat ? Unit::flat : Unit::vmem_read;
    const Unit wr = S == Segment::flat ? Unit::flat : Unit::vmem_write;
    add(t, prefix + "load_ubyte", vload<S, 1, Fill::u8>, rd, 1);
    add(t, prefix + "load_sbyte", vload<S, 1, Fill::i8>, rd, 1);
    add(t, prefix + "load_ushort", vload<S, 1, Fill::u16>, rd, 1);
    add(t, prefix + "load_sshort", vload<S, 1, Fill::i16>, rd, 1);
    add(t, prefix + "load_dword", vload<S, 1, Fill::dwords>, rd, 1);
    add(t, prefix + "load_dwordx2", vload<S, 2, Fill::dwords>, rd, 1);
    add(t, prefix + "load_dwordx3", vload<S, 3, Fill::dwords>, rd, 1);
    add(t, prefix + "load_dwordx4", vload<S, 4, Fill::dwords>, rd, 1);
    add(t, prefix + "load_ubyte_d16", vload<S, 1, Fill::lo_u8>, rd, 1);
    add(t, prefix + "load_ubyte_d16_hi", vload<S, 1, Fill::hi_u8>, rd, 1);
    add(t, prefix + "load_sbyte_d16", vload<S, 1, Fill::lo_i8>, rd, 1);
    add(t, prefix + "load_sbyte_d16_hi", vload<S, 1, Fill::hi_i8>, rd, 1);
    add(t, prefix + "load_short_d16", vload<S, 1, Fill::lo_16>, rd, 1);
    add(t, prefix + "load_short_d16_hi", vload<S, 1, Fill::hi_16>, rd, 1);
    add(t, prefix + "store_byte", vstore<S, 1, 1, false>, wr, 0);
    add(t, prefix + "store_byte_d16_hi", vstore<S, 1, 1, true>, wr, 0);
    add(t, prefix + "store_short", vstore<S, 1, 2, false>, wr, 0);
    add(t, prefix + "store_short_d16_hi", vstore<S, 1, 2, true>, wr, 0);
    add(t, prefix + "store_dword", vstore<S, 1, 4, false>, wr, 0);
    add(t, prefix + "store_dwordx2", vstore<S, 2, 4, false>, wr, 0);
    add(t, prefix + "store_dwordx3", vstore<S, 3, 4, false>, wr, 0);
    add(t, prefix + "store_dwordx4", vstore<S, 4, 4, false>, wr, 0);
    if constexpr (S != Segment::scratch) {
        const uint8_t d = S == Segment::buffer ? 0 : kDstIfGlc;
        const std::string a = prefix + "atomic_";
        add(t, a + "swap", vatomic<S, Atomic::swap, false>, wr, d);
        add(t, a + "cmpswap", vatomic<S, Atomic::cmpswap, false>, wr, d);
        add(t, a + "add", vatomic<S, Atomic::add, false>, wr, d);
        add(t, a + "sub", vatomic<S, Atomic::sub, false>, wr, d);
        add(t, a + "smin", vatomic<S, Atomic::smin, false>, wr, d);
        add(t, a + "umin", vatomic<S, Atomic::umin, false>, wr, d);
        add(t, a + "smax", vatomic<S, Atomic::smax, false>, wr, d);
        add(t, a + "umax", vatomic<S, Atomic::umax, false>, wr, d);
        add(t, a + "and", vatomic<S, Atomic::bit_and, false>, wr, d);
        add(t, a + "or", vatomic<S, Atomic::bit_or, false>, wr, d);
        add(t, a + "xor", vatomic<S, Atomic::bit_xor, false>, wr, d);
        add(t, a + "inc", vatomic<S, Atomic::inc, false>, wr, d);
        add(t, a + "dec", vatomic<S, Atomic::dec, false>, wr, d);
        add(t, a + "add_f32", vatomic<S, Atomic::fadd, false>, wr, d);
        add(t, a + "pk_add_f16", vatomic<S, Atomic::pk_fadd_f16, false>, wr, d);
        add(t, a + "swap_x2", vatomic<S, Atomic::swap, true>, wr, d);
        add(t, a + "cmpswap_x2", vatomic<S, Atomic::cmpswap, true>, wr, d);
        add(t, a + "add_x2", vatomic<S, Atomic::add, true>, wr, d);
        add(t, a + "sub_x2", vatomic<S, Atomic::sub, true>, wr, d);
        add(t, a + "smin_x2", vatomic<S, Atomic::smin, true>, wr, d);
        add(t, a + "umin_x2", vatomic<S, Atomic::umin, true>, wr, d);
        add(t, a + "smax_x2", vatomic<S, Atomic::smax, true>, wr, d);
        add(t, a + "umax_x2", vatomic<S, Atomic::umax, true>, wr, d);
        add(t, a + "and_x2", vatomic<S, Atomic::bit_and, true>, wr, d);
        add(t, a + "or_x2", vatomic<S, Atomic::bit_or, true>, wr, d);
        add(t, a + "xor_x2", vatomic<S, Atomic::bit_xor, true>, wr, d);
        add(t, a + "inc_x2", vatomic<S, Atomic::inc, true>, wr, d);
        add(t, a + "dec_x2", vatomic<S, Atomic::dec, true>, wr, d);
        add(t, a + "add_f64", vatomic<S, Atomic::fadd, true>, wr, d);
        add(t, a + "min_f64", vatomic<S, Atomic::fmin, true>, wr, d);
        add(t, a + "max_f64", vatomic<S, Atomic::fmax, true>, wr, d);
    }
}

} // namespace

void register_memory_ops(OpTable& t) {
    add(t, "s_load_dword", s_load<1>, Unit::smem, 1);
    add(t, "s_load_dwordx2", s_load<2>, Unit::smem, 1);
    add(t, "s_load_dwordx4", s_load<4>, Unit::smem, 1);
    add(t, "s_load_dwordx8", s_load<8>, Unit::smem, 1);
    add(t, "s_load_dwordx16", s_load<16>, Unit::smem, 1);
    add(t, "s_scratch_load_dword", s_load<1>, Unit::smem, 1);
    add(t, "s_buffer_load_dword", s_buffer_load<1>, Unit::smem, 1);
    add(t, "s_buffer_load_dwordx2", s_buffer_load<2>, Unit::smem, 1);
    add(t, "s_buffer_load_dwordx4", s_buffer_load<4>, Unit::smem, 1);
    add(t, "s_buffer_load_dwordx8", s_buffer_load<8>, Unit::smem, 1);
    add(t, "s_buffer_load_dwordx16", s_buffer_load<16>, Unit::smem, 1);
    add(t, "s_store_dword", s_store<1>, Unit::smem, 0);
    add(t, "s_store_dwordx2", s_store<2>, Unit::smem, 0);
    add(t, "s_store_dwordx4", s_store<4>, Unit::smem, 0);
    add(t, "s_memtime", s_memtime, Unit::smem, 1);
    add(t, "s_memrealtime", s_memrealtime, Unit::smem, 1);
    add_vector_memory<Segment::flat>(t, "flat_");
    add_vector_memory<Segment::global>(t, "global_");
    add_vector_memory<Segment::scratch>(t, "scratch_");
    add_vector_memory<Segment::buffer>(t, "buffer_");
}

} // namespace sim::isa
