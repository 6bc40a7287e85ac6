// SPDX-License-Identifier: MIT
/*
 * A test tool for HSA_TOOLS_LIB (built as rs_probe_tool_a, rs_probe_tool_b and, with RS_TOOL_REFUSE,
 * rs_refuse_tool). It appends what the runtime hands it to the file named by RS_PROBE_LOG: OnLoad's
 * arguments, each table's version triple, and OnUnload. It patches core_->hsa_agent_get_info_fn: calls
 * with the attribute RS_PROBE_ATTRIBUTE (not a real attribute) are answered by the tool with its name, and
 * HSA_AGENT_INFO_NAME calls are logged before being passed on to the previous entry.
 */
#include <hsa_api_trace.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef RS_TOOL_NAME
#error "RS_TOOL_NAME must be defined"
#endif

namespace {

constexpr uint32_t kProbeAttributeBase = 0x7fff0000;
decltype(hsa_agent_get_info)* previous_get_info = nullptr;

void log_line(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void log_line(const char* fmt, ...) {
    const char* path = std::getenv("RS_PROBE_LOG");
    if (!path) {
        return;
    }
    FILE* f = std::fopen(path, "a");
    if (!f) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(f, fmt, ap);
    va_end(ap);
    std::fputc('\n', f);
    std::fclose(f);
}

void log_version(const char* what, const ApiTableVersion* v) {
    if (!v) {
        log_line("version %s %s null", RS_TOOL_NAME, what);
        return;
    }
    log_line("version %s %s %u %u %u", RS_TOOL_NAME, what, v->major_id, v->minor_id, v->step_id);
}

[[maybe_unused]] hsa_status_t probe_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void* value) {
    if (static_cast<uint32_t>(attribute) == kProbeAttributeBase + static_cast<uint32_t>(RS_TOOL_NAME[0])) {
        std::strcpy(static_cast<char*>(value), RS_TOOL_NAME);
        return HSA_STATUS_SUCCESS;
    }
    if (attribute == HSA_AGENT_INFO_NAME) {
        log_line("call %s", RS_TOOL_NAME);
    }
    return previous_get_info(agent, attribute, value);
}

} // namespace

extern "C" __attribute__((visibility("default"))) bool OnLoad(HsaApiTable* table, uint64_t runtime_version,
                                                              uint64_t failed_tool_count,
                                                              const char* const* failed_tool_names) {
    log_line("load %s runtime %llu failed %llu", RS_TOOL_NAME,
             static_cast<unsigned long long>(runtime_version),
             static_cast<unsigned long long>(failed_tool_count));
    for (uint64_t i = 0; i < failed_tool_count && failed_tool_names; ++i) {
        log_line("failed-name %s %s", RS_TOOL_NAME, failed_tool_names[i] ? failed_tool_names[i] : "(null)");
    }
    if (!table) {
        log_line("table %s null", RS_TOOL_NAME);
        return false;
    }
    log_version("root", &table->version);
    log_version("core", table->core_ ? &table->core_->version : nullptr);
    log_version("amd", table->amd_ext_ ? &table->amd_ext_->version : nullptr);
    log_version("finalizer", table->finalizer_ext_ ? &table->finalizer_ext_->version : nullptr);
    log_version("image", table->image_ext_ ? &table->image_ext_->version : nullptr);
#ifdef RS_TOOL_REFUSE
    return false;
#else
    if (!table->core_ || !table->core_->hsa_agent_get_info_fn) {
        return false;
    }
    previous_get_info = table->core_->hsa_agent_get_info_fn;
    table->core_->hsa_agent_get_info_fn = probe_get_info;
    return true;
#endif
}

extern "C" __attribute__((visibility("default"))) void OnUnload() {
    log_line("unload %s", RS_TOOL_NAME);
}
