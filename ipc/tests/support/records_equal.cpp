// SPDX-License-Identifier: MIT
#include "records_equal.h"

#include <algorithm>
#include <cstring>

namespace rs::ipc {

bool records_equal(const Record& a, const Record& b) noexcept {
    if (a.type != b.type || a.sequence != b.sequence || a.timestamp_ns != b.timestamp_ns) {
        return false;
    }
    switch (a.type) {
    case EventType::hello:
        return std::memcmp(a.hello.token, b.hello.token, HelloRecord::kTokenBytes) == 0 &&
               a.hello.pid == b.hello.pid && a.hello.protocol_version == b.hello.protocol_version &&
               a.hello.ppid == b.hello.ppid && a.hello.instance == b.hello.instance;
    case EventType::session_start: {
        const auto &x = a.session_start, &y = b.session_start;
        return x.pid == y.pid && x.protocol_version == y.protocol_version &&
               x.wall_clock_ns == y.wall_clock_ns && x.executable == y.executable && x.argv == y.argv &&
               x.hostname == y.hostname && x.engine_version == y.engine_version &&
               x.configuration == y.configuration;
    }
    case EventType::string:
        return a.string.id == b.string.id && a.string.original_length == b.string.original_length &&
               a.string.view() == b.string.view();
    case EventType::agent: {
        const auto &x = a.agent, &y = b.agent;
        return x.handle == y.handle && x.name == y.name && x.isa == y.isa && x.device_type == y.device_type &&
               x.node == y.node;
    }
    case EventType::allocation: {
        const auto &x = a.allocation, &y = b.allocation;
        return x.id == y.id && x.address == y.address && x.size == y.size && x.agent == y.agent &&
               x.pool_flags == y.pool_flags && x.api == y.api && x.pointer_type == y.pointer_type &&
               x.classification == y.classification;
    }
    case EventType::free:
        return a.free.allocation_id == b.free.allocation_id && a.free.address == b.free.address;
    case EventType::executable_loaded: {
        const auto &x = a.executable, &y = b.executable;
        return x.executable == y.executable && x.code_object == y.code_object && x.agent == y.agent &&
               x.uri == y.uri;
    }
    case EventType::module_variable: {
        const auto &x = a.module_variable, &y = b.module_variable;
        return x.executable == y.executable && x.agent == y.agent && x.address == y.address &&
               x.size == y.size && x.symbol == y.symbol && x.status == y.status;
    }
    case EventType::dispatch: {
        const auto &x = a.dispatch, &y = b.dispatch;
        return x.id == y.id && x.agent == y.agent && x.queue == y.queue &&
               x.kernel_object == y.kernel_object && x.kernel_name == y.kernel_name &&
               std::equal(x.grid, x.grid + 3, y.grid) &&
               std::equal(x.workgroup, x.workgroup + 3, y.workgroup) && x.decision == y.decision;
    }
    case EventType::inventory: {
        const auto &x = a.inventory, &y = b.inventory;
        return x.agent == y.agent && x.generation == y.generation && x.bytes == y.bytes &&
               x.regions == y.regions;
    }
    case EventType::inventory_region: {
        const auto &x = a.inventory_region, &y = b.inventory_region;
        return x.agent == y.agent && x.generation == y.generation && x.address == y.address &&
               x.size == y.size && x.allocation_id == y.allocation_id && x.index == y.index &&
               x.kind == y.kind;
    }
    case EventType::snapshot: {
        const auto &x = a.snapshot, &y = b.snapshot;
        return x.dispatch_id == y.dispatch_id && x.agent == y.agent && x.generation == y.generation &&
               x.bytes == y.bytes && x.duration_ns == y.duration_ns && x.regions == y.regions &&
               x.failures == y.failures && x.ok == y.ok && x.host_bytes == y.host_bytes &&
               x.device_bytes == y.device_bytes && x.hash_ns == y.hash_ns &&
               x.total_chunks == y.total_chunks && x.store == y.store && x.hash_path == y.hash_path &&
               x.host_pinned == y.host_pinned && x.fence_wait_ns == y.fence_wait_ns;
    }
    case EventType::snapshot_placement: {
        const auto &x = a.snapshot_placement, &y = b.snapshot_placement;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.store == y.store;
    }
    case EventType::restore: {
        const auto &x = a.restore, &y = b.restore;
        return x.dispatch_id == y.dispatch_id && x.restored_bytes_host == y.restored_bytes_host &&
               x.restored_bytes_device == y.restored_bytes_device && x.hash_ns == y.hash_ns &&
               x.restore_ns == y.restore_ns && x.pass_index == y.pass_index &&
               x.regions_restored == y.regions_restored && x.dirty_chunks == y.dirty_chunks &&
               x.total_chunks == y.total_chunks && x.missed_chunks == y.missed_chunks &&
               x.final_restore == y.final_restore;
    }
    case EventType::restore_miss: {
        const auto &x = a.restore_miss, &y = b.restore_miss;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.pass_index == y.pass_index;
    }
    case EventType::counter_value: {
        const auto &x = a.counter_value, &y = b.counter_value;
        return x.dispatch_id == y.dispatch_id && x.value == y.value && x.pass_index == y.pass_index &&
               x.counter == y.counter;
    }
    case EventType::snapshot_failure: {
        const auto &x = a.snapshot_failure, &y = b.snapshot_failure;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.reason == y.reason;
    }
    case EventType::pass: {
        const auto &x = a.pass, &y = b.pass;
        return x.dispatch_id == y.dispatch_id && x.start_tick == y.start_tick && x.end_tick == y.end_tick &&
               x.restore_ns == y.restore_ns && x.bytes_restored == y.bytes_restored && x.index == y.index &&
               x.regions_restored == y.regions_restored && x.skips == y.skips && x.fidelity == y.fidelity;
    }
    case EventType::fidelity_mismatch: {
        const auto &x = a.fidelity_mismatch, &y = b.fidelity_mismatch;
        return x.dispatch_id == y.dispatch_id && x.pass_index == y.pass_index && x.address == y.address &&
               x.size == y.size && x.allocation_id == y.allocation_id;
    }
    case EventType::async_copy: {
        const auto &x = a.async_copy, &y = b.async_copy;
        return x.agent == y.agent && x.dst == y.dst && x.src == y.src && x.size == y.size &&
               x.dispatch_id == y.dispatch_id && x.waited_ns == y.waited_ns && x.outcome == y.outcome;
    }
    case EventType::restore_failure: {
        const auto &x = a.restore_failure, &y = b.restore_failure;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.pass_index == y.pass_index &&
               x.holds_pass_index == y.holds_pass_index && x.attempts == y.attempts && x.status == y.status &&
               x.kind == y.kind;
    }
    case EventType::restore_skip: {
        const auto &x = a.restore_skip, &y = b.restore_skip;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.pass_index == y.pass_index && x.reason == y.reason;
    }
    case EventType::warning:
        return a.warning.dispatch_id == b.warning.dispatch_id && a.warning.text == b.warning.text &&
               a.warning.code == b.warning.code;
    case EventType::session_end: {
        const auto &x = a.session_end, &y = b.session_end;
        return std::equal(x.counts, x.counts + kEventTypeSlots, y.counts) && x.spooled == y.spooled &&
               x.last_sequence == y.last_sequence && x.internal_errors == y.internal_errors &&
               x.exit_status == y.exit_status;
    }
    }
    return false;
}

} // namespace rs::ipc
