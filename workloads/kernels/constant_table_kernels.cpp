// SPDX-License-Identifier: MIT
// Simulated code object of the constant_table workload: `__constant__ uint32_t lookup_table[64];`
// (initially 0xdeadbeef everywhere, so a missing host update shows) and table_lookup.kd, which copies
// lookup_table[i % 64] to out[i].
#include "kernargs.h"

#include <hsa_sim/code_object.h>

#include <array>

namespace {

using rs::workloads::TableLookupArgs;

constexpr uint32_t kTableEntries = 64;

void table_lookup(const hsa_sim_dispatch_t* dispatch) {
    if (dispatch->variable_count < 1) {
        return;
    }
    const auto* args = static_cast<const TableLookupArgs*>(dispatch->kernarg);
    const auto* table = static_cast<const uint32_t*>(dispatch->variables[0]);
    for (uint32_t i = 0; i < dispatch->grid_size[0] && i < args->n; ++i) {
        args->out[i] = table[i % kTableEntries];
    }
}

const hsa_sim_kernel_t kKernels[] = {
    {"table_lookup.kd", table_lookup, sizeof(TableLookupArgs), 0, 0},
};

constexpr std::array<uint32_t, kTableEntries> make_initial_table() {
    std::array<uint32_t, kTableEntries> table{};
    table.fill(0xdeadbeefu);
    return table;
}

constexpr std::array<uint32_t, kTableEntries> kInitialTable = make_initial_table();

const hsa_sim_variable_t kVariables[] = {
    {"lookup_table", sizeof(kInitialTable), kInitialTable.data(), HSA_SIM_VARIABLE_CONSTANT},
};

const hsa_sim_code_object_t kCodeObject = {
    HSA_SIM_CODE_OBJECT_VERSION, nullptr, 1, kKernels, 1, kVariables,
};

} // namespace

extern "C" const hsa_sim_code_object_t* hsa_sim_code_object(void) {
    return &kCodeObject;
}
