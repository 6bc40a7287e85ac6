// SPDX-License-Identifier: MIT
// A do-nothing HSA tool library: stands in for the engine when a test only checks which runtime
// replayscope-run selected (OnLoad accepts; no table is touched).
#include <cstdint>

extern "C" __attribute__((visibility("default"))) bool OnLoad(void* /*table*/,
                                                              std::uint64_t /*runtime_version*/,
                                                              std::uint64_t /*failed_tool_count*/,
                                                              const char* const* /*failed_tool_names*/) {
    return true;
}

extern "C" __attribute__((visibility("default"))) void OnUnload() {}
