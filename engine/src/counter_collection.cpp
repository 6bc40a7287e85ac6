// SPDX-License-Identifier: MIT
#include "counter_collection.h"

#include "configuration.h"

#include <replayscope/counters/catalogue.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace rs::engine {

// The catalogue's blocks are aqlprofile's enumerators (counters/catalogue.h).
static_assert(static_cast<uint32_t>(counters::CounterBlock::grbm) == HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM);
static_assert(static_cast<uint32_t>(counters::CounterBlock::sq) == HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQ);
static_assert(static_cast<uint32_t>(counters::CounterBlock::tcc) == HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC);
static_assert(static_cast<uint32_t>(counters::CounterBlock::tcp) == HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP);

namespace {

hsa_ven_amd_aqlprofile_block_name_t aql_block(counters::CounterBlock block) {
    return static_cast<hsa_ven_amd_aqlprofile_block_name_t>(block);
}

/// A profile of `agent` naming `events` (no buffers): what get_info's size and block queries take.
hsa_ven_amd_aqlprofile_profile_t query_profile(hsa_agent_t agent,
                                               const hsa_ven_amd_aqlprofile_event_t* events, uint32_t count) {
    hsa_ven_amd_aqlprofile_profile_t p{};
    p.agent = agent;
    p.type = HSA_VEN_AMD_AQLPROFILE_EVENT_TYPE_PMC;
    p.events = events;
    p.event_count = count;
    return p;
}

/// Instances of `block` the runtime lists (get_info BLOCK_ID by the block's name); the catalogue's when
/// it does not answer.
uint32_t block_instances(hsa_agent_t agent, const counters::CounterDef& def) {
    const auto& aql = hsa().aqlprofile;
    const std::string name(counters::block_name(def.block));
    hsa_ven_amd_aqlprofile_id_query_t query{name.c_str(), 0, 0};
    hsa_ven_amd_aqlprofile_profile_t p = query_profile(agent, nullptr, 0);
    if (aql.hsa_ven_amd_aqlprofile_get_info &&
        aql.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID, &query) ==
            HSA_STATUS_SUCCESS &&
        query.instance_count > 0 && query.id == static_cast<uint32_t>(def.block)) {
        return query.instance_count;
    }
    return def.instances;
}

struct PoolSearch {
    hsa_amd_memory_pool_t kernarg{0};
    hsa_amd_memory_pool_t fine{0};
};

hsa_status_t find_host_pool(hsa_amd_memory_pool_t pool, void* data) {
    auto* search = static_cast<PoolSearch*>(data);
    uint32_t flags = 0;
    if (!allocatable_global_pool(pool, flags)) {
        return HSA_STATUS_SUCCESS;
    }
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) != 0 && search->kernarg.handle == 0) {
        search->kernarg = pool;
    } else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) != 0 && search->fine.handle == 0) {
        search->fine = pool;
    }
    return HSA_STATUS_SUCCESS;
}

/// iterate_data's callback: adds each PMC result to the counter of its (block, select value).
struct ReadState {
    const std::map<std::pair<uint32_t, uint32_t>, size_t>* index; ///< (block, event) -> position
    std::vector<uint64_t>* sums;
};

hsa_status_t add_result(hsa_ven_amd_aqlprofile_info_type_t type, hsa_ven_amd_aqlprofile_info_data_t* data,
                        void* user) {
    if (type != HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA || data == nullptr) {
        return HSA_STATUS_SUCCESS;
    }
    auto* state = static_cast<ReadState*>(user);
    const auto& event = data->pmc_data.event;
    const auto it = state->index->find({static_cast<uint32_t>(event.block_name), event.counter_id});
    if (it != state->index->end()) {
        (*state->sums)[it->second] += data->pmc_data.result;
    }
    return HSA_STATUS_SUCCESS;
}

constexpr uint16_t kVendorHeader = (HSA_PACKET_TYPE_VENDOR_SPECIFIC << HSA_PACKET_HEADER_TYPE) |
                                   (1 << HSA_PACKET_HEADER_BARRIER) |
                                   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                                   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);

} // namespace

void load_aqlprofile_extension() {
    HsaApi& api = hsa();
    api.aqlprofile = {};
    api.has_aqlprofile = api.core.hsa_system_get_major_extension_table_fn &&
                         api.core.hsa_system_get_major_extension_table_fn(
                             HSA_EXTENSION_AMD_AQLPROFILE, 1, sizeof(hsa_ven_amd_aqlprofile_1_00_pfn_t),
                             &api.aqlprofile) == HSA_STATUS_SUCCESS;
    const auto& t = api.aqlprofile;
    if (api.has_aqlprofile &&
        (!t.hsa_ven_amd_aqlprofile_validate_event || !t.hsa_ven_amd_aqlprofile_start ||
         !t.hsa_ven_amd_aqlprofile_stop || !t.hsa_ven_amd_aqlprofile_read ||
         !t.hsa_ven_amd_aqlprofile_get_info || !t.hsa_ven_amd_aqlprofile_iterate_data)) {
        api.has_aqlprofile = false; // a table without the entries collection needs
    }
}

void report_counter_extension(const Configuration& config, EventSink& sink) {
    if ((config.counters.empty() && !config.fidelity_check) || hsa().has_aqlprofile) {
        return;
    }
    sink.warning(WarningCode::counters_unavailable, 0,
                 config.counters.empty()
                     ? "counters-unavailable: the runtime offers no aqlprofile extension "
                       "(HSA_EXTENSION_AMD_AQLPROFILE): --fidelity-check compares no counter between passes"
                     : "counters-unavailable: the runtime offers no aqlprofile extension "
                       "(HSA_EXTENSION_AMD_AQLPROFILE): the passes are timed only, no counter is collected");
}

void CounterCollection::prepare(const Configuration& config, EventSink& sink, hsa_agent_t gpu,
                                hsa_agent_t cpu, uint64_t dispatch_id) noexcept {
    if (prepared_) {
        return;
    }
    prepared_ = true;
    if ((config.counters.empty() && !config.fidelity_check) || !hsa().has_aqlprofile) {
        return;
    }
    try {
        // The catalogue's select values are gfx90a's: another GPU numbers its events otherwise (gfx908's
        // SQ instruction counters, for one), and would count something else under the same name.
        const std::string agent = agent_name(gpu);
        if (agent.rfind("gfx90a", 0) != 0) {
            sink.warning(
                WarningCode::counters_unavailable, dispatch_id,
                "counters-unavailable: the agent is " + (agent.empty() ? std::string("unnamed") : agent) +
                    "; the counter catalogue has gfx90a's select values only, so no counter is "
                    "collected on it" +
                    (config.fidelity_check ? " (nor compared between passes by --fidelity-check)" : ""));
            return;
        }
        const auto& aql = hsa().aqlprofile;
        // Events of each requested counter the agent accepts, one per block instance.
        std::map<uint32_t, std::vector<hsa_ven_amd_aqlprofile_event_t>> events;
        std::string refused;
        counters::CounterRequest request;
        // The events of counter `id` the agent accepts (validate_event), one per block instance.
        const auto validate = [&](uint32_t id) -> const std::vector<hsa_ven_amd_aqlprofile_event_t>& {
            auto it = events.find(id);
            if (it == events.end()) {
                const counters::CounterDef& def = *counters::counter(id);
                std::vector<hsa_ven_amd_aqlprofile_event_t> list;
                const uint32_t instances = block_instances(gpu, def);
                for (uint32_t i = 0; i < instances; ++i) {
                    hsa_ven_amd_aqlprofile_event_t e{aql_block(def.block), i, def.event};
                    bool valid = false;
                    if (aql.hsa_ven_amd_aqlprofile_validate_event(gpu, &e, &valid) == HSA_STATUS_SUCCESS &&
                        valid) {
                        list.push_back(e);
                    }
                }
                it = events.emplace(id, std::move(list)).first;
            }
            return it->second;
        };
        for (const auto& line : config.counters) {
            std::vector<std::string> kept;
            for (const std::string& name : line) {
                const auto id = counters::find_counter(name);
                if (!id) {
                    continue; // the configuration listed it as a problem
                }
                const bool known = events.contains(*id);
                if (!validate(*id).empty()) {
                    kept.push_back(name);
                } else if (!known) {
                    refused += (refused.empty() ? "" : ", ") + name;
                }
            }
            request.push_back(std::move(kept));
        }
        if (!refused.empty()) {
            sink.warning(WarningCode::counters_unavailable, dispatch_id,
                         "counters-unavailable: the agent refuses " + refused +
                             " (aqlprofile validate_event); they are not collected");
        }
        // --fidelity-check: the counter compared between passes, in the SQ slot the plan keeps free.
        std::optional<uint32_t> fidelity;
        if (config.fidelity_check) {
            fidelity = counters::find_counter(counters::kFidelityCounter);
            if (fidelity && validate(*fidelity).empty()) {
                sink.warning(WarningCode::counters_unavailable, dispatch_id,
                             "counters-unavailable: the agent refuses " +
                                 std::string(counters::kFidelityCounter) +
                                 " (aqlprofile validate_event); --fidelity-check compares no counter between "
                                 "passes on it");
                fidelity.reset();
            }
        }
        // Registers per block, as the runtime reports them for a profile of one of its events.
        const auto slots = [&](counters::CounterBlock block) -> uint32_t {
            for (const auto& [id, list] : events) {
                if (counters::counter(id)->block == block && !list.empty()) {
                    hsa_ven_amd_aqlprofile_profile_t p = query_profile(gpu, list.data(), 1);
                    uint32_t n = 0;
                    if (aql.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_COUNTERS,
                                                            &n) == HSA_STATUS_SUCCESS) {
                        return n;
                    }
                    return 0;
                }
            }
            return 0;
        };
        counters::CounterPlan plan = counters::plan_groups(request, slots, config.fidelity_check);
        if (!plan.error.empty()) {
            sink.warning(WarningCode::counters_unavailable, dispatch_id,
                         "counters-unavailable: " + plan.error + "; no counter is collected on this agent");
            return;
        }
        // Each requested group also counts the fidelity counter (when it does not already), and one group
        // of the fidelity counter alone serves the passes after the last requested group.
        std::vector<counters::CounterGroup> planned = plan.groups;
        if (fidelity) {
            planned.push_back({});
        }
        std::vector<Group> groups;
        for (const counters::CounterGroup& g : planned) {
            Group& group = groups.emplace_back();
            group.counters = g.counters;
            for (uint32_t id : g.counters) {
                group.events.insert(group.events.end(), events[id].begin(), events[id].end());
            }
            if (fidelity && std::find(g.counters.begin(), g.counters.end(), *fidelity) == g.counters.end()) {
                group.events.insert(group.events.end(), events[*fidelity].begin(), events[*fidelity].end());
            }
            std::string problem;
            if (!allocate(gpu, cpu, group, problem)) {
                for (Group& made : groups) {
                    auto& amd = hsa().amd;
                    if (made.command) {
                        (void)amd.hsa_amd_memory_pool_free_fn(made.command);
                    }
                    if (made.output) {
                        (void)amd.hsa_amd_memory_pool_free_fn(made.output);
                    }
                }
                sink.warning(WarningCode::counters_unavailable, dispatch_id,
                             "counters-unavailable: " + problem + "; no counter is collected on this agent");
                return;
            }
        }
        groups_ = std::move(groups);
        requested_groups_ = static_cast<uint32_t>(plan.groups.size());
        fidelity_counter_ = fidelity;
    } catch (const std::bad_alloc&) {
        groups_.clear();
        requested_groups_ = 0;
        fidelity_counter_.reset();
        sink.warning(WarningCode::counters_unavailable, dispatch_id,
                     "counters-unavailable: out of host memory while planning the counters");
    }
}

bool CounterCollection::allocate(hsa_agent_t gpu, hsa_agent_t cpu, Group& group,
                                 std::string& problem) noexcept {
    const auto& aql = hsa().aqlprofile;
    auto& amd = hsa().amd;
    group.profile = query_profile(gpu, group.events.data(), static_cast<uint32_t>(group.events.size()));
    uint32_t command_size = 0, output_size = 0;
    if (aql.hsa_ven_amd_aqlprofile_get_info(&group.profile, HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE,
                                            &command_size) != HSA_STATUS_SUCCESS ||
        aql.hsa_ven_amd_aqlprofile_get_info(&group.profile, HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA_SIZE,
                                            &output_size) != HSA_STATUS_SUCCESS ||
        command_size == 0 || output_size == 0) {
        problem = "aqlprofile gives no buffer sizes for the profile of " +
                  (group.counters.empty() ? std::string(counters::kFidelityCounter)
                                          : counters::group_text({group.counters}));
        return false;
    }
    PoolSearch search;
    if (cpu.handle != 0) {
        (void)amd.hsa_amd_agent_iterate_memory_pools_fn(cpu, find_host_pool, &search);
    }
    const hsa_amd_memory_pool_t pool = search.kernarg.handle != 0 ? search.kernarg : search.fine;
    if (pool.handle == 0) {
        problem = "no host memory pool (kernarg or fine-grained) for the profile buffers";
        return false;
    }
    for (auto [buffer, size] :
         {std::pair{&group.command, command_size}, std::pair{&group.output, output_size}}) {
        if (amd.hsa_amd_memory_pool_allocate_fn(pool, size, 0, buffer) != HSA_STATUS_SUCCESS ||
            *buffer == nullptr) {
            *buffer = nullptr;
            problem = "the profile buffers (" + std::to_string(size) + " bytes) could not be allocated";
            return false;
        }
        if (amd.hsa_amd_agents_allow_access_fn(1, &gpu, nullptr, *buffer) != HSA_STATUS_SUCCESS) {
            problem = "the agent was refused access to the profile buffers";
            return false;
        }
        std::memset(*buffer, 0, size);
    }
    group.profile.command_buffer = {group.command, command_size};
    group.profile.output_buffer = {group.output, output_size};
    return true;
}

std::optional<size_t> CounterCollection::group_of(uint32_t pass) const {
    if (!usable()) {
        return std::nullopt;
    }
    if (pass < requested_groups_) {
        return pass;
    }
    return fidelity_counter_ ? std::optional<size_t>(groups_.size() - 1) : std::nullopt;
}

std::string CounterCollection::group_text(uint32_t pass) const {
    const auto index = group_of(pass);
    if (!index) {
        return {};
    }
    const Group* g = &groups_[*index];
    std::string text = counters::group_text({g->counters});
    if (fidelity_counter_ &&
        std::find(g->counters.begin(), g->counters.end(), *fidelity_counter_) == g->counters.end()) {
        text += (text.empty() ? "" : " + ") + std::string(counters::kFidelityCounter) + " (fidelity check)";
    }
    return text;
}

bool CounterCollection::make_packets(uint32_t pass, hsa_signal_t read_signal,
                                     hsa_ext_amd_aql_pm4_packet_t& start, hsa_ext_amd_aql_pm4_packet_t& stop,
                                     hsa_ext_amd_aql_pm4_packet_t& read) noexcept {
    const auto index = group_of(pass);
    if (!index) {
        return false;
    }
    const auto& aql = hsa().aqlprofile;
    Group& g = groups_[*index];
    std::memset(g.output, 0, g.profile.output_buffer.size);
    start = {};
    stop = {};
    read = {};
    if (aql.hsa_ven_amd_aqlprofile_start(&g.profile, &start) != HSA_STATUS_SUCCESS ||
        aql.hsa_ven_amd_aqlprofile_stop(&g.profile, &stop) != HSA_STATUS_SUCCESS ||
        aql.hsa_ven_amd_aqlprofile_read(&g.profile, &read) != HSA_STATUS_SUCCESS) {
        return false;
    }
    for (hsa_ext_amd_aql_pm4_packet_t* p : {&start, &stop, &read}) {
        p->header = kVendorHeader;
        p->completion_signal = hsa_signal_t{0};
    }
    read.completion_signal = read_signal;
    return true;
}

bool CounterCollection::read(uint32_t pass, std::vector<std::pair<uint32_t, uint64_t>>& values,
                             std::optional<uint64_t>& fidelity_value) noexcept {
    fidelity_value.reset();
    const auto index = group_of(pass);
    if (!index) {
        return false;
    }
    try {
        const Group& g = groups_[*index];
        // Every counted id: the group's counters, then the fidelity counter when the group added it.
        std::vector<uint32_t> ids = g.counters;
        if (fidelity_counter_ && std::find(ids.begin(), ids.end(), *fidelity_counter_) == ids.end()) {
            ids.push_back(*fidelity_counter_);
        }
        std::map<std::pair<uint32_t, uint32_t>, size_t> positions;
        for (size_t i = 0; i < ids.size(); ++i) {
            const counters::CounterDef& def = *counters::counter(ids[i]);
            positions[{static_cast<uint32_t>(def.block), def.event}] = i;
        }
        std::vector<uint64_t> sums(ids.size(), 0);
        ReadState state{&positions, &sums};
        if (hsa().aqlprofile.hsa_ven_amd_aqlprofile_iterate_data(&g.profile, add_result, &state) !=
            HSA_STATUS_SUCCESS) {
            return false;
        }
        values.clear();
        for (size_t i = 0; i < ids.size(); ++i) {
            if (i < g.counters.size()) {
                values.emplace_back(ids[i], sums[i]);
            }
            if (fidelity_counter_ && ids[i] == *fidelity_counter_) {
                fidelity_value = sums[i];
            }
        }
        return true;
    } catch (const std::bad_alloc&) {
        return false;
    }
}

void CounterCollection::release() noexcept {
    if (abandoned_) {
        return; // a packet may still write them: left to the runtime
    }
    for (Group& g : groups_) {
        if (g.command) {
            (void)hsa().amd.hsa_amd_memory_pool_free_fn(g.command);
        }
        if (g.output) {
            (void)hsa().amd.hsa_amd_memory_pool_free_fn(g.output);
        }
    }
    groups_.clear();
    requested_groups_ = 0;
    fidelity_counter_.reset();
    prepared_ = false;
}

} // namespace rs::engine
