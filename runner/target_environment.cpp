// SPDX-License-Identifier: MIT
#include "target_environment.h"

#include "replayscope/ipc/environment.h"

extern char** environ;

namespace rs::runner {

namespace {
bool starts_with(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}
} // namespace

TargetEnvironment::TargetEnvironment() {
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string entry(*e);
        const bool passed_through = starts_with(entry, std::string(rs::ipc::env::kLog) + "=") ||
                                    starts_with(entry, std::string(rs::ipc::env::kDrainTimeoutMs) + "=") ||
                                    starts_with(entry, std::string(rs::ipc::env::kPassTimeoutMs) + "=");
        if (!passed_through &&
            (starts_with(entry, rs::ipc::env::kPrefix) || starts_with(entry, "HSA_TOOLS_LIB=") ||
             starts_with(entry, "HSA_TOOLS_ROCPROFILER_V1_TOOLS="))) {
            continue; // stale settings of an outer session never leak into this one
        }
        entries_.push_back(entry);
    }
}

void TargetEnvironment::set(const std::string& name, const std::string& value) {
    const std::string prefix = name + "=";
    for (auto& entry : entries_) {
        if (starts_with(entry, prefix)) {
            entry = prefix + value;
            return;
        }
    }
    entries_.push_back(prefix + value);
}

std::optional<std::string> TargetEnvironment::get(const std::string& name) const {
    const std::string prefix = name + "=";
    for (const auto& entry : entries_) {
        if (starts_with(entry, prefix)) {
            return entry.substr(prefix.size());
        }
    }
    return std::nullopt;
}

void TargetEnvironment::prepend(const std::string& name, const std::string& entry) {
    const auto current = get(name);
    set(name, current && !current->empty() ? entry + ":" + *current : entry);
}

void TargetEnvironment::set_replay_options(const ReplayOptions& o) {
    namespace env = rs::ipc::env;
    set(env::kPasses, std::to_string(o.passes));
    if (!o.kernel_include_regex.empty()) {
        set(env::kKernelIncludeRegex, o.kernel_include_regex);
    }
    if (!o.kernel_exclude_regex.empty()) {
        set(env::kKernelExcludeRegex, o.kernel_exclude_regex);
    }
    set(env::kDispatchSkip, std::to_string(o.dispatch_skip));
    set(env::kDispatchCount, std::to_string(o.dispatch_count));
    if (!o.iteration_ranges.empty()) {
        set(env::kKernelIterationRange, rs::ipc::format_iteration_ranges(o.iteration_ranges));
    }
    if (!o.agent_filter.empty()) {
        set(env::kAgentFilter, o.agent_filter);
    }
    set(env::kHostMemoryBudget, std::to_string(o.host_memory_budget));
    set(env::kFidelityCheck, o.fidelity_check ? "1" : "0");
    if (o.fidelity_unrestorable_budget) {
        set(env::kFidelityUnrestorableBudget, std::to_string(*o.fidelity_unrestorable_budget));
    }
    if (!o.track_vmem) {
        set(env::kTrackVmem, "0");
    }
    if (o.drain_timeout_ms) {
        set(env::kDrainTimeoutMs, std::to_string(*o.drain_timeout_ms));
    }
    if (o.pass_timeout_ms) {
        set(env::kPassTimeoutMs, std::to_string(*o.pass_timeout_ms));
    }
    set(env::kSnapshotStore, o.snapshot_store);
    set(env::kRestore, o.restore);
    if (o.device_store_reserve) {
        set(env::kDeviceStoreReserve, std::to_string(*o.device_store_reserve));
    }
    if (o.restore_chunk_size) {
        set(env::kRestoreChunkSize, std::to_string(*o.restore_chunk_size));
    }
    if (!o.counters.empty()) {
        set(env::kPmc, rs::counters::encode_request(o.counters));
    }
}

std::string TargetEnvironment::describe_replay_options() const {
    std::string text;
    for (const auto& entry : entries_) {
        if (starts_with(entry, rs::ipc::env::kPrefix) &&
            !starts_with(entry, std::string(rs::ipc::env::kToken) + "=")) {
            text += entry + "\n";
        }
    }
    return text;
}

} // namespace rs::runner
