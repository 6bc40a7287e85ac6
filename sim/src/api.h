// SPDX-License-Identifier: MIT
// The simulator's HSA entry points: one list per API table, used three ways (declarations of the
// implementations in sim::api, the runtime's dispatch table, and the exported trampolines).
// An entry is implemented by sim::api::NAME with exactly the type of the header's ::NAME.
#pragma once

#include <hsa.h>
#include <hsa_api_trace.h>
#include <hsa_ext_amd.h>
#include <hsa_ven_amd_loader.h>

// Core table entries the simulator implements and exports (ROCR_1), in table order.
#define SIM_CORE_API(X)                                                                                      \
    X(hsa_init)                                                                                              \
    X(hsa_shut_down)                                                                                         \
    X(hsa_system_get_info)                                                                                   \
    X(hsa_system_extension_supported)                                                                        \
    X(hsa_system_get_extension_table)                                                                        \
    X(hsa_iterate_agents)                                                                                    \
    X(hsa_agent_get_info)                                                                                    \
    X(hsa_queue_create)                                                                                      \
    X(hsa_queue_destroy)                                                                                     \
    X(hsa_queue_inactivate)                                                                                  \
    X(hsa_queue_load_read_index_scacquire)                                                                   \
    X(hsa_queue_load_read_index_relaxed)                                                                     \
    X(hsa_queue_load_write_index_scacquire)                                                                  \
    X(hsa_queue_load_write_index_relaxed)                                                                    \
    X(hsa_queue_store_write_index_relaxed)                                                                   \
    X(hsa_queue_store_write_index_screlease)                                                                 \
    X(hsa_queue_cas_write_index_scacq_screl)                                                                 \
    X(hsa_queue_cas_write_index_scacquire)                                                                   \
    X(hsa_queue_cas_write_index_relaxed)                                                                     \
    X(hsa_queue_cas_write_index_screlease)                                                                   \
    X(hsa_queue_add_write_index_scacq_screl)                                                                 \
    X(hsa_queue_add_write_index_scacquire)                                                                   \
    X(hsa_queue_add_write_index_relaxed)                                                                     \
    X(hsa_queue_add_write_index_screlease)                                                                   \
    X(hsa_queue_store_read_index_relaxed)                                                                    \
    X(hsa_queue_store_read_index_screlease)                                                                  \
    X(hsa_agent_iterate_regions)                                                                             \
    X(hsa_region_get_info)                                                                                   \
    X(hsa_agent_extension_supported)                                                                         \
    X(hsa_memory_register)                                                                                   \
    X(hsa_memory_deregister)                                                                                 \
    X(hsa_memory_allocate)                                                                                   \
    X(hsa_memory_free)                                                                                       \
    X(hsa_memory_copy)                                                                                       \
    X(hsa_memory_assign_agent)                                                                               \
    X(hsa_signal_create)                                                                                     \
    X(hsa_signal_destroy)                                                                                    \
    X(hsa_signal_load_relaxed)                                                                               \
    X(hsa_signal_load_scacquire)                                                                             \
    X(hsa_signal_store_relaxed)                                                                              \
    X(hsa_signal_store_screlease)                                                                            \
    X(hsa_signal_wait_relaxed)                                                                               \
    X(hsa_signal_wait_scacquire)                                                                             \
    X(hsa_signal_and_relaxed)                                                                                \
    X(hsa_signal_and_scacquire)                                                                              \
    X(hsa_signal_and_screlease)                                                                              \
    X(hsa_signal_and_scacq_screl)                                                                            \
    X(hsa_signal_or_relaxed)                                                                                 \
    X(hsa_signal_or_scacquire)                                                                               \
    X(hsa_signal_or_screlease)                                                                               \
    X(hsa_signal_or_scacq_screl)                                                                             \
    X(hsa_signal_xor_relaxed)                                                                                \
    X(hsa_signal_xor_scacquire)                                                                              \
    X(hsa_signal_xor_screlease)                                                                              \
    X(hsa_signal_xor_scacq_screl)                                                                            \
    X(hsa_signal_exchange_relaxed)                                                                           \
    X(hsa_signal_exchange_scacquire)                                                                         \
    X(hsa_signal_exchange_screlease)                                                                         \
    X(hsa_signal_exchange_scacq_screl)                                                                       \
    X(hsa_signal_add_relaxed)                                                                                \
    X(hsa_signal_add_scacquire)                                                                              \
    X(hsa_signal_add_screlease)                                                                              \
    X(hsa_signal_add_scacq_screl)                                                                            \
    X(hsa_signal_subtract_relaxed)                                                                           \
    X(hsa_signal_subtract_scacquire)                                                                         \
    X(hsa_signal_subtract_screlease)                                                                         \
    X(hsa_signal_subtract_scacq_screl)                                                                       \
    X(hsa_signal_cas_relaxed)                                                                                \
    X(hsa_signal_cas_scacquire)                                                                              \
    X(hsa_signal_cas_screlease)                                                                              \
    X(hsa_signal_cas_scacq_screl)                                                                            \
    X(hsa_isa_from_name)                                                                                     \
    X(hsa_executable_create)                                                                                 \
    X(hsa_executable_destroy)                                                                                \
    X(hsa_executable_freeze)                                                                                 \
    X(hsa_executable_get_info)                                                                               \
    X(hsa_executable_get_symbol)                                                                             \
    X(hsa_executable_symbol_get_info)                                                                        \
    X(hsa_executable_iterate_symbols)                                                                        \
    X(hsa_status_string)                                                                                     \
    X(hsa_system_major_extension_supported)                                                                  \
    X(hsa_system_get_major_extension_table)                                                                  \
    X(hsa_agent_major_extension_supported)                                                                   \
    X(hsa_signal_silent_store_relaxed)                                                                       \
    X(hsa_signal_silent_store_screlease)                                                                     \
    X(hsa_agent_iterate_isas)                                                                                \
    X(hsa_isa_get_info_alt)                                                                                  \
    X(hsa_code_object_reader_create_from_file)                                                               \
    X(hsa_code_object_reader_create_from_memory)                                                             \
    X(hsa_code_object_reader_destroy)                                                                        \
    X(hsa_executable_create_alt)                                                                             \
    X(hsa_executable_load_agent_code_object)                                                                 \
    X(hsa_executable_validate_alt)                                                                           \
    X(hsa_executable_get_symbol_by_name)                                                                     \
    X(hsa_executable_iterate_agent_symbols)                                                                  \
    X(hsa_executable_iterate_program_symbols)                                                                \
    X(hsa_isa_get_info)                                                                                      \
    X(hsa_isa_get_exception_policies)                                                                        \
    X(hsa_isa_get_round_method)                                                                              \
    X(hsa_wavefront_get_info)                                                                                \
    X(hsa_isa_iterate_wavefronts)                                                                            \
    X(hsa_isa_compatible)                                                                                    \
    X(hsa_executable_agent_global_variable_define)

// AMD extension table entries the simulator implements and exports (ROCR_1).
#define SIM_AMD_EXT_API(X)                                                                                   \
    X(hsa_amd_profiling_set_profiler_enabled)                                                                \
    X(hsa_amd_profiling_async_copy_enable)                                                                   \
    X(hsa_amd_profiling_get_dispatch_time)                                                                   \
    X(hsa_amd_profiling_convert_tick_to_system_domain)                                                       \
    X(hsa_amd_signal_async_handler)                                                                          \
    X(hsa_amd_signal_wait_any)                                                                               \
    X(hsa_amd_memory_pool_get_info)                                                                          \
    X(hsa_amd_agent_iterate_memory_pools)                                                                    \
    X(hsa_amd_memory_pool_allocate)                                                                          \
    X(hsa_amd_memory_pool_free)                                                                              \
    X(hsa_amd_memory_async_copy)                                                                             \
    X(hsa_amd_agent_memory_pool_get_info)                                                                    \
    X(hsa_amd_agents_allow_access)                                                                           \
    X(hsa_amd_memory_lock)                                                                                   \
    X(hsa_amd_memory_unlock)                                                                                 \
    X(hsa_amd_memory_fill)                                                                                   \
    X(hsa_amd_pointer_info)                                                                                  \
    X(hsa_amd_pointer_info_set_userdata)                                                                     \
    X(hsa_amd_signal_create)                                                                                 \
    X(hsa_amd_coherency_get_type)                                                                            \
    X(hsa_amd_coherency_set_type)                                                                            \
    X(hsa_amd_profiling_get_async_copy_time)                                                                 \
    X(hsa_amd_signal_value_pointer)                                                                          \
    X(hsa_amd_queue_cu_set_mask)                                                                             \
    X(hsa_amd_queue_cu_get_mask)                                                                             \
    X(hsa_amd_queue_set_priority)                                                                            \
    X(hsa_amd_memory_lock_to_pool)                                                                           \
    X(hsa_amd_memory_async_copy_rect)                                                                        \
    X(hsa_amd_image_create)                                                                                  \
    X(hsa_amd_interop_map_buffer)                                                                            \
    X(hsa_amd_interop_unmap_buffer)                                                                          \
    X(hsa_amd_ipc_memory_create)                                                                             \
    X(hsa_amd_ipc_memory_attach)                                                                             \
    X(hsa_amd_ipc_memory_detach)                                                                             \
    X(hsa_amd_svm_attributes_set)                                                                            \
    X(hsa_amd_svm_attributes_get)                                                                            \
    X(hsa_amd_svm_prefetch_async)

// Image extension table entries, exported (ROCR_1) because HIP links them; every one returns an error
// (the GPU agents report HSA_EXTENSION_IMAGES and its limits, but no image can be made:
// image_extension.h).
#define SIM_IMAGE_EXT_API(X)                                                                                 \
    X(hsa_ext_image_create)                                                                                  \
    X(hsa_ext_image_create_with_layout)                                                                      \
    X(hsa_ext_image_data_get_info)                                                                           \
    X(hsa_ext_image_destroy)                                                                                 \
    X(hsa_ext_image_export)                                                                                  \
    X(hsa_ext_image_import)                                                                                  \
    X(hsa_ext_sampler_create)                                                                                \
    X(hsa_ext_sampler_destroy)

// Virtual-memory entries, present from ROCr 6.x headers (AMD extension table major 2) on: exported with
// ROCR_1 by Debian's ROCr 6.1.2. Empty on 5.2.3 headers.
#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
#define SIM_HAS_VMEM 1
#define SIM_AMD_EXT_VMEM_API(X)                                                                              \
    X(hsa_amd_vmem_address_reserve)                                                                          \
    X(hsa_amd_vmem_address_free)                                                                             \
    X(hsa_amd_vmem_handle_create)                                                                            \
    X(hsa_amd_vmem_handle_release)                                                                           \
    X(hsa_amd_vmem_map)                                                                                      \
    X(hsa_amd_vmem_unmap)                                                                                    \
    X(hsa_amd_vmem_set_access)                                                                               \
    X(hsa_amd_vmem_get_access)                                                                               \
    X(hsa_amd_vmem_get_alloc_properties_from_handle)
#else
#define SIM_HAS_VMEM 0
#define SIM_AMD_EXT_VMEM_API(X)
#endif

// HSA_AMD_AGENT_INFO_MEMORY_AVAIL (uint64_t bytes, 0xA015) is named by ROCr 6.x headers and unknown to
// ROCr 5.2.3: the simulator answers it for GPU agents with 6.x headers only, as that generation does.
#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
#define SIM_HAS_MEMORY_AVAIL 1
#else
#define SIM_HAS_MEMORY_AVAIL 0
#endif

// AMD extension table entries that ROCr 5.2.3 reaches only through the table (not exported).
#define SIM_AMD_EXT_TABLE_ONLY_API(X)                                                                        \
    X(hsa_amd_queue_intercept_create)                                                                        \
    X(hsa_amd_queue_intercept_register)

// Deprecated exported aliases: (exported name, table entry it forwards to).
#define SIM_CORE_ALIASES(X)                                                                                  \
    X(hsa_queue_load_read_index_acquire, hsa_queue_load_read_index_scacquire)                                \
    X(hsa_queue_load_write_index_acquire, hsa_queue_load_write_index_scacquire)                              \
    X(hsa_queue_store_write_index_release, hsa_queue_store_write_index_screlease)                            \
    X(hsa_queue_cas_write_index_acq_rel, hsa_queue_cas_write_index_scacq_screl)                              \
    X(hsa_queue_cas_write_index_acquire, hsa_queue_cas_write_index_scacquire)                                \
    X(hsa_queue_cas_write_index_release, hsa_queue_cas_write_index_screlease)                                \
    X(hsa_queue_add_write_index_acq_rel, hsa_queue_add_write_index_scacq_screl)                              \
    X(hsa_queue_add_write_index_acquire, hsa_queue_add_write_index_scacquire)                                \
    X(hsa_queue_add_write_index_release, hsa_queue_add_write_index_screlease)                                \
    X(hsa_queue_store_read_index_release, hsa_queue_store_read_index_screlease)                              \
    X(hsa_signal_load_acquire, hsa_signal_load_scacquire)                                                    \
    X(hsa_signal_store_release, hsa_signal_store_screlease)                                                  \
    X(hsa_signal_wait_acquire, hsa_signal_wait_scacquire)                                                    \
    X(hsa_signal_and_acquire, hsa_signal_and_scacquire)                                                      \
    X(hsa_signal_and_release, hsa_signal_and_screlease)                                                      \
    X(hsa_signal_and_acq_rel, hsa_signal_and_scacq_screl)                                                    \
    X(hsa_signal_or_acquire, hsa_signal_or_scacquire)                                                        \
    X(hsa_signal_or_release, hsa_signal_or_screlease)                                                        \
    X(hsa_signal_or_acq_rel, hsa_signal_or_scacq_screl)                                                      \
    X(hsa_signal_xor_acquire, hsa_signal_xor_scacquire)                                                      \
    X(hsa_signal_xor_release, hsa_signal_xor_screlease)                                                      \
    X(hsa_signal_xor_acq_rel, hsa_signal_xor_scacq_screl)                                                    \
    X(hsa_signal_exchange_acquire, hsa_signal_exchange_scacquire)                                            \
    X(hsa_signal_exchange_release, hsa_signal_exchange_screlease)                                            \
    X(hsa_signal_exchange_acq_rel, hsa_signal_exchange_scacq_screl)                                          \
    X(hsa_signal_add_acquire, hsa_signal_add_scacquire)                                                      \
    X(hsa_signal_add_release, hsa_signal_add_screlease)                                                      \
    X(hsa_signal_add_acq_rel, hsa_signal_add_scacq_screl)                                                    \
    X(hsa_signal_subtract_acquire, hsa_signal_subtract_scacquire)                                            \
    X(hsa_signal_subtract_release, hsa_signal_subtract_screlease)                                            \
    X(hsa_signal_subtract_acq_rel, hsa_signal_subtract_scacq_screl)                                          \
    X(hsa_signal_cas_acquire, hsa_signal_cas_scacquire)                                                      \
    X(hsa_signal_cas_release, hsa_signal_cas_screlease)                                                      \
    X(hsa_signal_cas_acq_rel, hsa_signal_cas_scacq_screl)

namespace sim::api {
#define SIM_DECLARE(name) decltype(::name) name;
SIM_CORE_API(SIM_DECLARE)
SIM_AMD_EXT_API(SIM_DECLARE)
SIM_AMD_EXT_VMEM_API(SIM_DECLARE)
SIM_AMD_EXT_TABLE_ONLY_API(SIM_DECLARE)
SIM_IMAGE_EXT_API(SIM_DECLARE)
#undef SIM_DECLARE
} // namespace sim::api
