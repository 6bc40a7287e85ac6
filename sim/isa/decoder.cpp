// SPDX-License-Identifier: MIT
#include "decoder.h"

#include "assembly_reader.h"
#include "op_table.h"
#include "wave.h"

#include <cstring>

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
    k.program = std::move(program);
    return k;
}

} // namespace sim::isa
