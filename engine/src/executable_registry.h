// SPDX-License-Identifier: MIT
// The engine's own registry of frozen executables (docs/rocm-behaviour.md#module-scope-variables: rocprofiler
// keeps one by wrapping hsa_executable_freeze_fn / hsa_executable_destroy_fn instead of holding the
// loader's iterate_executables lock), plus kernel object -> kernel symbol name for filters and reports.
#pragma once

#include "synchronized.h"

#include <hsa.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rs::engine {

class ExecutableRegistry {
  public:
    /// After a successful freeze: registers `exe` and indexes its kernel symbols. Returns kernels indexed.
    uint32_t add(hsa_executable_t exe);
    /// Before destroy: forgets `exe` and its kernels.
    void remove(hsa_executable_t exe);
    /// Forgets everything (OnUnload: hsa_shut_down destroys every executable without a destroy call).
    void clear();
    /// What the registry knows of one kernel symbol.
    struct Kernel {
        uint64_t executable = 0;
        std::string name; ///< symbol name ("" when unknown)
        uint32_t kernarg_size =
            0; ///< HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, bytes (0: unknown)
    };
    /// The kernel symbol of `kernel_object` (an empty Kernel when unknown).
    Kernel kernel(uint64_t kernel_object) const;

    struct State {
        uint64_t generation = 0; ///< changes with every add/remove (part of a snapshot's generation)
        std::set<uint64_t> executables;
        std::map<uint64_t, Kernel> kernels; ///< kernel object -> kernel
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
