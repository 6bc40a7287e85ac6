// SPDX-License-Identifier: MIT
// HSA_EXTENSION_AMD_AQLPROFILE: the function table and its entries (see aqlprofile_extension.h).
#include "aqlprofile_extension.h"

#include "agent.h"
#include "aqlprofile_commands.h"
#include "aqlprofile_counters.h"
#include "runtime.h"

#include <cstring>
#include <map>
#include <string>
#include <utility>

namespace sim {

namespace {

/// The reason of the last HSA_STATUS_ERROR of this thread (hsa_ven_amd_aqlprofile_error_string).
thread_local std::string t_error = "no error";

hsa_status_t failed(hsa_status_t status, std::string why) {
    t_error = std::move(why);
    return status;
}

uint32_t version_major() {
    return HSA_AQLPROFILE_VERSION_MAJOR;
}

uint32_t version_minor() {
    return HSA_AQLPROFILE_VERSION_MINOR;
}

hsa_status_t error_string(const char** str) {
    if (!str) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *str = t_error.c_str();
    return HSA_STATUS_SUCCESS;
}

Agent* gpu_agent(hsa_agent_t handle) {
    Agent* agent = Runtime::instance().agent(handle);
    return agent && agent->is_gpu() ? agent : nullptr;
}

hsa_status_t validate_event(hsa_agent_t agent, const hsa_ven_amd_aqlprofile_event_t* event, bool* result) {
    SIM_REQUIRE_INIT();
    if (!event || !result) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!gpu_agent(agent)) {
        return failed(HSA_STATUS_ERROR_INVALID_AGENT, "the agent is not a GPU agent");
    }
    *result = counter_event_valid(*event);
    return HSA_STATUS_SUCCESS;
}

std::string describe(const hsa_ven_amd_aqlprofile_event_t& e) {
    return "block " + std::to_string(static_cast<unsigned>(e.block_name)) + " instance " +
           std::to_string(e.block_index) + " counter " + std::to_string(e.counter_id);
}

/// Checks what every profile operation needs: a GPU agent, a PMC profile whose events are valid and fit
/// the counter registers of each block instance (aqlprofile fails such a profile the same way: its
/// entries return HSA_STATUS_ERROR and log the reason).
hsa_status_t check_profile(const hsa_ven_amd_aqlprofile_profile_t* profile) {
    if (!profile) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!gpu_agent(profile->agent)) {
        return failed(HSA_STATUS_ERROR_INVALID_AGENT, "the profile's agent is not a GPU agent");
    }
    if (profile->type != HSA_VEN_AMD_AQLPROFILE_EVENT_TYPE_PMC) {
        return failed(HSA_STATUS_ERROR, "only PMC profiles are supported: the simulator has no thread trace");
    }
    if (profile->event_count > 0 && !profile->events) {
        return failed(HSA_STATUS_ERROR_INVALID_ARGUMENT, "the profile has events but no event array");
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> used;
    for (uint32_t i = 0; i < profile->event_count; ++i) {
        const hsa_ven_amd_aqlprofile_event_t& e = profile->events[i];
        if (!counter_event_valid(e)) {
            return failed(HSA_STATUS_ERROR, "invalid event: " + describe(e));
        }
        const CounterBlock* block = find_counter_block(static_cast<uint32_t>(e.block_name));
        if (++used[{static_cast<uint32_t>(e.block_name), e.block_index}] > block->counters) {
            return failed(HSA_STATUS_ERROR, std::string("more events than counter registers: block ") +
                                                block->name + " instance " + std::to_string(e.block_index) +
                                                " has " + std::to_string(block->counters));
        }
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t put_u32(void* value, uint32_t v) {
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::memcpy(value, &v, sizeof(v));
    return HSA_STATUS_SUCCESS;
}

bool output_ready(const hsa_ven_amd_aqlprofile_profile_t& profile) {
    return profile.output_buffer.ptr &&
           profile.output_buffer.size >= profile_output_bytes(profile.event_count);
}

hsa_status_t get_info(const hsa_ven_amd_aqlprofile_profile_t* profile,
                      hsa_ven_amd_aqlprofile_info_type_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    if (!profile) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    switch (attribute) {
    case HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE:
    case HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA_SIZE: {
        if (const hsa_status_t st = check_profile(profile); st != HSA_STATUS_SUCCESS) {
            return st;
        }
        return put_u32(value, attribute == HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE
                                  ? profile_command_bytes(profile->event_count)
                                  : profile_output_bytes(profile->event_count));
    }
    case HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA: {
        if (const hsa_status_t st = check_profile(profile); st != HSA_STATUS_SUCCESS) {
            return st;
        }
        auto* info = static_cast<hsa_ven_amd_aqlprofile_info_data_t*>(value);
        if (!info || !output_ready(*profile)) {
            return failed(HSA_STATUS_ERROR_INVALID_ARGUMENT, "no output buffer of the profile's size");
        }
        if (info->sample_id >= profile->event_count) {
            return failed(HSA_STATUS_ERROR_INVALID_ARGUMENT, "sample_id is past the profile's events");
        }
        info->pmc_data.event = profile->events[info->sample_id];
        std::memcpy(&info->pmc_data.result,
                    static_cast<const uint64_t*>(profile->output_buffer.ptr) + info->sample_id,
                    sizeof(uint64_t));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_COUNTERS: {
        if (profile->event_count == 0 || !profile->events) {
            return failed(HSA_STATUS_ERROR_INVALID_ARGUMENT, "BLOCK_COUNTERS needs the block in events[0]");
        }
        const CounterBlock* block = find_counter_block(static_cast<uint32_t>(profile->events[0].block_name));
        if (!block) {
            return failed(HSA_STATUS_ERROR, "the agent has no block " + std::to_string(static_cast<unsigned>(
                                                                            profile->events[0].block_name)));
        }
        return put_u32(value, block->counters);
    }
    case HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID: {
        auto* query = static_cast<hsa_ven_amd_aqlprofile_id_query_t*>(value);
        if (!query || !query->name) {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        const CounterBlock* block = find_counter_block(std::string_view(query->name));
        if (!block) {
            return failed(HSA_STATUS_ERROR, std::string("the agent has no block named ") + query->name);
        }
        query->id = static_cast<uint32_t>(block->id);
        query->instance_count = block->instances;
        return HSA_STATUS_SUCCESS;
    }
    default:
        return failed(HSA_STATUS_ERROR, "get_info attribute " + std::to_string(static_cast<int>(attribute)) +
                                            " is not supported by the simulator");
    }
}

hsa_status_t start(hsa_ven_amd_aqlprofile_profile_t* profile, hsa_ext_amd_aql_pm4_packet_t* packet) {
    SIM_REQUIRE_INIT();
    if (!packet) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (const hsa_status_t st = check_profile(profile); st != HSA_STATUS_SUCCESS) {
        return st;
    }
    if (!profile->command_buffer.ptr ||
        profile->command_buffer.size < profile_command_bytes(profile->event_count)) {
        return failed(HSA_STATUS_ERROR, "the command buffer is smaller than get_info(COMMAND_BUFFER_SIZE)");
    }
    write_profile_commands(*profile);
    fill_profile_packet(*profile, ProfileOp::start, packet);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t stop_or_read(const hsa_ven_amd_aqlprofile_profile_t* profile,
                          hsa_ext_amd_aql_pm4_packet_t* packet, ProfileOp op) {
    SIM_REQUIRE_INIT();
    if (!packet) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (const hsa_status_t st = check_profile(profile); st != HSA_STATUS_SUCCESS) {
        return st;
    }
    if (!profile_commands_written(*profile)) {
        return failed(HSA_STATUS_ERROR, "the command buffer was not written by start for this profile");
    }
    if (op == ProfileOp::read && !output_ready(*profile)) {
        return failed(HSA_STATUS_ERROR, "the output buffer is smaller than get_info(PMC_DATA_SIZE)");
    }
    fill_profile_packet(*profile, op, packet);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t stop(const hsa_ven_amd_aqlprofile_profile_t* profile, hsa_ext_amd_aql_pm4_packet_t* packet) {
    return stop_or_read(profile, packet, ProfileOp::stop);
}

hsa_status_t read(const hsa_ven_amd_aqlprofile_profile_t* profile, hsa_ext_amd_aql_pm4_packet_t* packet) {
    return stop_or_read(profile, packet, ProfileOp::read);
}

hsa_status_t legacy_get_pm4(const hsa_ext_amd_aql_pm4_packet_t*, void*) {
    SIM_REQUIRE_INIT();
    return failed(HSA_STATUS_ERROR, "legacy PM4 packets are for pre-gfx9 devices");
}

hsa_status_t iterate_data(const hsa_ven_amd_aqlprofile_profile_t* profile,
                          hsa_ven_amd_aqlprofile_data_callback_t callback, void* data) {
    SIM_REQUIRE_INIT();
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (const hsa_status_t st = check_profile(profile); st != HSA_STATUS_SUCCESS) {
        return st;
    }
    if (!output_ready(*profile)) {
        return failed(HSA_STATUS_ERROR_INVALID_ARGUMENT,
                      "the output buffer is smaller than get_info(PMC_DATA_SIZE)");
    }
    const auto* values = static_cast<const uint64_t*>(profile->output_buffer.ptr);
    for (uint32_t i = 0; i < profile->event_count; ++i) {
        hsa_ven_amd_aqlprofile_info_data_t info{};
        info.sample_id = i;
        info.pmc_data.event = profile->events[i];
        std::memcpy(&info.pmc_data.result, values + i, sizeof(uint64_t));
        const hsa_status_t st = callback(HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA, &info, data);
        if (st == HSA_STATUS_INFO_BREAK) {
            return HSA_STATUS_SUCCESS;
        }
        if (st != HSA_STATUS_SUCCESS) {
            return st;
        }
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace

hsa_ven_amd_aqlprofile_1_00_pfn_t aqlprofile_extension_table() {
    hsa_ven_amd_aqlprofile_1_00_pfn_t t{};
    t.hsa_ven_amd_aqlprofile_version_major = version_major;
    t.hsa_ven_amd_aqlprofile_version_minor = version_minor;
    t.hsa_ven_amd_aqlprofile_error_string = error_string;
    t.hsa_ven_amd_aqlprofile_validate_event = validate_event;
    t.hsa_ven_amd_aqlprofile_start = start;
    t.hsa_ven_amd_aqlprofile_stop = stop;
    t.hsa_ven_amd_aqlprofile_read = read;
    t.hsa_ven_amd_aqlprofile_legacy_get_pm4 = legacy_get_pm4;
    t.hsa_ven_amd_aqlprofile_get_info = get_info;
    t.hsa_ven_amd_aqlprofile_iterate_data = iterate_data;
    return t;
}

} // namespace sim
