// SPDX-License-Identifier: MIT
// Kernarg layout shared by the test program engine_restore_regions and its simulated code object
// restore_regions_kernels.so.
#pragma once

#include <cstdint>

namespace rs::tests {

/// bump_regions.kd: a[i] += 1, b[i] += 10, c[i] += 100 for i < n, and the `__device__` variable
/// `bumps` += 1 once per dispatch: four regions, each changed by every execution, so that each one's
/// contents tell how many executions it saw.
struct BumpRegionsArgs {
    uint32_t* a;
    uint32_t* b;
    uint32_t* c;
    uint32_t n;
};

inline constexpr uint32_t kBumpA = 1, kBumpB = 10, kBumpC = 100;

} // namespace rs::tests
