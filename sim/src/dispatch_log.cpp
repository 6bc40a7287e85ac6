// SPDX-License-Identifier: MIT
#include "dispatch_log.h"

#include "line_file.h"
#include "runtime.h"

#include <cstdio>

namespace sim {

namespace {

LineFile g_log("HSA_SIM_DISPATCH_LOG");

const char* type_name(hsa_queue_type32_t type) {
    switch (type) {
    case HSA_QUEUE_TYPE_SINGLE:
        return "single";
    case HSA_QUEUE_TYPE_COOPERATIVE:
        return "cooperative";
    default:
        return "multi";
    }
}

} // namespace

void append_dispatch_log(const DispatchLogRecord& r) {
    const std::string& path = Runtime::instance().config().dispatch_log_path;
    if (path.empty()) {
        return;
    }
    std::string line = "dispatch queue=" + std::to_string(r.queue_id) +
                       " agent=" + std::to_string(r.agent_index) + " type=" + type_name(r.type) + " cu_mask=";
    if (r.cu_mask.empty()) {
        line += "all";
    } else {
        char word[16];
        for (size_t i = 0; i < r.cu_mask.size(); ++i) {
            std::snprintf(word, sizeof word, "%s%08x", i ? "," : "", r.cu_mask[i]);
            line += word;
        }
    }
    line += " priority=" + std::to_string(r.priority) + " kernel=" + (r.kernel.empty() ? "?" : r.kernel) +
            " completion=" + std::to_string(r.completion) + " start_ns=" + std::to_string(r.start_ns) +
            " end_ns=" + std::to_string(r.end_ns) + "\n";
    g_log.append(path, line);
}

void close_dispatch_log() {
    g_log.close();
}

} // namespace sim
