// SPDX-License-Identifier: MIT
// Code-object readers, executables, loaded code objects and symbols of the simulator
// (HSA 1.2 §2.9; hsa_ven_amd_loader.h for the loaded-code-object view).
#pragma once

#include "elf_code_object.h"
#include "hsa_sim/code_object.h"
#include "isa_executor.h"
#include "standin_registry.h"

#include <hsa.h>
#include <hsa_ven_amd_loader.h>

#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace sim {

struct Agent;
struct Executable;
struct LoadedCodeObject;

/// What a kernel-dispatch packet's kernel_object names: for a simulated code object a host entry point
/// plus the variable addresses of its executable for one agent (the handle is this object's address);
/// for an AMDGPU ELF code object its stand-in or the interpreter's view of it (the handle is the address of
/// the loaded kernel descriptor, `key`).
struct KernelObject {
    static constexpr uint64_t kMagic = 0x6873615f6b65726eull; // "hsa_kern"
    uint64_t magic = kMagic;
    std::string name;
    hsa_sim_kernel_fn_t entry = nullptr;
    uint32_t kernarg_segment_size = 0;
    uint32_t group_segment_size = 0;
    uint32_t private_segment_size = 0;
    std::vector<void*> variables;
    Agent* agent = nullptr;
    // AMDGPU ELF code objects (entry is null):
    uint64_t key = 0;                                    ///< handle packets name; 0: this object's address
    std::string symbol_name;                             ///< kernel symbol without ".kd"
    std::shared_ptr<const elf::KernelMetadata> metadata; ///< never null for ELF kernels
    std::shared_ptr<StandinInstance> standin_instance;   ///< keeps the stand-in's code mapped
    hsa_sim_standin_kernel_fn_t standin = nullptr;
    std::shared_ptr<IsaKernelSlot> isa; ///< the interpreter's view of the kernel (executor isa)
    /// HSA_SIM_FAIL_KERNEL named the kernel when its code object was loaded: every dispatch of it fails.
    bool injected_failure = false;

    uint64_t handle() const { return key ? key : reinterpret_cast<uint64_t>(this); }
};

/// Bytes of a code object held by a reader (hsa_code_object_reader_create_from_*).
struct CodeObjectReader {
    static constexpr uint64_t kMagic = 0x6873615f72656164ull; // "hsa_read"
    uint64_t magic = kMagic;
    std::vector<uint8_t> bytes;
    std::string uri;
    bool from_file = false;
    int file = -1;
    const void* memory_base = nullptr;
};

/// One symbol of an executable for one agent.
struct Symbol {
    static constexpr uint64_t kMagic = 0x6873615f73796d62ull; // "hsa_symb"
    uint64_t magic = kMagic;
    hsa_symbol_kind_t kind = HSA_SYMBOL_KIND_KERNEL;
    std::string name;
    Agent* agent = nullptr;
    LoadedCodeObject* code_object = nullptr;
    std::shared_ptr<KernelObject> kernel; ///< kernels
    void* variable_address = nullptr;     ///< variables
    uint64_t variable_size = 0;
    bool constant = false;
    // AMDGPU ELF symbols, reported as ROCr 5.2.3's loader reports them (src/loader/executable.cpp):
    bool elf = false;
    hsa_symbol_linkage_t linkage = HSA_SYMBOL_LINKAGE_PROGRAM;
    hsa_variable_allocation_t allocation = HSA_VARIABLE_ALLOCATION_AGENT;
    hsa_variable_segment_t segment = HSA_VARIABLE_SEGMENT_GLOBAL;
    uint32_t alignment = 0;     ///< variables: sh_addralign of their section; kernels: kernarg alignment
    uint64_t kernel_object = 0; ///< kernels: address of the loaded kernel descriptor
    uint32_t object_size = 0;   ///< kernels: size of the descriptor symbol

    hsa_executable_symbol_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }
};

/// A code object loaded into an executable for one agent: a private copy of the library (dlopen of a
/// memfd) and the agent's storage for its variables.
struct LoadedCodeObject {
    static constexpr uint64_t kMagic = 0x6873615f6c636f62ull; // "hsa_lcob"
    uint64_t magic = kMagic;
    Executable* executable = nullptr;
    Agent* agent = nullptr;
    std::string uri;
    bool from_file = false;
    int file = -1;
    const void* memory_base = nullptr;
    size_t memory_size = 0;
    void* library = nullptr;
    std::vector<void*> variable_storage; ///< per variable, page-aligned host memory
    std::vector<uint64_t> variable_sizes;
    std::vector<std::unique_ptr<Symbol>> symbols;
    uintptr_t load_base = 0;
    size_t load_size = 0;
    // AMDGPU ELF code objects:
    bool elf = false;
    void* segment = nullptr;     ///< the loaded image (load_base, mmap), registered as memory of `agent`
    size_t segment_capacity = 0; ///< bytes mapped at `segment`
    std::vector<std::shared_ptr<StandinInstance>> standins;
    std::vector<uintptr_t> bound_variables; ///< stand-in variable storage registered as agent memory

    hsa_loaded_code_object_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }
};

struct Executable {
    static constexpr uint64_t kMagic = 0x6873615f65786563ull; // "hsa_exec"
    uint64_t magic = kMagic;
    hsa_profile_t profile = HSA_PROFILE_BASE;
    hsa_default_float_rounding_mode_t rounding = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
    bool frozen = false;
    std::vector<std::unique_ptr<LoadedCodeObject>> code_objects;

    hsa_executable_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }
};

/// Every live executable and kernel object. Executable create/destroy take the lock exclusively;
/// iteration (loader iterate_executables) holds it shared, so create/destroy from its callback blocks,
/// as in ROCr.
class ExecutableRegistry {
  public:
    static ExecutableRegistry& instance();

    std::shared_mutex& mutex() { return mutex_; }
    std::vector<std::unique_ptr<Executable>>& executables() { return executables_; }
    /// The executable behind a handle (caller holds mutex()), or nullptr.
    Executable* find(hsa_executable_t handle);
    /// The loaded code object behind a handle (caller holds mutex()), or nullptr.
    LoadedCodeObject* find(hsa_loaded_code_object_t handle);

    /// The kernel object a dispatch packet names, kept alive for the dispatch; nullptr if unknown.
    std::shared_ptr<KernelObject> find_kernel(uint64_t kernel_object);
    void add_kernel(const std::shared_ptr<KernelObject>& k);
    void remove_kernel(const KernelObject* k);

    /// Releases one loaded code object's library, segment, stand-ins and storage (caller holds mutex()
    /// exclusively).
    void unload(LoadedCodeObject& lco);
    /// Destroys everything (hsa_shut_down).
    void destroy_all();

  private:
    std::shared_mutex mutex_;
    std::vector<std::unique_ptr<Executable>> executables_;
    std::shared_mutex kernels_mutex_;
    std::unordered_map<uint64_t, std::shared_ptr<KernelObject>> kernels_;
};

} // namespace sim
