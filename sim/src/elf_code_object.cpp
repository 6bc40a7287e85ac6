// SPDX-License-Identifier: MIT
#include "elf_code_object.h"

#include <gelf.h>
#include <libelf.h>

#define MSGPACK_NO_BOOST
#include <msgpack.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>

namespace sim::elf {

namespace {

constexpr unsigned char kOsAbiAmdgpuHsa = 64;  // ELFOSABI_AMDGPU_HSA
constexpr uint32_t kNoteAmdgpuMetadata = 32;   // NT_AMDGPU_METADATA
constexpr uint32_t kMachMask = 0x0ff;          // EF_AMDGPU_MACH
constexpr uint32_t kXnackV3 = 0x100;           // EF_AMDGPU_FEATURE_XNACK_V3
constexpr uint32_t kSrameccV3 = 0x200;         // EF_AMDGPU_FEATURE_SRAMECC_V3
constexpr uint32_t kXnackMaskV4 = 0x300;       // EF_AMDGPU_FEATURE_XNACK_V4 (OFF 0x200, ON 0x300)
constexpr uint32_t kSrameccMaskV4 = 0xc00;     // EF_AMDGPU_FEATURE_SRAMECC_V4 (OFF 0x800, ON 0xc00)
constexpr uint64_t kMaxImageSize = 1ull << 30; // refuse to "load" more than 1 GiB

struct Processor {
    uint32_t mach;
    const char* name;
    bool sramecc;
    bool xnack;
};

// EF_AMDGPU_MACH_* values (LLVM AMDGPUUsage, "AMDGPU ELF Header"); the feature support columns only
// matter for code object v3 names.
constexpr Processor kProcessors[] = {
    {0x020, "gfx600", false, false},  {0x021, "gfx601", false, false},  {0x03a, "gfx602", false, false},
    {0x022, "gfx700", false, false},  {0x023, "gfx701", false, false},  {0x024, "gfx702", false, false},
    {0x025, "gfx703", false, false},  {0x026, "gfx704", false, false},  {0x03b, "gfx705", false, false},
    {0x028, "gfx801", false, true},   {0x029, "gfx802", false, false},  {0x02a, "gfx803", false, false},
    {0x03c, "gfx805", false, false},  {0x02b, "gfx810", false, true},   {0x02c, "gfx900", false, true},
    {0x02d, "gfx902", false, true},   {0x02e, "gfx904", false, true},   {0x02f, "gfx906", true, true},
    {0x030, "gfx908", true, true},    {0x031, "gfx909", false, true},   {0x032, "gfx90c", false, true},
    {0x03f, "gfx90a", true, true},    {0x040, "gfx940", true, true},    {0x033, "gfx1010", false, true},
    {0x034, "gfx1011", false, true},  {0x035, "gfx1012", false, true},  {0x042, "gfx1013", false, true},
    {0x036, "gfx1030", false, false}, {0x037, "gfx1031", false, false}, {0x038, "gfx1032", false, false},
    {0x039, "gfx1033", false, false}, {0x03e, "gfx1034", false, false}, {0x03d, "gfx1035", false, false},
    {0x045, "gfx1036", false, false}, {0x041, "gfx1100", false, false}, {0x046, "gfx1101", false, false},
    {0x047, "gfx1102", false, false}, {0x044, "gfx1103", false, false},
};

const Processor* processor(uint32_t mach) {
    for (const Processor& p : kProcessors) {
        if (p.mach == mach) {
            return &p;
        }
    }
    return nullptr;
}

bool isa_name_of(uint32_t version, uint32_t flags, std::string& name) {
    const Processor* p = processor(flags & kMachMask);
    if (!p) {
        return false;
    }
    name = std::string("amdgcn-amd-amdhsa--") + p->name;
    if (version == 3) {
        if (flags & kSrameccV3) {
            name += ":sramecc+";
        } else if (p->sramecc) {
            name += ":sramecc-";
        }
        if (flags & kXnackV3) {
            name += ":xnack+";
        } else if (p->xnack) {
            name += ":xnack-";
        }
        return true;
    }
    // v4, v5: "any" and "unsupported" leave the feature out of the name.
    switch (flags & kSrameccMaskV4) {
    case 0x800:
        name += ":sramecc-";
        break;
    case 0xc00:
        name += ":sramecc+";
        break;
    default:
        break;
    }
    switch (flags & kXnackMaskV4) {
    case 0x200:
        name += ":xnack-";
        break;
    case 0x300:
        name += ":xnack+";
        break;
    default:
        break;
    }
    return true;
}

struct ElfCloser {
    void operator()(Elf* e) const { elf_end(e); }
};

bool in_range(uint64_t offset, uint64_t length, uint64_t limit) {
    return offset <= limit && length <= limit - offset;
}

// --- msgpack metadata -------------------------------------------------------------------------------

const msgpack::object* find_key(const msgpack::object& map, std::string_view key) {
    if (map.type != msgpack::type::MAP) {
        return nullptr;
    }
    for (uint32_t i = 0; i < map.via.map.size; ++i) {
        const msgpack::object_kv& kv = map.via.map.ptr[i];
        if (kv.key.type == msgpack::type::STR &&
            std::string_view(kv.key.via.str.ptr, kv.key.via.str.size) == key) {
            return &kv.val;
        }
    }
    return nullptr;
}

bool get_string(const msgpack::object& map, std::string_view key, std::string& out) {
    const msgpack::object* v = find_key(map, key);
    if (!v || v->type != msgpack::type::STR) {
        return false;
    }
    out.assign(v->via.str.ptr, v->via.str.size);
    return true;
}

bool get_uint(const msgpack::object& map, std::string_view key, uint64_t& out) {
    const msgpack::object* v = find_key(map, key);
    if (!v || v->type != msgpack::type::POSITIVE_INTEGER) {
        return false;
    }
    out = v->via.u64;
    return true;
}

uint32_t clamp32(uint64_t v) {
    return v > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                    : static_cast<uint32_t>(v);
}

bool parse_metadata(const char* data, size_t size, std::vector<KernelMetadata>& kernels, std::string& error) {
    try {
        // Limits keep a hostile note from asking for huge containers.
        const msgpack::unpack_limit limit(1u << 16, 1u << 16, 1u << 20, 1u << 20, 1u << 20, 64);
        msgpack::object_handle handle = msgpack::unpack(data, size, nullptr, nullptr, limit);
        const msgpack::object& root = handle.get();
        const msgpack::object* list = find_key(root, "amdhsa.kernels");
        if (!list) {
            return true; // an object without kernels
        }
        if (list->type != msgpack::type::ARRAY) {
            error = "amdhsa.kernels is not an array";
            return false;
        }
        for (uint32_t i = 0; i < list->via.array.size; ++i) {
            const msgpack::object& k = list->via.array.ptr[i];
            KernelMetadata m;
            uint64_t v = 0;
            if (!get_string(k, ".name", m.name) || !get_string(k, ".symbol", m.symbol)) {
                error = "kernel metadata without .name or .symbol";
                return false;
            }
            if (get_uint(k, ".kernarg_segment_size", v)) {
                m.kernarg_segment_size = clamp32(v);
            }
            if (get_uint(k, ".kernarg_segment_align", v)) {
                m.kernarg_segment_align = clamp32(v);
            }
            if (get_uint(k, ".group_segment_fixed_size", v)) {
                m.group_segment_fixed_size = clamp32(v);
            }
            if (get_uint(k, ".private_segment_fixed_size", v)) {
                m.private_segment_fixed_size = clamp32(v);
            }
            if (const msgpack::object* args = find_key(k, ".args")) {
                if (args->type != msgpack::type::ARRAY) {
                    error = "kernel " + m.name + ": .args is not an array";
                    return false;
                }
                for (uint32_t a = 0; a < args->via.array.size; ++a) {
                    const msgpack::object& arg = args->via.array.ptr[a];
                    KernelArg ka;
                    if (!get_uint(arg, ".offset", ka.offset) || !get_uint(arg, ".size", ka.size) ||
                        !get_string(arg, ".value_kind", ka.value_kind)) {
                        error = "kernel " + m.name + ": argument without .offset, .size or .value_kind";
                        return false;
                    }
                    get_string(arg, ".name", ka.name);
                    m.args.push_back(std::move(ka));
                }
            }
            kernels.push_back(std::move(m));
        }
        return true;
    } catch (const std::exception& e) {
        error = std::string("undecodable NT_AMDGPU_METADATA: ") + e.what();
        return false;
    }
}

hsa_status_t fail(std::string& error, std::string reason) {
    error = std::move(reason);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

} // namespace

const KernelArg* KernelMetadata::arg_at(uint64_t offset) const {
    for (const KernelArg& a : args) {
        if (a.offset == offset) {
            return &a;
        }
    }
    return nullptr;
}

const KernelMetadata* CodeObjectImage::metadata_for(std::string_view kd_symbol) const {
    for (const KernelMetadata& k : kernels) {
        if (k.symbol == kd_symbol) {
            return &k;
        }
    }
    return nullptr;
}

bool is_amdgpu_elf(const void* data, size_t size) {
    if (!data || size < sizeof(Elf64_Ehdr)) {
        return false;
    }
    const auto* b = static_cast<const unsigned char*>(data);
    if (std::memcmp(b, ELFMAG, SELFMAG) != 0) {
        return false;
    }
    uint16_t machine = 0;
    std::memcpy(&machine, b + offsetof(Elf64_Ehdr, e_machine), sizeof(machine));
    return machine == kMachineAmdgpu;
}

hsa_status_t parse(const void* data, size_t size, CodeObjectImage& out, std::string& error) {
    out = CodeObjectImage{};
    if (!data || size < sizeof(Elf64_Ehdr)) {
        return fail(error, "shorter than an ELF header");
    }
    const auto* bytes = static_cast<const unsigned char*>(data);
    if (std::memcmp(bytes, ELFMAG, SELFMAG) != 0) {
        return fail(error, "not an ELF image");
    }
    if (bytes[EI_CLASS] != ELFCLASS64 || bytes[EI_DATA] != ELFDATA2LSB) {
        return fail(error, "not a 64-bit little-endian ELF");
    }
    if (bytes[EI_OSABI] != kOsAbiAmdgpuHsa) {
        return fail(error, "OS ABI is not AMDGPU HSA");
    }
    switch (bytes[EI_ABIVERSION]) {
    case 1:
        out.version = 3;
        break;
    case 2:
        out.version = 4;
        break;
    case 3:
        out.version = 5;
        break;
    default:
        return fail(error, "unsupported code object version (ABI version " +
                               std::to_string(bytes[EI_ABIVERSION]) + ")");
    }

    elf_version(EV_CURRENT);
    // libelf wants a mutable image; it works on a private copy so the caller's bytes stay untouched.
    std::vector<char> image(static_cast<const char*>(data), static_cast<const char*>(data) + size);
    std::unique_ptr<Elf, ElfCloser> elf(elf_memory(image.data(), image.size()));
    if (!elf || elf_kind(elf.get()) != ELF_K_ELF) {
        return fail(error, std::string("libelf: ") + elf_errmsg(-1));
    }
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf.get(), &eh)) {
        return fail(error, std::string("libelf: ") + elf_errmsg(-1));
    }
    if (eh.e_machine != kMachineAmdgpu) {
        return fail(error, "e_machine is not EM_AMDGPU");
    }
    if (eh.e_type != ET_DYN) {
        return fail(error, "not a shared object (ET_DYN)");
    }
    out.e_flags = static_cast<uint32_t>(eh.e_flags);
    if (!isa_name_of(out.version, out.e_flags, out.isa_name)) {
        return fail(error, "unknown processor in e_flags");
    }

    // Program headers: PT_LOAD segments, each inside the file, together at most kMaxImageSize.
    size_t phnum = 0;
    if (elf_getphdrnum(elf.get(), &phnum) != 0) {
        return fail(error, std::string("libelf: ") + elf_errmsg(-1));
    }
    if (!in_range(eh.e_phoff, static_cast<uint64_t>(phnum) * sizeof(Elf64_Phdr), size)) {
        return fail(error, "program headers outside the image");
    }
    for (size_t i = 0; i < phnum; ++i) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf.get(), static_cast<int>(i), &ph)) {
            return fail(error, std::string("libelf: ") + elf_errmsg(-1));
        }
        if (ph.p_type != PT_LOAD) {
            continue;
        }
        if (!in_range(ph.p_offset, ph.p_filesz, size)) {
            return fail(error, "PT_LOAD segment outside the file");
        }
        if (ph.p_filesz > ph.p_memsz || !in_range(ph.p_vaddr, ph.p_memsz, kMaxImageSize)) {
            return fail(error, "PT_LOAD segment with impossible sizes or addresses");
        }
        out.segments.push_back({ph.p_vaddr, ph.p_offset, ph.p_filesz, ph.p_memsz});
        out.image_size = std::max<uint64_t>(out.image_size, ph.p_vaddr + ph.p_memsz);
    }
    if (out.segments.empty()) {
        return fail(error, "no PT_LOAD segment");
    }

    size_t shstrndx = 0, shnum = 0;
    if (elf_getshdrstrndx(elf.get(), &shstrndx) != 0 || elf_getshdrnum(elf.get(), &shnum) != 0) {
        return fail(error, std::string("libelf: ") + elf_errmsg(-1));
    }
    {
        GElf_Shdr names;
        Elf_Scn* scn = shstrndx < shnum ? elf_getscn(elf.get(), shstrndx) : nullptr;
        if (!scn || !gelf_getshdr(scn, &names) || names.sh_type != SHT_STRTAB) {
            return fail(error, "section name table index is not a string table");
        }
    }

    // Sections: notes (metadata), the symbol table, dynamic relocations.
    Elf_Scn* symtab = nullptr;
    Elf_Scn* dynsym = nullptr;
    std::vector<Elf_Scn*> relas;
    bool have_metadata = false;
    for (Elf_Scn* scn = elf_nextscn(elf.get(), nullptr); scn; scn = elf_nextscn(elf.get(), scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            return fail(error, std::string("libelf: ") + elf_errmsg(-1));
        }
        if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL && !in_range(sh.sh_offset, sh.sh_size, size)) {
            return fail(error, "section outside the file");
        }
        if (sh.sh_type == SHT_SYMTAB) {
            symtab = scn;
        } else if (sh.sh_type == SHT_DYNSYM) {
            dynsym = scn;
        } else if (sh.sh_type == SHT_RELA) {
            relas.push_back(scn);
        } else if (sh.sh_type == SHT_NOTE) {
            Elf_Data* d = elf_getdata(scn, nullptr);
            if (!d) {
                return fail(error, std::string("libelf: ") + elf_errmsg(-1));
            }
            size_t offset = 0;
            GElf_Nhdr nh;
            size_t name_off = 0, desc_off = 0;
            while (offset < d->d_size) {
                size_t next = gelf_getnote(d, offset, &nh, &name_off, &desc_off);
                if (next == 0) {
                    return fail(error, "malformed note");
                }
                const char* base = static_cast<const char*>(d->d_buf);
                if (nh.n_type == kNoteAmdgpuMetadata && nh.n_namesz == 7 &&
                    std::memcmp(base + name_off, "AMDGPU", 7) == 0) {
                    std::string why;
                    if (!parse_metadata(base + desc_off, nh.n_descsz, out.kernels, why)) {
                        return fail(error, why);
                    }
                    have_metadata = true;
                }
                offset = next;
            }
        }
    }
    if (!have_metadata) {
        return fail(error, "no NT_AMDGPU_METADATA note");
    }

    // Symbols: the full table when present, else the dynamic one (a stripped object).
    Elf_Scn* table = symtab ? symtab : dynsym;
    if (table) {
        GElf_Shdr sh;
        gelf_getshdr(table, &sh);
        Elf_Data* d = elf_getdata(table, nullptr);
        if (!d || sh.sh_entsize != sizeof(Elf64_Sym)) {
            return fail(error, "malformed symbol table");
        }
        const size_t count = d->d_size / sizeof(Elf64_Sym);
        for (size_t i = 1; i < count; ++i) {
            GElf_Sym s;
            if (!gelf_getsym(d, static_cast<int>(i), &s)) {
                return fail(error, "malformed symbol");
            }
            const uint8_t type = GELF_ST_TYPE(s.st_info);
            const uint8_t bind = GELF_ST_BIND(s.st_info);
            if (type != STT_OBJECT && type != STT_COMMON) {
                continue;
            }
            // ROCr skips local non-kernel symbols of v2+ objects (src/loader/executable.cpp).
            if (bind == STB_LOCAL) {
                continue;
            }
            if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE) {
                continue;
            }
            const char* name = elf_strptr(elf.get(), sh.sh_link, s.st_name);
            if (!name) {
                return fail(error, "symbol name outside its string table");
            }
            Elf_Scn* sec = elf_getscn(elf.get(), s.st_shndx);
            GElf_Shdr ssh;
            if (!sec || !gelf_getshdr(sec, &ssh)) {
                return fail(error, std::string("symbol ") + name + " in a missing section");
            }
            if (!in_range(s.st_value, s.st_size, out.image_size)) {
                return fail(error, std::string("symbol ") + name + " outside the loaded segments");
            }
            ElfSymbol es;
            es.name = name;
            es.vaddr = s.st_value;
            es.size = s.st_size;
            es.type = type;
            es.binding = bind;
            es.section_flags = ssh.sh_flags;
            es.section_align = ssh.sh_addralign;
            es.kernel_descriptor = es.name.size() > 3 && es.name.compare(es.name.size() - 3, 3, ".kd") == 0;
            if (es.kernel_descriptor && es.size < 64) {
                return fail(error, "kernel descriptor " + es.name + " shorter than 64 bytes");
            }
            out.symbols.push_back(std::move(es));
        }
    }

    // Dynamic relocations (of the data segment: pointers between variables, say).
    for (Elf_Scn* scn : relas) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        if (!(sh.sh_flags & SHF_ALLOC) && sh.sh_info != 0) {
            continue; // a static relocation section of a relocatable object's section
        }
        if (sh.sh_entsize != sizeof(Elf64_Rela)) {
            return fail(error, "malformed relocation section");
        }
        Elf_Data* d = elf_getdata(scn, nullptr);
        if (!d) {
            return fail(error, std::string("libelf: ") + elf_errmsg(-1));
        }
        Elf_Scn* link = elf_getscn(elf.get(), sh.sh_link);
        GElf_Shdr lsh;
        Elf_Data* syms = nullptr;
        if (link && gelf_getshdr(link, &lsh) && (lsh.sh_type == SHT_DYNSYM || lsh.sh_type == SHT_SYMTAB)) {
            syms = elf_getdata(link, nullptr);
        }
        const size_t count = d->d_size / sizeof(Elf64_Rela);
        for (size_t i = 0; i < count; ++i) {
            GElf_Rela r;
            if (!gelf_getrela(d, static_cast<int>(i), &r)) {
                return fail(error, "malformed relocation");
            }
            Relocation rel;
            rel.offset = r.r_offset;
            rel.type = static_cast<uint32_t>(GELF_R_TYPE(r.r_info));
            rel.addend = r.r_addend;
            if (!in_range(rel.offset, 8, out.image_size)) {
                return fail(error, "relocation outside the loaded segments");
            }
            const auto sym_index = static_cast<size_t>(GELF_R_SYM(r.r_info));
            if (sym_index != 0) {
                GElf_Sym s;
                if (!syms || !gelf_getsym(syms, static_cast<int>(sym_index), &s)) {
                    return fail(error, "relocation names a missing symbol");
                }
                const char* name = elf_strptr(elf.get(), lsh.sh_link, s.st_name);
                if (!name) {
                    return fail(error, "relocation symbol name outside its string table");
                }
                rel.symbol_name = name;
                rel.symbol_value = s.st_value;
                rel.symbol_defined = s.st_shndx != SHN_UNDEF;
            }
            out.relocations.push_back(std::move(rel));
        }
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace sim::elf
