// SPDX-License-Identifier: MIT
/*
 * hip/hip_runtime.h for host stand-ins (replayscope-standins): compiles a HIP source file as host C++.
 *
 * The host API (hipMalloc, dim3, hipError_t, ...) comes from the real HIP headers
 * (hip/hip_runtime_api.h); host code is compiled but never run. The device side (__global__, threadIdx,
 * __syncthreads, atomics, math) is defined by hsa_sim_standin/device.h for host execution by the
 * stand-in runtime. This directory comes first on the include path of a stand-in compilation.
 */
#ifndef HSA_SIM_STANDIN_HIP_RUNTIME_H
#define HSA_SIM_STANDIN_HIP_RUNTIME_H

#include <hsa_sim_standin/device.h>

#endif
