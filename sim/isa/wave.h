// SPDX-License-Identifier: MIT
// The architected state of one wave64 (CDNA2 ISA chapter 3, "Kernel State"): scalar registers by
// hardware encoding, the vector and accumulation registers lane by lane, SCC and the program counter,
// plus what the wave reaches of its work-group (LDS) and dispatch (scratch, apertures).
#pragma once

#include "instruction.h"
#include "program.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace sim::isa {

inline constexpr int kLanes = 64;

/// gws: waiting at ds_gws_barrier or ds_gws_sema_p (Wave::gws_wait says which) until the dispatcher
/// finds the resource released.
enum class WaveStatus : uint8_t { running, barrier, gws, ended, faulted };

/// What a wave in WaveStatus::gws waits for.
enum class GwsWait : uint8_t { none, barrier, semaphore };

class GwsState;
class PerfCounters;
struct WaveCounts;

/// Apertures of the flat address space: a flat address whose high 32 bits equal a base falls into
/// LDS or scratch (CDNA2 ISA §10.1; read by kernels as src_shared_base / src_private_base).
inline constexpr uint64_t kSharedApertureBase = 0x1000000000000ull;
inline constexpr uint64_t kPrivateApertureBase = 0x2000000000000ull;
inline constexpr uint64_t kApertureSize = 0x100000000ull;

/// What every wave of one dispatch shares, read-only while it runs.
struct DispatchContext {
    const Kernel* kernel = nullptr;
    uint64_t kernarg_address = 0;
    uint64_t packet_address = 0; ///< the AQL packet (dispatch pointer)
    uint64_t queue_address = 0;  ///< the hsa_queue_t (queue pointer)
    uint64_t dispatch_id = 0;
    uint8_t* scratch = nullptr;      ///< backing store of every wave slot's private memory
    uint64_t scratch_wave_bytes = 0; ///< private bytes per wave (per lane size x 64, aligned)
    uint32_t private_segment_size = 0;
    uint32_t group_segment_size = 0; ///< LDS bytes per work-group: fixed + dynamic
    uint32_t grid[3] = {1, 1, 1};
    uint32_t workgroup[3] = {1, 1, 1};
    uint32_t dimensions = 1;
    /// The queue's global wave sync resources; null when the queue has none (only ROCr's cooperative
    /// queue has them).
    GwsState* gws = nullptr;
    /// Every work-group is resident at once (the kernel reaches ds_gws_barrier or ds_gws_sema_p), so a
    /// wave may wait for waves of other work-groups.
    bool cooperative = false;
    /// The agent's hardware counters and the session the dispatch counts into (0: not counting).
    PerfCounters* counters = nullptr;
    uint64_t counter_session = 0;
};

struct Wave {
    uint32_t sgpr[kScalarRegisterCount] = {};
    bool scc = false;
    WaveStatus status = WaveStatus::running;
    uint32_t pc = 0; ///< index of the next instruction
    uint32_t (*vgpr)[kLanes] = nullptr;
    uint32_t (*agpr)[kLanes] = nullptr;
    uint32_t vgpr_count = 0; ///< registers addressable as v0.., a0.. (each)
    uint8_t* lds = nullptr;
    uint32_t lds_size = 0;
    uint64_t scratch_offset = 0; ///< this wave's byte offset in DispatchContext::scratch
    uint32_t wave_in_group = 0;
    uint32_t mode = 0; ///< hardware register MODE
    uint32_t trapsts = 0;
    const DispatchContext* dispatch = nullptr;
    const Program* program = nullptr;
    std::string fault; ///< why the wave faulted
    GwsWait gws_wait = GwsWait::none;
    uint32_t gws_resource = 0;   ///< the resource waited on
    uint64_t gws_generation = 0; ///< the barrier generation the wave arrived in
    /// Instructions executed, by unit, and the active lanes summed over VALU instructions.
    uint64_t unit_counts[kUnitCount] = {};
    uint64_t valu_lanes = 0;
    /// Hardware counts of the wave while a profile runs on the agent (perf_events.h), else null.
    WaveCounts* counts = nullptr;
    /// The compute unit the wave's work-group runs on in the cycle model (work-group id modulo 104).
    uint32_t compute_unit = 0;

    uint64_t exec() const { return sgpr[kExecLo] | static_cast<uint64_t>(sgpr[kExecLo + 1]) << 32; }
    void set_exec(uint64_t v) {
        sgpr[kExecLo] = static_cast<uint32_t>(v);
        sgpr[kExecLo + 1] = static_cast<uint32_t>(v >> 32);
    }
    uint64_t vcc() const { return sgpr[kVccLo] | static_cast<uint64_t>(sgpr[kVccLo + 1]) << 32; }
    void set_vcc(uint64_t v) {
        sgpr[kVccLo] = static_cast<uint32_t>(v);
        sgpr[kVccLo + 1] = static_cast<uint32_t>(v >> 32);
    }
    uint64_t sgpr64(uint16_t index) const {
        return sgpr[index] | static_cast<uint64_t>(sgpr[(index + 1) % kScalarRegisterCount]) << 32;
    }
    /// Lane `lane` of VGPR `index` as a pointer to its 64 lanes.
    uint32_t* v(uint16_t index) { return vgpr[index]; }
    uint32_t* a(uint16_t index) { return agpr[index]; }
};

/// Ends the wave with a fault naming the instruction (its mnemonic and address) and `why`.
void fault(Wave& wave, const Instruction& instruction, const std::string& why);

/// Bit-casts between equally wide types.
template <typename To, typename From>
inline To bit_cast(From from) {
    static_assert(sizeof(To) == sizeof(From));
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}

} // namespace sim::isa
