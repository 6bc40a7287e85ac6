// SPDX-License-Identifier: MIT
/*
 * Kernel stand-ins: how the simulated runtime executes the kernels of real AMDGPU ELF code objects.
 *
 * A real code object (built by hipcc or compiled by ROCclr through comgr) holds GPU machine code, which
 * the simulator cannot run. Each of its kernels is executed instead by a host function found by the
 * kernel's symbol name (the ELF function symbol, without the ".kd" suffix of its kernel descriptor):
 *  - ROCclr's blit kernels are built into the runtime;
 *  - a program's own kernels come from stand-in libraries named in the environment variable
 *    HSA_SIM_STANDINS (colon-separated paths), made by `replayscope-standins` from the same source.
 *
 * A stand-in library exports one C function, HSA_SIM_STANDIN_ENTRY, returning its description. Each time
 * a code object is loaded on an agent (hsa_executable_load_agent_code_object), the runtime opens a private
 * instance of every stand-in library that defines one of the code object's kernels or variables, so that
 * the library's globals belong to that loaded code object alone. A module-scope variable of the code object
 * that the instance also defines (same symbol name, size at least the ELF symbol's) is bound to it: the
 * instance's storage becomes the variable's device address (reported by HSA_EXECUTABLE_SYMBOL_INFO_
 * VARIABLE_ADDRESS, known to hsa_amd_pointer_info as memory of that agent), initialised from the code
 * object's initial bytes. A kernel then reads and writes its variables directly.
 *
 * A dispatch of a kernel that no stand-in defines fails like a bad code object: the queue reports an error
 * naming the kernel; it never silently completes.
 */
#ifndef HSA_SIM_STANDIN_H
#define HSA_SIM_STANDIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this interface; the runtime refuses a library that reports another value. */
#define HSA_SIM_STANDIN_ABI_VERSION 1u

/** What a stand-in sees of one kernel dispatch (from the AQL kernel-dispatch packet and the code object). */
typedef struct hsa_sim_standin_launch_s {
    uint32_t dimensions;                 /**< 1..3, from the packet's setup field */
    uint32_t grid_size[3];               /**< work-items per dimension (packet grid_size_x/y/z) */
    uint32_t workgroup_size[3];          /**< work-items per work-group (packet workgroup_size_x/y/z) */
    const void* kernarg;                 /**< the packet's kernarg_address */
    uint32_t kernarg_segment_size;       /**< bytes, from the kernel's metadata (.kernarg_segment_size) */
    uint32_t dynamic_group_segment_size; /**< bytes of dynamic LDS: packet group_segment_size minus the
                                              kernel's .group_segment_fixed_size */
    uint32_t agent_index;                /**< 0-based index of the simulated GPU agent */
    uint64_t agent_handle;               /**< hsa_agent_t handle of that agent */
    const char* kernel_name;             /**< symbol name of the kernel (without ".kd") */
} hsa_sim_standin_launch_t;

/**
 * Runs every work-item of one dispatch. Called on a runtime thread; returns 0 when all work-items ran,
 * non-zero when the dispatch failed (an unsupported feature, say), with a NUL-terminated reason written to
 * `error` (at most `error_size` bytes). A failure is reported as a queue error naming the kernel.
 */
typedef int (*hsa_sim_standin_kernel_fn_t)(const hsa_sim_standin_launch_t* launch, char* error,
                                           size_t error_size);

/** One kernel of a stand-in library. */
typedef struct hsa_sim_standin_kernel_s {
    const char* symbol;                /**< ELF kernel symbol, e.g. "_Z4vaddPfPKfi" */
    hsa_sim_standin_kernel_fn_t entry; /**< runs the kernel's work-items */
} hsa_sim_standin_kernel_t;

/** One module-scope (`__device__` / `__constant__`) variable of a stand-in library instance. */
typedef struct hsa_sim_standin_variable_s {
    const char* symbol; /**< ELF variable symbol, e.g. "counter" */
    void* address;      /**< this instance's storage */
    uint64_t size;      /**< bytes */
} hsa_sim_standin_variable_t;

/** The description a stand-in library returns. */
typedef struct hsa_sim_standin_library_s {
    uint32_t abi_version; /**< HSA_SIM_STANDIN_ABI_VERSION */
    uint32_t kernel_count;
    const hsa_sim_standin_kernel_t* kernels;
    uint32_t variable_count;
    const hsa_sim_standin_variable_t* variables;
} hsa_sim_standin_library_t;

/** Name of the function every stand-in library exports. */
#define HSA_SIM_STANDIN_ENTRY "hsa_sim_standin_library"

/** Signature of that function. */
typedef const hsa_sim_standin_library_t* (*hsa_sim_standin_library_fn_t)(void);

/** Environment variable naming the stand-in libraries (colon-separated paths). */
#define HSA_SIM_STANDINS_ENV "HSA_SIM_STANDINS"

#ifdef __cplusplus
}
#endif

#endif /* HSA_SIM_STANDIN_H */
