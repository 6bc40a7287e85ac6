// SPDX-License-Identifier: MIT
#include "elf_loader.h"

#include "agent.h"
#include "allocation_registry.h"
#include "runtime.h"

#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <sys/mman.h>

namespace sim {

namespace {

// Section flags of code object v1/v2 that ROCr still consults for every version (LLVM AMDGPUUsage).
constexpr uint64_t kShfHsaReadonly = 0x00200000; // SHF_AMDGPU_HSA_READONLY
constexpr uint64_t kShfHsaAgent = 0x00800000;    // SHF_AMDGPU_HSA_AGENT

constexpr uint64_t round_up(uint64_t v, uint64_t a) {
    return (v + a - 1) / a * a;
}

uint32_t read32(const uint8_t* p) {
    uint32_t v = 0;
    std::memcpy(&v, p, sizeof(v));
    return v;
}

/// A variable bound to a stand-in instance's storage.
struct Binding {
    uint64_t vaddr = 0;
    uint64_t size = 0;
    void* address = nullptr;
};

/// The address a symbol of an earlier code object of the executable for the same agent resolves to.
bool resolve_external(const Executable& e, const Agent& agent, const std::string& name, uint64_t& address) {
    for (const auto& l : e.code_objects) {
        if (l->agent != &agent) {
            continue;
        }
        for (const auto& s : l->symbols) {
            if (s->name != name) {
                continue;
            }
            address = s->kind == HSA_SYMBOL_KIND_KERNEL ? s->kernel_object
                                                        : reinterpret_cast<uint64_t>(s->variable_address);
            return true;
        }
    }
    return false;
}

} // namespace

hsa_status_t load_elf_code_object(Executable& executable, Agent& agent, const CodeObjectReader& reader,
                                  std::unique_ptr<LoadedCodeObject>& out, std::string& error) {
    elf::CodeObjectImage image;
    hsa_status_t st = elf::parse(reader.bytes.data(), reader.bytes.size(), image, error);
    if (st != HSA_STATUS_SUCCESS) {
        return st;
    }
    // ROCr: LoaderError "code object's ISA (...) is not supported by the agent".
    if (!isa_compatible(image.isa_name.c_str(), kGpuIsaName)) {
        error =
            "code object's ISA (" + image.isa_name + ") is not supported by the agent (" + kGpuIsaName + ")";
        return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
    }
    // ROCr rejects a second definition of a symbol for the same agent.
    for (const elf::ElfSymbol& s : image.symbols) {
        uint64_t ignored = 0;
        if (resolve_external(executable, agent, s.name, ignored)) {
            error = "symbol " + s.name + " is already defined in the executable for this agent";
            return HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
        }
    }

    auto lco = std::make_unique<LoadedCodeObject>();
    lco->executable = &executable;
    lco->agent = &agent;
    lco->uri = reader.uri;
    lco->from_file = reader.from_file;
    lco->file = reader.file;
    lco->memory_base = reader.memory_base;
    lco->memory_size = reader.bytes.size();
    lco->elf = true;

    // One block for the whole image (ROCr: one AMDGPU_HSA_SEGMENT_CODE_AGENT allocation from vaddr 0).
    // Anonymous pages: zero-filled without touching them (a large .bss costs nothing).
    const uint64_t capacity = round_up(image.image_size == 0 ? 1 : image.image_size, 4096);
    void* segment = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (segment == MAP_FAILED) {
        error = "cannot allocate the code object's segment";
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    auto* base = static_cast<uint8_t*>(segment);
    for (const elf::LoadSegment& s : image.segments) {
        std::memcpy(base + s.vaddr, reader.bytes.data() + s.offset, s.file_size);
    }
    lco->segment = segment;
    lco->segment_capacity = capacity;
    lco->load_base = reinterpret_cast<uintptr_t>(segment);
    lco->load_size = image.image_size;
    auto& rt = Runtime::instance();
    {
        Allocation a;
        a.base = reinterpret_cast<uintptr_t>(segment);
        a.size = image.image_size == 0 ? 1 : image.image_size;
        a.capacity = capacity;
        a.source = Allocation::Source::code_object;
        a.type = HSA_EXT_POINTER_TYPE_HSA;
        a.owner = &agent;
        a.global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
        rt.allocations().insert(a);
    }
    // From here on a failure must release what was set up: the registry's unload does.
    auto give_up = [&](hsa_status_t status) {
        ExecutableRegistry::instance().unload(*lco);
        return status;
    };

    // Stand-in instances for the kernels and variables of this object.
    std::vector<std::string> kernel_names, variable_names;
    for (const elf::ElfSymbol& s : image.symbols) {
        if (s.kernel_descriptor) {
            kernel_names.push_back(s.name.substr(0, s.name.size() - 3));
        } else {
            variable_names.push_back(s.name);
        }
    }
    // Stand-ins are loaded only when they execute the kernels; the interpreter runs the code object's
    // own machine code on its own variables.
    const bool standins = rt.config().executor == Executor::standin;
    if (standins) {
        lco->standins = open_standin_instances(kernel_names, variable_names);
    }
    const bool interpret = !standins || lco->standins.empty();
    // The interpreter decodes each executable segment once, for all the kernels whose code it holds.
    std::map<uint64_t, std::shared_ptr<IsaCode>> isa_code; // by segment vaddr

    // Bind variables to the first instance that defines them large enough.
    std::map<std::string, Binding> bindings;
    for (const elf::ElfSymbol& s : image.symbols) {
        if (s.kernel_descriptor) {
            continue;
        }
        for (const auto& inst : lco->standins) {
            const hsa_sim_standin_variable_t* v = inst->find_variable(s.name);
            if (v && v->size >= s.size) {
                bindings[s.name] = {s.vaddr, s.size, v->address};
                break;
            }
        }
    }
    auto redirect = [&](uint64_t vaddr) -> uint64_t {
        for (const auto& [name, b] : bindings) {
            if (b.size && vaddr >= b.vaddr && vaddr < b.vaddr + b.size) {
                return reinterpret_cast<uint64_t>(b.address) + (vaddr - b.vaddr);
            }
        }
        return reinterpret_cast<uint64_t>(base) + vaddr;
    };

    // Dynamic relocations, into the segment (a bound variable's initial bytes are copied afterwards).
    for (const elf::Relocation& r : image.relocations) {
        uint64_t value = 0;
        switch (r.type) {
        case elf::kRelocNone:
            continue;
        case elf::kRelocRelative64:
            value = redirect(static_cast<uint64_t>(r.addend));
            break;
        case elf::kRelocAbs64:
        case elf::kRelocAbs32:
        case elf::kRelocAbs32Lo:
        case elf::kRelocAbs32Hi: {
            uint64_t s = 0;
            if (r.symbol_name.empty()) {
                s = 0;
            } else if (r.symbol_defined) {
                s = redirect(r.symbol_value);
            } else if (!resolve_external(executable, agent, r.symbol_name, s)) {
                error = "symbol " + r.symbol_name + " is undefined";
                return give_up(HSA_STATUS_ERROR_VARIABLE_UNDEFINED);
            }
            value = s + static_cast<uint64_t>(r.addend);
            break;
        }
        default:
            error = "unsupported relocation type " + std::to_string(r.type);
            return give_up(HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
        }
        if (r.type == elf::kRelocAbs64 || r.type == elf::kRelocRelative64) {
            std::memcpy(base + r.offset, &value, sizeof(value));
        } else {
            const uint32_t v32 = r.type == elf::kRelocAbs32Hi ? static_cast<uint32_t>(value >> 32)
                                                              : static_cast<uint32_t>(value);
            std::memcpy(base + r.offset, &v32, sizeof(v32));
        }
    }

    // Symbols.
    for (const elf::ElfSymbol& s : image.symbols) {
        auto sym = std::make_unique<Symbol>();
        sym->elf = true;
        sym->name = s.name;
        sym->agent = &agent;
        sym->code_object = lco.get();
        sym->linkage = s.binding == STB_GLOBAL ? HSA_SYMBOL_LINKAGE_PROGRAM : HSA_SYMBOL_LINKAGE_MODULE;
        if (s.kernel_descriptor) {
            const uint8_t* kd = base + s.vaddr;
            auto ko = std::make_shared<KernelObject>();
            ko->key = reinterpret_cast<uint64_t>(kd);
            ko->name = s.name;
            ko->symbol_name = s.name.substr(0, s.name.size() - 3);
            // amd_kernel_descriptor_t: group_segment_fixed_size @0, private_segment_fixed_size @4,
            // kernarg_size @8 (ROCr reports these, not the metadata's).
            ko->group_segment_size = read32(kd + 0);
            ko->private_segment_size = read32(kd + 4);
            ko->kernarg_segment_size = read32(kd + 8);
            ko->agent = &agent;
            if (const elf::KernelMetadata* md = image.metadata_for(s.name)) {
                ko->metadata = std::make_shared<elf::KernelMetadata>(*md);
            } else {
                ko->metadata = std::make_shared<elf::KernelMetadata>();
            }
            for (const auto& inst : lco->standins) {
                if (const hsa_sim_standin_kernel_t* k = inst->find_kernel(ko->symbol_name)) {
                    ko->standin = k->entry;
                    ko->standin_instance = inst;
                    break;
                }
            }
            // Fault injection, read at each load as HSA_SIM_STANDINS is: a kernel whose symbol name contains
            // HSA_SIM_FAIL_KERNEL fails every dispatch with a queue error, as a faulting kernel does.
            if (const char* fail = std::getenv("HSA_SIM_FAIL_KERNEL"); fail && *fail) {
                ko->injected_failure = ko->symbol_name.find(fail) != std::string::npos;
            }
            // A code object no stand-in library covers (ROCclr's blit program, precompiled library code)
            // runs on the interpreter with either executor: its variables live in its segment, as the
            // interpreter needs them.
            if (interpret) {
                int64_t entry_offset = 0;
                std::memcpy(&entry_offset, kd + 16, sizeof(entry_offset)); // kernel_code_entry_byte_offset
                const uint64_t entry = s.vaddr + static_cast<uint64_t>(entry_offset);
                ko->isa = std::make_shared<IsaKernelSlot>();
                for (const elf::LoadSegment& seg : image.segments) {
                    if (entry >= seg.vaddr && entry < seg.vaddr + seg.mem_size) {
                        auto& code = isa_code[seg.vaddr];
                        if (!code) {
                            const auto begin = reinterpret_cast<uint64_t>(base + seg.vaddr);
                            code = std::make_shared<IsaCode>(begin, begin + seg.mem_size);
                        }
                        ko->isa->code = code;
                    }
                }
            }
            ExecutableRegistry::instance().add_kernel(ko);
            sym->kind = HSA_SYMBOL_KIND_KERNEL;
            sym->kernel = ko;
            sym->kernel_object = ko->key;
            sym->alignment = 16; // ROCr: "minimum HSA required alignment"
            sym->object_size = static_cast<uint32_t>(s.size);
        } else {
            sym->kind = HSA_SYMBOL_KIND_VARIABLE;
            sym->variable_size = s.size;
            sym->allocation = (s.section_flags & kShfHsaAgent) ? HSA_VARIABLE_ALLOCATION_AGENT
                                                               : HSA_VARIABLE_ALLOCATION_PROGRAM;
            sym->segment = (s.section_flags & kShfHsaReadonly) ? HSA_VARIABLE_SEGMENT_READONLY
                                                               : HSA_VARIABLE_SEGMENT_GLOBAL;
            // ROCr 5.2.3 amd_hsa_code.cpp Symbol::IsConst: true when the section is writable.
            sym->constant = (s.section_flags & SHF_WRITE) != 0;
            sym->alignment = static_cast<uint32_t>(s.section_align);
            auto b = bindings.find(s.name);
            if (b != bindings.end()) {
                sym->variable_address = b->second.address;
                if (s.size) {
                    std::memcpy(b->second.address, base + s.vaddr, s.size);
                    Allocation a;
                    a.base = reinterpret_cast<uintptr_t>(b->second.address);
                    a.size = s.size;
                    a.capacity = s.size;
                    a.source = Allocation::Source::code_object;
                    a.type = HSA_EXT_POINTER_TYPE_HSA;
                    a.owner = &agent;
                    a.global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
                    rt.allocations().insert(a);
                    lco->bound_variables.push_back(a.base);
                }
            } else {
                sym->variable_address = base + s.vaddr;
            }
        }
        lco->symbols.push_back(std::move(sym));
    }
    out = std::move(lco);
    return HSA_STATUS_SUCCESS;
}

} // namespace sim
