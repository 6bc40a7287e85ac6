// SPDX-License-Identifier: MIT
// LDS (DS) operations: reads, writes, two-address forms, atomics, and the cross-lane ds_swizzle_b32,
// ds_permute_b32, ds_bpermute_b32 (CDNA2 ISA chapter 11 "Data Share Operations", §12.12). The waves of
// a work-group run on one host thread, so LDS atomics need no host atomics. Out-of-range reads return
// 0 and out-of-range writes are dropped. The global wave sync instructions (ds_gws_*) act on the queue's
// GWS resources (gws.h).
#include "gws.h"
#include "op_table.h"
#include "operand_access.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace sim::isa {

namespace {

uint8_t* lds_at(Wave& w, uint64_t address, uint32_t bytes) {
    return address + bytes <= w.lds_size ? w.lds + address : nullptr;
}

uint32_t lane_address(const Wave& w, const Instruction& in, int lane) {
    return read_lane(w, in.src[0], lane) + static_cast<uint32_t>(in.offset & 0xffff);
}

/// Reads of `Dwords` dwords (or a narrower Bytes value, sign- or zero-extended, or into a half).
template <int Dwords, int Bytes, bool Signed, int Half>
void ds_read(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    const Operand& d = in.dst[0];
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        const uint32_t address = lane_address(w, in, lane);
        for (int k = 0; k < Dwords; ++k) {
            uint32_t* reg = d.kind == OperandKind::agpr ? w.a(static_cast<uint16_t>(d.index + k))
                                                        : w.v(static_cast<uint16_t>(d.index + k));
            uint32_t v = 0;
            if (uint8_t* p = lds_at(w, address + 4u * k, Bytes < 4 ? Bytes : 4)) {
                std::memcpy(&v, p, Bytes < 4 ? Bytes : 4);
            }
            if (Bytes == 1 && Signed) {
                v = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v)));
            } else if (Bytes == 2 && Signed) {
                v = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(v)));
            }
            if (Half == 1) {
                v = (reg[lane] & 0xffff0000u) | (v & 0xffff);
            } else if (Half == 2) {
                v = (reg[lane] & 0xffffu) | v << 16;
            }
            reg[lane] = v;
        }
    }
}

template <int Dwords, int Bytes, bool High>
void ds_write(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        const uint32_t address = lane_address(w, in, lane);
        for (int k = 0; k < Dwords; ++k) {
            uint32_t v = read_lane(w, in.src[1], lane, k);
            if (High) {
                v >>= 16;
            }
            if (uint8_t* p = lds_at(w, address + 4u * k, Bytes < 4 ? Bytes : 4)) {
                std::memcpy(p, &v, Bytes < 4 ? Bytes : 4);
            }
        }
    }
}

/// ds_read2 / ds_write2: two elements of `Dwords` dwords at offset0 and offset1 times the element size
/// (times 64 for the st64 forms).
template <int Dwords, int Scale>
void ds_read2(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    const Operand& d = in.dst[0];
    const uint32_t unit = 4u * Dwords * Scale;
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        const uint32_t base = read_lane(w, in.src[0], lane);
        for (int e = 0; e < 2; ++e) {
            const uint32_t address = base + (e ? in.offset1 : in.offset0) * unit;
            for (int k = 0; k < Dwords; ++k) {
                uint32_t v = 0;
                if (uint8_t* p = lds_at(w, address + 4u * k, 4)) {
                    std::memcpy(&v, p, 4);
                }
                const auto r = static_cast<uint16_t>(d.index + e * Dwords + k);
                (d.kind == OperandKind::agpr ? w.a(r) : w.v(r))[lane] = v;
            }
        }
    }
}

template <int Dwords, int Scale>
void ds_write2(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    const uint32_t unit = 4u * Dwords * Scale;
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        const uint32_t base = read_lane(w, in.src[0], lane);
        for (int e = 0; e < 2; ++e) {
            const uint32_t address = base + (e ? in.offset1 : in.offset0) * unit;
            for (int k = 0; k < Dwords; ++k) {
                const uint32_t v = read_lane(w, in.src[1 + e], lane, k);
                if (uint8_t* p = lds_at(w, address + 4u * k, 4)) {
                    std::memcpy(p, &v, 4);
                }
            }
        }
    }
}

enum class Op : uint8_t {
    add,
    sub,
    rsub,
    inc,
    dec,
    min_i,
    max_i,
    min_u,
    max_u,
    bit_and,
    bit_or,
    bit_xor,
    mskor,
    wrxchg,
    cmpst,
    add_f,
    min_f,
    max_f
};

template <typename T>
T apply(Op op, T old, T a, T b) {
    using S = std::make_signed_t<T>;
    switch (op) {
    case Op::add:
        return old + a;
    case Op::sub:
        return old - a;
    case Op::rsub:
        return a - old;
    case Op::inc:
        return old >= a ? 0 : old + 1;
    case Op::dec:
        return old == 0 || old > a ? a : old - 1;
    case Op::min_i:
        return static_cast<S>(a) < static_cast<S>(old) ? a : old;
    case Op::max_i:
        return static_cast<S>(a) > static_cast<S>(old) ? a : old;
    case Op::min_u:
        return std::min(a, old);
    case Op::max_u:
        return std::max(a, old);
    case Op::bit_and:
        return old & a;
    case Op::bit_or:
        return old | a;
    case Op::bit_xor:
        return old ^ a;
    case Op::mskor:
        return (old & ~a) | b;
    case Op::wrxchg:
        return a;
    case Op::cmpst:
        return old == a ? b : old; // DATA0 compares, DATA1 is stored
    case Op::add_f:
    case Op::min_f:
    case Op::max_f: {
        if constexpr (sizeof(T) == 4) {
            const float x = bit_cast<float>(old), y = bit_cast<float>(a);
            const float r = op == Op::add_f   ? x + y
                            : op == Op::min_f ? (y < x || x != x ? y : x)
                                              : (y > x || x != x ? y : x);
            return bit_cast<T>(r);
        } else {
            const double x = bit_cast<double>(old), y = bit_cast<double>(a);
            const double r = op == Op::add_f   ? x + y
                             : op == Op::min_f ? (y < x || x != x ? y : x)
                                               : (y > x || x != x ? y : x);
            return bit_cast<T>(r);
        }
    }
    }
    return old;
}

template <Op O, bool Wide, bool Return>
void ds_atomic(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    const int data0 = 1, data1 = 2;
    const int width = Wide ? 2 : 1;
    for (int lane = 0; lane < kLanes; ++lane) {
        if (!lane_on(exec, lane)) {
            continue;
        }
        const uint32_t address = lane_address(w, in, lane);
        uint8_t* p = lds_at(w, address, 4u * width);
        uint64_t old = 0;
        if (p) {
            if (Wide) {
                uint64_t cur;
                std::memcpy(&cur, p, 8);
                const uint64_t a = read_lane(w, in.src[data0], lane, 0) |
                                   static_cast<uint64_t>(read_lane(w, in.src[data0], lane, 1)) << 32;
                const uint64_t b = in.src_count > data1
                                       ? (read_lane(w, in.src[data1], lane, 0) |
                                          static_cast<uint64_t>(read_lane(w, in.src[data1], lane, 1)) << 32)
                                       : 0;
                const uint64_t next = apply<uint64_t>(O, cur, a, b);
                std::memcpy(p, &next, 8);
                old = cur;
            } else {
                uint32_t cur;
                std::memcpy(&cur, p, 4);
                const uint32_t a = read_lane(w, in.src[data0], lane);
                const uint32_t b = in.src_count > data1 ? read_lane(w, in.src[data1], lane) : 0;
                const uint32_t next = apply<uint32_t>(O, cur, a, b);
                std::memcpy(p, &next, 4);
                old = cur;
            }
        }
        if (Return) {
            for (int k = 0; k < width; ++k) {
                w.v(static_cast<uint16_t>(in.dst[0].index + k))[lane] =
                    static_cast<uint32_t>(old >> (32 * k));
            }
        }
    }
}

void ds_swizzle(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    const auto offset = static_cast<uint32_t>(in.offset) & 0xffff;
    uint32_t src[kLanes], out[kLanes];
    for (int lane = 0; lane < kLanes; ++lane) {
        src[lane] = read_lane(w, in.src[0], lane);
    }
    for (int lane = 0; lane < kLanes; ++lane) {
        int from;
        if (offset & 0x8000) {
            from = (lane & ~3) | static_cast<int>((offset >> (2 * (lane & 3))) & 3);
        } else {
            const int and_mask = offset & 0x1f, or_mask = (offset >> 5) & 0x1f,
                      xor_mask = (offset >> 10) & 0x1f;
            from = (lane & 0x20) | (((lane & and_mask) | or_mask) ^ xor_mask);
        }
        out[lane] = lane_on(exec, from) ? src[from] : 0;
    }
    write_vector_dst(w, in, 0, out, exec);
}

void ds_permute(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    uint32_t out[kLanes] = {};
    for (int lane = 0; lane < kLanes; ++lane) {
        if (lane_on(exec, lane)) {
            const uint32_t to =
                ((read_lane(w, in.src[0], lane) + static_cast<uint32_t>(in.offset)) / 4) % kLanes;
            out[to] = read_lane(w, in.src[1], lane);
        }
    }
    write_vector_dst(w, in, 0, out, exec);
}

void ds_bpermute(Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    uint32_t out[kLanes];
    for (int lane = 0; lane < kLanes; ++lane) {
        const uint32_t from =
            ((read_lane(w, in.src[0], lane) + static_cast<uint32_t>(in.offset)) / 4) % kLanes;
        out[lane] =
            lane_on(exec, static_cast<int>(from)) ? read_lane(w, in.src[1], static_cast<int>(from)) : 0;
    }
    write_vector_dst(w, in, 0, out, exec);
}

/// The GWS resource `in` names, M0[21:16] plus its offset (CDNA2 ISA §12.12, DS_GWS_*); false, with the
/// wave faulted, when the queue has no GWS resources or not that one.
bool gws_resource(Wave& w, const Instruction& in, uint32_t& resource) {
    GwsState* gws = w.dispatch ? w.dispatch->gws : nullptr;
    if (!gws) {
        fault(w, in,
              "the queue has no global wave sync (GWS) resources: ROCr gives them to its cooperative queue "
              "only");
        return false;
    }
    resource = ((w.sgpr[kM0] >> 16) & 0x3f) + (static_cast<uint32_t>(in.offset) & 0xffff);
    if (resource >= gws->size()) {
        fault(w, in,
              "GWS resource " + std::to_string(resource) + " is outside the queue's " +
                  std::to_string(gws->size()) + " (M0[21:16] + offset)");
        return false;
    }
    return true;
}

/// DATA0 of the first active lane: a GWS instruction's value.
uint32_t gws_value(const Wave& w, const Instruction& in) {
    const uint64_t exec = w.exec();
    return read_lane(w, in.src[0], exec ? __builtin_ctzll(exec) : 0);
}

void ds_gws_init(Wave& w, const Instruction& in) {
    uint32_t r;
    if (gws_resource(w, in, r)) {
        w.dispatch->gws->init(r, gws_value(w, in));
    }
}

/// The wave waits: the dispatcher resumes it when the resource releases it.
void gws_wait(Wave& w, const Instruction& in, GwsWait kind, uint32_t resource) {
    if (!w.dispatch->cooperative) {
        fault(w, in,
              "the wave must wait for other waves at this GWS resource, but the dispatch was not run "
              "with all its work-groups resident (its code was not found to reach a GWS wait)");
        return;
    }
    w.status = WaveStatus::gws;
    w.gws_wait = kind;
    w.gws_resource = resource;
}

void ds_gws_barrier(Wave& w, const Instruction& in) {
    uint32_t r;
    if (!gws_resource(w, in, r)) {
        return;
    }
    if (w.dispatch->gws->barrier_arrive(r, gws_value(w, in), w.gws_generation)) {
        gws_wait(w, in, GwsWait::barrier, r);
    }
}

void ds_gws_sema_v(Wave& w, const Instruction& in) {
    uint32_t r;
    if (gws_resource(w, in, r)) {
        w.dispatch->gws->sema_add(r, 1);
    }
}

void ds_gws_sema_br(Wave& w, const Instruction& in) {
    uint32_t r;
    if (gws_resource(w, in, r)) {
        w.dispatch->gws->sema_add(r, gws_value(w, in));
    }
}

void ds_gws_sema_p(Wave& w, const Instruction& in) {
    uint32_t r;
    if (gws_resource(w, in, r) && !w.dispatch->gws->sema_take(r)) {
        gws_wait(w, in, GwsWait::semaphore, r);
    }
}

void ds_gws_sema_release_all(Wave& w, const Instruction& in) {
    uint32_t r;
    if (gws_resource(w, in, r)) {
        w.dispatch->gws->sema_release_all(r);
    }
}

void add(OpTable& t, const std::string& name, ExecuteFn fn, uint8_t dsts) {
    t.add({name, fn, Unit::lds, dsts, {ValueType::b32, ValueType::b32, ValueType::b32, ValueType::b32}});
}

template <Op O>
void add_atomic(OpTable& t, const std::string& name32, const std::string& name64) {
    add(t, "ds_" + name32, ds_atomic<O, false, false>, 0);
    add(t, "ds_" + name32.substr(0, name32.rfind('_')) + "_rtn" + name32.substr(name32.rfind('_')),
        ds_atomic<O, false, true>, 1);
    if (!name64.empty()) {
        add(t, "ds_" + name64, ds_atomic<O, true, false>, 0);
        add(t, "ds_" + name64.substr(0, name64.rfind('_')) + "_rtn" + name64.substr(name64.rfind('_')),
            ds_atomic<O, true, true>, 1);
    }
}

} // namespace

void register_lds_ops(OpTable& t) {
    add(t, "ds_nop", [](Wave&, const Instruction&) {}, 0);
    // Global wave sync: ROCclr initialises resource 0 before a cooperative launch (its gwsInit blit
    // kernel); the device libraries' grid sync (ockl __ockl_grid_sync) is ds_gws_barrier.
    add(t, "ds_gws_init", ds_gws_init, 0);
    add(t, "ds_gws_barrier", ds_gws_barrier, 0);
    add(t, "ds_gws_sema_v", ds_gws_sema_v, 0);
    add(t, "ds_gws_sema_br", ds_gws_sema_br, 0);
    add(t, "ds_gws_sema_p", ds_gws_sema_p, 0);
    add(t, "ds_gws_sema_release_all", ds_gws_sema_release_all, 0);
    add(t, "ds_read_u8", ds_read<1, 1, false, 0>, 1);
    add(t, "ds_read_i8", ds_read<1, 1, true, 0>, 1);
    add(t, "ds_read_u16", ds_read<1, 2, false, 0>, 1);
    add(t, "ds_read_i16", ds_read<1, 2, true, 0>, 1);
    add(t, "ds_read_b32", ds_read<1, 4, false, 0>, 1);
    add(t, "ds_read_b64", ds_read<2, 4, false, 0>, 1);
    add(t, "ds_read_b96", ds_read<3, 4, false, 0>, 1);
    add(t, "ds_read_b128", ds_read<4, 4, false, 0>, 1);
    add(t, "ds_read_u8_d16", ds_read<1, 1, false, 1>, 1);
    add(t, "ds_read_u8_d16_hi", ds_read<1, 1, false, 2>, 1);
    add(t, "ds_read_i8_d16", ds_read<1, 1, true, 1>, 1);
    add(t, "ds_read_i8_d16_hi", ds_read<1, 1, true, 2>, 1);
    add(t, "ds_read_u16_d16", ds_read<1, 2, false, 1>, 1);
    add(t, "ds_read_u16_d16_hi", ds_read<1, 2, false, 2>, 1);
    add(t, "ds_write_b8", ds_write<1, 1, false>, 0);
    add(t, "ds_write_b16", ds_write<1, 2, false>, 0);
    add(t, "ds_write_b32", ds_write<1, 4, false>, 0);
    add(t, "ds_write_b64", ds_write<2, 4, false>, 0);
    add(t, "ds_write_b96", ds_write<3, 4, false>, 0);
    add(t, "ds_write_b128", ds_write<4, 4, false>, 0);
    add(t, "ds_write_b8_d16_hi", ds_write<1, 1, true>, 0);
    add(t, "ds_write_b16_d16_hi", ds_write<1, 2, true>, 0);
    add(t, "ds_read2_b32", ds_read2<1, 1>, 1);
    add(t, "ds_read2_b64", ds_read2<2, 1>, 1);
    add(t, "ds_read2st64_b32", ds_read2<1, 64>, 1);
    add(t, "ds_read2st64_b64", ds_read2<2, 64>, 1);
    add(t, "ds_write2_b32", ds_write2<1, 1>, 0);
    add(t, "ds_write2_b64", ds_write2<2, 1>, 0);
    add(t, "ds_write2st64_b32", ds_write2<1, 64>, 0);
    add(t, "ds_write2st64_b64", ds_write2<2, 64>, 0);
    add_atomic<Op::add>(t, "add_u32", "add_u64");
    add_atomic<Op::sub>(t, "sub_u32", "sub_u64");
    add_atomic<Op::rsub>(t, "rsub_u32", "rsub_u64");
    add_atomic<Op::inc>(t, "inc_u32", "inc_u64");
    add_atomic<Op::dec>(t, "dec_u32", "dec_u64");
    add_atomic<Op::min_i>(t, "min_i32", "min_i64");
    add_atomic<Op::max_i>(t, "max_i32", "max_i64");
    add_atomic<Op::min_u>(t, "min_u32", "min_u64");
    add_atomic<Op::max_u>(t, "max_u32", "max_u64");
    add_atomic<Op::bit_and>(t, "and_b32", "and_b64");
    add_atomic<Op::bit_or>(t, "or_b32", "or_b64");
    add_atomic<Op::bit_xor>(t, "xor_b32", "xor_b64");
    add_atomic<Op::mskor>(t, "mskor_b32", "mskor_b64");
    add_atomic<Op::cmpst>(t, "cmpst_b32", "cmpst_b64");
    add_atomic<Op::add_f>(t, "add_f32", "add_f64");
    add_atomic<Op::min_f>(t, "min_f32", "min_f64");
    add_atomic<Op::max_f>(t, "max_f32", "max_f64");
    add(t, "ds_wrxchg_rtn_b32", ds_atomic<Op::wrxchg, false, true>, 1);
    add(t, "ds_wrxchg_rtn_b64", ds_atomic<Op::wrxchg, true, true>, 1);
    add(t, "ds_swizzle_b32", ds_swizzle, 1);
    add(t, "ds_permute_b32", ds_permute, 1);
    add(t, "ds_bpermute_b32", ds_bpermute, 1);
}

} // namespace sim::isa
