// SPDX-License-Identifier: MIT
#include "executable_registry.h"

#include "hsa_api.h"

namespace rs::engine {

namespace {

struct KernelScan {
    std::vector<std::pair<uint64_t, ExecutableRegistry::Kernel>> kernels;
};

hsa_status_t collect_kernel(hsa_executable_t, hsa_executable_symbol_t symbol, void* data) {
    auto* scan = static_cast<KernelScan*>(data);
    const auto& core = hsa().core;
    hsa_symbol_kind_t kind{};
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) !=
            HSA_STATUS_SUCCESS ||
        kind != HSA_SYMBOL_KIND_KERNEL) {
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
    kernel.name = std::move(name);
    scan->kernels.emplace_back(object, std::move(kernel));
    return HSA_STATUS_SUCCESS;
}

} // namespace

uint32_t ExecutableRegistry::add(hsa_executable_t exe) {
    KernelScan scan;
    // A refused iteration only loses kernel names (filters then see ""): not an error here.
    (void)hsa().core.hsa_executable_iterate_symbols_fn(exe, collect_kernel, &scan);
    state_.wlock([&](State& s) {
        s.executables.insert(exe.handle);
        ++s.generation;
        for (auto& [object, kernel] : scan.kernels) {
            kernel.executable = exe.handle;
            s.kernels[object] = kernel;
        }
    });
    return static_cast<uint32_t>(scan.kernels.size());
}

void ExecutableRegistry::remove(hsa_executable_t exe) {
    state_.wlock([&](State& s) {
        s.executables.erase(exe.handle);
        ++s.generation;
        for (auto it = s.kernels.begin(); it != s.kernels.end();) {
            if (it->second.executable == exe.handle) {
                it = s.kernels.erase(it);
            } else {
                ++it;
            }
        }
    });
}

void ExecutableRegistry::clear() {
    state_.wlock([](State& s) {
        s.executables.clear();
        s.kernels.clear();
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
