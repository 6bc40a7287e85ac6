// SPDX-License-Identifier: MIT
#include "replayscope/counters/catalogue.h"

#include <array>

namespace rs::counters {

namespace {

// Select values of gfx90a: rocprofiler-sdk source/lib/rocprofiler-sdk/counters/yaml/counter_defs.yaml
// (entries listing gfx90a) and rocprofiler src/core/counters/metrics/basic_counters.xml (<gfx90a>),
// which agree. Instances: an MI210 (8 shader engines, 16 L2 channels, 104 compute units); SQ is read
// per shader engine. Descriptions are ours.
constexpr std::array kGfx90a{
    CounterDef{"SQ_WAVES", CounterBlock::sq, 4, 8, "waves", "Wavefronts sent to the sequencers"},
    CounterDef{"SQ_INSTS_VALU", CounterBlock::sq, 26, 8, "instructions", "Vector ALU instructions issued"},
    CounterDef{"SQ_INSTS_SALU", CounterBlock::sq, 56, 8, "instructions", "Scalar ALU instructions issued"},
    CounterDef{"SQ_INSTS_SMEM", CounterBlock::sq, 57, 8, "instructions", "Scalar memory instructions issued"},
    CounterDef{"SQ_INSTS_VMEM_RD", CounterBlock::sq, 54, 8, "instructions",
               "Vector memory read instructions issued, FLAT included"},
    CounterDef{"SQ_INSTS_VMEM_WR", CounterBlock::sq, 53, 8, "instructions",
               "Vector memory write instructions issued, FLAT included"},
    CounterDef{"SQ_INSTS_VMEM", CounterBlock::sq, 55, 8, "instructions", "Vector memory instructions issued"},
    CounterDef{"SQ_INSTS_LDS", CounterBlock::sq, 60, 8, "instructions",
               "LDS instructions issued, FLAT to LDS included"},
    CounterDef{"SQ_INSTS_BRANCH", CounterBlock::sq, 64, 8, "instructions", "Branch instructions issued"},
    CounterDef{"SQ_INSTS_FLAT", CounterBlock::sq, 58, 8, "instructions", "FLAT instructions issued"},
    CounterDef{"SQ_INSTS_MFMA", CounterBlock::sq, 52, 8, "instructions",
               "Matrix fused multiply-add instructions issued"},
    CounterDef{"SQ_INSTS_VALU_MFMA_I8", CounterBlock::sq, 42, 8, "instructions", "V_MFMA_*_I8 instructions"},
    CounterDef{"SQ_INSTS_VALU_MFMA_F16", CounterBlock::sq, 43, 8, "instructions",
               "V_MFMA_*_F16 instructions"},
    CounterDef{"SQ_INSTS_VALU_MFMA_BF16", CounterBlock::sq, 44, 8, "instructions",
               "V_MFMA_*_BF16 instructions"},
    CounterDef{"SQ_INSTS_VALU_MFMA_F32", CounterBlock::sq, 45, 8, "instructions",
               "V_MFMA_*_F32 instructions"},
    CounterDef{"SQ_INSTS_VALU_MFMA_F64", CounterBlock::sq, 46, 8, "instructions",
               "V_MFMA_*_F64 instructions"},
    CounterDef{"SQ_INSTS_VALU_MFMA_MOPS_I8", CounterBlock::sq, 47, 8, "512 operations",
               "Matrix multiply-add operations on I8 data, in units of 512, full EXEC assumed"},
    CounterDef{"SQ_INSTS_VALU_MFMA_MOPS_F16", CounterBlock::sq, 48, 8, "512 operations",
               "Matrix multiply-add operations on F16 data, in units of 512, full EXEC assumed"},
    CounterDef{"SQ_INSTS_VALU_MFMA_MOPS_BF16", CounterBlock::sq, 49, 8, "512 operations",
               "Matrix multiply-add operations on BF16 data, in units of 512, full EXEC assumed"},
    CounterDef{"SQ_INSTS_VALU_MFMA_MOPS_F32", CounterBlock::sq, 50, 8, "512 operations",
               "Matrix multiply-add operations on F32 data, in units of 512, full EXEC assumed"},
    CounterDef{"SQ_INSTS_VALU_MFMA_MOPS_F64", CounterBlock::sq, 51, 8, "512 operations",
               "Matrix multiply-add operations on F64 data, in units of 512, full EXEC assumed"},
    CounterDef{"SQ_LDS_BANK_CONFLICT", CounterBlock::sq, 121, 8, "cycles",
               "Cycles the LDS stalled on bank conflicts"},
    CounterDef{"GRBM_COUNT", CounterBlock::grbm, 0, 1, "cycles",
               "GPU clock cycles (the counter is tied high)"},
    CounterDef{"GRBM_GUI_ACTIVE", CounterBlock::grbm, 2, 1, "cycles",
               "Cycles the graphics pipeline was busy"},
    CounterDef{"TCC_REQ", CounterBlock::tcc, 3, 16, "requests",
               "L2 requests of every kind, counted at the tags"},
    CounterDef{"TCC_READ", CounterBlock::tcc, 12, 16, "requests", "L2 read requests"},
    CounterDef{"TCC_WRITE", CounterBlock::tcc, 13, 16, "requests", "L2 write requests"},
    CounterDef{"TCC_HIT", CounterBlock::tcc, 17, 16, "requests", "L2 hits"},
    CounterDef{"TCC_MISS", CounterBlock::tcc, 19, 16, "requests",
               "L2 misses (uncached reads count as misses)"},
    CounterDef{"TCC_EA_RDREQ", CounterBlock::tcc, 38, 16, "requests",
               "Read requests (32 or 64 bytes) from L2 to memory"},
    CounterDef{"TCC_EA_WRREQ", CounterBlock::tcc, 26, 16, "requests",
               "Write and atomic requests (32 or 64 bytes) from L2 to memory"},
    CounterDef{"TCP_TOTAL_CACHE_ACCESSES", CounterBlock::tcp, 60, 104, "accesses",
               "Vector L1 cache-line (tag) accesses, hits and misses"},
    CounterDef{"TCP_TCC_READ_REQ", CounterBlock::tcp, 69, 104, "requests",
               "Read requests from vector L1 to L2"},
    CounterDef{"TCP_TCC_WRITE_REQ", CounterBlock::tcp, 70, 104, "requests",
               "Write requests from vector L1 to L2"},
};

} // namespace

std::span<const CounterDef> gfx90a_counters() noexcept {
    return kGfx90a;
}

std::optional<uint32_t> find_counter(std::string_view name) noexcept {
    for (size_t i = 0; i < kGfx90a.size(); ++i) {
        if (kGfx90a[i].name == name) {
            return static_cast<uint32_t>(i);
        }
    }
    return std::nullopt;
}

const CounterDef* counter(uint32_t id) noexcept {
    return id < kGfx90a.size() ? &kGfx90a[id] : nullptr;
}

std::string_view block_name(CounterBlock block) noexcept {
    switch (block) {
    case CounterBlock::grbm:
        return "GRBM";
    case CounterBlock::sq:
        return "SQ";
    case CounterBlock::tcc:
        return "TCC";
    case CounterBlock::tcp:
        return "TCP";
    }
    return "?";
}

uint32_t documented_slots(CounterBlock block) noexcept {
    switch (block) {
    case CounterBlock::sq:
        return 8;
    case CounterBlock::grbm:
        return 2;
    case CounterBlock::tcc:
    case CounterBlock::tcp:
        return 4;
    }
    return 0;
}

} // namespace rs::counters
