// SPDX-License-Identifier: MIT
#include "api_table.h"

#include <cstring>

extern "C" {
CoreApiTable* sim_core_table = nullptr;
AmdExtTable* sim_amd_ext_table = nullptr;
ImageExtTable* sim_image_ext_table = nullptr;
}

namespace sim {

ApiTable& ApiTable::instance() {
    static ApiTable* table = new ApiTable(); // never destroyed: trampolines may run during exit
    return *table;
}

ApiTable::ApiTable() {
    reset();
    sim_core_table = &core_;
    sim_amd_ext_table = &amd_ext_;
    sim_image_ext_table = &image_ext_;
}

template <typename Table>
static void set_version(Table& table, uint32_t major, uint32_t step) {
    std::memset(&table, 0, sizeof(table));
    table.version.major_id = major;
    table.version.minor_id = sizeof(Table);
    table.version.step_id = step;
}

void ApiTable::reset() {
    set_version(root_, HSA_API_TABLE_MAJOR_VERSION, HSA_API_TABLE_STEP_VERSION);
    set_version(core_, HSA_CORE_API_TABLE_MAJOR_VERSION, HSA_CORE_API_TABLE_STEP_VERSION);
    set_version(amd_ext_, HSA_AMD_EXT_API_TABLE_MAJOR_VERSION, HSA_AMD_EXT_API_TABLE_STEP_VERSION);
    set_version(finalizer_ext_, HSA_FINALIZER_API_TABLE_MAJOR_VERSION, HSA_FINALIZER_API_TABLE_STEP_VERSION);
    set_version(image_ext_, HSA_IMAGE_API_TABLE_MAJOR_VERSION, HSA_IMAGE_API_TABLE_STEP_VERSION);
    root_.core_ = &core_;
    root_.amd_ext_ = &amd_ext_;
    root_.finalizer_ext_ = &finalizer_ext_;
    root_.image_ext_ = &image_ext_;
#if HSA_API_TABLE_MAJOR_VERSION >= 3
    // ROCr 6.x adds a tools table (scratch events); the simulator raises none of them.
    set_version(tools_, HSA_TOOLS_API_TABLE_MAJOR_VERSION, HSA_TOOLS_API_TABLE_STEP_VERSION);
    root_.tools_ = &tools_;
#endif
#define SIM_FILL_CORE(name) core_.name##_fn = &api::name;
#define SIM_FILL_AMD(name) amd_ext_.name##_fn = &api::name;
#define SIM_FILL_IMAGE(name) image_ext_.name##_fn = &api::name;
    SIM_CORE_API(SIM_FILL_CORE)
    SIM_AMD_EXT_API(SIM_FILL_AMD)
    SIM_AMD_EXT_VMEM_API(SIM_FILL_AMD)
    SIM_AMD_EXT_TABLE_ONLY_API(SIM_FILL_AMD)
    SIM_IMAGE_EXT_API(SIM_FILL_IMAGE)
#undef SIM_FILL_IMAGE
#undef SIM_FILL_CORE
#undef SIM_FILL_AMD
}

} // namespace sim
