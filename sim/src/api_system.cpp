// SPDX-License-Identifier: MIT
// Runtime, system, agent, ISA, region and pool queries (HSA 1.2 §2.1, §2.2, §2.8; hsa_ext_amd.h).
#include "api.h"
#include "api_table.h"
#include "aqlprofile_extension.h"
#include "clock.h"
#include "image_extension.h"
#include "loader_extension.h"
#include "runtime.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace sim::api {

namespace {

/// An ISA the simulator knows; its handle is the address of the object. The GPU agents have the first
/// (with target features); the second is the same processor with unspecified features, which
/// hsa_isa_from_name returns for `amdgcn-amd-amdhsa--gfx90a` (as ROCr's ISA registry holds both).
struct SimIsa {
    const char* name;
} g_gpu_isa{kGpuIsaName}, g_gpu_isa_any{kGpuIsaBaseName};

/// The one wavefront kind of the GPU ISA (64 work-items, as ROCr 5.2.3 src/core/runtime/isa.cpp).
struct SimWavefront {
    uint32_t size = 64;
} g_wavefront;

hsa_isa_t gpu_isa() {
    return {reinterpret_cast<uint64_t>(&g_gpu_isa)};
}

/// The ISA behind a handle, or nullptr.
const SimIsa* isa_of(hsa_isa_t isa) {
    if (isa.handle == reinterpret_cast<uint64_t>(&g_gpu_isa)) {
        return &g_gpu_isa;
    }
    if (isa.handle == reinterpret_cast<uint64_t>(&g_gpu_isa_any)) {
        return &g_gpu_isa_any;
    }
    return nullptr;
}

void copy_name(void* value, const std::string& s, size_t capacity = 64) {
    auto* out = static_cast<char*>(value);
    std::memset(out, 0, capacity);
    std::memcpy(out, s.data(), std::min(s.size(), capacity - 1));
}

template <typename T>
hsa_status_t put(void* value, T v) {
    std::memcpy(value, &v, sizeof(T));
    return HSA_STATUS_SUCCESS;
}

/// Calls `callback(handle_of(item), data)` for each item until one returns other than SUCCESS, which is
/// returned (HSA 1.2 iteration contract: INFO_BREAK or an error stops the walk and is passed on).
template <typename Range, typename HandleOf, typename Callback>
hsa_status_t for_each(const Range& items, HandleOf handle_of, Callback callback, void* data) {
    for (auto* item : items) {
        if (!item) {
            continue;
        }
        hsa_status_t s = callback(handle_of(item), data);
        if (s != HSA_STATUS_SUCCESS) {
            return s;
        }
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace

hsa_status_t hsa_init() {
    return Runtime::instance().acquire();
}
hsa_status_t hsa_shut_down() {
    return Runtime::instance().release();
}

hsa_status_t hsa_system_get_info(hsa_system_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    switch (static_cast<int>(attribute)) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR:
        return put<uint16_t>(value, 1);
    case HSA_SYSTEM_INFO_VERSION_MINOR:
        return put<uint16_t>(value, 1);
    case HSA_SYSTEM_INFO_TIMESTAMP:
        return put<uint64_t>(value, now_ns());
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
        return put<uint64_t>(value, kSystemTimestampFrequency);
    case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
        return put<uint64_t>(value, UINT64_MAX);
    case HSA_SYSTEM_INFO_ENDIANNESS:
        return put(value, HSA_ENDIANNESS_LITTLE);
    case HSA_SYSTEM_INFO_MACHINE_MODEL:
        return put(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_SYSTEM_INFO_EXTENSIONS: {
        uint8_t bits[128] = {};
        bits[HSA_EXTENSION_AMD_LOADER / 8] |= static_cast<uint8_t>(1u << (HSA_EXTENSION_AMD_LOADER % 8));
        bits[HSA_EXTENSION_IMAGES / 8] |= static_cast<uint8_t>(1u << (HSA_EXTENSION_IMAGES % 8));
        // ROCr reports the aqlprofile extension when its library is installed; the simulator implements it
        // (not offered with HSA_SIM_NO_AQLPROFILE=1, as without the library).
        if (Runtime::instance().config().aqlprofile) {
            bits[HSA_EXTENSION_AMD_AQLPROFILE / 8] |=
                static_cast<uint8_t>(1u << (HSA_EXTENSION_AMD_AQLPROFILE % 8));
        }
        std::memcpy(value, bits, sizeof(bits));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_SYSTEM_INFO_BUILD_VERSION: {
        // A pointer to a static string (ROCr: its build id).
        static const char kBuildVersion[] = "replayscope-sim";
        return put<const char*>(value, kBuildVersion);
    }
    case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED:
        // ROCr: every GPU's KFD node reports the SVM API (true on an MI210 with a 5.x kernel driver).
        return put(value, true);
    case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT:
        // ROCr: true only when every GPU runs with XNACK on; the simulated gfx90a is xnack-.
        return put(value, false);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t hsa_system_extension_supported(uint16_t extension, uint16_t version_major, uint16_t,
                                            bool* result) {
    SIM_REQUIRE_INIT();
    if (!result) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *result = (extension == HSA_EXTENSION_AMD_LOADER || extension == HSA_EXTENSION_IMAGES ||
               extension == HSA_EXTENSION_AMD_AQLPROFILE) &&
              version_major == 1;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
                                                  uint16_t* version_minor, bool* result) {
    SIM_REQUIRE_INIT();
    if (!result || !version_minor) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *result = (extension == HSA_EXTENSION_AMD_LOADER || extension == HSA_EXTENSION_IMAGES ||
               extension == HSA_EXTENSION_AMD_AQLPROFILE) &&
              version_major == 1;
    *version_minor = *result && extension == HSA_EXTENSION_AMD_LOADER ? 3 : 0;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_extension_table(uint16_t extension, uint16_t version_major, uint16_t,
                                            void* table) {
    // The deprecated form copies the 1.00 table (the first members of every later version).
    return api::hsa_system_get_major_extension_table(extension, version_major,
                                                     sizeof(hsa_ven_amd_loader_1_00_pfn_t), table);
}

hsa_status_t hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
                                                  size_t table_length, void* table) {
    SIM_REQUIRE_INIT();
    if (!table || table_length == 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (extension == HSA_EXTENSION_IMAGES && version_major == 1) {
        const hsa_ext_images_1_pfn_t images = image_extension_table();
        if (table_length > sizeof(images)) {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        std::memcpy(table, &images, table_length);
        return HSA_STATUS_SUCCESS;
    }
    if (extension == HSA_EXTENSION_AMD_AQLPROFILE && !Runtime::instance().config().aqlprofile) {
        // HSA_SIM_NO_AQLPROFILE=1: ROCr builds this table from the library it loads at this call, and
        // answers HSA_STATUS_ERROR when the library cannot be loaded.
        return HSA_STATUS_ERROR;
    }
    if (extension == HSA_EXTENSION_AMD_AQLPROFILE && version_major == kAqlProfileExtensionMajor) {
        // ROCr copies at most its table's size of the library's entries.
        const hsa_ven_amd_aqlprofile_1_00_pfn_t aqlprofile = aqlprofile_extension_table();
        std::memcpy(table, &aqlprofile, std::min(table_length, sizeof(aqlprofile)));
        return HSA_STATUS_SUCCESS;
    }
    if (extension != HSA_EXTENSION_AMD_LOADER || version_major != 1) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    hsa_ven_amd_loader_1_03_pfn_t full = loader_extension_table();
    if (table_length > sizeof(full)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::memcpy(table, &full, table_length);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent,
                                                 uint16_t version_major, uint16_t* version_minor,
                                                 bool* result) {
    SIM_REQUIRE_INIT();
    if (!Runtime::instance().agent(agent)) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    return api::hsa_system_major_extension_supported(extension, version_major, version_minor, result);
}

hsa_status_t hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent, uint16_t version_major,
                                           uint16_t, bool* result) {
    uint16_t minor = 0;
    return api::hsa_agent_major_extension_supported(extension, agent, version_major, &minor, result);
}

hsa_status_t hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void* data), void* data) {
    SIM_REQUIRE_INIT();
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    return for_each(Runtime::instance().agents(), [](Agent* a) { return a->handle(); }, callback, data);
}

hsa_status_t hsa_agent_get_info(hsa_agent_t agent_handle, hsa_agent_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    Agent* a = Runtime::instance().agent(agent_handle);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    const bool gpu = a->is_gpu();
    switch (static_cast<int>(attribute)) {
    case HSA_AGENT_INFO_NAME:
        copy_name(value, a->name);
        return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_VENDOR_NAME:
        copy_name(value, gpu ? "AMD" : "CPU");
        return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_FEATURE:
        // ROCr 5.2.3 amd_cpu_agent.cpp: a CPU agent reports no feature (it runs no AQL queue of its own).
        return put(value, gpu ? HSA_AGENT_FEATURE_KERNEL_DISPATCH : static_cast<hsa_agent_feature_t>(0));
    case HSA_AGENT_INFO_MACHINE_MODEL:
        return put(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_AGENT_INFO_PROFILE:
        return put(value, gpu ? HSA_PROFILE_BASE : HSA_PROFILE_FULL);
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
        return put(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
        return put<uint32_t>(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_FAST_F16_OPERATION:
        return put(value, gpu); // ROCr: true for GPU ISA major >= 8
    case HSA_AGENT_INFO_WAVEFRONT_SIZE:
        return put<uint32_t>(value, gpu ? 64 : 0);
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
        const uint16_t n = gpu ? 1024 : 0;
        uint16_t dims[3] = {n, n, n};
        std::memcpy(value, dims, sizeof(dims));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
        return put<uint32_t>(value, gpu ? 1024 : 0);
    case HSA_AGENT_INFO_GRID_MAX_DIM: {
        const uint32_t n = gpu ? UINT32_MAX : 0;
        hsa_dim3_t d{n, n, n};
        return put(value, d);
    }
    case HSA_AGENT_INFO_GRID_MAX_SIZE:
        return put<uint32_t>(value, gpu ? UINT32_MAX : 0);
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
        return put<uint32_t>(value, gpu ? 32 : 0);
    case HSA_AGENT_INFO_QUEUES_MAX:
        return put<uint32_t>(value, gpu ? 128 : 0);
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
        return put<uint32_t>(value, gpu ? 64 : 0);
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
        return put<uint32_t>(value, gpu ? 131072 : 0);
    case HSA_AGENT_INFO_QUEUE_TYPE:
        return put(value, HSA_QUEUE_TYPE_MULTI);
    case HSA_AGENT_INFO_NODE:
        return put<uint32_t>(value, a->node);
    case HSA_AGENT_INFO_DEVICE:
        return put(value, a->type);
    case HSA_AGENT_INFO_CACHE_SIZE: {
        uint32_t caches[4] = {gpu ? 16384u : 32768u, gpu ? 8388608u : 1048576u, 0, 0};
        std::memcpy(value, caches, sizeof(caches));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_ISA:
        return put(value, gpu ? gpu_isa() : hsa_isa_t{0});
    case HSA_AGENT_INFO_EXTENSIONS: {
        // ROCr 5.2.3 GpuAgent::GetInfo: a GPU with the image library names HSA_EXTENSION_IMAGES (ROCclr
        // reads this bit to report image support, which hipMallocPitch/hipMalloc3D require); CPU: none.
        uint8_t bits[128] = {};
        if (gpu) {
            bits[HSA_EXTENSION_IMAGES / 8] |= static_cast<uint8_t>(1u << (HSA_EXTENSION_IMAGES % 8));
            // ... and HSA_EXTENSION_AMD_AQLPROFILE when the aqlprofile library is loaded (implemented here;
            // not with HSA_SIM_NO_AQLPROFILE=1).
            if (Runtime::instance().config().aqlprofile) {
                bits[HSA_EXTENSION_AMD_AQLPROFILE / 8] |=
                    static_cast<uint8_t>(1u << (HSA_EXTENSION_AMD_AQLPROFILE % 8));
            }
        }
        std::memcpy(value, bits, sizeof(bits));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
    case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
        return image_agent_info(gpu, static_cast<int>(attribute), value);
    case HSA_AGENT_INFO_VERSION_MAJOR:
        return put<uint16_t>(value, 1);
    case HSA_AGENT_INFO_VERSION_MINOR:
        return put<uint16_t>(value, 1);
    case HSA_AMD_AGENT_INFO_CHIP_ID:
        return put<uint32_t>(value, gpu ? 0x740f : 0);
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
        return put<uint32_t>(value, 64);
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
        return put<uint32_t>(value, gpu ? kGpuComputeUnitCount : 2);
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
        return put<uint32_t>(value, gpu ? 1700 : 3000);
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
        return put<uint32_t>(value, a->node);
    case HSA_AMD_AGENT_INFO_BDFID:
        return put<uint32_t>(value, gpu ? ((a->gpu_index + 1) << 8) : 0);
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
        copy_name(value, a->product_name);
        return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
        return put<uint32_t>(value, gpu ? 32 : 0);
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
        return put<uint32_t>(value, gpu ? 4 : 0);
    case HSA_AMD_AGENT_INFO_UUID:
        copy_name(value, gpu ? "GPU-5253494d" + std::to_string(a->gpu_index) : "CPU-XX", 21);
        return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
        // 1 << WatchPointsTotalBits of the KFD node: 4 on an MI210, 1 on a CPU node (bits 0).
        return put<uint32_t>(value, gpu ? 4 : 1);
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
        return put<uint32_t>(value, gpu ? 8 : 0);
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
        return put<uint32_t>(value, gpu ? 1 : 0);
    case HSA_AMD_AGENT_INFO_HDP_FLUSH: {
        // GPU: the agent's two stand-in registers; CPU: two null pointers (as ROCr's CPU agent).
        hsa_amd_hdp_flush_t flush{gpu ? &a->hdp_mem_flush_cntl : nullptr,
                                  gpu ? &a->hdp_reg_flush_cntl : nullptr};
        return put(value, flush);
    }
    case HSA_AMD_AGENT_INFO_DOMAIN:
        return put<uint32_t>(value, 0); // PCI domain
    case HSA_AMD_AGENT_INFO_ASIC_REVISION:
        return put<uint32_t>(value, gpu ? 1 : 0);
    // Attributes only ROCr's GPU agent answers (its CPU agent returns INVALID_ARGUMENT).
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
        return gpu ? put<uint32_t>(value, 4096) : HSA_STATUS_ERROR_INVALID_ARGUMENT; // bits (HBM2e)
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
        return gpu ? put<uint32_t>(value, 1600) : HSA_STATUS_ERROR_INVALID_ARGUMENT; // MHz
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
        // ROCr: the KFD node has global wave sync (GWS) entries, as an MI210 has.
        return gpu ? put(value, true) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
        // ROCr: the node's CoherentHostAccess capability, off on an MI210 over PCIe.
        return gpu ? put(value, false) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
        // ROCr without HSA_COOP_CU_COUNT=1: the compute-unit count.
        return gpu ? put<uint32_t>(value, kGpuComputeUnitCount) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case kAgentInfoTimestampFrequency:
        return put<uint64_t>(value, gpu ? kGpuTimestampFrequency : kSystemTimestampFrequency);
#if SIM_HAS_MEMORY_AVAIL
    case HSA_AMD_AGENT_INFO_MEMORY_AVAIL:
        // ROCr 6.1.2 GpuAgent::GetInfo: the KFD node's free VRAM (hsaKmtAvailableMemory) plus the bytes
        // its fragment caches hold; here the device memory no live allocation holds (cached blocks are
        // free). Only the GPU agent answers it.
        return gpu ? put<uint64_t>(value, a->device_memory_free()) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
#endif
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t hsa_isa_from_name(const char* name, hsa_isa_t* isa) {
    SIM_REQUIRE_INIT();
    if (!name || !isa) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (std::strcmp(name, kGpuIsaName) == 0) {
        *isa = gpu_isa();
        return HSA_STATUS_SUCCESS;
    }
    if (std::strcmp(name, kGpuIsaBaseName) == 0) {
        *isa = {reinterpret_cast<uint64_t>(&g_gpu_isa_any)};
        return HSA_STATUS_SUCCESS;
    }
    return HSA_STATUS_ERROR_INVALID_ISA_NAME;
}

hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t isa, void* data),
                                    void* data) {
    SIM_REQUIRE_INIT();
    Agent* a = Runtime::instance().agent(agent);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    return a->is_gpu() ? callback(gpu_isa(), data) : HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    const SimIsa* object = isa_of(isa);
    if (!object) {
        return HSA_STATUS_ERROR_INVALID_ISA;
    }
    // Values as ROCr 5.2.3 src/core/runtime/isa.cpp (Isa::GetInfo) answers them for gfx9.
    const bool rounding_modes[3] = {false, false, true}; // indexed by hsa_default_float_rounding_mode_t
    switch (static_cast<int>(attribute)) {
    case HSA_ISA_INFO_NAME_LENGTH: // counts the terminating NUL
        return put<uint32_t>(value, static_cast<uint32_t>(std::strlen(object->name) + 1));
    case HSA_ISA_INFO_NAME:
        std::memcpy(value, object->name, std::strlen(object->name) + 1);
        return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_CALL_CONVENTION_COUNT:
        return put<uint32_t>(value, 1);
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE:
        return put<uint32_t>(value, 64);
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT:
        return put<uint32_t>(value, 40);
    case HSA_ISA_INFO_MACHINE_MODELS: {
        const bool models[2] = {false, true}; // small, large
        std::memcpy(value, models, sizeof(models));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_PROFILES: {
        const bool profiles[2] = {true, false}; // base, full
        std::memcpy(value, profiles, sizeof(profiles));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
    case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
        std::memcpy(value, rounding_modes, sizeof(rounding_modes));
        return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_FAST_F16_OPERATION:
        return put(value, true);
    case HSA_ISA_INFO_WORKGROUP_MAX_DIM: {
        const uint16_t dims[3] = {1024, 1024, 1024};
        std::memcpy(value, dims, sizeof(dims));
        return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
        return put<uint32_t>(value, 1024);
    case HSA_ISA_INFO_GRID_MAX_DIM:
        return put(value, hsa_dim3_t{UINT32_MAX, UINT32_MAX, UINT32_MAX});
    case HSA_ISA_INFO_GRID_MAX_SIZE: // 64-bit
        return put<uint64_t>(value, UINT64_MAX);
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
        return put<uint32_t>(value, 32);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index, void* value) {
    SIM_REQUIRE_INIT();
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (index != 0) {
        return HSA_STATUS_ERROR_INVALID_INDEX;
    }
    return api::hsa_isa_get_info_alt(isa, attribute, value);
}

hsa_status_t hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile, uint16_t* mask) {
    SIM_REQUIRE_INIT();
    if (!mask || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!isa_of(isa)) {
        return HSA_STATUS_ERROR_INVALID_ISA;
    }
    *mask = 0; // as ROCr: no exception policy is supported
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type, hsa_flush_mode_t flush_mode,
                                      hsa_round_method_t* round_method) {
    SIM_REQUIRE_INIT();
    if (!round_method ||
        (fp_type != HSA_FP_TYPE_16 && fp_type != HSA_FP_TYPE_32 && fp_type != HSA_FP_TYPE_64) ||
        (flush_mode != HSA_FLUSH_MODE_FTZ && flush_mode != HSA_FLUSH_MODE_NON_FTZ)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!isa_of(isa)) {
        return HSA_STATUS_ERROR_INVALID_ISA;
    }
    *round_method = HSA_ROUND_METHOD_SINGLE;
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_iterate_wavefronts(hsa_isa_t isa,
                                        hsa_status_t (*callback)(hsa_wavefront_t wavefront, void* data),
                                        void* data) {
    SIM_REQUIRE_INIT();
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!isa_of(isa)) {
        return HSA_STATUS_ERROR_INVALID_ISA;
    }
    return callback(hsa_wavefront_t{reinterpret_cast<uint64_t>(&g_wavefront)}, data);
}

hsa_status_t hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (wavefront.handle != reinterpret_cast<uint64_t>(&g_wavefront)) {
        return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
    }
    if (attribute != HSA_WAVEFRONT_INFO_SIZE) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    return put<uint32_t>(value, g_wavefront.size);
}

hsa_status_t hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool* result) {
    SIM_REQUIRE_INIT();
    if (!result) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    const SimIsa* object = isa_of(code_object_isa);
    const SimIsa* agent = isa_of(agent_isa);
    if (!object || !agent) {
        return HSA_STATUS_ERROR_INVALID_ISA;
    }
    *result = isa_compatible(object->name, agent->name);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_iterate_regions(hsa_agent_t agent,
                                       hsa_status_t (*callback)(hsa_region_t region, void* data),
                                       void* data) {
    SIM_REQUIRE_INIT();
    Agent* a = Runtime::instance().agent(agent);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // Like ROCr, the fine-grained device pool is not offered as a region (the GROUP pool is).
    std::vector<MemoryPool*> regions;
    for (MemoryPool* p : a->pools) {
        if (!(a->is_gpu() && p->global_flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)) {
            regions.push_back(p);
        }
    }
    return for_each(regions, [](MemoryPool* p) { return p->region_handle(); }, callback, data);
}

hsa_status_t hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    MemoryPool* p = Runtime::instance().pool(region.handle);
    if (!p) {
        return HSA_STATUS_ERROR_INVALID_REGION;
    }
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // The GROUP (LDS) pool answers as ROCr's LDS region: no flags, not allocatable, granule and alignment 0.
    const bool group = p->segment == HSA_AMD_SEGMENT_GROUP;
    switch (static_cast<int>(attribute)) {
    case HSA_REGION_INFO_SEGMENT:
        return put(value, group ? HSA_REGION_SEGMENT_GROUP : HSA_REGION_SEGMENT_GLOBAL);
    case HSA_REGION_INFO_GLOBAL_FLAGS:
        // hsa_region_global_flag_t uses the same bit values as the pool flags (KERNARG 1, FINE 2, COARSE 4).
        return put<uint32_t>(value, p->global_flags);
    case HSA_REGION_INFO_SIZE:
        return put<size_t>(value, p->size);
    case HSA_REGION_INFO_ALLOC_MAX_SIZE:
        return put<size_t>(value, group ? 0 : p->size);
    case HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE:
        return put<uint32_t>(value, 0);
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
        return put(value, p->allocatable);
    case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
        return put<size_t>(value, group ? 0 : 4096);
    case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE:
        return put(value, !p->device);
    case HSA_AMD_REGION_INFO_BASE:
        return put<void*>(value, nullptr);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t pool, void* data), void* data) {
    SIM_REQUIRE_INIT();
    Agent* a = Runtime::instance().agent(agent);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    return for_each(a->pools, [](MemoryPool* p) { return p->pool_handle(); }, callback, data);
}

hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                          hsa_amd_memory_pool_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    MemoryPool* p = Runtime::instance().pool(memory_pool.handle);
    if (!p) {
        return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
    }
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    const bool group = p->segment == HSA_AMD_SEGMENT_GROUP;
    switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
        return put(value, p->segment);
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
        return put<uint32_t>(value, p->global_flags);
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
        return put<size_t>(value, p->size);
    case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
        return put<size_t>(value, group ? 0 : p->size);
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
        return put(value, p->allocatable);
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
        return put<size_t>(value, group ? 0 : 4096);
    case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
        return put(value, !p->device);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t memory_pool,
                                                hsa_amd_agent_memory_pool_info_t attribute, void* value) {
    SIM_REQUIRE_INIT();
    auto& rt = Runtime::instance();
    Agent* a = rt.agent(agent);
    MemoryPool* p = rt.pool(memory_pool.handle);
    if (!a) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    if (!p) {
        return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
    }
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // As ROCr's MemoryRegion::GetAccessInfo: the owner always may; another agent never may reach a GROUP
    // pool, needs hsa_amd_agents_allow_access for device memory, and reaches system memory by default
    // when it is the CPU (a GPU needs allow_access there too, as on ROCr; the simulator does not enforce it).
    hsa_amd_memory_pool_access_t access = HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
    if (p->owner != a) {
        if (p->segment == HSA_AMD_SEGMENT_GROUP) {
            access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
        } else if (p->device) {
            access = HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
        }
    }
    const uint32_t hops = (p->owner == a || access == HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED) ? 0 : 1;
    switch (attribute) {
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
        return put(value, access);
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
        return put<uint32_t>(value, hops);
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO: {
        // One PCIe hop between the CPU and each GPU (and GPU to GPU through the host); all zero for the
        // owner and for a pool the agent can never reach, as ROCr.
        hsa_amd_memory_pool_link_info_t link{};
        if (hops > 0) {
            link.min_latency = 0;
            link.max_latency = 0;
            link.min_bandwidth = 0;
            link.max_bandwidth = 0;
            link.atomic_support_32bit = true;
            link.atomic_support_64bit = true;
            link.coherent_support = false;
            link.link_type = HSA_AMD_LINK_INFO_TYPE_PCIE;
            link.numa_distance = 20;
        }
        return put(value, link);
    }
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t hsa_status_string(hsa_status_t status, const char** status_string) {
    if (!status_string) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    switch (status) {
    case HSA_STATUS_SUCCESS:
        *status_string = "HSA_STATUS_SUCCESS: The function has been executed successfully.";
        break;
    case HSA_STATUS_INFO_BREAK:
        *status_string = "HSA_STATUS_INFO_BREAK: A traversal over a list of elements has been interrupted.";
        break;
    case HSA_STATUS_ERROR:
        *status_string = "HSA_STATUS_ERROR: A generic error has occurred.";
        break;
    case HSA_STATUS_ERROR_INVALID_ARGUMENT:
        *status_string =
            "HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does not meet a precondition.";
        break;
    case HSA_STATUS_ERROR_INVALID_AGENT:
        *status_string = "HSA_STATUS_ERROR_INVALID_AGENT: The agent is invalid.";
        break;
    case HSA_STATUS_ERROR_INVALID_ALLOCATION:
        *status_string = "HSA_STATUS_ERROR_INVALID_ALLOCATION: The allocation is invalid.";
        break;
    case HSA_STATUS_ERROR_INVALID_SIGNAL:
        *status_string = "HSA_STATUS_ERROR_INVALID_SIGNAL: The signal is invalid.";
        break;
    case HSA_STATUS_ERROR_INVALID_QUEUE:
        *status_string = "HSA_STATUS_ERROR_INVALID_QUEUE: The queue is invalid.";
        break;
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
        *status_string =
            "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.";
        break;
    case HSA_STATUS_ERROR_NOT_INITIALIZED:
        *status_string = "HSA_STATUS_ERROR_NOT_INITIALIZED: The HSA runtime has not been initialized.";
        break;
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE:
        *status_string = "HSA_STATUS_ERROR_INVALID_EXECUTABLE: The executable is invalid.";
        break;
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
        *status_string = "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid.";
        break;
    case HSA_STATUS_ERROR_INVALID_SYMBOL_NAME:
        *status_string = "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with the given name.";
        break;
    case HSA_STATUS_ERROR_FROZEN_EXECUTABLE:
        *status_string = "HSA_STATUS_ERROR_FROZEN_EXECUTABLE: The executable is frozen.";
        break;
    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:
        *status_string = "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: The AQL packet is malformed.";
        break;
    case HSA_STATUS_ERROR_EXCEPTION:
        // What a kernel that faults or traps raises on its queue (the interpreter says which instruction).
        *status_string = "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception.";
        break;
    default:
        *status_string = "HSA_STATUS_ERROR: an error status the simulator does not describe.";
        break;
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace sim::api
