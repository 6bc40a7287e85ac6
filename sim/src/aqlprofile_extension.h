// SPDX-License-Identifier: MIT
// HSA_EXTENSION_AMD_AQLPROFILE on the simulated runtime: the hsa_ven_amd_aqlprofile_1_00_pfn_t table
// ROCr hands out when AMD's aqlprofile library is installed, implemented for the simulated gfx90a agents'
// performance counters (PMC profiles; no thread trace). A client written for the real library runs
// unchanged: it validates events, sizes and allocates the command and output buffers with get_info,
// fills START / STOP / READ vendor packets with start / stop / read, submits them around its dispatches
// and reads the values with iterate_data. Behaviour and differences: docs/sim-fidelity.md, "Hardware
// counters (aqlprofile)".
#pragma once

#include <hsa.h>
#include <hsa_ven_amd_aqlprofile.h>

namespace sim {

/// The table hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_AQLPROFILE, 1, ...) copies.
///  - version_major / minor: 2 / 0 (HSA_AQLPROFILE_VERSION_MAJOR of the 5.2.3 header).
///  - validate_event: *result true when the agent is a GPU agent and the event names a block it has, an
///    instance of it and a counter the simulator counts (aqlprofile_counters.h); INVALID_AGENT for
///    another agent, INVALID_ARGUMENT for null pointers.
///  - get_info: COMMAND_BUFFER_SIZE and PMC_DATA_SIZE (uint32_t bytes), PMC_DATA (the sample of
///    info_data->sample_id), BLOCK_COUNTERS (uint32_t, of events[0]'s block), BLOCK_ID
///    (hsa_ven_amd_aqlprofile_id_query_t by name). Others: HSA_STATUS_ERROR.
///  - start / stop / read: fill the packet's pm4_command (aqlprofile_commands.h); start also writes the
///    command buffer. HSA_STATUS_ERROR for an invalid profile (unknown event, more events of one block
///    instance than it has counters, a trace profile) or a command buffer that is too small (start) or
///    not written by start (stop, read), with the reason in error_string.
///  - iterate_data: calls back once per event, in profile order, with sample_id its index and the
///    64-bit value READ wrote into the output buffer.
///  - legacy_get_pm4: HSA_STATUS_ERROR (no legacy device). With the 6.1 headers the entries the 6.x table
///    adds (event ids and coordinates, thread-trace markers) are null.
/// Every entry returns HSA_STATUS_ERROR_NOT_INITIALIZED before hsa_init.
hsa_ven_amd_aqlprofile_1_00_pfn_t aqlprofile_extension_table();

/// Major version of the extension the simulator reports (hsa_ven_amd_aqlprofile_VERSION_MAJOR).
inline constexpr uint16_t kAqlProfileExtensionMajor = hsa_ven_amd_aqlprofile_VERSION_MAJOR;

} // namespace sim
