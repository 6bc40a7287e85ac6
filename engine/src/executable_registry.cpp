// SPDX-License-Identifier: MIT
#include "executable_registry.h"

#include "hsa_api.h"
#include "kernel_metadata.h"
#include "memory_snapshot.h"

#include <replayscope/session/kernel_name.h>

#include <string_view>

namespace rs::engine {

namespace {

struct KernelScan {
    std::vector<std::pair<uint64_t, ExecutableRegistry::Kernel>> kernels;
    std::vector<ExecutableRegistry::Variable> oversized;
};

void note_variable(hsa_executable_symbol_t symbol, KernelScan& scan) {
    const auto& core = hsa().core;
    uint32_t size = 0;
    uint64_t address = 0;
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &size) ==
            HSA_STATUS_SUCCESS &&
        size > kMaxModuleVariableBytes &&
        core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                               &address) == HSA_STATUS_SUCCESS &&
        address != 0) {
        scan.oversized.push_back({address, size});
    }
}

hsa_status_t collect_kernel(hsa_executable_t, hsa_executable_symbol_t symbol, void* data) {
    auto* scan = static_cast<KernelScan*>(data);
    const auto& core = hsa().core;
    hsa_symbol_kind_t kind{};
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) !=
        HSA_STATUS_SUCCESS) {
        return HSA_STATUS_SUCCESS;
    }
    if (kind == HSA_SYMBOL_KIND_VARIABLE) {
        note_variable(symbol, *scan);
        return HSA_STATUS_SUCCESS;
    }
    if (kind != HSA_SYMBOL_KIND_KERNEL) {
        return HSA_STATUS_SUCCESS;
    }
    uint64_t object = 0;
    uint32_t length = 0;
    ExecutableRegistry::Kernel kernel;
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                               &kernel.kernarg_size) != HSA_STATUS_SUCCESS) {
        kernel.kernarg_size = 0;
    }
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object) !=
            HSA_STATUS_SUCCESS ||
        core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &length) !=
            HSA_STATUS_SUCCESS) {
        return HSA_STATUS_SUCCESS;
    }
    std::string name(length, '\0');
    if (length > 0 && core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME,
                                                             name.data()) != HSA_STATUS_SUCCESS) {
        name.clear();
    }
    kernel.shown = rs::session::kernel_display_name(name, rs::session::KernelNameStyle::demangled);
    kernel.name = std::move(name);
    scan->kernels.emplace_back(object, std::move(kernel));
    return HSA_STATUS_SUCCESS;
}

hsa_status_t collect_metadata(hsa_executable_t, hsa_loaded_code_object_t object, void* data) {
    auto* out = static_cast<ReadOnlyArguments*>(data);
    const auto get = hsa().loader.hsa_ven_amd_loader_loaded_code_object_get_info;
    uint32_t storage = 0;
    uint64_t base = 0;
    uint64_t size = 0;
    // Only code objects loaded from memory: a file's descriptor may be closed or moved by now.
    if (get(object, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE, &storage) !=
            HSA_STATUS_SUCCESS ||
        storage != HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY ||
        get(object, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE, &base) !=
            HSA_STATUS_SUCCESS ||
        get(object, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE, &size) !=
            HSA_STATUS_SUCCESS ||
        base == 0) {
        return HSA_STATUS_SUCCESS;
    }
    // One executable holds one code object per agent, all from the same source: the first one counts.
    out->merge(read_only_arguments(reinterpret_cast<const void*>(base), size));
    return HSA_STATUS_SUCCESS;
}

/// The read-only pointer arguments of every kernel of `exe` (empty without the loader extension).
ReadOnlyArguments executable_read_only_arguments(hsa_executable_t exe) {
    ReadOnlyArguments out;
    const HsaApi& api = hsa();
    if (api.has_loader && api.loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects &&
        api.loader.hsa_ven_amd_loader_loaded_code_object_get_info) {
        (void)api.loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(exe, collect_metadata,
                                                                                   &out);
    }
    return out;
}

} // namespace

uint32_t ExecutableRegistry::add(hsa_executable_t exe, std::vector<Variable>& oversized) {
    KernelScan scan;
    // A refused iteration only loses kernel names (filters then see ""): not an error here.
    (void)hsa().core.hsa_executable_iterate_symbols_fn(exe, collect_kernel, &scan);
    const ReadOnlyArguments read_only = executable_read_only_arguments(exe);
    for (auto& [object, kernel] : scan.kernels) {
        std::string_view name = kernel.name;
        if (name.size() > 3 && name.substr(name.size() - 3) == ".kd") {
            name.remove_suffix(3);
        }
        if (auto it = read_only.find(std::string(name)); it != read_only.end()) {
            kernel.read_only_pointers = std::make_shared<const std::vector<uint32_t>>(it->second);
        }
        kernel.unrestorable_variable = !scan.oversized.empty();
        kernel.dispatches = std::make_shared<std::atomic<uint64_t>>(0); // a fresh count per load
    }
    state_.wlock([&](State& s) {
        s.executables.insert(exe.handle);
        ++s.generation;
        for (auto& [object, kernel] : scan.kernels) {
            kernel.executable = exe.handle;
            s.kernels[object] = kernel;
        }
        if (!scan.oversized.empty()) {
            s.oversized[exe.handle] = scan.oversized;
        }
    });
    oversized = std::move(scan.oversized);
    return static_cast<uint32_t>(scan.kernels.size());
}

std::vector<ExecutableRegistry::Variable> ExecutableRegistry::remove(hsa_executable_t exe) {
    return state_.wlock([&](State& s) {
        std::vector<Variable> oversized;
        if (auto it = s.oversized.find(exe.handle); it != s.oversized.end()) {
            oversized = std::move(it->second);
            s.oversized.erase(it);
        }
        s.executables.erase(exe.handle);
        ++s.generation;
        for (auto it = s.kernels.begin(); it != s.kernels.end();) {
            if (it->second.executable == exe.handle) {
                it = s.kernels.erase(it);
            } else {
                ++it;
            }
        }
        return oversized;
    });
}

void ExecutableRegistry::clear() {
    state_.wlock([](State& s) {
        s.executables.clear();
        s.kernels.clear();
        s.oversized.clear();
        ++s.generation;
    });
}

ExecutableRegistry::Kernel ExecutableRegistry::kernel(uint64_t kernel_object) const {
    return state_.rlock([&](const State& s) {
        auto it = s.kernels.find(kernel_object);
        return it == s.kernels.end() ? Kernel{} : it->second;
    });
}

} // namespace rs::engine
