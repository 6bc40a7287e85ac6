// SPDX-License-Identifier: MIT
// The hardware performance counters of one simulated gfx90a agent: what its dispatches' waves counted
// while a profile was started (aqlprofile's START packet) and not yet stopped, device-wide as on the GPU.
// Waves count into a WaveCounts of their own; a wave's counts are folded into the agent's atomics once,
// when its work-group ends, so counting costs one branch per instruction when no profile runs.
// What each count means and how it maps onto the gfx90a counter ids: docs/sim-fidelity.md,
// "Hardware counters (aqlprofile)".
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace sim::isa {

/// Compute units of the simulated agent (an MI210's 104): the TA, TD and TCP instances, one per unit.
inline constexpr uint32_t kPerfComputeUnits = 104;
/// L2 (TCC) channels of an MI210-class die: the TCC instances.
inline constexpr uint32_t kPerfTccChannels = 16;

/// Shader-sequencer (SQ) counts of the whole agent.
enum class SqCount : uint8_t {
    waves,
    insts_valu, ///< VALU instructions, MFMA included (as gfx90a's SQ_INSTS_VALU)
    insts_salu,
    insts_smem,
    insts_vmem_rd, ///< global, buffer, scratch and FLAT loads
    insts_vmem_wr, ///< global, buffer, scratch and FLAT stores and atomics
    insts_lds,     ///< DS instructions, and FLAT instructions with a lane in the shared aperture
    insts_branch,
    insts_flat,
    insts_mfma,
    mfma_i8,
    mfma_f16,
    mfma_bf16,
    mfma_f32,
    mfma_f64,
    lds_bank_conflict, ///< cycles, see perf_events.h
    count
};
inline constexpr int kSqCounts = static_cast<int>(SqCount::count);

/// Counts of one compute unit's texture address (TA) and L1 (TCP) units.
enum class CuCount : uint8_t {
    ta_flat_read_wavefronts,  ///< global/FLAT load instructions the unit's waves issued
    ta_flat_write_wavefronts, ///< global/FLAT store and atomic instructions
    tcp_total_cache_accesses, ///< 64-byte lines the global/FLAT accesses touched, per instruction
    tcp_tcc_read_req,         ///< 64-byte read requests sent to the L2
    tcp_tcc_write_req,        ///< 64-byte write requests sent to the L2
    tcp_tcc_atomic_req,       ///< 64-byte atomic requests sent to the L2
    count
};
inline constexpr int kCuCounts = static_cast<int>(CuCount::count);

/// Counts of one L2 (TCC) channel.
enum class TccCount : uint8_t {
    req,          ///< requests of every kind
    read,         ///< read requests
    write,        ///< write requests
    atomic,       ///< atomic requests
    ea_rdreq,     ///< reads sent on to memory (32- or 64-byte)
    ea_rdreq_32b, ///< of which 32-byte
    ea_wrreq,     ///< writes and atomics sent on to memory (32- or 64-byte)
    ea_wrreq_64b, ///< of which 64-byte
    count
};
inline constexpr int kTccCounts = static_cast<int>(TccCount::count);

/// What one wave counted (all zero at its start). `cycles` is the wave's issue cycles in the
/// interpreter's cycle model (perf_events.h).
struct WaveCounts {
    uint64_t sq[kSqCounts] = {};
    uint64_t cu[kCuCounts] = {};
    uint64_t tcc[kPerfTccChannels][kTccCounts] = {};
    uint64_t cycles = 0;
    bool memory = false; ///< a cu or tcc count is non-zero

    void clear() { *this = WaveCounts{}; }
};

/// One agent's counters. start() zeroes and enables them, stop() freezes them; what folds in between
/// counts. A dispatch takes session() when it starts and passes it back with its counts: counts of a
/// session that has since been stopped or restarted are dropped. Thread-safe (relaxed atomics).
class PerfCounters {
  public:
    /// Zeroes every count and starts a new session (aqlprofile START).
    void start();
    /// Freezes the counts (aqlprofile STOP): nothing folds in until the next start().
    void stop();
    /// The running session's token, 0 when the counters are stopped (one atomic load).
    uint64_t session() const { return session_.load(std::memory_order_acquire); }

    /// Adds a wave's counts, the wave having run on compute unit `cu` (< kPerfComputeUnits).
    void add_wave(uint64_t session, const WaveCounts& counts, uint32_t cu);
    /// Adds a dispatch: its waves and work-groups (SQ_WAVES, the SPI counts) and its duration in the
    /// cycle model (GRBM_COUNT, GRBM_GUI_ACTIVE).
    void add_dispatch(uint64_t session, uint64_t waves, uint64_t work_groups, uint64_t cycles);

    uint64_t sq(SqCount c) const { return load(sq_[static_cast<int>(c)]); }
    uint64_t cu(uint32_t unit, CuCount c) const { return load(cu_[unit][static_cast<int>(c)]); }
    uint64_t tcc(uint32_t channel, TccCount c) const { return load(tcc_[channel][static_cast<int>(c)]); }
    uint64_t work_groups() const { return load(work_groups_); }
    uint64_t cycles() const { return load(cycles_); }

  private:
    static uint64_t load(const std::atomic<uint64_t>& a) { return a.load(std::memory_order_relaxed); }
    static void add(std::atomic<uint64_t>& a, uint64_t v) {
        if (v) {
            a.fetch_add(v, std::memory_order_relaxed);
        }
    }
    bool current(uint64_t session) const { return session != 0 && session == this->session(); }

    std::atomic<uint64_t> session_{0};
    std::atomic<uint64_t> last_session_{0};
    std::array<std::atomic<uint64_t>, kSqCounts> sq_{};
    std::array<std::array<std::atomic<uint64_t>, kCuCounts>, kPerfComputeUnits> cu_{};
    std::array<std::array<std::atomic<uint64_t>, kTccCounts>, kPerfTccChannels> tcc_{};
    std::atomic<uint64_t> work_groups_{0};
    std::atomic<uint64_t> cycles_{0};
};

} // namespace sim::isa
