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
    /// Kernel symbol name of `kernel_object` ("" when unknown).
    std::string kernel_name(uint64_t kernel_object) const;

    struct State {
        uint64_t generation = 0; ///< changes with every add/remove (part of a snapshot's generation)
        std::set<uint64_t> executables;
        std::map<uint64_t, std::pair<uint64_t, std::string>> kernels; ///< object -> (executable, name)
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
