// SPDX-License-Identifier: MIT
#include "tool_loader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace sim {

std::vector<std::string> ToolLoader::parse_tool_list(const std::string& value) {
    std::vector<std::string> out;
    std::string current;
    bool quoted = false, have = false;
    for (size_t i = 0; i < value.size(); ++i) {
        char c = value[i];
        if (c == '\\' && i + 1 < value.size()) {
            current += value[++i];
            have = true;
        } else if (c == '"') {
            quoted = !quoted;
            have = true;
        } else if (c == ' ' && !quoted) {
            if (have) {
                out.push_back(current);
            }
            current.clear();
            have = false;
        } else {
            current += c;
            have = true;
        }
    }
    if (have) {
        out.push_back(current);
    }
    return out;
}

void ToolLoader::load(HsaApiTable* table, uint64_t runtime_version) {
    const char* list = std::getenv("HSA_TOOLS_LIB");
    if (!list || !*list) {
        return;
    }
    const char* report_env = std::getenv("HSA_TOOLS_REPORT_LOAD_FAILURE");
    const bool report = report_env && std::strcmp(report_env, "1") == 0;
    std::vector<std::string> failed;
    std::vector<const char*> failed_names;
    using OnLoadFn = bool (*)(HsaApiTable*, uint64_t, uint64_t, const char* const*);
    for (const std::string& path : parse_tool_list(list)) {
        void* handle = dlopen(path.c_str(), RTLD_LAZY);
        if (!handle) {
            if (report) {
                std::fprintf(stderr, "Tool lib \"%s\" failed to load: %s\n", path.c_str(), dlerror());
            }
            failed.push_back(path);
            continue;
        }
        auto on_load = reinterpret_cast<OnLoadFn>(dlsym(handle, "OnLoad"));
        bool ok = false;
        if (on_load) {
            failed_names.clear();
            for (const auto& f : failed) {
                failed_names.push_back(f.c_str());
            }
            ok = on_load(table, runtime_version, failed.size(),
                         failed_names.empty() ? nullptr : failed_names.data());
        }
        if (!ok) {
            if (report) {
                std::fprintf(stderr, "Tool lib \"%s\" failed to load%s\n", path.c_str(),
                             on_load ? ": OnLoad returned false" : ": no OnLoad");
            }
            dlclose(handle);
            failed.push_back(path);
            continue;
        }
        loaded_.push_back({path, handle});
    }
}

void ToolLoader::unload() {
    using OnUnloadFn = void (*)();
    for (auto it = loaded_.rbegin(); it != loaded_.rend(); ++it) {
        if (auto on_unload = reinterpret_cast<OnUnloadFn>(dlsym(it->handle, "OnUnload"))) {
            on_unload();
        }
    }
    // Close after every OnUnload ran: a tool may still be reached through another's saved pointers.
    for (auto it = loaded_.rbegin(); it != loaded_.rend(); ++it) {
        dlclose(it->handle);
    }
    loaded_.clear();
}

} // namespace sim
