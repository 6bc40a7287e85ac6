// SPDX-License-Identifier: MIT
// The engine's own registry of frozen executables (docs/rocm-behaviour.md#module-scope-variables: rocprofiler
// keeps one by wrapping hsa_executable_freeze_fn / hsa_executable_destroy_fn instead of holding the
// loader's iterate_executables lock), plus kernel object -> kernel symbol name for filters and reports.
#pragma once

#include "synchronized.h"

#include <hsa.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace rs::engine {

class ExecutableRegistry {
  public:
    /// A module-scope variable over the snapshot's cap (kMaxModuleVariableBytes): never snapshotted.
    struct Variable {
        uint64_t address = 0;
        uint64_t size = 0; ///< bytes
    };
    /// After a successful freeze: registers `exe` and indexes its kernel symbols, with the read-only
    /// pointer arguments of each (kernel_metadata.h, read from the loaded code objects' images through the
    /// loader extension while the application's code object reader still holds them: HSA 1.2 requires
    /// a reader, and the memory it reads, to outlive the executables loaded from it). Returns the number
    /// of kernels indexed; `oversized` receives the variables over the snapshot's cap (their kernels are
    /// marked `unrestorable_variable`). Throws std::bad_alloc.
    uint32_t add(hsa_executable_t exe, std::vector<Variable>& oversized);
    /// Before destroy: forgets `exe` and its kernels; returns its variables over the cap.
    std::vector<Variable> remove(hsa_executable_t exe);
    /// Forgets everything (OnUnload: hsa_shut_down destroys every executable without a destroy call).
    void clear();
    /// What the registry knows of one kernel symbol.
    struct Kernel {
        uint64_t executable = 0;
        std::string name; ///< symbol name ("" when unknown)
        /// The name as rocprofv3 shows it (rs::session::kernel_display_name: ".kd" dropped, demangled),
        /// which the kernel regexes match besides the symbol.
        std::string shown;
        uint32_t kernarg_size =
            0; ///< HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, bytes (0: unknown)
        /// Ascending kernarg byte offsets of the pointer arguments the code object's metadata declares
        /// read-only (kernel_metadata.h); null when none or when the metadata could not be read.
        std::shared_ptr<const std::vector<uint32_t>> read_only_pointers;
        /// The kernel's executable has a module variable over the snapshot's cap: whatever the kernel
        /// writes there is never restored, so it is not replayed.
        bool unrestorable_variable = false;
        /// Dispatches of this loaded kernel symbol counted so far, for --kernel-iteration-range (rocprofv3
        /// counts per kernel id, one per symbol of each loaded code object). Made once when the executable
        /// is registered, shared by every copy of this Kernel, never replaced: the intercept handlers take
        /// their iteration with a relaxed fetch_add outside any lock (docs/replay-window.md, "Per-kernel
        /// iterations"). Null in an empty Kernel (kernel object unknown).
        std::shared_ptr<std::atomic<uint64_t>> dispatches;
    };
    /// The kernel symbol of `kernel_object` (an empty Kernel when unknown).
    Kernel kernel(uint64_t kernel_object) const;

    struct State {
        uint64_t generation = 0; ///< changes with every add/remove (part of a snapshot's generation)
        std::set<uint64_t> executables;
        std::map<uint64_t, Kernel> kernels;                  ///< kernel object -> kernel
        std::map<uint64_t, std::vector<Variable>> oversized; ///< executable -> variables over the cap
    };
    /// Runs `fn(const State&)` under the read lock (snapshot discovery and restore of variables hold it,
    /// so an executable cannot be destroyed under them).
    template <typename Fn>
    decltype(auto) rlock(Fn&& fn) const {
        return state_.rlock(std::forward<Fn>(fn));
    }

  private:
    Synchronized<State> state_;
};

} // namespace rs::engine
