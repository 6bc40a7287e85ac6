// SPDX-License-Identifier: MIT
#include "dispatch_log.h"

#include "runtime.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

namespace sim {

namespace {

std::mutex g_log_mutex;
int g_log_fd = -1;
std::string g_log_path;
bool g_log_error_reported = false;

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
    std::lock_guard lock(g_log_mutex);
    if (g_log_fd >= 0 && g_log_path != path) {
        ::close(g_log_fd);
        g_log_fd = -1;
    }
    if (g_log_fd < 0) {
        g_log_fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        g_log_path = path;
        if (g_log_fd < 0) {
            if (!g_log_error_reported) {
                std::fprintf(stderr, "hsa_sim: HSA_SIM_DISPATCH_LOG: cannot open '%s': %s\n", path.c_str(),
                             std::strerror(errno));
            }
            g_log_error_reported = true;
            return;
        }
    }
    const ssize_t n = ::write(g_log_fd, line.data(), line.size());
    if (n != static_cast<ssize_t>(line.size()) && !g_log_error_reported) {
        std::fprintf(stderr, "hsa_sim: HSA_SIM_DISPATCH_LOG: short write to '%s'\n", path.c_str());
        g_log_error_reported = true;
    }
}

void close_dispatch_log() {
    std::lock_guard lock(g_log_mutex);
    if (g_log_fd >= 0) {
        ::close(g_log_fd);
    }
    g_log_fd = -1;
    g_log_path.clear();
    g_log_error_reported = false;
}

} // namespace sim
