// SPDX-License-Identifier: MIT
// Shared virtual memory attributes and prefetch (hsa_ext_amd.h, ROCr 5.2.3 runtime.cpp SetSvmAttrib /
// GetSvmAttrib / SvmPrefetch). All simulated memory is host memory every agent reaches, so nothing moves:
// attributes are recorded per page range (svm_ranges.h) and read back, and a prefetch records its target
// and completes its signal once its dependencies are satisfied (docs/sim-fidelity.md).
#include "api.h"
#include "runtime.h"
#include "sim_signal.h"

#include <algorithm>
#include <vector>

namespace sim::api {

namespace {

/// True when `handle` names an agent of this runtime.
bool is_agent(uint64_t handle) {
    return Runtime::instance().agent(hsa_agent_t{handle}) != nullptr;
}

bool is_access(uint64_t attribute) {
    return attribute == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE ||
           attribute == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE ||
           attribute == HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS;
}

/// The value all ranges agree on, or `mixed` when they differ.
template <typename Field>
uint64_t uniform(const std::vector<SvmAttributes>& ranges, Field field, uint64_t mixed) {
    const uint64_t first = field(ranges.front());
    for (const auto& r : ranges) {
        if (field(r) != first) {
            return mixed;
        }
    }
    return first;
}

} // namespace

hsa_status_t hsa_amd_svm_attributes_set(void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* attribute_list,
                                        size_t attribute_count) {
    SIM_REQUIRE_INIT();
    if (!ptr || size == 0 || (attribute_count && !attribute_list)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // Validate the whole list first (as ROCr builds its KFD request before the ioctl): an attribute or an
    // agent named twice is INCOMPATIBLE_ARGUMENTS, an unknown agent INVALID_AGENT, a get-only or unknown
    // attribute INVALID_ARGUMENT.
    std::vector<uint64_t> seen_attributes, seen_agents;
    auto seen = [](std::vector<uint64_t>& list, uint64_t v) {
        for (uint64_t x : list) {
            if (x == v) {
                return true;
            }
        }
        list.push_back(v);
        return false;
    };
    for (size_t i = 0; i < attribute_count; ++i) {
        const uint64_t attribute = attribute_list[i].attribute;
        const uint64_t value = attribute_list[i].value;
        if (is_access(attribute)) {
            if (!is_agent(value)) {
                return HSA_STATUS_ERROR_INVALID_AGENT;
            }
            if (seen(seen_agents, value)) {
                return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
            }
            continue;
        }
        switch (attribute) {
        case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
            if (value != HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED &&
                value != HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED) {
                return HSA_STATUS_ERROR_INVALID_ARGUMENT;
            }
            break;
        case HSA_AMD_SVM_ATTRIB_READ_ONLY:
        case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
        case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
        case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
            break;
        case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION: // 0 clears it
            if (value != 0 && !is_agent(value)) {
                return HSA_STATUS_ERROR_INVALID_AGENT;
            }
            break;
        default: // PREFETCH_LOCATION and ACCESS_QUERY are get-only
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        if (seen(seen_attributes, attribute)) {
            return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
        }
    }
    Runtime::instance().svm_ranges().update(reinterpret_cast<uintptr_t>(ptr), size,
                                            [attribute_list, attribute_count](SvmAttributes& a) {
                                                for (size_t i = 0; i < attribute_count; ++i) {
                                                    const uint64_t attribute = attribute_list[i].attribute;
                                                    const uint64_t value = attribute_list[i].value;
                                                    if (is_access(attribute)) {
                                                        a.access[value] = attribute;
                                                        continue;
                                                    }
                                                    switch (attribute) {
                                                    case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
                                                        a.global_flag = value;
                                                        break;
                                                    case HSA_AMD_SVM_ATTRIB_READ_ONLY:
                                                        a.read_only = value != 0;
                                                        break;
                                                    case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
                                                        a.hive_local = value != 0;
                                                        break;
                                                    case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
                                                        a.read_mostly = value != 0;
                                                        break;
                                                    case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
                                                        a.granularity = value;
                                                        break;
                                                    case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION:
                                                        a.preferred_location = value;
                                                        break;
                                                    default:
                                                        break;
                                                    }
                                                }
                                            });
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_svm_attributes_get(void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* attribute_list,
                                        size_t attribute_count) {
    SIM_REQUIRE_INIT();
    if (!ptr || size == 0 || (attribute_count && !attribute_list)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < attribute_count; ++i) {
        const uint64_t attribute = attribute_list[i].attribute;
        if (attribute == HSA_AMD_SVM_ATTRIB_ACCESS_QUERY) {
            if (!is_agent(attribute_list[i].value)) {
                return HSA_STATUS_ERROR_INVALID_AGENT;
            }
        } else if (attribute > HSA_AMD_SVM_ATTRIB_READ_MOSTLY) { // the access setters cannot be read
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
    }
    const std::vector<SvmAttributes> ranges =
        Runtime::instance().svm_ranges().query(reinterpret_cast<uintptr_t>(ptr), size);
    Agent* cpu = Runtime::instance().cpu_agent();
    for (size_t i = 0; i < attribute_count; ++i) {
        uint64_t& value = attribute_list[i].value;
        switch (attribute_list[i].attribute) {
        case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
            value = uniform(
                ranges, [](const SvmAttributes& a) { return a.global_flag; },
                HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE);
            break;
        case HSA_AMD_SVM_ATTRIB_READ_ONLY: // flags: set only when every range has them (KFD's AND)
            value = uniform(ranges, [](const SvmAttributes& a) -> uint64_t { return a.read_only; }, 0);
            break;
        case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
            value = uniform(ranges, [](const SvmAttributes& a) -> uint64_t { return a.hive_local; }, 0);
            break;
        case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
            value = uniform(ranges, [](const SvmAttributes& a) -> uint64_t { return a.read_mostly; }, 0);
            break;
        case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY: // the smallest
            value = ranges.front().granularity;
            for (const auto& r : ranges) {
                value = std::min(value, r.granularity);
            }
            break;
        case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION:
            value = uniform(ranges, [](const SvmAttributes& a) { return a.preferred_location; }, 0);
            break;
        case HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION:
            value = uniform(ranges, [](const SvmAttributes& a) { return a.prefetch_location; }, 0);
            break;
        case HSA_AMD_SVM_ATTRIB_ACCESS_QUERY: {
            // The answer replaces the attribute; the agent stays in `value`. The CPU always reaches host
            // memory (KFD's HOST_ACCESS flag); a GPU has what was set on every range, else no access.
            const uint64_t agent = value;
            uint64_t answer = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE;
            if (!(cpu && agent == cpu->handle().handle)) {
                answer = uniform(
                    ranges,
                    [agent](const SvmAttributes& a) -> uint64_t {
                        auto it = a.access.find(agent);
                        return it == a.access.end() ? uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS}
                                                    : it->second;
                    },
                    HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS);
            }
            attribute_list[i].attribute = answer;
            break;
        }
        default:
            break;
        }
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_svm_prefetch_async(void* ptr, size_t size, hsa_agent_t agent, uint32_t num_dep_signals,
                                        const hsa_signal_t* dep_signals, hsa_signal_t completion_signal) {
    SIM_REQUIRE_INIT();
    auto& rt = Runtime::instance();
    if (!ptr || size == 0 || (num_dep_signals && !dep_signals)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!rt.agent(agent)) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    Signal* completion = Signal::from(completion_signal);
    if (!completion) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    std::vector<Signal*> deps;
    for (uint32_t i = 0; i < num_dep_signals; ++i) {
        Signal* d = Signal::from(dep_signals[i]);
        if (!d) {
            return HSA_STATUS_ERROR_INVALID_SIGNAL;
        }
        deps.push_back(d);
    }
    // The copy engine keeps order with async copies: wait for every dependency to reach 0, record the
    // location (nothing migrates: it is all host memory), then decrement the completion signal.
    const uintptr_t base = reinterpret_cast<uintptr_t>(ptr);
    const uint64_t target = agent.handle;
    rt.copy_engine().post([deps = std::move(deps), completion, base, size, target, &rt] {
        for (Signal* d : deps) {
            d->wait(HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX);
        }
        rt.svm_ranges().update(base, size, [target](SvmAttributes& a) { a.prefetch_location = target; });
        completion->modify([](auto& value) { return value.fetch_sub(1) - 1; });
    });
    return HSA_STATUS_SUCCESS;
}

} // namespace sim::api
