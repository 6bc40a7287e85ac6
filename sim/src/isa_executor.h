// SPDX-License-Identifier: MIT
// Runs the kernels of AMDGPU ELF code objects on the gfx90a interpreter (sim/isa): the executable
// segment of a loaded code object is decoded once, at its first dispatch, and shared by its kernels.
#pragma once

#include <hsa.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace sim {

namespace isa {
struct Program;
struct Kernel;
class GwsState;
class PerfCounters;
} // namespace isa

struct KernelObject;

/// The machine code of one loaded code object's executable segment, decoded on first use.
class IsaCode {
  public:
    /// [begin, end): the segment's loaded address range (stays mapped while the code object is loaded).
    IsaCode(uint64_t begin, uint64_t end) : begin_(begin), end_(end) {}
    /// The decoded program (thread-safe; decoded by the first caller).
    std::shared_ptr<const isa::Program> program();

  private:
    uint64_t begin_, end_;
    std::once_flag once_;
    std::shared_ptr<const isa::Program> program_;
};

/// What a kernel object keeps for the interpreter: its code and, once built, its isa::Kernel.
struct IsaKernelSlot {
    std::shared_ptr<IsaCode> code;
    std::once_flag once;
    std::shared_ptr<const isa::Kernel> kernel;
};

/// Runs one dispatch of `kernel` on the interpreter. Returns HSA_STATUS_SUCCESS; HSA_STATUS_INFO_BREAK
/// when abandoned because `cancelled` became true; HSA_STATUS_ERROR_EXCEPTION when a wave faulted
/// (`error` names the kernel, wave, program counter, instruction and reason);
/// HSA_STATUS_ERROR_INVALID_CODE_OBJECT when the kernel's code cannot be found. `gws` is the queue's
/// global wave sync state (null when the queue has none); `compute_units` the agent's; `counters` the
/// agent's hardware counters (null: none), which the waves count into while a profile runs on them.
hsa_status_t run_isa_kernel(const KernelObject& kernel, const hsa_kernel_dispatch_packet_t& packet,
                            uint64_t queue_address, isa::GwsState* gws, uint32_t compute_units,
                            isa::PerfCounters* counters, const std::function<bool()>& cancelled,
                            std::string& error);

} // namespace sim
