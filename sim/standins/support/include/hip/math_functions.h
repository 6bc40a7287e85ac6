// SPDX-License-Identifier: MIT
/* Stand-in compilation: device math comes with hip/hip_runtime.h (hsa_sim_standin/device.h). */
#include <hip/hip_runtime.h>
