// SPDX-License-Identifier: MIT
// HSA_EXTENSION_IMAGES: agent attributes and the extension's function table (see image_extension.h).
#include "image_extension.h"

#include "api.h"
#include "runtime.h"

#include <cstdint>
#include <cstring>

namespace sim {

namespace {

/// ROCr 5.2.3 image_lut_kv.cpp kMaxDimensionLut_ (also used for gfx9 by ImageManagerAi):
/// width, height, depth, array layers per geometry.
struct MaxDims {
    uint32_t width, height, depth, layers;
};
constexpr MaxDims k1d{16384, 1, 1, 1};
constexpr MaxDims k1db{UINT32_MAX, 1, 1, 1};
constexpr MaxDims k2d{16384, 16384, 1, 1};
constexpr MaxDims k2da{16384, 16384, 1, 8192};
constexpr MaxDims k3d{16384, 16384, 8192, 1};

hsa_status_t put_dims(void* value, const MaxDims& d, int count) {
    const uint32_t dims[3] = {d.width, d.height, d.depth};
    std::memcpy(value, dims, sizeof(uint32_t) * static_cast<size_t>(count));
    return HSA_STATUS_SUCCESS;
}

hsa_status_t put_u32(void* value, uint32_t v) {
    std::memcpy(value, &v, sizeof(v));
    return HSA_STATUS_SUCCESS;
}

hsa_status_t get_capability_with_layout(hsa_agent_t agent, hsa_ext_image_geometry_t,
                                        const hsa_ext_image_format_t* format, hsa_ext_image_data_layout_t,
                                        uint32_t* capability_mask) {
    SIM_REQUIRE_INIT();
    if (!format || !capability_mask) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (!Runtime::instance().agent(agent)) {
        return HSA_STATUS_ERROR_INVALID_AGENT;
    }
    *capability_mask = 0; // no format is supported: images are not simulated
    return HSA_STATUS_SUCCESS;
}

hsa_status_t get_capability(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                            const hsa_ext_image_format_t* format, uint32_t* capability_mask) {
    return get_capability_with_layout(agent, geometry, format, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE,
                                      capability_mask);
}

hsa_status_t data_get_info_with_layout(hsa_agent_t, const hsa_ext_image_descriptor_t*,
                                       hsa_access_permission_t, hsa_ext_image_data_layout_t, size_t, size_t,
                                       hsa_ext_image_data_info_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t image_copy(hsa_agent_t, hsa_ext_image_t, const hsa_dim3_t*, hsa_ext_image_t, const hsa_dim3_t*,
                        const hsa_dim3_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

hsa_status_t image_clear(hsa_agent_t, hsa_ext_image_t, const void*, const hsa_ext_image_region_t*) {
    SIM_REQUIRE_INIT();
    return HSA_STATUS_ERROR;
}

} // namespace

hsa_status_t image_agent_info(bool gpu, int attribute, void* value) {
    const MaxDims none{0, 0, 0, 0};
    switch (attribute) {
    case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
        return put_u32(value, gpu ? k1d.width : 0);
    case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
        return put_u32(value, gpu ? k1db.width : 0);
    case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
        return put_dims(value, gpu ? k2d : none, 2);
    case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
        return put_dims(value, gpu ? k3d : none, 3);
    case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS: // the 2DA geometry's layer limit
        return put_u32(value, gpu ? k2da.layers : 0);
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
        return put_u32(value, gpu ? 128 : 0);
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
        return put_u32(value, gpu ? 64 : 0);
    case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
        // ROCr's intended 16 (6.1.2 answers it; 5.2.3 falls through to the chip ID, a bug not copied).
        return put_u32(value, gpu ? 16 : 0);
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_ext_images_1_pfn_t image_extension_table() {
    hsa_ext_images_1_pfn_t t{};
    t.hsa_ext_image_get_capability = get_capability;
    t.hsa_ext_image_data_get_info = api::hsa_ext_image_data_get_info;
    t.hsa_ext_image_create = api::hsa_ext_image_create;
    t.hsa_ext_image_destroy = api::hsa_ext_image_destroy;
    t.hsa_ext_image_copy = image_copy;
    t.hsa_ext_image_import = api::hsa_ext_image_import;
    t.hsa_ext_image_export = api::hsa_ext_image_export;
    t.hsa_ext_image_clear = image_clear;
    t.hsa_ext_sampler_create = api::hsa_ext_sampler_create;
    t.hsa_ext_sampler_destroy = api::hsa_ext_sampler_destroy;
    t.hsa_ext_image_get_capability_with_layout = get_capability_with_layout;
    t.hsa_ext_image_data_get_info_with_layout = data_get_info_with_layout;
    t.hsa_ext_image_create_with_layout = api::hsa_ext_image_create_with_layout;
    return t;
}

} // namespace sim
