// SPDX-License-Identifier: MIT
// The aqlprofile START / STOP / READ packets of the simulated agent: AMD PM4-IB vendor packets (ROCr's
// amd_aql_pm4_ib layout: AmdFormat PM4_IB in bytes 2-3, a PM4 INDIRECT_BUFFER command in dwords 1-4,
// dw_cnt_remain 0xA) whose indirect buffer lies in the profile's command buffer. What that buffer holds
// is the simulator's own encoding (a client never reads it; docs/sim-fidelity.md): three 8-dword
// records (start, stop, read) and the profile's event list, all written by start().
#pragma once

#include <hsa.h>
#include <hsa_ven_amd_aqlprofile.h>

#include <cstdint>
#include <string>

namespace sim {

struct Agent;

/// AmdFormat of a PM4 indirect-buffer vendor packet (ROCr 5.2.3 amd_aql_queue.cpp, ExecutePM4:
/// AMD_AQL_FORMAT_PM4_IB; hsa_ext_amd.h numbers BARRIER_VALUE 2 in the same field).
inline constexpr uint8_t kAmdAqlFormatPm4Ib = 1;

enum class ProfileOp : uint16_t { start = 1, stop = 2, read = 3 };

/// Bytes of command buffer a profile of `event_count` events needs.
uint32_t profile_command_bytes(uint32_t event_count);

/// Bytes of output buffer a profile of `event_count` events needs: one 64-bit value per event, in event
/// order (what READ writes and iterate_data reads).
inline uint32_t profile_output_bytes(uint32_t event_count) {
    return event_count * 8u;
}

/// Writes the records and the event list into `profile.command_buffer` (at least
/// profile_command_bytes(event_count) bytes, checked by the caller).
void write_profile_commands(const hsa_ven_amd_aqlprofile_profile_t& profile);

/// True when start() wrote `profile.command_buffer` for this profile's event count.
bool profile_commands_written(const hsa_ven_amd_aqlprofile_profile_t& profile);

/// Fills `packet->pm4_command` with the body of a PM4-IB packet whose indirect buffer is `op`'s record;
/// the header and completion signal stay the caller's.
void fill_profile_packet(const hsa_ven_amd_aqlprofile_profile_t& profile, ProfileOp op,
                         hsa_ext_amd_aql_pm4_packet_t* packet);

/// Executes the PM4-IB vendor packet `packet` (64 bytes, as read from the queue) on `agent`: START zeroes
/// and enables the agent's counters, STOP freezes them, READ writes each event's value into the profile's
/// output buffer. False, with `error` saying why, when the packet or its indirect buffer is not one
/// fill_profile_packet() made.
bool execute_profile_packet(const void* packet, Agent& agent, std::string& error);

} // namespace sim
