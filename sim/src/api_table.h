// SPDX-License-Identifier: MIT
// The simulator's live HSA API table: what OnLoad receives and what every exported trampoline calls.
#pragma once

#include "api.h"

namespace sim {

/// Owns the HsaApiTable and its sub-tables. Versions follow the headers the simulator is built with
/// (ROCr 5.2.3: every major_id 1; ROCr 6.1: root 3, core/AMD/finalizer/image 2, AMD step 1, tools 1;
/// minor_id == sizeof(table) in both), as ROCr's HsaApiTableContainer does.
/// Tools patch entries in place; reset() restores the simulator's own entries (done at hsa_shut_down,
/// after OnUnload, as ROCr resets its table).
class ApiTable {
  public:
    /// The process-wide table (constructed on first use, never destroyed).
    static ApiTable& instance();

    /// The root table handed to tools' OnLoad.
    HsaApiTable* root() { return &root_; }
    CoreApiTable* core() { return &core_; }
    AmdExtTable* amd_ext() { return &amd_ext_; }

    /// Refills every table with the simulator's entries and versions; entries the simulator does not
    /// implement are null.
    void reset();

  private:
    ApiTable();
    HsaApiTable root_{};
    CoreApiTable core_{};
    AmdExtTable amd_ext_{};
    FinalizerExtTable finalizer_ext_{};
    ImageExtTable image_ext_{};
#if HSA_API_TABLE_MAJOR_VERSION >= 3
    ToolsApiTable tools_{};
#endif
};

} // namespace sim

// Read by the assembly trampolines (hidden: not part of the exported interface).
extern "C" __attribute__((visibility("hidden"))) CoreApiTable* sim_core_table;
extern "C" __attribute__((visibility("hidden"))) AmdExtTable* sim_amd_ext_table;
extern "C" __attribute__((visibility("hidden"))) ImageExtTable* sim_image_ext_table;
