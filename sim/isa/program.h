// SPDX-License-Identifier: MIT
// A kernel's machine code decoded once into the interpreter's compact form, with what its kernel
// descriptor says about the dispatch (LLVM AMDGPUUsage, "Kernel Descriptor" and "Initial Kernel
// Execution State", code object v4/v5, GFX90A).
#pragma once

#include "instruction.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sim::isa {

/// The fields of a 64-byte kernel descriptor the interpreter uses.
struct KernelDescriptor {
    uint32_t group_segment_fixed_size = 0;   ///< bytes of LDS the kernel declares
    uint32_t private_segment_fixed_size = 0; ///< bytes of scratch per work-item
    uint32_t kernarg_size = 0;
    int64_t kernel_code_entry_byte_offset = 0; ///< from the descriptor's address
    uint32_t compute_pgm_rsrc1 = 0, compute_pgm_rsrc2 = 0, compute_pgm_rsrc3 = 0;
    uint16_t kernel_code_properties = 0;

    /// Reads a descriptor at `address` (64 bytes of host-visible memory).
    static KernelDescriptor read(const void* address);

    uint32_t vgpr_count() const;      ///< unified VGPR+AGPR file size, granule 8 (GFX90A)
    uint32_t accum_offset() const;    ///< first AGPR in the unified file (rsrc3 ACCUM_OFFSET)
    uint32_t user_sgpr_count() const; ///< rsrc2 USER_SGPR_COUNT
    bool workgroup_id_enabled(int dimension) const;
    bool workgroup_info_enabled() const;
    bool private_segment_wave_offset_enabled() const;
    uint32_t workitem_id_vgprs() const; ///< rsrc2 ENABLE_VGPR_WORKITEM_ID: 0 x, 1 x y, 2 x y z
    bool flush_f32_denormals() const;   ///< rsrc1 FLOAT_DENORM_MODE_32 flushes
    bool flush_f16_f64_denormals() const;
    bool ieee_mode() const;
    bool dx10_clamp() const;
};

/// The decoded machine code of one code object's executable segment: every kernel and device
/// function in it, decoded once and shared by every dispatch. Immutable once built.
struct Program {
    uint64_t base_address = 0; ///< where the decoded range starts in memory
    std::vector<Instruction> code;
    /// The text LLVM prints for each instruction, for error messages and the decoder's tests.
    std::vector<std::string> text;
    /// Instruction index of each dword of the range, -1 where no instruction starts.
    std::vector<int32_t> index_of_dword;
    /// What the whole range holds, for kernels whose control flow leaves what decoding can follow
    /// (Kernel::indirect): a ds_gws_* instruction; one that waits (ds_gws_barrier, ds_gws_sema_p); the
    /// highest VGPR and AGPR any instruction names, plus one.
    bool any_gws = false;
    bool any_gws_wait = false;
    uint32_t vgprs_named = 0, agprs_named = 0;

    /// The instruction index at byte `address` from base_address, or -1.
    int32_t index_at(uint64_t address) const {
        const uint64_t dword = address / 4;
        return address % 4 == 0 && dword < index_of_dword.size() ? index_of_dword[dword] : -1;
    }
    /// The instruction index at absolute address `address`, or -1.
    int32_t index_at_absolute(uint64_t address) const {
        return address >= base_address ? index_at(address - base_address) : -1;
    }
};

/// A kernel to dispatch: its descriptor and where its code starts in the decoded program.
struct Kernel {
    std::string name;
    uint64_t descriptor_address = 0;
    KernelDescriptor descriptor;
    std::shared_ptr<const Program> program;
    int32_t entry = -1; ///< instruction index of the first instruction, -1 when not decodable
    /// Found at decode time over the instructions reachable from the entry (branches and calls
    /// followed; an indirect jump or call sets `indirect`, and the program's facts then stand in): the
    /// kernel uses GWS; it waits at ds_gws_barrier or ds_gws_sema_p, so its work-groups must all be
    /// resident at once; the VGPRs and AGPRs its instructions name (at least the descriptor's).
    bool uses_gws = false;
    bool grid_sync = false;
    bool indirect = false;
    uint32_t vgprs = 0, agprs = 0;
};

} // namespace sim::isa
