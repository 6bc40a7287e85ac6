// SPDX-License-Identifier: MIT
#include "perf_events.h"

#include "memory_access.h"
#include "op_table.h"
#include "perf_counters.h"
#include "wave.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace sim::isa {

namespace {

enum class Access : uint8_t { none, read, write, atomic };

/// What the counters need to know of an operation, derived once from its mnemonic.
struct OpClass {
    Access access = Access::none;
    uint8_t bytes = 0;        ///< bytes per lane of a vector memory access
    bool global = false;      ///< global_*: virtual addresses
    bool flat = false;        ///< flat_*: virtual or aperture addresses
    bool lds_banked = false;  ///< a DS instruction that reads or writes LDS through the banks
    uint8_t lds_dwords = 0;   ///< dwords per lane and address
    bool lds_two = false;     ///< read2/write2: two addresses per lane
    uint16_t lds_unit = 0;    ///< bytes between the offsets of a two-address form
    int8_t mfma = -1;         ///< SqCount of an MFMA's type
    uint8_t issue_cycles = 1; ///< cycle model (docs/sim-fidelity.md)
};

bool has(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

bool starts(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool ends(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

uint8_t vector_memory_bytes(std::string_view name, Access access) {
    if (access == Access::atomic) {
        return has(name, "_x2") || has(name, "_f64") ? 8 : 4;
    }
    if (has(name, "dwordx4")) {
        return 16;
    }
    if (has(name, "dwordx3")) {
        return 12;
    }
    if (has(name, "dwordx2")) {
        return 8;
    }
    if (has(name, "dword")) {
        return 4;
    }
    if (has(name, "short")) {
        return 2;
    }
    return 1; // byte
}

OpClass classify(const OpInfo& op) {
    const std::string_view name = op.name;
    OpClass c;
    switch (op.unit) {
    case Unit::valu:
    case Unit::vmem_read:
    case Unit::vmem_write:
    case Unit::flat:
    case Unit::lds:
        c.issue_cycles = 4; // a wave64 over a 16-lane SIMD or 32 LDS lanes per cycle
        break;
    case Unit::mfma:
        c.issue_cycles = has(name, "32x32") ? 64 : has(name, "16x16") ? 32 : 8;
        break;
    default:
        break;
    }
    if (op.unit == Unit::mfma) {
        if (starts(name, "v_mfma_f64")) {
            c.mfma = static_cast<int8_t>(SqCount::mfma_f64);
        } else if (has(name, "bf16")) {
            c.mfma = static_cast<int8_t>(SqCount::mfma_bf16);
        } else if (ends(name, "f16")) {
            c.mfma = static_cast<int8_t>(SqCount::mfma_f16);
        } else if (ends(name, "i8")) {
            c.mfma = static_cast<int8_t>(SqCount::mfma_i8);
        } else {
            c.mfma = static_cast<int8_t>(SqCount::mfma_f32);
        }
    }
    const bool global = starts(name, "global_"), flat = starts(name, "flat_");
    if (global || flat || starts(name, "buffer_") || starts(name, "scratch_")) {
        c.access = has(name, "_atomic_")  ? Access::atomic
                   : has(name, "_store_") ? Access::write
                                          : Access::read;
        c.bytes = vector_memory_bytes(name, c.access);
        c.global = global;
        c.flat = flat;
    }
    if (op.unit == Unit::lds && starts(name, "ds_") && !starts(name, "ds_gws_") && name != "ds_nop" &&
        name != "ds_swizzle_b32" && name != "ds_permute_b32" && name != "ds_bpermute_b32") {
        c.lds_banked = true;
        c.lds_two = has(name, "read2") || has(name, "write2");
        if (has(name, "b128")) {
            c.lds_dwords = 4;
        } else if (has(name, "b96")) {
            c.lds_dwords = 3;
        } else if (has(name, "_b64") || ends(name, "_u64") || ends(name, "_i64") || ends(name, "_f64")) {
            c.lds_dwords = 2;
        } else {
            c.lds_dwords = 1;
        }
        c.lds_unit = static_cast<uint16_t>(4u * c.lds_dwords * (has(name, "st64") ? 64u : 1u));
    }
    return c;
}

const std::vector<OpClass>& op_classes() {
    static const std::vector<OpClass> kClasses = [] {
        const OpTable& table = OpTable::instance();
        std::vector<OpClass> v(table.size());
        for (size_t i = 0; i < table.size(); ++i) {
            v[i] = classify(table.at(static_cast<uint16_t>(i)));
        }
        return v;
    }();
    return kClasses;
}

uint32_t vgpr_lane(const Wave& w, const Operand& o, int lane) {
    if (o.kind == OperandKind::vgpr) {
        return w.vgpr[o.index][lane];
    }
    return static_cast<uint32_t>(o.value);
}

/// LDS bank conflicts of DS instruction `in` (its addresses: src[0] and the offsets).
uint64_t lds_conflicts(const Wave& w, const Instruction& in, const OpClass& c) {
    const uint64_t exec = w.exec();
    const uint32_t per_address = c.lds_dwords;
    const uint32_t dwords = per_address * (c.lds_two ? 2u : 1u);
    uint32_t address[kLanes * 8];
    for (int lane = 0; lane < kLanes; ++lane) {
        if (((exec >> lane) & 1) == 0) {
            continue;
        }
        const uint32_t base = vgpr_lane(w, in.src[0], lane);
        for (uint32_t e = 0; e < (c.lds_two ? 2u : 1u); ++e) {
            const uint32_t byte = c.lds_two ? base + (e ? in.offset1 : in.offset0) * c.lds_unit
                                            : base + static_cast<uint32_t>(in.offset & 0xffff);
            for (uint32_t k = 0; k < per_address; ++k) {
                address[static_cast<uint32_t>(lane) * dwords + e * per_address + k] = byte / 4 + k;
            }
        }
    }
    return lds_bank_conflict_cycles(address, dwords, exec);
}

bool in_aperture(uint64_t address) {
    const uint64_t high = address >> 32;
    return high == (kSharedApertureBase >> 32) || high == (kPrivateApertureBase >> 32);
}

/// The 64-byte lines a global or FLAT instruction touches and the L2 requests they make (every request
/// misses: no cache contents are modelled). Returns whether a lane addressed LDS through the shared
/// aperture.
bool count_memory(const Wave& w, const Instruction& in, const OpClass& c, WaveCounts& n) {
    VectorAccess a;
    compute_addresses(w, in, c.flat ? Segment::flat : Segment::global, a);
    const uint64_t exec = w.exec();
    struct Line {
        uint64_t line;
        uint8_t halves; ///< bit 0: bytes 0-31 touched, bit 1: bytes 32-63
    };
    Line lines[kLanes * 2];
    int count = 0;
    bool lds = false, memory = false;
    for (int lane = 0; lane < kLanes; ++lane) {
        if (((exec >> lane) & 1) == 0) {
            continue;
        }
        const uint64_t first = a.address[lane];
        if (c.flat && in_aperture(first)) {
            lds = lds || (first >> 32) == (kSharedApertureBase >> 32);
            continue;
        }
        memory = true;
        const uint64_t last = first + c.bytes - 1;
        for (uint64_t line = first / 64; line <= last / 64; ++line) {
            const uint64_t lo = std::max(first, line * 64) - line * 64;
            const uint64_t hi = std::min(last, line * 64 + 63) - line * 64;
            lines[count++] = {line, static_cast<uint8_t>((lo < 32 ? 1 : 0) | (hi >= 32 ? 2 : 0))};
        }
    }
    if (!memory) {
        return lds;
    }
    n.memory = true;
    const bool read = c.access == Access::read, write = c.access == Access::write;
    ++n.cu[static_cast<int>(read ? CuCount::ta_flat_read_wavefronts : CuCount::ta_flat_write_wavefronts)];
    std::sort(lines, lines + count, [](const Line& x, const Line& y) { return x.line < y.line; });
    for (int i = 0; i < count;) {
        const uint64_t line = lines[i].line;
        uint8_t halves = 0;
        for (; i < count && lines[i].line == line; ++i) {
            halves = static_cast<uint8_t>(halves | lines[i].halves);
        }
        auto& tcc = n.tcc[(line / 2) % kPerfTccChannels]; // 128-byte interleave over the channels
        const bool full = halves == 3;
        ++n.cu[static_cast<int>(CuCount::tcp_total_cache_accesses)];
        ++tcc[static_cast<int>(TccCount::req)];
        if (read) {
            ++n.cu[static_cast<int>(CuCount::tcp_tcc_read_req)];
            ++tcc[static_cast<int>(TccCount::read)];
            ++tcc[static_cast<int>(TccCount::ea_rdreq)];
            tcc[static_cast<int>(TccCount::ea_rdreq_32b)] += full ? 0 : 1;
        } else {
            ++n.cu[static_cast<int>(write ? CuCount::tcp_tcc_write_req : CuCount::tcp_tcc_atomic_req)];
            ++tcc[static_cast<int>(write ? TccCount::write : TccCount::atomic)];
            ++tcc[static_cast<int>(TccCount::ea_wrreq)];
            tcc[static_cast<int>(TccCount::ea_wrreq_64b)] += full ? 1 : 0;
        }
    }
    return lds;
}

void bump(WaveCounts& n, SqCount c) {
    ++n.sq[static_cast<int>(c)];
}

} // namespace

uint64_t lds_bank_conflict_cycles(const uint32_t* dword_address, uint32_t dwords, uint64_t exec) {
    uint64_t cycles = 0;
    for (uint32_t group = 0; group < kLanes / kLdsLanesPerCycle; ++group) {
        for (uint32_t k = 0; k < dwords; ++k) {
            uint32_t seen[kLdsLanesPerCycle];
            uint32_t n = 0;
            for (uint32_t i = 0; i < kLdsLanesPerCycle; ++i) {
                const uint32_t lane = group * kLdsLanesPerCycle + i;
                if (((exec >> lane) & 1) != 0) {
                    seen[n++] = dword_address[lane * dwords + k];
                }
            }
            std::sort(seen, seen + n);
            n = static_cast<uint32_t>(std::unique(seen, seen + n) - seen);
            uint32_t per_bank[kLdsBanks] = {};
            uint32_t most = 0;
            for (uint32_t i = 0; i < n; ++i) {
                most = std::max(most, ++per_bank[seen[i] % kLdsBanks]);
            }
            cycles += most > 1 ? most - 1 : 0;
        }
    }
    return cycles;
}

void count_instruction(Wave& w, const Instruction& in) {
    const OpClass& c = op_classes()[in.op];
    WaveCounts& n = *w.counts;
    uint64_t cycles = c.issue_cycles;
    switch (in.unit) {
    case Unit::valu:
        bump(n, SqCount::insts_valu);
        break;
    case Unit::mfma:
        bump(n, SqCount::insts_valu);
        bump(n, SqCount::insts_mfma);
        ++n.sq[c.mfma];
        break;
    case Unit::salu:
        bump(n, SqCount::insts_salu);
        break;
    case Unit::smem:
        bump(n, SqCount::insts_smem);
        break;
    case Unit::branch:
        bump(n, SqCount::insts_branch);
        break;
    case Unit::vmem_read:
    case Unit::vmem_write:
    case Unit::flat:
        bump(n, c.access == Access::read ? SqCount::insts_vmem_rd : SqCount::insts_vmem_wr);
        if (in.unit == Unit::flat) {
            bump(n, SqCount::insts_flat);
        }
        if ((c.global || c.flat) && count_memory(w, in, c, n)) {
            bump(n, SqCount::insts_lds);
        }
        break;
    case Unit::lds:
        bump(n, SqCount::insts_lds);
        if (c.lds_banked) {
            const uint64_t conflicts = lds_conflicts(w, in, c);
            n.sq[static_cast<int>(SqCount::lds_bank_conflict)] += conflicts;
            cycles += conflicts;
        }
        break;
    case Unit::program:
        break;
    }
    n.cycles += cycles;
}

} // namespace sim::isa
