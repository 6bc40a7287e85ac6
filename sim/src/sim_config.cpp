// SPDX-License-Identifier: MIT
#include "sim_config.h"

#include <hsa_api_trace.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace sim {

namespace {

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return (v && *v) ? v : nullptr;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep)) {
        if (!item.empty()) {
            out.push_back(item);
        }
    }
    return out;
}

bool parse_u64(const std::string& s, uint64_t& out) {
    if (s.empty()) {
        return false;
    }
    char* end = nullptr;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (!end || *end != '\0') {
        return false;
    }
    out = v;
    return true;
}

/// Bytes with an optional K/M/G (or KiB/MiB/GiB) suffix, powers of 1024.
bool parse_bytes(const std::string& s, uint64_t& out) {
    size_t digits = 0;
    while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') {
        ++digits;
    }
    uint64_t n = 0;
    if (!parse_u64(s.substr(0, digits), n)) {
        return false;
    }
    const std::string suffix = s.substr(digits);
    unsigned shift = 0;
    if (suffix.empty()) {
        shift = 0;
    } else if (suffix == "K" || suffix == "KiB") {
        shift = 10;
    } else if (suffix == "M" || suffix == "MiB") {
        shift = 20;
    } else if (suffix == "G" || suffix == "GiB") {
        shift = 30;
    } else {
        return false;
    }
    if (n > (UINT64_MAX >> shift)) {
        return false;
    }
    out = n << shift;
    return true;
}

std::vector<uint64_t> parse_list(const char* name) {
    std::vector<uint64_t> out;
    const char* v = env(name);
    if (!v) {
        return out;
    }
    for (const auto& item : split(v, ',')) {
        uint64_t k = 0, last = 0;
        const auto dash = item.find('-');
        if (dash == std::string::npos && parse_u64(item, k) && k > 0) {
            out.push_back(k);
        } else if (dash != std::string::npos && parse_u64(item.substr(0, dash), k) &&
                   parse_u64(item.substr(dash + 1), last) && k > 0 && last >= k && last - k < 100000) {
            for (; k <= last; ++k) {
                out.push_back(k);
            }
        } else {
            std::fprintf(stderr, "hsa_sim: %s: ignoring '%s' (expected a positive count or a range k-m)\n",
                         name, item.c_str());
        }
    }
    return out;
}

} // namespace

void SimConfig::load_from_environment() {
    gpu_agent_count = 1;
    if (const char* v = env("HSA_SIM_GPU_AGENTS")) {
        uint64_t n = 0;
        if (parse_u64(v, n) && n >= 1 && n <= 8) {
            gpu_agent_count = static_cast<uint32_t>(n);
        } else {
            std::fprintf(stderr, "hsa_sim: HSA_SIM_GPU_AGENTS='%s' is not 1..8; using 1\n", v);
        }
    }
    device_memory_bytes = kDefaultDeviceMemoryBytes;
    if (const char* v = env("HSA_SIM_DEVICE_MEMORY")) {
        uint64_t bytes = 0;
        if (parse_bytes(v, bytes) && bytes >= 4096) {
            device_memory_bytes = bytes;
        } else {
            std::fprintf(stderr,
                         "hsa_sim: HSA_SIM_DEVICE_MEMORY='%s' is not a size of at least 4096 bytes (K/M/G "
                         "suffix allowed); using 16 GiB\n",
                         v);
        }
    }
    // The generation of the headers decides the default: ROCr 6.0+ allows several writer calls.
    multiple_writer_calls = HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2;
    if (const char* v = env("HSA_SIM_INTERCEPT_SEMANTICS")) {
        multiple_writer_calls = std::string(v) == "6";
    }
    const char* refuse = env("HSA_SIM_REFUSE_SYMBOL_ITERATION");
    refuse_symbol_iteration = refuse ? refuse : "";
    fail_d2h_ = parse_list("HSA_SIM_FAIL_D2H_COPY");
    fail_h2d_ = parse_list("HSA_SIM_FAIL_H2D_COPY");
    fail_d2d_ = parse_list("HSA_SIM_FAIL_D2D_COPY");
    fail_alloc_ = parse_list("HSA_SIM_FAIL_ALLOC");
    fail_queue_create_ = parse_list("HSA_SIM_FAIL_QUEUE_CREATE");
    fail_signal_create_ = parse_list("HSA_SIM_FAIL_SIGNAL_CREATE");
    d2h_count_ = 0;
    h2d_count_ = 0;
    d2d_count_ = 0;
    alloc_count_ = 0;
    queue_create_count_ = 0;
    signal_create_count_ = 0;
    fail_h2d_bytes_ = 0;
    fail_h2d_bytes_limit_ = 0;
    h2d_bytes_count_ = 0;
    if (const char* v = env("HSA_SIM_FAIL_H2D_COPY_BYTES")) {
        const std::string spec(v);
        const auto colon = spec.find(':');
        uint64_t bytes = 0, limit = 0;
        if (parse_u64(spec.substr(0, colon), bytes) && bytes > 0 &&
            (colon == std::string::npos || (parse_u64(spec.substr(colon + 1), limit) && limit > 0))) {
            fail_h2d_bytes_ = bytes;
            fail_h2d_bytes_limit_ = limit;
        } else {
            std::fprintf(stderr,
                         "hsa_sim: HSA_SIM_FAIL_H2D_COPY_BYTES: ignoring '%s' (expected BYTES or BYTES:N)\n",
                         v);
        }
    }
    fail_async_bytes_ = 0;
    fail_async_bytes_limit_ = 0;
    async_bytes_count_ = 0;
    if (const char* v = env("HSA_SIM_FAIL_ASYNC_COPY_BYTES")) {
        const std::string spec(v);
        const auto colon = spec.find(':');
        uint64_t bytes = 0, limit = 0;
        if (parse_u64(spec.substr(0, colon), bytes) && bytes > 0 &&
            (colon == std::string::npos || (parse_u64(spec.substr(colon + 1), limit) && limit > 0))) {
            fail_async_bytes_ = bytes;
            fail_async_bytes_limit_ = limit;
        } else {
            std::fprintf(
                stderr, "hsa_sim: HSA_SIM_FAIL_ASYNC_COPY_BYTES: ignoring '%s' (expected BYTES or BYTES:N)\n",
                v);
        }
    }
    const char* standins = env("HSA_SIM_STANDINS");
    executor = standins && *standins ? Executor::standin : Executor::isa;
    if (const char* v = env("HSA_SIM_EXECUTOR")) {
        if (std::string(v) == "isa") {
            executor = Executor::isa;
        } else if (std::string(v) == "standin") {
            executor = Executor::standin;
        } else {
            std::fprintf(stderr, "hsa_sim: HSA_SIM_EXECUTOR: ignoring '%s' (expected isa or standin)\n", v);
        }
    }
    aqlprofile = true;
    if (const char* v = env("HSA_SIM_NO_AQLPROFILE")) {
        if (std::string(v) == "1") {
            aqlprofile = false;
        } else if (std::string(v) != "0") {
            std::fprintf(stderr, "hsa_sim: HSA_SIM_NO_AQLPROFILE: ignoring '%s' (expected 0 or 1)\n", v);
        }
    }
    pointer_info_unknown_bytes = 0;
    if (const char* v = env("HSA_SIM_POINTER_INFO_UNKNOWN_BYTES")) {
        uint64_t bytes = 0;
        if (parse_u64(v, bytes) && bytes > 0) {
            pointer_info_unknown_bytes = bytes;
        } else {
            std::fprintf(stderr,
                         "hsa_sim: HSA_SIM_POINTER_INFO_UNKNOWN_BYTES: ignoring '%s' (expected BYTES)\n", v);
        }
    }
    const char* log = env("HSA_SIM_DISPATCH_LOG");
    dispatch_log_path = log ? log : "";
    const char* digest = env("HSA_SIM_DISPATCH_DIGEST");
    dispatch_digest_path = digest ? digest : "";
    kernel_times_.clear();
    if (const char* v = env("HSA_SIM_KERNEL_TIME_NS")) {
        for (const auto& item : split(v, ',')) {
            auto eq = item.rfind('=');
            uint64_t ns = 0;
            if (eq == std::string::npos || eq == 0 || !parse_u64(item.substr(eq + 1), ns)) {
                std::fprintf(stderr, "hsa_sim: HSA_SIM_KERNEL_TIME_NS: ignoring '%s' (expected NAME=NS)\n",
                             item.c_str());
                continue;
            }
            kernel_times_.emplace_back(item.substr(0, eq), ns);
        }
    }
}

bool SimConfig::hits(const std::vector<uint64_t>& list, std::atomic<uint64_t>& counter) {
    uint64_t n = counter.fetch_add(1, std::memory_order_relaxed) + 1;
    return std::find(list.begin(), list.end(), n) != list.end();
}

bool SimConfig::next_d2h_copy_fails() {
    return hits(fail_d2h_, d2h_count_);
}
bool SimConfig::next_h2d_copy_fails(uint64_t bytes) {
    const bool by_count = hits(fail_h2d_, h2d_count_);
    if (fail_h2d_bytes_ == 0 || bytes != fail_h2d_bytes_) {
        return by_count;
    }
    const uint64_t n = h2d_bytes_count_.fetch_add(1, std::memory_order_relaxed) + 1;
    return by_count || fail_h2d_bytes_limit_ == 0 || n <= fail_h2d_bytes_limit_;
}
bool SimConfig::next_async_copy_fails(uint64_t bytes) {
    if (fail_async_bytes_ == 0 || bytes != fail_async_bytes_) {
        return false;
    }
    const uint64_t n = async_bytes_count_.fetch_add(1, std::memory_order_relaxed) + 1;
    return fail_async_bytes_limit_ == 0 || n <= fail_async_bytes_limit_;
}
bool SimConfig::next_d2d_copy_fails() {
    return hits(fail_d2d_, d2d_count_);
}
bool SimConfig::next_allocation_fails() {
    return hits(fail_alloc_, alloc_count_);
}
bool SimConfig::next_queue_create_fails() {
    return hits(fail_queue_create_, queue_create_count_);
}
bool SimConfig::next_signal_create_fails() {
    return hits(fail_signal_create_, signal_create_count_);
}

uint64_t SimConfig::kernel_min_time_ns(const std::string& kernel_name) const {
    // A kernel is named with or without its descriptor's ".kd", on either side.
    auto bare = [](std::string_view n) {
        return n.size() > 3 && n.substr(n.size() - 3) == ".kd" ? n.substr(0, n.size() - 3) : n;
    };
    for (const auto& [name, ns] : kernel_times_) {
        if (name == "*" || bare(name) == bare(kernel_name)) {
            return ns;
        }
    }
    return 0;
}

bool SimConfig::refuses_symbol_iteration(const std::string& uri) const {
    if (refuse_symbol_iteration.empty()) {
        return false;
    }
    return refuse_symbol_iteration == "*" || uri.find(refuse_symbol_iteration) != std::string::npos;
}

} // namespace sim
