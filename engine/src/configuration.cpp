// SPDX-License-Identifier: MIT
#include "configuration.h"

#include "chunk_plan.h"

#include <replayscope/counters/catalogue.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace rs::engine {

namespace {

const char* get(const char* name) {
    const char* v = std::getenv(name);
    return (v && *v) ? v : nullptr;
}

bool parse_u64(const char* text, uint64_t& out) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-') {
        return false;
    }
    out = v;
    return true;
}

void read_u64(Configuration& c, const char* name, uint64_t& field) {
    if (const char* v = get(name)) {
        uint64_t parsed = 0;
        if (parse_u64(v, parsed)) {
            field = parsed;
        } else {
            c.problems.push_back(std::string(name) + "='" + v + "' is not a non-negative integer; ignored");
        }
    }
}

void read_regex(Configuration& c, const char* name, std::optional<std::regex>& field, std::string& text) {
    if (const char* v = get(name)) {
        try {
            field.emplace(v, std::regex::ECMAScript);
            text = v;
        } catch (const std::regex_error& e) {
            c.problems.push_back(std::string(name) + "='" + v + "' is not a valid regex (" + e.what() +
                                 "); ignored");
        }
    }
}

/// Strict choice among `names` (exact match); anything else keeps the default and is a problem.
template <typename E, size_t N>
void read_choice(Configuration& c, const char* name, E& field, const E (&values)[N]) {
    const char* v = get(name);
    if (!v) {
        return;
    }
    std::string allowed;
    for (E e : values) {
        if (std::string(v) == option_name(e)) {
            field = e;
            return;
        }
        allowed += (allowed.empty() ? "" : "|") + std::string(option_name(e));
    }
    c.problems.push_back(std::string(name) + "='" + v + "' is not one of " + allowed + "; ignored");
}

} // namespace

const char* option_name(SnapshotStoreMode m) noexcept {
    switch (m) {
    case SnapshotStoreMode::auto_:
        return "auto";
    case SnapshotStoreMode::host:
        return "host";
    case SnapshotStoreMode::device:
        return "device";
    }
    return "auto";
}

const char* option_name(RestoreMode m) noexcept {
    switch (m) {
    case RestoreMode::full:
        return "full";
    case RestoreMode::dirty:
        return "dirty";
    case RestoreMode::dirty_host:
        return "dirty-host";
    }
    return "dirty";
}

Configuration Configuration::from_environment() {
    Configuration c;
    uint64_t passes = c.passes;
    read_u64(c, env::kPasses, passes);
    c.passes = static_cast<uint32_t>(passes > 1000 ? 1000 : passes);
    read_regex(c, env::kKernelIncludeRegex, c.kernel_include, c.kernel_include_text);
    read_regex(c, env::kKernelExcludeRegex, c.kernel_exclude, c.kernel_exclude_text);
    read_u64(c, env::kDispatchSkip, c.dispatch_skip);
    read_u64(c, env::kDispatchCount, c.dispatch_count);
    if (const char* v = get(env::kKernelIterationRange)) {
        if (std::string problem; !ipc::parse_iteration_ranges(v, c.iteration_ranges, problem)) {
            c.problems.push_back(std::string(env::kKernelIterationRange) + ": " + problem +
                                 "; ignored (every iteration is replayed)");
        }
    }
    read_u64(c, env::kHostMemoryBudget, c.host_memory_budget);
    read_choice(c, env::kSnapshotStore, c.snapshot_store,
                {SnapshotStoreMode::auto_, SnapshotStoreMode::host, SnapshotStoreMode::device});
    read_u64(c, env::kDeviceStoreReserve, c.device_store_reserve);
    read_choice(c, env::kRestore, c.restore,
                {RestoreMode::full, RestoreMode::dirty, RestoreMode::dirty_host});
    if (const char* v = get(env::kRestoreChunkSize)) {
        uint64_t parsed = 0;
        if (parse_u64(v, parsed) && valid_chunk_size(parsed)) {
            c.chunk_size = parsed;
        } else {
            c.problems.push_back(std::string(env::kRestoreChunkSize) + "='" + v +
                                 "' is not a power of two from 4096 to 1073741824 bytes; ignored");
        }
    }
    if (const char* v = get(env::kAgentFilter)) {
        std::stringstream ss(v);
        std::string item;
        while (std::getline(ss, item, ',')) {
            if (!item.empty()) {
                c.agent_filter.push_back(item);
            }
        }
    }
    if (const char* v = get(env::kFidelityCheck)) {
        c.fidelity_check = std::string(v) == "1";
    }
    read_u64(c, env::kFidelityUnrestorableBudget, c.fidelity_unrestorable_budget);
    if (const char* v = get(env::kTrackVmem)) {
        if (std::string(v) == "0" || std::string(v) == "1") {
            c.track_vmem = std::string(v) == "1";
        } else {
            c.problems.push_back(std::string(env::kTrackVmem) + "='" + v + "' is not 0 or 1; ignored");
        }
    }
    if (const char* v = get(env::kPmc)) {
        for (auto& line : counters::decode_request(v)) {
            std::vector<std::string> known;
            for (auto& name : line) {
                if (counters::find_counter(name)) {
                    known.push_back(std::move(name));
                } else {
                    c.problems.push_back(std::string(env::kPmc) + ": unknown counter '" + name +
                                         "'; ignored");
                }
            }
            if (!known.empty()) {
                c.counters.push_back(std::move(known));
            }
        }
    }
    if (const char* v = get(env::kLog)) {
        c.log = std::string(v) == "1";
    }
    uint64_t ms = static_cast<uint64_t>(c.drain_timeout.count());
    read_u64(c, env::kDrainTimeoutMs, ms);
    c.drain_timeout = std::chrono::milliseconds(ms);
    ms = static_cast<uint64_t>(c.pass_timeout.count());
    read_u64(c, env::kPassTimeoutMs, ms);
    c.pass_timeout = std::chrono::milliseconds(ms);
    return c;
}

bool Configuration::kernel_selected(const std::string& name, const std::string& shown) const {
    const auto matches = [&](const std::regex& re) {
        return std::regex_search(name, re) || (shown != name && std::regex_search(shown, re));
    };
    if (kernel_include && !matches(*kernel_include)) {
        return false;
    }
    if (kernel_exclude && matches(*kernel_exclude)) {
        return false;
    }
    return true;
}

bool Configuration::dispatch_selected(uint64_t n) const {
    if (n < dispatch_skip) {
        return false;
    }
    return dispatch_count == 0 || n - dispatch_skip < dispatch_count;
}

bool Configuration::agent_selected(uint32_t gpu_index, const std::string& name) const {
    if (agent_filter.empty()) {
        return true;
    }
    for (const auto& f : agent_filter) {
        if (f == std::to_string(gpu_index) || f == name) {
            return true;
        }
    }
    return false;
}

std::string Configuration::describe() const {
    // What a user chose first, the defaults they rarely change last: a session keeps the first
    // ipc::kMaxStringBytes bytes of this text, and a long regex or counter list must not push the passes,
    // the counters or the fidelity check out of it (the inspector marks a cut text).
    std::ostringstream out;
    out << env::kPasses << '=' << passes << '\n';
    if (!kernel_include_text.empty()) {
        out << env::kKernelIncludeRegex << '=' << kernel_include_text << '\n';
    }
    if (!kernel_exclude_text.empty()) {
        out << env::kKernelExcludeRegex << '=' << kernel_exclude_text << '\n';
    }
    if (!iteration_ranges.empty()) {
        out << env::kKernelIterationRange << '=' << ipc::format_iteration_ranges(iteration_ranges) << '\n';
    }
    if (!counters.empty()) {
        out << env::kPmc << '=' << counters::encode_request(counters) << '\n';
    }
    out << env::kFidelityCheck << '=' << (fidelity_check ? 1 : 0) << '\n';
    if (fidelity_check) {
        out << env::kFidelityUnrestorableBudget << '=' << fidelity_unrestorable_budget << '\n';
    }
    if (!agent_filter.empty()) {
        out << env::kAgentFilter << '=';
        for (size_t i = 0; i < agent_filter.size(); ++i) {
            out << (i ? "," : "") << agent_filter[i];
        }
        out << '\n';
    }
    out << env::kHostMemoryBudget << '=' << host_memory_budget << '\n';
    out << env::kDispatchSkip << '=' << dispatch_skip << '\n';
    out << env::kDispatchCount << '=' << dispatch_count << '\n';
    out << env::kSnapshotStore << '=' << option_name(snapshot_store) << '\n';
    out << env::kDeviceStoreReserve << '=' << device_store_reserve << '\n';
    out << env::kRestore << '=' << option_name(restore) << '\n';
    out << env::kRestoreChunkSize << '=' << chunk_size << '\n';
    if (!track_vmem) {
        out << env::kTrackVmem << "=0\n";
    }
    out << env::kDrainTimeoutMs << '=' << drain_timeout.count() << '\n';
    out << env::kPassTimeoutMs << '=' << pass_timeout.count() << '\n';
    return out.str();
}

} // namespace rs::engine
