// SPDX-License-Identifier: MIT
/*
 * hsa-info: prints the HSA system, every agent and its memory pools, in the spirit of rocminfo.
 * Written against the plain HSA API only, so it runs on the real runtime and on the simulator alike.
 *
 * Output (one "Key: value" per line; agents numbered from 1, pools from 1 within their agent):
 *   Agent 2
 *     Name:                    gfx90a
 *     Device Type:             GPU
 *     Node:                    1
 *     ISA:                     amdgcn-amd-amdhsa--gfx90a
 *     Timestamp Frequency:     100000000 Hz
 *     pool 1
 *       Segment:               GLOBAL
 *       Global Flags:          COARSE GRAINED
 *       ...
 */
#include <hsa.h>
#include <hsa_ext_amd.h>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

namespace {

/** HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY (uint64_t, Hz), named only by headers newer than ROCr 5.2.3. */
constexpr auto kAgentInfoTimestampFrequency = static_cast<hsa_agent_info_t>(0xA016);

const char* status_text(hsa_status_t st) {
    const char* text = nullptr;
    if (hsa_status_string(st, &text) != HSA_STATUS_SUCCESS || !text) {
        return "unknown status";
    }
    return text;
}

const char* device_type_name(hsa_device_type_t type) {
    switch (type) {
    case HSA_DEVICE_TYPE_CPU:
        return "CPU";
    case HSA_DEVICE_TYPE_GPU:
        return "GPU";
    case HSA_DEVICE_TYPE_DSP:
        return "DSP";
    }
    return "UNKNOWN";
}

const char* segment_name(hsa_amd_segment_t segment) {
    switch (segment) {
    case HSA_AMD_SEGMENT_GLOBAL:
        return "GLOBAL";
    case HSA_AMD_SEGMENT_READONLY:
        return "READONLY";
    case HSA_AMD_SEGMENT_PRIVATE:
        return "PRIVATE";
    case HSA_AMD_SEGMENT_GROUP:
        return "GROUP";
    }
    return "UNKNOWN";
}

std::string flags_text(uint32_t flags) {
    struct Flag {
        uint32_t bit;
        const char* name;
    };
    static const Flag known[] = {{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT, "KERNARG"},
                                 {HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, "FINE GRAINED"},
                                 {HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, "COARSE GRAINED"}};
    std::string out;
    for (const Flag& f : known) {
        if (flags & f.bit) {
            out += (out.empty() ? "" : ", ");
            out += f.name;
            flags &= ~f.bit;
        }
    }
    if (flags) {
        char rest[32];
        std::snprintf(rest, sizeof(rest), "0x%x", flags);
        out += (out.empty() ? "" : ", ");
        out += rest;
    }
    return out.empty() ? "NONE" : out;
}

void field(int indent, const char* key, const std::string& value) {
    std::printf("%*s%-*s %s\n", indent, "", 26 - indent, (std::string(key) + ":").c_str(), value.c_str());
}

std::string isa_name(hsa_agent_t agent) {
    hsa_isa_t isa{0};
    if (hsa_agent_get_info(agent, HSA_AGENT_INFO_ISA, &isa) != HSA_STATUS_SUCCESS || isa.handle == 0) {
        return "None";
    }
    uint32_t length = 0;
    if (hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &length) != HSA_STATUS_SUCCESS) {
        return "None";
    }
    std::vector<char> name(length + 1, '\0');
    if (hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name.data()) != HSA_STATUS_SUCCESS) {
        return "None";
    }
    return name.data();
}

void print_pool(hsa_amd_memory_pool_t pool, int index) {
    std::printf("    pool %d\n", index);
    hsa_amd_segment_t segment{};
    uint32_t flags = 0;
    size_t size = 0;
    size_t granule = 0;
    size_t alignment = 0;
    bool alloc_allowed = false;
    bool accessible_by_all = false;
    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
    field(6, "Segment", segment_name(segment));
    if (segment == HSA_AMD_SEGMENT_GLOBAL &&
        hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags) ==
            HSA_STATUS_SUCCESS) {
        field(6, "Global Flags", flags_text(flags));
    }
    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
    field(6, "Size", std::to_string(size / 1024) + "(KB)");
    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_allowed);
    field(6, "Runtime Alloc Allowed", alloc_allowed ? "TRUE" : "FALSE");
    if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule) ==
        HSA_STATUS_SUCCESS) {
        field(6, "Alloc Granule", std::to_string(granule / 1024) + "KB");
    }
    if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, &alignment) ==
        HSA_STATUS_SUCCESS) {
        field(6, "Alloc Alignment", std::to_string(alignment / 1024) + "KB");
    }
    if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &accessible_by_all) ==
        HSA_STATUS_SUCCESS) {
        field(6, "Accessible by all", accessible_by_all ? "TRUE" : "FALSE");
    }
}

void print_agent(hsa_agent_t agent, int index) {
    std::printf("*******\nAgent %d\n*******\n", index);
    char name[64] = {};
    hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, name);
    field(2, "Name", name);
    char product[64] = {};
    if (hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_PRODUCT_NAME), product) ==
        HSA_STATUS_SUCCESS) {
        field(2, "Marketing Name", product);
    }
    hsa_device_type_t type{};
    hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
    field(2, "Device Type", device_type_name(type));
    uint32_t node = 0;
    hsa_agent_get_info(agent, HSA_AGENT_INFO_NODE, &node);
    field(2, "Node", std::to_string(node));
    uint32_t features = 0;
    hsa_agent_get_info(agent, HSA_AGENT_INFO_FEATURE, &features);
    std::string feature_text;
    if (features & HSA_AGENT_FEATURE_KERNEL_DISPATCH) {
        feature_text += "KERNEL_DISPATCH ";
    }
    if (features & HSA_AGENT_FEATURE_AGENT_DISPATCH) {
        feature_text += "AGENT_DISPATCH ";
    }
    field(2, "Features", feature_text.empty() ? "None" : feature_text.substr(0, feature_text.size() - 1));
    field(2, "ISA", isa_name(agent));
    uint64_t frequency = 0;
    if (hsa_agent_get_info(agent, kAgentInfoTimestampFrequency, &frequency) == HSA_STATUS_SUCCESS) {
        field(2, "Timestamp Frequency", std::to_string(frequency) + " Hz");
    } else {
        field(2, "Timestamp Frequency", "N/A");
    }
    std::printf("  pool Info:\n");
    std::vector<hsa_amd_memory_pool_t> pools;
    hsa_amd_agent_iterate_memory_pools(
        agent,
        [](hsa_amd_memory_pool_t pool, void* data) {
            static_cast<std::vector<hsa_amd_memory_pool_t>*>(data)->push_back(pool);
            return HSA_STATUS_SUCCESS;
        },
        &pools);
    for (size_t i = 0; i < pools.size(); ++i) {
        print_pool(pools[i], static_cast<int>(i + 1));
    }
}

} // namespace

int main() {
    const hsa_status_t st = hsa_init();
    if (st != HSA_STATUS_SUCCESS) {
        std::fprintf(stderr, "hsa-info: hsa_init failed: %s\n", status_text(st));
        return 1;
    }
    uint16_t major = 0;
    uint16_t minor = 0;
    uint64_t frequency = 0;
    hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
    hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor);
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency);
    std::printf("HSA System Attributes\n");
    field(2, "Runtime Version", std::to_string(major) + "." + std::to_string(minor));
    field(2, "Timestamp Frequency", std::to_string(frequency) + " Hz");
    std::printf("==========\nHSA Agents\n==========\n");
    std::vector<hsa_agent_t> agents;
    hsa_iterate_agents(
        [](hsa_agent_t agent, void* data) {
            static_cast<std::vector<hsa_agent_t>*>(data)->push_back(agent);
            return HSA_STATUS_SUCCESS;
        },
        &agents);
    for (size_t i = 0; i < agents.size(); ++i) {
        print_agent(agents[i], static_cast<int>(i + 1));
    }
    std::printf("*** Done ***\n");
    hsa_shut_down();
    return 0;
}
