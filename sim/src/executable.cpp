// SPDX-License-Identifier: MIT
#include "executable.h"

#include "allocation_registry.h"
#include "runtime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace sim {

ExecutableRegistry& ExecutableRegistry::instance() {
    static ExecutableRegistry* r = new ExecutableRegistry();
    return *r;
}

Executable* ExecutableRegistry::find(hsa_executable_t handle) {
    for (auto& e : executables_) {
        if (reinterpret_cast<uint64_t>(e.get()) == handle.handle) {
            return e.get();
        }
    }
    return nullptr;
}

LoadedCodeObject* ExecutableRegistry::find(hsa_loaded_code_object_t handle) {
    for (auto& e : executables_) {
        for (auto& l : e->code_objects) {
            if (reinterpret_cast<uint64_t>(l.get()) == handle.handle) {
                return l.get();
            }
        }
    }
    return nullptr;
}

std::shared_ptr<KernelObject> ExecutableRegistry::find_kernel(uint64_t kernel_object) {
    std::shared_lock lock(kernels_mutex_);
    auto it = kernels_.find(kernel_object);
    return it == kernels_.end() ? nullptr : it->second;
}

void ExecutableRegistry::add_kernel(const std::shared_ptr<KernelObject>& k) {
    std::unique_lock lock(kernels_mutex_);
    kernels_[k->handle()] = k;
}

void ExecutableRegistry::remove_kernel(const KernelObject* k) {
    std::unique_lock lock(kernels_mutex_);
    kernels_.erase(k->handle());
}

void ExecutableRegistry::unload(LoadedCodeObject& lco) {
    for (auto& s : lco.symbols) {
        if (s->kernel) {
            remove_kernel(s->kernel.get());
        }
        s->magic = 0;
    }
    auto& allocations = Runtime::instance().allocations();
    for (void* storage : lco.variable_storage) {
        allocations.erase(reinterpret_cast<uintptr_t>(storage));
        std::free(storage);
    }
    lco.variable_storage.clear();
    for (uintptr_t base : lco.bound_variables) {
        allocations.erase(base);
    }
    lco.bound_variables.clear();
    if (lco.segment) {
        allocations.erase(reinterpret_cast<uintptr_t>(lco.segment));
        munmap(lco.segment, lco.segment_capacity);
        lco.segment = nullptr;
    }
    lco.standins.clear(); // a running dispatch keeps its instance through its kernel object
    if (lco.library) {
        dlclose(lco.library);
    }
    lco.library = nullptr;
    lco.magic = 0;
}

void ExecutableRegistry::destroy_all() {
    std::unique_lock lock(mutex_);
    for (auto& e : executables_) {
        for (auto& l : e->code_objects) {
            unload(*l);
        }
        e->magic = 0;
    }
    executables_.clear();
}

} // namespace sim
