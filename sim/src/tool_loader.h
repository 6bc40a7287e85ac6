// SPDX-License-Identifier: MIT
// Loads tools named by HSA_TOOLS_LIB the way ROCr 5.2.3 does (src/core/runtime/runtime.cpp, LoadTools).
#pragma once

#include <hsa_api_trace.h>

#include <string>
#include <vector>

namespace sim {

/// Parses HSA_TOOLS_LIB, dlopens each tool (RTLD_LAZY, in order), calls its OnLoad with the live table,
/// and at unload calls OnUnload in reverse order and closes the libraries.
class ToolLoader {
  public:
    /// Splits an HSA_TOOLS_LIB value: entries separated by spaces; double quotes group, a backslash
    /// escapes the next character.
    static std::vector<std::string> parse_tool_list(const std::string& value);

    /// Loads every tool of HSA_TOOLS_LIB. A tool that cannot be opened, has no OnLoad, or whose OnLoad
    /// returns false is closed and counted as failed; HSA_TOOLS_REPORT_LOAD_FAILURE=1 prints each failure.
    void load(HsaApiTable* table, uint64_t runtime_version);
    /// Calls OnUnload of each loaded tool in reverse load order, then dlcloses it.
    void unload();

  private:
    struct Tool {
        std::string path;
        void* handle;
    };
    std::vector<Tool> loaded_;
};

} // namespace sim
