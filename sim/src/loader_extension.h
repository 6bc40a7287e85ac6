// SPDX-License-Identifier: MIT
// The AMD loader extension, version 1.03 (hsa_ven_amd_loader.h), reached through
// hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, ...).
#pragma once

#include <hsa_ven_amd_loader.h>

namespace sim {

/// The table handed out for the loader extension.
hsa_ven_amd_loader_1_03_pfn_t loader_extension_table();

} // namespace sim
