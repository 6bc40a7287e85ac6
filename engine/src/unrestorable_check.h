// SPDX-License-Identifier: MIT
// The fidelity check's watch over memory no restore puts back: host, fine-grained, locked and managed
// ranges hashed before and after pass 0 (docs/replay-window.md, "Fidelity check").
#pragma once

#include "allocation_inventory.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rs::engine {

/// What an unrestorable range is, for the warning texts.
enum class UnrestorableKind : uint8_t { host, locked, fine_grained, managed };

/// One range of the unrestorable inventory the check hashes.
struct UnrestorableRange {
    uint64_t id = 0; ///< allocation id; 0 for a managed range (no allocation row)
    uintptr_t address = 0;
    uint64_t size = 0; ///< bytes
    UnrestorableKind kind = UnrestorableKind::host;
    uint64_t hash = 0; ///< XXH3 of the contents when the check started; 0: not read
};

/// "0x... (N bytes, host allocation ID)" / "(N bytes, managed range)".
std::string describe(const UnrestorableRange& r);

/// Hashes every range of an unrestorable inventory (Engine::unrestorable) when it is made and again on
/// changed(), so that a pass that wrote memory no restore puts back, through a pointer the kernarg scan
/// cannot see, is named. Reads host memory on the host (process_vm_readv on the engine's own process, so
/// that a range unmapped meanwhile, a managed range ROCclr unmapped with no HSA call, fails the read
/// instead of faulting) and memory a GPU agent owns (fine-grained device memory) through hsa_memory_copy
/// of the saved table, each range in slices of at most 8 MiB under the inventory's read lock: its free
/// and unlock wrappers wait for the read, and a range freed or handed out again is not read. Module
/// variables over the snapshot's cap (device memory) are left out. Worker thread; never throws.
class UnrestorableCheck {
  public:
    /// A range that was not hashed, and why.
    struct Unchecked {
        UnrestorableRange range;
        bool over_budget = false; ///< else it could not be read (or no host memory to read it into)
    };

    /// Lists the ranges of `unrestorable` except module variables (entries with id 0 that are not
    /// managed) and the addresses in `aliases` (the agent addresses of locked ranges, which hold the same
    /// bytes as the host address), takes them in address order while their sizes add up to at most
    /// `budget` bytes, and hashes each one. `owned_by_gpu(agent handle)` tells memory a GPU agent owns.
    UnrestorableCheck(const AllocationInventory& unrestorable, const std::vector<uintptr_t>& aliases,
                      const std::vector<uintptr_t>& locked, uint64_t budget,
                      bool (*owned_by_gpu)(uint64_t agent)) noexcept;

    /// Hashes the ranges again and returns those whose contents changed since the check was made (both
    /// hashes taken). A range that cannot be read now is added to unchecked(); one freed meanwhile is
    /// left out.
    std::vector<UnrestorableRange> changed() noexcept;
    /// Ranges left out: over the budget, or not readable.
    const std::vector<Unchecked>& unchecked() const { return unchecked_; }
    /// Ranges hashed and their total size in bytes.
    size_t ranges() const { return ranges_.size(); }
    uint64_t bytes() const { return bytes_; }

  private:
    struct Listed {
        UnrestorableRange range;
        uint64_t agent = 0;
        bool device = false; ///< read through hsa_memory_copy
    };
    /// XXH3 of `r`'s contents (never 0); 0 when it is gone (`readable` stays true) or could not be read
    /// (`readable` false).
    uint64_t hash(const Listed& r, bool& readable) noexcept;

    const AllocationInventory& inventory_;
    std::vector<Listed> ranges_;
    std::vector<Unchecked> unchecked_;
    std::vector<std::byte> scratch_;
    uint64_t bytes_ = 0;
};

} // namespace rs::engine
