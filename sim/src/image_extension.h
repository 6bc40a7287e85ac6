// SPDX-License-Identifier: MIT
// HSA_EXTENSION_IMAGES as far as the simulator goes: the GPU agents advertise the extension and answer
// its agent attributes with an MI210's values (what ROCclr reads to report image support, which HIP's
// pitched allocations require), but no image format is supported and every image or sampler creation
// fails with HSA_STATUS_ERROR (docs/sim-fidelity.md, "Images and managed memory").
#pragma once

#include <hsa.h>
#include <hsa_ext_image.h>

namespace sim {

/// hsa_agent_get_info for the HSA_EXT_AGENT_INFO_* attributes (`attribute` is one of them; `value` is
/// non-null and sized as hsa_ext_image.h documents: one uint32_t, two for 2D geometries, three for 3D).
/// GPU agents: ROCr 5.2.3's gfx9 limits (image_lut_kv.cpp, GpuAgent::GetInfo); CPU agents: zeros
/// (CpuAgent::GetInfo). Returns HSA_STATUS_ERROR_INVALID_ARGUMENT for any other attribute.
hsa_status_t image_agent_info(bool gpu, int attribute, void* value);

/// The function table hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, ...) copies.
/// get_capability(_with_layout) succeed with an empty capability mask (no format is supported) after
/// checking their pointers and agent; every other entry (data_get_info, create, destroy, copy, import,
/// export, clear, samplers; the exported functions where one exists) fails with HSA_STATUS_ERROR. Before
/// hsa_init all of them return HSA_STATUS_ERROR_NOT_INITIALIZED.
hsa_ext_images_1_pfn_t image_extension_table();

} // namespace sim
