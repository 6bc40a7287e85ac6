// SPDX-License-Identifier: MIT
// Code objects, executables and symbols (HSA 1.2 §2.9) over simulated code objects
// (sim/include/hsa_sim/code_object.h) and AMDGPU ELF code objects (elf_loader.h).
#include "api.h"
#include "code_object_uri.h"
#include "elf_loader.h"
#include "executable.h"
#include "runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sim::api {

namespace {

CodeObjectReader* reader_of(hsa_code_object_reader_t r) {
    auto* p = reinterpret_cast<CodeObjectReader*>(r.handle);
    return (p && p->magic == CodeObjectReader::kMagic) ? p : nullptr;
}

Symbol* symbol_of(hsa_executable_symbol_t s) {
    auto* p = reinterpret_cast<Symbol*>(s.handle);
    return (p && p->magic == Symbol::kMagic) ? p : nullptr;
}

template <typename T>
hsa_status_t put(void* value, T v) {
    std::memcpy(value, &v, sizeof(T));
    return HSA_STATUS_SUCCESS;
}

/// dlopens a private copy of the code-object bytes (a memfd), so every load has its own instance.
void* open_library(const std::vector<uint8_t>& bytes, std::string& error) {
    int fd = memfd_create("hsa_sim_code_object", MFD_CLOEXEC);
    if (fd < 0) {
        error = "memfd_create failed";
        return nullptr;
    }
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) {
            close(fd);
            error = "cannot write code object";
            return nullptr;
        }
        done += static_cast<size_t>(n);
    }
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        error = dlerror();
    }
    close(fd);
    return lib;
}

/// hsa_executable_symbol_get_info for a symbol of an AMDGPU ELF code object, attribute by attribute as
/// ROCr 5.2.3 answers (src/loader/executable.cpp SymbolImpl/KernelSymbol/VariableSymbol::GetInfo): the
/// address is reported before freezing; KERNEL_OBJECT and VARIABLE_ADDRESS share one answer (the
/// symbol's address) for both kinds; a kernel attribute of a variable, or the reverse, is
/// HSA_STATUS_ERROR_INVALID_ARGUMENT.
hsa_status_t elf_symbol_info(const Symbol& s, hsa_executable_symbol_info_t attribute, void* value) {
    const bool kernel = s.kind == HSA_SYMBOL_KIND_KERNEL;
    const uint64_t address = kernel ? s.kernel_object : reinterpret_cast<uint64_t>(s.variable_address);
    switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
        return put(value, s.kind);
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
        return put<uint32_t>(value, static_cast<uint32_t>(s.name.size()));
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
        std::memcpy(value, s.name.data(), s.name.size());
        return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
        return put<uint32_t>(value, 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
        return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
        return put(value, s.linkage);
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
        return put(value, true);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
        return put<uint32_t>(value, 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
        return put<uint64_t>(value, address);
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
        return put(value, s.agent->handle());
    default:
        break;
    }
    if (kernel) {
        switch (attribute) {
        case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
            return put<uint32_t>(value, s.kernel->kernarg_segment_size);
        case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
            return put<uint32_t>(value, s.alignment);
        case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
            return put<uint32_t>(value, s.kernel->group_segment_size);
        case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
            return put<uint32_t>(value, s.kernel->private_segment_size);
        case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
            return put(value, false); // ROCr: always false for a v3+ kernel descriptor
        default:
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
    }
    switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
        return put(value, s.allocation);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
        return put(value, s.segment);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
        return put<uint32_t>(value, s.alignment);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
        return put<uint32_t>(value, static_cast<uint32_t>(s.variable_size));
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
        return put(value, s.constant);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

} // namespace

hsa_status_t hsa_code_object_reader_create_from_file(hsa_file_t file,
                                                     hsa_code_object_reader_t* code_object_reader) {
    SIM_REQUIRE_INIT();
    if (!code_object_reader) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    struct stat st{};
    if (fstat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        return HSA_STATUS_ERROR_INVALID_FILE;
    }
    auto* r = new CodeObjectReader();
    r->bytes.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < r->bytes.size()) {
        ssize_t n = pread(file, r->bytes.data() + done, r->bytes.size() - done, static_cast<off_t>(done));
        if (n <= 0) {
            delete r;
            return HSA_STATUS_ERROR_INVALID_FILE;
        }
        done += static_cast<size_t>(n);
    }
    r->from_file = true;
    r->file = file;
    r->uri = uri_from_file(file, 0, r->bytes.size(), true, r->bytes.data());
    *code_object_reader = {reinterpret_cast<uint64_t>(r)};
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_create_from_memory(const void* code_object, size_t size,
                                                       hsa_code_object_reader_t* code_object_reader) {
    SIM_REQUIRE_INIT();
    if (!code_object || size == 0 || !code_object_reader) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto* r = new CodeObjectReader();
    const auto* b = static_cast<const uint8_t*>(code_object);
    r->bytes.assign(b, b + size);
    r->memory_base = code_object;
    r->uri = uri_from_memory(code_object, size);
    *code_object_reader = {reinterpret_cast<uint64_t>(r)};
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader) {
    SIM_REQUIRE_INIT();
    CodeObjectReader* r = reader_of(code_object_reader);
    if (!r) {
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
    }
    r->magic = 0;
    delete r;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create_alt(hsa_profile_t profile, hsa_default_float_rounding_mode_t rounding,
                                       const char*, hsa_executable_t* executable) {
    SIM_REQUIRE_INIT();
    if (!executable) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto& reg = ExecutableRegistry::instance();
    auto e = std::make_unique<Executable>();
    e->profile = profile;
    e->rounding = rounding;
    *executable = e->handle();
    std::unique_lock lock(reg.mutex());
    reg.executables().push_back(std::move(e));
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t, const char* options,
                                   hsa_executable_t* executable) {
    return api::hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, options, executable);
}

hsa_status_t hsa_executable_destroy(hsa_executable_t executable) {
    SIM_REQUIRE_INIT();
    auto& reg = ExecutableRegistry::instance();
    std::unique_lock lock(reg.mutex());
    Executable* e = reg.find(executable);
    if (!e) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    }
    for (auto& l : e->code_objects) {
        reg.unload(*l);
    }
    e->magic = 0;
    auto& list = reg.executables();
    for (auto it = list.begin(); it != list.end(); ++it) {
        if (it->get() == e) {
            list.erase(it);
            break;
        }
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent_handle,
                                                   hsa_code_object_reader_t code_object_reader, const char*,
                                                   hsa_loaded_code_object_t* loaded_code_object) {
    SIM_REQUIRE_INIT();
    auto& rt = Runtime::instance();
    Agent* agent = rt.agent(agent_handle);
    if (!agent || !agent->is_gpu()) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    CodeObjectReader* reader = reader_of(code_object_reader);
    if (!reader) {
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
    }
    auto& reg = ExecutableRegistry::instance();
    std::unique_lock lock(reg.mutex());
    Executable* e = reg.find(executable);
    if (!e) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    }
    if (e->frozen) {
        return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
    }
    std::string error;
    if (elf::is_amdgpu_elf(reader->bytes.data(), reader->bytes.size())) {
        std::unique_ptr<LoadedCodeObject> loaded;
        const hsa_status_t st = load_elf_code_object(*e, *agent, *reader, loaded, error);
        if (st != HSA_STATUS_SUCCESS) {
            std::fprintf(stderr, "hsa_sim: LoaderError: %s: %s\n", reader->uri.c_str(), error.c_str());
            return st;
        }
        if (loaded_code_object) {
            *loaded_code_object = loaded->handle();
        }
        e->code_objects.push_back(std::move(loaded));
        return HSA_STATUS_SUCCESS;
    }
    void* lib = open_library(reader->bytes, error);
    if (!lib) {
        std::fprintf(stderr, "hsa_sim: not a simulated code object (%s): %s\n", reader->uri.c_str(),
                     error.c_str());
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    auto entry = reinterpret_cast<hsa_sim_code_object_fn_t>(dlsym(lib, HSA_SIM_CODE_OBJECT_ENTRY));
    const hsa_sim_code_object_t* desc = entry ? entry() : nullptr;
    if (!desc || desc->version != HSA_SIM_CODE_OBJECT_VERSION) {
        dlclose(lib);
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    if (!isa_compatible(desc->isa_name, kGpuIsaName)) {
        dlclose(lib);
        return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
    }
    auto lco = std::make_unique<LoadedCodeObject>();
    lco->executable = e;
    lco->agent = agent;
    lco->uri = reader->uri;
    lco->from_file = reader->from_file;
    lco->file = reader->file;
    lco->memory_base = reader->memory_base;
    lco->memory_size = reader->bytes.size();
    lco->library = lib;
    // Per-agent storage of module-scope variables: owned by the executable, never seen by the
    // allocation entry points, but known to pointer info as device memory of the agent (as ROCr's loader
    // allocates segments through the runtime itself).
    std::vector<void*> addresses;
    for (uint32_t i = 0; i < desc->variable_count; ++i) {
        const hsa_sim_variable_t& v = desc->variables[i];
        size_t bytes = (v.size + 4095) / 4096 * 4096;
        void* storage = std::aligned_alloc(4096, bytes == 0 ? 4096 : bytes);
        if (!storage) {
            reg.unload(*lco);
            return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
        }
        std::memset(storage, 0, bytes == 0 ? 4096 : bytes);
        if (v.initial_bytes && v.size) {
            std::memcpy(storage, v.initial_bytes, v.size);
        }
        lco->variable_storage.push_back(storage);
        lco->variable_sizes.push_back(v.size);
        addresses.push_back(storage);
        Allocation a;
        a.base = reinterpret_cast<uintptr_t>(storage);
        a.size = v.size == 0 ? 1 : v.size;
        a.capacity = bytes;
        a.source = Allocation::Source::code_object;
        a.type = HSA_EXT_POINTER_TYPE_HSA;
        a.owner = agent;
        a.global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
        rt.allocations().insert(a);
        auto sym = std::make_unique<Symbol>();
        sym->kind = HSA_SYMBOL_KIND_VARIABLE;
        sym->name = v.name ? v.name : "";
        sym->agent = agent;
        sym->code_object = lco.get();
        sym->variable_address = storage;
        sym->variable_size = v.size;
        sym->constant = v.kind == HSA_SIM_VARIABLE_CONSTANT;
        lco->symbols.push_back(std::move(sym));
    }
    for (uint32_t i = 0; i < desc->kernel_count; ++i) {
        const hsa_sim_kernel_t& k = desc->kernels[i];
        auto ko = std::make_shared<KernelObject>();
        ko->name = k.name ? k.name : "";
        ko->entry = k.entry;
        ko->kernarg_segment_size = k.kernarg_segment_size;
        ko->group_segment_size = k.group_segment_size;
        ko->private_segment_size = k.private_segment_size;
        ko->variables = addresses;
        ko->agent = agent;
        if (!ko->entry) {
            reg.unload(*lco);
            return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
        }
        reg.add_kernel(ko);
        auto sym = std::make_unique<Symbol>();
        sym->kind = HSA_SYMBOL_KIND_KERNEL;
        sym->name = ko->name;
        sym->agent = agent;
        sym->code_object = lco.get();
        sym->kernel = ko;
        lco->symbols.push_back(std::move(sym));
    }
    if (!lco->variable_storage.empty()) {
        lco->load_base = reinterpret_cast<uintptr_t>(lco->variable_storage.front());
        lco->load_size = 0;
        for (uint64_t s : lco->variable_sizes) {
            lco->load_size += (s + 4095) / 4096 * 4096;
        }
    }
    if (loaded_code_object) {
        *loaded_code_object = lco->handle();
    }
    e->code_objects.push_back(std::move(lco));
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char*) {
    SIM_REQUIRE_INIT();
    auto& reg = ExecutableRegistry::instance();
    std::unique_lock lock(reg.mutex());
    Executable* e = reg.find(executable);
    if (!e) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    }
    if (e->frozen) {
        return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
    }
    e->frozen = true;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_validate_alt(hsa_executable_t executable, const char*, uint32_t* result) {
    SIM_REQUIRE_INIT();
    auto& reg = ExecutableRegistry::instance();
    std::shared_lock lock(reg.mutex());
    if (!reg.find(executable)) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    }
    if (!result) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *result = 0;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
                                     void* value) {
    SIM_REQUIRE_INIT();
    auto& reg = ExecutableRegistry::instance();
    std::shared_lock lock(reg.mutex());
    Executable* e = reg.find(executable);
    if (!e) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    }
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    switch (attribute) {
    case HSA_EXECUTABLE_INFO_PROFILE:
        return put(value, e->profile);
    case HSA_EXECUTABLE_INFO_STATE:
        return put(value, e->frozen ? HSA_EXECUTABLE_STATE_FROZEN : HSA_EXECUTABLE_STATE_UNFROZEN);
    case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
        return put(value, e->rounding);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char* symbol_name,
                                               const hsa_agent_t* agent, hsa_executable_symbol_t* symbol) {
    SIM_REQUIRE_INIT();
    if (!symbol_name || !symbol) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto& reg = ExecutableRegistry::instance();
    std::shared_lock lock(reg.mutex());
    Executable* e = reg.find(executable);
    if (!e) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    }
    for (auto& l : e->code_objects) {
        if (agent && l->agent->handle().handle != agent->handle) {
            continue;
        }
        // ROCr keeps every symbol of a v2+ code object per agent: without an agent none is found.
        if (!agent && l->elf) {
            continue;
        }
        for (auto& s : l->symbols) {
            if (s->name == symbol_name) {
                *symbol = s->handle();
                return HSA_STATUS_SUCCESS;
            }
        }
    }
    return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
}

hsa_status_t hsa_executable_get_symbol(hsa_executable_t executable, const char*, const char* symbol_name,
                                       hsa_agent_t agent, int32_t, hsa_executable_symbol_t* symbol) {
    return api::hsa_executable_get_symbol_by_name(executable, symbol_name, &agent, symbol);
}

hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t executable_symbol,
                                            hsa_executable_symbol_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    Symbol* s = symbol_of(executable_symbol);
    if (!s) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
    }
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (s->elf) {
        return elf_symbol_info(*s, attribute, value);
    }
    const bool kernel = s->kind == HSA_SYMBOL_KIND_KERNEL;
    const bool frozen = s->code_object->executable->frozen;
    switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
        return put(value, s->kind);
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
        return put<uint32_t>(value, static_cast<uint32_t>(s->name.size()));
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
        std::memcpy(value, s->name.data(), s->name.size());
        return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
        return put<uint32_t>(value, 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
        return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
        return put(value, s->agent->handle());
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
        return put(value, HSA_SYMBOL_LINKAGE_PROGRAM);
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
        return put(value, true);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
        // 0 until the executable is frozen (HSA 1.2 §2.9.4).
        return put<uint64_t>(value,
                             (!kernel && frozen) ? reinterpret_cast<uint64_t>(s->variable_address) : 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
        return put(value, HSA_VARIABLE_ALLOCATION_AGENT);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
        return put(value, s->constant ? HSA_VARIABLE_SEGMENT_READONLY : HSA_VARIABLE_SEGMENT_GLOBAL);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
        return put<uint32_t>(value, 16);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
        return put<uint32_t>(value, kernel ? 0 : static_cast<uint32_t>(s->variable_size));
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
        return put(value, !kernel && s->constant);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
        return put<uint64_t>(value, kernel ? reinterpret_cast<uint64_t>(s->kernel.get()) : 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
        return put<uint32_t>(value, kernel ? s->kernel->kernarg_segment_size : 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
        return put<uint32_t>(value, 16);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
        return put<uint32_t>(value, kernel ? s->kernel->group_segment_size : 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
        return put<uint32_t>(value, kernel ? s->kernel->private_segment_size : 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
        return put(value, false);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

namespace {

using SymbolCallback = hsa_status_t (*)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void*);

/// Fault injection (HSA_SIM_REFUSE_SYMBOL_ITERATION): true when symbol iteration of `e` must fail.
bool refuses_iteration(const Executable& e) {
    auto& cfg = Runtime::instance().config();
    for (auto& l : e.code_objects) {
        if (cfg.refuses_symbol_iteration(l->uri)) {
            return true;
        }
    }
    return false;
}

hsa_status_t iterate(hsa_executable_t executable, const hsa_agent_t* agent, SymbolCallback agent_cb,
                     hsa_status_t (*plain_cb)(hsa_executable_t, hsa_executable_symbol_t, void*), void* data) {
    SIM_REQUIRE_INIT();
    if (!agent_cb && !plain_cb) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto& reg = ExecutableRegistry::instance();
    std::vector<std::pair<hsa_agent_t, hsa_executable_symbol_t>> symbols;
    {
        std::shared_lock lock(reg.mutex());
        Executable* e = reg.find(executable);
        if (!e) {
            return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
        }
        if (refuses_iteration(*e)) {
            return HSA_STATUS_ERROR;
        }
        for (auto& l : e->code_objects) {
            if (agent && l->agent->handle().handle != agent->handle) {
                continue;
            }
            for (auto& s : l->symbols) {
                symbols.emplace_back(l->agent->handle(), s->handle());
            }
        }
    }
    // Callbacks run without the registry lock so they may query symbols and executables.
    for (auto& [a, s] : symbols) {
        hsa_status_t st = agent_cb ? agent_cb(executable, a, s, data) : plain_cb(executable, s, data);
        if (st != HSA_STATUS_SUCCESS) {
            return st;
        }
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace

hsa_status_t hsa_executable_iterate_agent_symbols(hsa_executable_t executable, hsa_agent_t agent,
                                                  SymbolCallback callback, void* data) {
    if (!Runtime::instance().agent(agent)) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    return iterate(executable, &agent, callback, nullptr, data);
}

hsa_status_t hsa_executable_iterate_symbols(hsa_executable_t executable,
                                            hsa_status_t (*callback)(hsa_executable_t,
                                                                     hsa_executable_symbol_t, void*),
                                            void* data) {
    return iterate(executable, nullptr, nullptr, callback, data);
}

hsa_status_t hsa_executable_iterate_program_symbols(hsa_executable_t executable,
                                                    hsa_status_t (*callback)(hsa_executable_t,
                                                                             hsa_executable_symbol_t, void*),
                                                    void*) {
    // Simulated code objects have agent-allocation symbols only: there is nothing to iterate, but the
    // fault injection still applies.
    SIM_REQUIRE_INIT();
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto& reg = ExecutableRegistry::instance();
    std::shared_lock lock(reg.mutex());
    Executable* e = reg.find(executable);
    if (!e) {
        return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    }
    return refuses_iteration(*e) ? HSA_STATUS_ERROR : HSA_STATUS_SUCCESS;
}

} // namespace sim::api
