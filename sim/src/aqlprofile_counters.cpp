// SPDX-License-Identifier: MIT
#include "aqlprofile_counters.h"

#include "perf_counters.h"

#include <array>

namespace sim {

namespace {

using isa::CuCount;
using isa::SqCount;
using isa::TccCount;

// Counter registers per block: ROCm aqlprofile's gfx9 block tables (gfx9_block_info.h), which also
// serve gfx90a. Instances: one for the blocks aqlprofile addresses per shader engine or once, the
// compute-unit count for TA, TD and TCP, 2 TCA and 16 TCC (L2 channels of an MI210-class die).
constexpr std::array<CounterBlock, 14> kBlocks = {{
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_CPC, "CPC", 2, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_CPF, "CPF", 2, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GDS, "GDS", 4, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM, "GRBM", 2, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBMSE, "GRBMSE", 4, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SPI, "SPI", 6, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQ, "SQ", 8, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQCS, "SQCS", 8, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SX, "SX", 4, 1},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TA, "TA", 2, isa::kPerfComputeUnits},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCA, "TCA", 4, 2},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC, "TCC", 4, isa::kPerfTccChannels},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP, "TCP", 4, isa::kPerfComputeUnits},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TD, "TD", 2, isa::kPerfComputeUnits},
}};

// Select values of gfx90a (rocprofiler-sdk counter_defs.yaml, block and event per counter name).
enum SqEventId : uint32_t {
    kSqWaves = 4,              // SQ_WAVES
    kSqInstsValu = 26,         // SQ_INSTS_VALU
    kSqInstsValuMfmaI8 = 42,   // SQ_INSTS_VALU_MFMA_I8
    kSqInstsValuMfmaF16 = 43,  // SQ_INSTS_VALU_MFMA_F16
    kSqInstsValuMfmaBf16 = 44, // SQ_INSTS_VALU_MFMA_BF16
    kSqInstsValuMfmaF32 = 45,  // SQ_INSTS_VALU_MFMA_F32
    kSqInstsValuMfmaF64 = 46,  // SQ_INSTS_VALU_MFMA_F64
    kSqInstsMfma = 52,         // SQ_INSTS_MFMA
    kSqInstsVmemWr = 53,       // SQ_INSTS_VMEM_WR
    kSqInstsVmemRd = 54,       // SQ_INSTS_VMEM_RD
    kSqInstsSalu = 56,         // SQ_INSTS_SALU
    kSqInstsSmem = 57,         // SQ_INSTS_SMEM
    kSqInstsFlat = 58,         // SQ_INSTS_FLAT
    kSqInstsLds = 60,          // SQ_INSTS_LDS
    kSqInstsBranch = 64,       // SQ_INSTS_BRANCH
    kSqLdsBankConflict = 121,  // SQ_LDS_BANK_CONFLICT
};
enum OtherEventId : uint32_t {
    kGrbmCount = 0,               // GRBM_COUNT
    kGrbmGuiActive = 2,           // GRBM_GUI_ACTIVE
    kSpiCsnNumThreadgroups = 49,  // SPI_CSN_NUM_THREADGROUPS
    kSpiCsnWave = 52,             // SPI_CSN_WAVE
    kTaFlatReadWavefronts = 101,  // TA_FLAT_READ_WAVEFRONTS
    kTaFlatWriteWavefronts = 102, // TA_FLAT_WRITE_WAVEFRONTS
    kTcpTotalCacheAccesses = 60,  // TCP_TOTAL_CACHE_ACCESSES
    kTcpTccReadReq = 69,          // TCP_TCC_READ_REQ
    kTcpTccWriteReq = 70,         // TCP_TCC_WRITE_REQ
    kTccReq = 3,                  // TCC_REQ
    kTccRead = 12,                // TCC_READ
    kTccWrite = 13,               // TCC_WRITE
    kTccAtomic = 14,              // TCC_ATOMIC
    kTccEaWrreq = 26,             // TCC_EA_WRREQ
    kTccEaWrreq64b = 27,          // TCC_EA_WRREQ_64B
    kTccEaRdreq = 38,             // TCC_EA_RDREQ
    kTccEaRdreq32b = 39,          // TCC_EA_RDREQ_32B
};

struct SqEvent {
    uint32_t id;
    SqCount count;
};
constexpr std::array<SqEvent, 16> kSqEvents = {{
    {kSqWaves, SqCount::waves},
    {kSqInstsValu, SqCount::insts_valu},
    {kSqInstsValuMfmaI8, SqCount::mfma_i8},
    {kSqInstsValuMfmaF16, SqCount::mfma_f16},
    {kSqInstsValuMfmaBf16, SqCount::mfma_bf16},
    {kSqInstsValuMfmaF32, SqCount::mfma_f32},
    {kSqInstsValuMfmaF64, SqCount::mfma_f64},
    {kSqInstsMfma, SqCount::insts_mfma},
    {kSqInstsVmemWr, SqCount::insts_vmem_wr},
    {kSqInstsVmemRd, SqCount::insts_vmem_rd},
    {kSqInstsSalu, SqCount::insts_salu},
    {kSqInstsSmem, SqCount::insts_smem},
    {kSqInstsFlat, SqCount::insts_flat},
    {kSqInstsLds, SqCount::insts_lds},
    {kSqInstsBranch, SqCount::insts_branch},
    {kSqLdsBankConflict, SqCount::lds_bank_conflict},
}};

struct CuEvent {
    hsa_ven_amd_aqlprofile_block_name_t block;
    uint32_t id;
    CuCount count;
};
constexpr std::array<CuEvent, 5> kCuEvents = {{
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TA, kTaFlatReadWavefronts, CuCount::ta_flat_read_wavefronts},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TA, kTaFlatWriteWavefronts, CuCount::ta_flat_write_wavefronts},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP, kTcpTotalCacheAccesses, CuCount::tcp_total_cache_accesses},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP, kTcpTccReadReq, CuCount::tcp_tcc_read_req},
    {HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP, kTcpTccWriteReq, CuCount::tcp_tcc_write_req},
}};

struct TccEvent {
    uint32_t id;
    TccCount count;
};
constexpr std::array<TccEvent, 8> kTccEvents = {{
    {kTccReq, TccCount::req},
    {kTccRead, TccCount::read},
    {kTccWrite, TccCount::write},
    {kTccAtomic, TccCount::atomic},
    {kTccEaWrreq, TccCount::ea_wrreq},
    {kTccEaWrreq64b, TccCount::ea_wrreq_64b},
    {kTccEaRdreq, TccCount::ea_rdreq},
    {kTccEaRdreq32b, TccCount::ea_rdreq_32b},
}};

const SqEvent* find_sq(uint32_t id) {
    for (const auto& e : kSqEvents) {
        if (e.id == id) {
            return &e;
        }
    }
    return nullptr;
}

const CuEvent* find_cu(uint32_t block, uint32_t id) {
    for (const auto& e : kCuEvents) {
        if (static_cast<uint32_t>(e.block) == block && e.id == id) {
            return &e;
        }
    }
    return nullptr;
}

const TccEvent* find_tcc(uint32_t id) {
    for (const auto& e : kTccEvents) {
        if (e.id == id) {
            return &e;
        }
    }
    return nullptr;
}

} // namespace

const CounterBlock* find_counter_block(uint32_t id) {
    for (const auto& b : kBlocks) {
        if (static_cast<uint32_t>(b.id) == id) {
            return &b;
        }
    }
    return nullptr;
}

const CounterBlock* find_counter_block(std::string_view name) {
    for (const auto& b : kBlocks) {
        if (name == b.name) {
            return &b;
        }
    }
    return nullptr;
}

bool counter_event_valid(const hsa_ven_amd_aqlprofile_event_t& event) {
    const CounterBlock* block = find_counter_block(static_cast<uint32_t>(event.block_name));
    if (!block || event.block_index >= block->instances) {
        return false;
    }
    switch (event.block_name) {
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQ:
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQCS:
        return find_sq(event.counter_id) != nullptr;
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM:
        return event.counter_id == kGrbmCount || event.counter_id == kGrbmGuiActive;
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SPI:
        return event.counter_id == kSpiCsnWave || event.counter_id == kSpiCsnNumThreadgroups;
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TA:
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP:
        return find_cu(static_cast<uint32_t>(event.block_name), event.counter_id) != nullptr;
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC:
        return find_tcc(event.counter_id) != nullptr;
    default:
        return false;
    }
}

uint64_t read_counter_event(const isa::PerfCounters& counters, const hsa_ven_amd_aqlprofile_event_t& event) {
    if (!counter_event_valid(event)) {
        return 0;
    }
    switch (event.block_name) {
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQ:
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQCS: {
        const SqEvent* e = find_sq(event.counter_id);
        return e ? counters.sq(e->count) : 0;
    }
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM:
        // The GPU is busy exactly while a dispatch runs in the cycle model, so the free-running clock
        // count and the busy count agree.
        return counters.cycles();
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SPI:
        return event.counter_id == kSpiCsnWave ? counters.sq(SqCount::waves) : counters.work_groups();
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TA:
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP: {
        const CuEvent* e = find_cu(static_cast<uint32_t>(event.block_name), event.counter_id);
        return e ? counters.cu(event.block_index, e->count) : 0;
    }
    case HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC: {
        const TccEvent* e = find_tcc(event.counter_id);
        return e ? counters.tcc(event.block_index, e->count) : 0;
    }
    default:
        return 0;
    }
}

} // namespace sim
