// SPDX-License-Identifier: MIT
// AMDGPU ELF code objects (code object v3, v4, v5) as hipcc and comgr write them: the parts the simulated
// loader needs, read with libelf and (for the NT_AMDGPU_METADATA note) msgpack-c. Everything is
// bounds-checked: a malformed image yields an error, never an out-of-range read. See docs/sim-fidelity.md.
#pragma once

#include <hsa.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sim::elf {

/// e_machine of AMDGPU code objects.
inline constexpr uint16_t kMachineAmdgpu = 0xe0;

/// One `.args` entry of a kernel's metadata (offsets and sizes in bytes within the kernarg segment).
struct KernelArg {
    uint64_t offset = 0;
    uint64_t size = 0;
    std::string value_kind; ///< e.g. "global_buffer", "by_value", "hidden_global_offset_x"
    std::string name;       ///< ".name" when present (absent in stripped metadata)
};

/// One entry of `amdhsa.kernels` in the NT_AMDGPU_METADATA note.
struct KernelMetadata {
    std::string name;   ///< ".name", the kernel's source-level name
    std::string symbol; ///< ".symbol", the kernel descriptor's symbol, e.g. "vadd.kd"
    uint32_t kernarg_segment_size = 0;
    uint32_t kernarg_segment_align = 0;
    uint32_t group_segment_fixed_size = 0;
    uint32_t private_segment_fixed_size = 0;
    std::vector<KernelArg> args;

    /// The argument whose byte offset is `offset`, or nullptr.
    const KernelArg* arg_at(uint64_t offset) const;
};

/// A PT_LOAD program header (file range copied to `vaddr`, the rest up to `mem_size` zeroed).
struct LoadSegment {
    uint64_t vaddr = 0;
    uint64_t offset = 0;
    uint64_t file_size = 0;
    uint64_t mem_size = 0;
};

/// A defined STT_OBJECT / STT_COMMON symbol of the symbol table (kernel descriptors and variables).
struct ElfSymbol {
    std::string name;
    uint64_t vaddr = 0;
    uint64_t size = 0;
    uint8_t type = 0;               ///< STT_*
    uint8_t binding = 0;            ///< STB_*
    uint64_t section_flags = 0;     ///< sh_flags of the section holding it
    uint64_t section_align = 0;     ///< sh_addralign of that section
    bool kernel_descriptor = false; ///< name ends in ".kd" (code object v3+ kernel)
};

/// One entry of a dynamic relocation section (SHT_RELA).
struct Relocation {
    uint64_t offset = 0; ///< virtual address patched
    uint32_t type = 0;   ///< R_AMDGPU_*
    int64_t addend = 0;
    std::string symbol_name; ///< empty when the relocation names no symbol
    uint64_t symbol_value = 0;
    bool symbol_defined = false;
};

/// R_AMDGPU_* relocation types the loader applies (LLVM AMDGPUUsage, "Relocation Records").
enum RelocationType : uint32_t {
    kRelocNone = 0,
    kRelocAbs32Lo = 1,
    kRelocAbs32Hi = 2,
    kRelocAbs64 = 3,
    kRelocAbs32 = 6,
    kRelocRelative64 = 13,
};

/// What the loader needs of one code object image.
struct CodeObjectImage {
    uint32_t version = 0; ///< code object major version: 3, 4 or 5
    uint32_t e_flags = 0;
    std::string isa_name; ///< e.g. "amdgcn-amd-amdhsa--gfx90a", features as the object names them
    std::vector<LoadSegment> segments;
    uint64_t image_size = 0; ///< end of the last PT_LOAD segment in memory (bytes from vaddr 0)
    std::vector<ElfSymbol> symbols;
    std::vector<Relocation> relocations;
    std::vector<KernelMetadata> kernels;

    /// The metadata of the kernel whose descriptor symbol is `kd_symbol` ("name.kd"), or nullptr.
    const KernelMetadata* metadata_for(std::string_view kd_symbol) const;
};

/// True when `data` starts like an AMDGPU ELF (ELF magic and e_machine EM_AMDGPU); `size` in bytes.
bool is_amdgpu_elf(const void* data, size_t size);

/// Parses an AMDGPU ELF image of `size` bytes. Returns HSA_STATUS_SUCCESS with `out` filled, or
/// HSA_STATUS_ERROR_INVALID_CODE_OBJECT with a reason in `error` for anything malformed or unsupported
/// (not ELF64 little-endian ET_DYN EM_AMDGPU, OS ABI not AMDHSA, code object version outside 3..5,
/// unknown processor, a segment, section, symbol, note or relocation outside the image or the loaded
/// range, undecodable metadata). ISA names are formed as ROCr 5.2.3 forms them
/// (src/libamdhsacode/amd_hsa_code.cpp AmdHsaCode::GetIsa).
hsa_status_t parse(const void* data, size_t size, CodeObjectImage& out, std::string& error);

} // namespace sim::elf
