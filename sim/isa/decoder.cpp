// SPDX-License-Identifier: MIT
#include "decoder.h"

#include "assembly_reader.h"
#include "op_table.h"
#include "wave.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace sim::isa {

KernelDescriptor KernelDescriptor::read(const void* address) {
    // Layout: AMDGPUUsage, "Kernel Descriptor for GFX6-GFX12".
    const auto* b = static_cast<const uint8_t*>(address);
    KernelDescriptor d;
    std::memcpy(&d.group_segment_fixed_size, b + 0, 4);
    std::memcpy(&d.private_segment_fixed_size, b + 4, 4);
    std::memcpy(&d.kernarg_size, b + 8, 4);
    std::memcpy(&d.kernel_code_entry_byte_offset, b + 16, 8);
    std::memcpy(&d.compute_pgm_rsrc3, b + 44, 4);
    std::memcpy(&d.compute_pgm_rsrc1, b + 48, 4);
    std::memcpy(&d.compute_pgm_rsrc2, b + 52, 4);
    std::memcpy(&d.kernel_code_properties, b + 56, 2);
    return d;
}

uint32_t KernelDescriptor::vgpr_count() const {
    return ((compute_pgm_rsrc1 & 0x3f) + 1) * 8;
}
uint32_t KernelDescriptor::accum_offset() const {
    return ((compute_pgm_rsrc3 & 0x3f) + 1) * 4;
}
uint32_t KernelDescriptor::user_sgpr_count() const {
    return (compute_pgm_rsrc2 >> 1) & 0x1f;
}
bool KernelDescriptor::workgroup_id_enabled(int dimension) const {
    return (compute_pgm_rsrc2 >> (7 + dimension)) & 1;
}
bool KernelDescriptor::workgroup_info_enabled() const {
    return (compute_pgm_rsrc2 >> 10) & 1;
}
bool KernelDescriptor::private_segment_wave_offset_enabled() const {
    return compute_pgm_rsrc2 & 1;
}
uint32_t KernelDescriptor::workitem_id_vgprs() const {
    return (compute_pgm_rsrc2 >> 11) & 3;
}
bool KernelDescriptor::flush_f32_denormals() const {
    return ((compute_pgm_rsrc1 >> 16) & 3) != 3;
}
bool KernelDescriptor::flush_f16_f64_denormals() const {
    return ((compute_pgm_rsrc1 >> 18) & 3) != 3;
}
bool KernelDescriptor::dx10_clamp() const {
    return (compute_pgm_rsrc1 >> 21) & 1;
}
bool KernelDescriptor::ieee_mode() const {
    return (compute_pgm_rsrc1 >> 23) & 1;
}

namespace {

void undecodable(Wave& wave, const Instruction& in) {
    fault(wave, in, "these bytes are not a gfx90a instruction");
}

/// How an instruction matters to the scan of a kernel's reachable code.
enum class Flow : uint8_t {
    other,
    gws,      ///< a ds_gws_* that does not wait
    gws_wait, ///< ds_gws_barrier, ds_gws_sema_p
    jump,     ///< s_branch: no fall-through
    end,      ///< s_endpgm and its kin
    indirect, ///< s_setpc_b64 (no fall-through), s_swappc_b64 (returns)
};

Flow flow_of(const Instruction& in) {
    const OpTable& table = OpTable::instance();
    const OpInfo& info = table.at(in.op);
    if (in.execute != info.execute) {
        return Flow::other; // not decoded into this operation
    }
    const std::string& n = info.name;
    if (n.rfind("ds_gws_", 0) == 0) {
        return n == "ds_gws_barrier" || n == "ds_gws_sema_p" ? Flow::gws_wait : Flow::gws;
    }
    if (n == "s_branch") {
        return Flow::jump;
    }
    if (n == "s_endpgm" || n == "s_endpgm_saved" || n == "s_endpgm_ordered_ps_done" || n == "s_code_end") {
        return Flow::end;
    }
    if (n == "s_setpc_b64" || n == "s_swappc_b64") {
        return Flow::indirect;
    }
    return Flow::other;
}

/// The registers of `file` an instruction names, as one past the highest.
uint32_t registers_named(const Instruction& in, OperandKind file) {
    uint32_t top = 0;
    for (int i = 0; i < in.dst_count; ++i) {
        if (in.dst[i].kind == file) {
            top = std::max<uint32_t>(top, in.dst[i].index + in.dst[i].width);
        }
    }
    for (int i = 0; i < in.src_count; ++i) {
        if (in.src[i].kind == file) {
            top = std::max<uint32_t>(top, in.src[i].index + in.src[i].width);
        }
    }
    return top;
}

} // namespace

std::shared_ptr<const Program> decode_program(uint64_t begin, uint64_t end) {
    auto program = std::make_shared<Program>();
    program->base_address = begin;
    const auto* code = reinterpret_cast<const uint8_t*>(begin);
    const uint64_t length = end > begin ? end - begin : 0;
    program->index_of_dword.assign(length / 4 + 1, -1);
    const OpTable& table = OpTable::instance();
    for (uint64_t at = 0; at + 4 <= length;) {
        DisassembledInstruction d = disassemble(code + at, length - at);
        Instruction in;
        in.address = static_cast<uint32_t>(at);
        if (d.size == 0) {
            d.size = 4;
            d.text = "<undecodable>";
            in.execute = undecodable;
        } else {
            read_assembly(d.text, in);
        }
        in.size = static_cast<uint8_t>(d.size);
        const OpInfo& info = table.at(in.op);
        if (in.execute == info.execute && info.unit == Unit::branch && in.src_count > 0 &&
            in.src[0].kind == OperandKind::constant) {
            // SOPP/SOPK SIMM16 counts dwords from the next instruction (CDNA2 ISA §4.5).
            const int64_t simm = static_cast<int16_t>(static_cast<uint16_t>(in.src[0].value));
            in.simm = static_cast<int64_t>(at) + in.size + simm * 4;
        }
        program->index_of_dword[at / 4] = static_cast<int32_t>(program->code.size());
        program->code.push_back(in);
        program->text.push_back(std::move(d.text));
        at += in.size;
    }
    for (Instruction& in : program->code) {
        const OpInfo& info = table.at(in.op);
        if (info.unit == Unit::branch && in.execute == info.execute) {
            in.simm = in.simm >= 0 ? program->index_at(static_cast<uint64_t>(in.simm)) : -1;
        }
        const Flow flow = flow_of(in);
        program->any_gws = program->any_gws || flow == Flow::gws || flow == Flow::gws_wait;
        program->any_gws_wait = program->any_gws_wait || flow == Flow::gws_wait;
        program->vgprs_named = std::max(program->vgprs_named, registers_named(in, OperandKind::vgpr));
        program->agprs_named = std::max(program->agprs_named, registers_named(in, OperandKind::agpr));
    }
    return program;
}

Kernel make_kernel(std::shared_ptr<const Program> program, uint64_t descriptor_address, std::string name) {
    Kernel k;
    k.name = std::move(name);
    k.descriptor_address = descriptor_address;
    k.descriptor = KernelDescriptor::read(reinterpret_cast<const void*>(descriptor_address));
    const uint64_t entry =
        descriptor_address + static_cast<uint64_t>(k.descriptor.kernel_code_entry_byte_offset);
    k.entry = program ? program->index_at_absolute(entry) : -1;
    k.vgprs = k.descriptor.vgpr_count();
    k.agprs = k.vgprs > k.descriptor.accum_offset() ? k.vgprs - k.descriptor.accum_offset() : 0;
    if (program && k.entry >= 0) {
        // Every instruction reachable from the entry: fall-through, branch and call targets.
        const auto count = static_cast<int32_t>(program->code.size());
        std::vector<bool> seen(program->code.size(), false);
        std::vector<int32_t> pending{k.entry};
        const OpTable& table = OpTable::instance();
        while (!pending.empty()) {
            int32_t i = pending.back();
            pending.pop_back();
            for (; i >= 0 && i < count && !seen[static_cast<size_t>(i)]; ++i) {
                seen[static_cast<size_t>(i)] = true;
                const Instruction& in = program->code[static_cast<size_t>(i)];
                k.vgprs = std::max(k.vgprs, registers_named(in, OperandKind::vgpr));
                k.agprs = std::max(k.agprs, registers_named(in, OperandKind::agpr));
                const Flow flow = flow_of(in);
                k.uses_gws = k.uses_gws || flow == Flow::gws || flow == Flow::gws_wait;
                k.grid_sync = k.grid_sync || flow == Flow::gws_wait;
                k.indirect = k.indirect || flow == Flow::indirect;
                const OpInfo& info = table.at(in.op);
                if (info.unit == Unit::branch && in.execute == info.execute && in.simm >= 0) {
                    pending.push_back(static_cast<int32_t>(in.simm));
                }
                if (flow == Flow::jump || flow == Flow::end ||
                    (flow == Flow::indirect && info.name == "s_setpc_b64")) {
                    break;
                }
            }
        }
        if (k.indirect) {
            // Code reached through a register: what the whole program holds.
            k.uses_gws = k.uses_gws || program->any_gws;
            k.grid_sync = k.grid_sync || program->any_gws_wait;
            k.vgprs = std::max(k.vgprs, program->vgprs_named);
            k.agprs = std::max(k.agprs, program->agprs_named);
        }
    }
    k.program = std::move(program);
    return k;
}

} // namespace sim::isa
