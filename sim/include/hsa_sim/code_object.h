// SPDX-License-Identifier: MIT
/*
 * Simulated code objects for the ReplayScope HSA simulator (sim).
 *
 * On real ROCr a code object is an AMDGPU ELF. On the simulator it is a host shared library that exports
 * one C function, `hsa_sim_code_object()`, returning a description of its kernels and module-scope
 * variables. Programs load it through the ordinary HSA calls: read the file (or its bytes) with
 * `hsa_code_object_reader_create_from_file` / `_from_memory`, `hsa_executable_create_alt`,
 * `hsa_executable_load_agent_code_object`, `hsa_executable_freeze`, then look symbols up by name.
 *
 * Kernels are host functions. The packet processor calls a kernel once per AQL kernel-dispatch packet with
 * the packet's grid and workgroup sizes, its kernarg address and the addresses of the executable's
 * variables for the dispatching agent; the kernel loops over its work-items itself.
 *
 * Variables get per-agent storage owned by the executable (not allocated through the API entry points),
 * initialised from `initial_bytes` at load; their address is reported once the executable is frozen.
 */
#ifndef HSA_SIM_CODE_OBJECT_H
#define HSA_SIM_CODE_OBJECT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this description format; a loader refuses any other value. */
#define HSA_SIM_CODE_OBJECT_VERSION 1u

/** Kind of a module-scope variable: `__device__` (read-write) or `__constant__` (read-only to kernels). */
typedef enum hsa_sim_variable_kind_e {
    HSA_SIM_VARIABLE_DEVICE = 0,
    HSA_SIM_VARIABLE_CONSTANT = 1,
} hsa_sim_variable_kind_t;

/** What a kernel sees of its dispatch: a copy of the AQL packet's launch fields plus its environment. */
typedef struct hsa_sim_dispatch_s {
    uint32_t dimensions;   /**< 1..3, from the packet's setup field */
    uint32_t grid_size[3]; /**< work-items per dimension */
    uint32_t workgroup_size[3];
    void* kernarg;          /**< the packet's kernarg_address */
    void* const* variables; /**< variable addresses for this agent, in description order */
    uint32_t variable_count;
    uint32_t agent_index;  /**< 0-based index of the simulated GPU agent running the dispatch */
    uint64_t agent_handle; /**< hsa_agent_t handle of that agent */
} hsa_sim_dispatch_t;

/** A kernel body. Runs on a simulator thread; it may call HSA functions (as a host callback would). */
typedef void (*hsa_sim_kernel_fn_t)(const hsa_sim_dispatch_t* dispatch);

/** One kernel of a code object. `name` is the symbol name, by convention ending in ".kd" as on ROCm. */
typedef struct hsa_sim_kernel_s {
    const char* name;
    hsa_sim_kernel_fn_t entry;
    uint32_t kernarg_segment_size; /**< bytes */
    uint32_t group_segment_size;   /**< bytes */
    uint32_t private_segment_size; /**< bytes */
} hsa_sim_kernel_t;

/** One module-scope variable of a code object. */
typedef struct hsa_sim_variable_s {
    const char* name;
    uint64_t size; /**< bytes; 0 is reported as-is (a tool must skip it) */
    const void*
        initial_bytes; /**< `size` bytes copied into each agent's storage at load, or NULL for zeros */
    hsa_sim_variable_kind_t kind;
} hsa_sim_variable_t;

/** The whole description a code-object library returns. */
typedef struct hsa_sim_code_object_s {
    uint32_t version;     /**< HSA_SIM_CODE_OBJECT_VERSION */
    const char* isa_name; /**< e.g. "amdgcn-amd-amdhsa--gfx90a"; NULL matches any agent */
    uint32_t kernel_count;
    const hsa_sim_kernel_t* kernels;
    uint32_t variable_count;
    const hsa_sim_variable_t* variables;
} hsa_sim_code_object_t;

/** Name of the function every simulated code object exports. */
#define HSA_SIM_CODE_OBJECT_ENTRY "hsa_sim_code_object"

/** Signature of that function. */
typedef const hsa_sim_code_object_t* (*hsa_sim_code_object_fn_t)(void);

#ifdef __cplusplus
}
#endif

#endif /* HSA_SIM_CODE_OBJECT_H */
